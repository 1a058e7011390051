#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf probe -m test_probe_user with plain variable names on
# every pointer shape of the probe-target module (lib/test_probe_user.c),
# in strict user-memory mode, so that a wrong user/kernel choice records
# a fault instead of the value.  The expected values are those the
# module's header comment lists for the string written to its trigger.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

mod=test_probe_user
run=/sys/kernel/debug/$mod/run
strict=/proc/sys/kernel/trace_probe_strict_uaccess
str=uaccess-probe-module
len=$(printf '0x%x' ${#str}) # perf records size_t in hex

cd /tmp || exit 1
if ! run_cmd /tmp/modprobe.out modprobe "$mod" || [ ! -w "$run" ]; then
	fail "modprobe $mod gives $run"
	exit 0
fi
pass "modprobe $mod gives $run"
old_strict=$(cat "$strict")
echo 1 >"$strict"

# The library's probe SPEC PATTERN WHAT, on the module's functions
PROBE_OPTS="-m $mod"

# trigger: perf record every probe while a shell writes $str to the
# trigger; the samples go to /tmp/script.out, the shell's PID to $pid.
trigger() {
	run_cmd /tmp/record.out perf record -q -e 'probe:probe_user_*' \
		-o /tmp/perf.data -- sh -c "echo \$\$ >/tmp/writer.pid; echo $str >$run" ||
		fail "perf record while writing $run"
	perf script -i /tmp/perf.data >/tmp/script.out 2>&1
	diag </tmp/script.out
	pid=$(cat /tmp/writer.pid)
}

# sample FUNC: the perf script line of FUNC's probe, from its first
# argument on (perf script adds the function's address in parentheses).
sample() {
	sed -n "s/^.* probe:$1: ([^)]*) //p" /tmp/script.out | head -n 1
}

# expect FUNC ARGUMENTS WHAT: FUNC's sample must show exactly ARGUMENTS.
expect() {
	got=$(sample "$1")
	if [ "$got" = "$2" ]; then
		pass "$1 records $3"
	else
		fail "$1 records $3"
		echo "expected: $2" | diag
		echo "recorded: ${got:-no sample}" | diag
	fi
}

reset_probes
user='\+u[0-9]+'
kern='\+[0-9]+'
reg='%[a-z0-9]+'
probe 'probe_user_string path:string' \
	"path_string=${user}\\($reg\\):string" "a user string"
probe 'probe_user_struct pt->x pt->y pt->z pt->mode' \
	"x=${user}\\($reg\\):s32 y=${user}\\($reg\\):s32 z=${user}\\($reg\\):s64 mode=${user}\\($reg\\):b7@[0-9]+/[0-9]+" \
	"members and a bit field through a user pointer"
probe 'probe_user_argv a0=argv[0]:string a1=argv[1]:string' \
	"a0=${user}\\(${user}\\($reg\\)\\):string a1=${user}\\(${user}\\($reg\\)\\):string" \
	"user strings from a user array"
probe 'probe_user_kstruct kb->kname:string kb->uname:string kb->len' \
	"kname=${kern}\\(${kern}\\($reg\\)\\):string uname=${user}\\(${kern}\\($reg\\)\\):string len=${kern}\\($reg\\):x64" \
	"a kernel and a user string from a kernel struct"
probe 'probe_user_kstring name:string' \
	"name_string=${kern}\\($reg\\):string" "a kernel string"
probe 'probe_user_span span->buf:string span->len' \
	"buf=${user}\\(${kern}\\($reg\\)\\):string len=${kern}\\($reg\\):x64" \
	"a user string from a struct on the stack"
probe 'probe_user_cap_header header->version header->pid' \
	"version=${user}\\($reg\\):x32 pid=${user}\\($reg\\):s32" \
	"members through a typedef'd user pointer"
probe 'probe_user_buffer len' "len=$reg:x64" "a length next to a void __user buffer"

trigger
expect probe_user_string "path_string=\"$str\"" "the user string"
expect probe_user_struct "x=-7 y=42 z=1099511627776 mode=99" "the user struct's members"
expect probe_user_argv "a0=\"probe-user\" a1=\"$str\"" "both user strings"
expect probe_user_kstruct "kname=\"kernel-name\" uname=\"$str\" len=$len" \
	"the kernel string, the user string and the length"
expect probe_user_kstring "name_string=\"$str\"" "the kernel string"
expect probe_user_span "buf=\"$str\" len=$len" "the user string and its length"
expect probe_user_cap_header "version=0x20080522 pid=$pid" \
	"_LINUX_CAPABILITY_VERSION_3 and the writer's PID"
expect probe_user_buffer "len=$len" "the buffer's length"

# A string cast of the void __user buffer has no type to read: perf must
# say so, and name the argument.
if perf probe -m "$mod" -D 'probe_user_buffer buf:string' >/tmp/def.out 2>&1; then
	fail "perf probe refuses a string cast of a void __user pointer"
	diag </tmp/def.out
else
	expect_grep "perf probe refuses a string cast of a void __user pointer" \
		'buf' /tmp/def.out
fi

# The negative control: forcing kernel reads of the user string must not
# record it in strict mode, or the checks above could not fail.  The
# kernel marks the string it could not read as empty, which the trace
# file shows as "(fault)"; perf script shows whatever bytes the event's
# string area holds, so only "not the string" can be asserted.
reset_probes
probe 'probe_user_string path:string@kernel' \
	"path_string=${kern}\\($reg\\):string" "kernel memory when told to (@kernel)"
trigger
got=$(sample probe_user_string)
if [ -n "$got" ] && [ "$got" != "path_string=\"$str\"" ]; then
	pass "probe_user_string does not record the user string through a kernel read"
else
	fail "probe_user_string does not record the user string through a kernel read"
	echo "recorded: ${got:-no sample}" | diag
fi

reset_probes
echo "$old_strict" >"$strict"
rmmod "$mod" || fail "rmmod $mod"
exit 0
