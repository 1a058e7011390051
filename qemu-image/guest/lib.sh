# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests (qemu-image/tests/*.sh).  Sourced.
# TAP comes from the project's one test library (scripts/tap.sh, copied
# to the payload as guest/tap.sh): guest/run exports the stream's state,
# so the numbering runs on across tests, and the test's name as the
# prefix of every description.
# shellcheck shell=sh
# shellcheck source=../../scripts/tap.sh
. /payload/guest/tap.sh

pass() { tap_ok "$@"; }
fail() { tap_not_ok "$@"; }
skip() { tap_skip "$1" "$2"; }
diag() { tap_diag; }

# expect_grep DESC PATTERN FILE: pass if FILE has a line matching PATTERN
# (grep -E), otherwise fail and show FILE.
expect_grep() {
	if grep -Eq -- "$2" "$3"; then
		pass "$1"
	else
		fail "$1"
		echo "expected a line matching: $2" | diag
		diag <"$3"
	fi
}

# run_cmd LOG CMD...: run CMD, show it and its output, keep the output in LOG.
run_cmd() {
	_log=$1
	shift
	echo "\$ $*" | diag
	"$@" >"$_log" 2>&1
	_rc=$?
	diag <"$_log"
	return $_rc
}

# A clean slate for probe events: no probes, tracing off.
reset_probes() {
	perf probe -q -d '*' >/dev/null 2>&1
	echo 0 >/sys/kernel/tracing/tracing_on 2>/dev/null
	echo >/sys/kernel/tracing/trace 2>/dev/null
	echo 1 >/sys/kernel/tracing/tracing_on 2>/dev/null
}

# The probe helpers: a test defines probes, records a workload and checks
# what perf script shows.  PROBE_OPTS goes to every perf probe (for
# example "-m test_probe_user").  Sourcing this file arms a trap that
# removes every probe when the test exits, also when the runner's time
# out stops it, so that the next test starts clean.
PROBE_OPTS=${PROBE_OPTS:-}
trap 'reset_probes' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# probe SPEC PATTERN WHAT: the definition perf probe -D makes for SPEC must
# match PATTERN (grep -E): it reads WHAT; then add the probe for real.
probe() {
	# shellcheck disable=SC2086 # PROBE_OPTS is a list of options
	if perf probe -q $PROBE_OPTS -D "$1" >/tmp/def.out 2>&1 &&
		grep -Eq -- "$2" /tmp/def.out; then
		pass "perf probe -D '$1' reads $3"
	else
		fail "perf probe -D '$1' reads $3"
		echo "expected a definition matching: $2" | diag
		diag </tmp/def.out
	fi
	# shellcheck disable=SC2086
	run_cmd /tmp/add.out perf probe -q $PROBE_OPTS -a "$1" ||
		fail "perf probe $PROBE_OPTS -a '$1'"
}

# record EVENT COMMAND...: perf record EVENT while COMMAND runs; perf
# script's output goes to /tmp/script.out (and to the diagnostics).
record() {
	_ev=$1
	shift
	run_cmd /tmp/record.out perf record -q -e "$_ev" -o /tmp/perf.data -- "$@" ||
		fail "perf record -e $_ev -- $*"
	perf script -i /tmp/perf.data >/tmp/script.out 2>&1
	diag </tmp/script.out
}

# user_tags_on, user_tags_off: the tagged build of Debian's kernel
# (/payload/user-tags, KCC=debian) where perf probe looks for it, by the
# kernel's build-id, or not.
# A module's (user-tags/.modules/NAME) goes by the module's build-id.
user_tags_on() {
	mkdir -p "$HOME/.debug/.user-tags"
	for _d in /payload/user-tags /payload/user-tags/.modules/*; do
		[ -f "$_d/build-id" ] &&
			ln -sfn "$_d" "$HOME/.debug/.user-tags/$(cat "$_d/build-id")"
	done
}
user_tags_off() {
	for _d in /payload/user-tags /payload/user-tags/.modules/*; do
		[ -f "$_d/build-id" ] && rm -f "$HOME/.debug/.user-tags/$(cat "$_d/build-id")"
	done
}

# check DESC PATTERN: what perf script showed has a line matching PATTERN.
check() {
	expect_grep "$1" "$2" /tmp/script.out
}
