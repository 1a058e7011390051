#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf probe picks user or kernel reads from DWARF __user,
# with plain variable names and no @user: a user string, a member
# through a user pointer, and a kernel struct holding both a kernel and
# a user string pointer.  The values must show up in perf script.
# requires: kprobe_events
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1
file=/tmp/uaccess-probe-auto.txt
echo hello >"$file"

reset_probes
probe 'do_sys_openat2 filename:string' \
	'filename_string=\+u0\(%[a-z0-9]+\):string' "filename with a user read"
record probe:do_sys_openat2 cat "$file"
check "do_sys_openat2 filename:string records the opened path" \
	"cat .*filename_string=\"$file\""

reset_probes
probe 'do_sched_setscheduler param->sched_priority' \
	'sched_priority=\+u0\(%[a-z0-9]+\):s32' "param->sched_priority with a user read"
record probe:do_sched_setscheduler chrt -f 42 true
check "do_sched_setscheduler param->sched_priority records the priority chrt sets" \
	'chrt .*sched_priority=42( |$)'

reset_probes
probe 'do_filp_open pathname->uptr:string pathname->name:string' \
	'uptr=\+u0\(\+8\(%[a-z0-9]+\)\):string name=\+0\(\+0\(%[a-z0-9]+\)\):string' \
	"uptr with a kernel then a user read, name with two kernel reads"
record probe:do_filp_open cat "$file"
check "do_filp_open pathname->uptr:string and pathname->name:string both record the path" \
	"cat .*uptr=\"$file\" name=\"$file\""

reset_probes
exit 0
