#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf's own shell tests of perf probe, run by 'perf test' on
# the running kernel: the series' probe_definitions.sh (the fixes) and
# probe_user_memory.sh (the __user choice), and perf's vfs_getname tests
# (whose result->name:string must stay a kernel read).
# One TAP line per test; a failure listed in known-failures.txt (as
# perf-test/SCRIPT) is a skip with its reason.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

known=/payload/known-failures.txt
# perf test finds its shell tests in $PERF_EXEC_PATH/tests/shell.
PERF_EXEC_PATH=/payload/perf-core
export PERF_EXEC_PATH
shell=$PERF_EXEC_PATH/tests/shell

# The series' own tests must run here: the kernels have their debuginfo
# and __user tags.
ours="probe_definitions.sh probe_user_memory.sh"
for t in $ours probe_vfs_getname.sh record+script_probe_vfs_getname.sh; do
	if [ ! -f "$shell/$t" ]; then
		fail "perf-test/$t: not in the payload ($shell)"
		continue
	fi
	# perf test names a shell test by its line 2
	desc=$(sed -n '2s/^# *//p' "$shell/$t")
	perf test -v "$desc" >/tmp/perf-test.out 2>&1
	diag </tmp/perf-test.out
	result=$(grep -F "$desc" /tmp/perf-test.out | sed -n 's/.*: *\(Ok\|FAILED!\|Skip.*\)$/\1/p' | tail -n 1)
	reason=$(awk -v t="perf-test/$t" '$1 == t { $1 = ""; sub(/^ /, ""); print }' "$known")
	case $result in
	Ok) pass "perf-test/$t: $desc" ;;
	Skip*)
		case " $ours " in
		*" $t "*) fail "perf-test/$t: skipped, but this kernel has its debuginfo and __user tags" ;;
		*) skip "perf-test/$t" "$result" ;;
		esac
		;;
	*)
		if [ -n "$reason" ]; then
			skip "perf-test/$t" "known failure (${result:-no result}): $reason"
		else
			fail "perf-test/$t: $desc: ${result:-no result line}"
		fi
		;;
	esac
done
reset_probes
exit 0
