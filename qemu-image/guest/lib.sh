# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest tests (qemu-image/tests/*.sh).  Sourced.
# Each test prints TAP lines without numbers; guest/run numbers them.
# shellcheck shell=sh

pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "ok - $1 # SKIP $2"; }
diag() { sed 's/^/#   /'; }

# expect_grep DESC PATTERN FILE: pass if FILE has a line matching PATTERN
# (grep -E), otherwise fail and show FILE.
expect_grep() {
	if grep -Eq -- "$2" "$3"; then
		pass "$1"
	else
		fail "$1"
		echo "#   expected a line matching: $2"
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
