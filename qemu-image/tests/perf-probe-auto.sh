#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf probe picks user or kernel reads from DWARF __user,
# with plain variable names and no @user: a user string, a member
# through a user pointer, and a kernel struct holding both a kernel and
# a user string pointer.  The values must show up in perf script.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1
file=/tmp/uaccess-probe-auto.txt
echo hello >"$file"

# probe SPEC PATTERN: the kprobe definition perf probe -D makes for SPEC
# must match PATTERN (grep -E); then add the probe for real.
probe() {
	if perf probe -q -D "$1" >/tmp/def.out 2>&1 && grep -Eq -- "$2" /tmp/def.out; then
		pass "perf probe -D '$1' reads $3"
	else
		fail "perf probe -D '$1' reads $3"
		echo "#   expected a definition matching: $2"
		diag </tmp/def.out
	fi
	run_cmd /tmp/add.out perf probe -q -a "$1" || fail "perf probe -a '$1'"
}

# record EVENT COMMAND...: perf record COMMAND, perf script into /tmp/script.out
record() {
	ev=$1
	shift
	run_cmd /tmp/record.out perf record -q -e "$ev" -o /tmp/perf.data -- "$@" ||
		fail "perf record -e $ev -- $*"
	perf script -i /tmp/perf.data >/tmp/script.out 2>&1
	diag </tmp/script.out
}

reset_probes
probe 'do_sys_openat2 filename:string' \
	'filename_string=\+u0\(%[a-z0-9]+\):string' "filename with a user read"
record probe:do_sys_openat2 cat "$file"
expect_grep "do_sys_openat2 filename:string records the opened path" \
	"cat .*filename_string=\"$file\"" /tmp/script.out

reset_probes
probe 'do_sched_setscheduler param->sched_priority' \
	'sched_priority=\+u0\(%[a-z0-9]+\):s32' "param->sched_priority with a user read"
record probe:do_sched_setscheduler chrt -f 42 true
expect_grep "do_sched_setscheduler param->sched_priority records the priority chrt sets" \
	'chrt .*sched_priority=42( |$)' /tmp/script.out

reset_probes
probe 'do_filp_open pathname->uptr:string pathname->name:string' \
	'uptr=\+u0\(\+8\(%[a-z0-9]+\)\):string name=\+0\(\+0\(%[a-z0-9]+\)\):string' \
	"uptr with a kernel then a user read, name with two kernel reads"
record probe:do_filp_open cat "$file"
expect_grep "do_filp_open pathname->uptr:string and pathname->name:string both record the path" \
	"cat .*uptr=\"$file\" name=\"$file\"" /tmp/script.out

reset_probes
exit 0
