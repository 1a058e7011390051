#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The runner's own tests: a guest that hangs and a guest that panics must
# both fail, with the console log's path and its last lines, and within
# the time out.  TAP on stdout (scripts/tap.sh).
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

expect_failure hang 40 "timed out after 40s"
expect_failure panic 300 "guest ended without its end marker"
tap_done
