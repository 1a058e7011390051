#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The runner's own tests: a guest that hangs and a guest that panics must
# both fail, with the console log's path and its last lines, and within
# the time out; settings of the fuzz mode that make no sense are refused
# before anything boots.  TAP on stdout (scripts/tap.sh).
set -u
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

tap_begin
expect_failure() { # mode timeout what-the-error-says
	t0=$(date +%s)
	VM_TIMEOUT=$2 sh "$here/run.sh" "$1" >"$BUILD/selftest-$1.out" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	if [ "$rc" -ne 0 ] && grep -q "$3" "$BUILD/selftest-$1.out" &&
		grep -q '^console log: ' "$BUILD/selftest-$1.out" &&
		grep -q '^last console lines:' "$BUILD/selftest-$1.out"; then
		tap_ok "runner: a guest that does '$1' fails with its log (${took}s)"
	else
		tap_not_ok "runner: a guest that does '$1' fails with its log (exit $rc, ${took}s)"
		tap_diag <"$BUILD/selftest-$1.out"
	fi
}

# refused DESC WANT VAR=VALUE...: run.sh fuzz with these settings stops
# before it boots anything, saying WANT.
refused() {
	_desc=$1 _want=$2
	shift 2
	env "$@" sh "$here/run.sh" fuzz >"$BUILD/selftest-refused.out" 2>&1
	_rc=$?
	if [ "$_rc" -ne 0 ] && grep -qF "$_want" "$BUILD/selftest-refused.out" &&
		! grep -q 'QEMU ' "$BUILD/selftest-refused.out"; then
		tap_ok "runner: $_desc is refused before the guest boots"
	else
		tap_not_ok "runner: $_desc is refused before the guest boots (exit $_rc)"
		tap_diag <"$BUILD/selftest-refused.out"
	fi
}

expect_failure hang 40 "timed out after 40s"
expect_failure panic 300 "guest ended without its end marker"
refused "a campaign's length that is not a number" "FUZZ_SECONDS=ten: a number" \
	FUZZ_SECONDS=ten
refused "a target that is not a number" "FUZZ_ACCEPTED=1e4: a number" \
	FUZZ_ACCEPTED=1e4
refused "a campaign whose end comes before its length" \
	"FUZZ_MAX_SECONDS=60: less than FUZZ_SECONDS=120" FUZZ_SECONDS=120 FUZZ_MAX_SECONDS=60
refused "an unknown kernel variant" "unsupported KCC=stockdebug" KCC=stockdebug
tap_done
