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
	echo "# \$ $*"
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
