#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the demo: a short, real tracing session on a kernel
# function that takes a user string, by variable name, with perf probe
# choosing the user read from DWARF; then the same string read as kernel
# memory, which the strict mode turns into a fault.
# shellcheck source=lib.sh
. /payload/guest/lib.sh

say() { printf '\n== %s\n' "$*"; }
show() { # command...: print it as typed, then run it
	printf '$ %s\n' "$*"
	"$@" 2>&1
}

reset_probes
cd /tmp || exit 1
printf 'demo file\n' >/tmp/hello.txt
mkdir -p /tmp/dir

say "kernel $(uname -r); perf probe reads its DWARF from /boot/vmlinux-$(uname -r)"
show perf probe -V do_sys_openat2 | head -n 8

say "a probe on do_sys_openat2 that records 'filename', a const char __user *:"
echo "perf probe sees __user in the DWARF and picks a user read (+u0) by itself"
show perf probe -v -D 'do_sys_openat2 filename:string' 2>&1 | grep -E 'dereference|^p:'
show perf probe -a 'do_sys_openat2 filename:string'
show cat /sys/kernel/tracing/kprobe_events

say "record a few commands that open files"
printf 'cat /tmp/hello.txt\nls /tmp/dir\nhead -n 1 /etc/os-release\n' >/tmp/workload.sh
show cat /tmp/workload.sh
show perf record -q -e probe:do_sys_openat2 -o /tmp/demo.data -- sh /tmp/workload.sh

say "what perf script shows"
perf script -i /tmp/demo.data >/tmp/demo.script 2>&1
grep -E 'hello.txt|/tmp/dir|os-release' /tmp/demo.script
echo

say "the same pointer read as kernel memory, which is what stock perf defines"
echo "the guest runs in strict mode, so x86 no longer turns the kernel read into a user read:"
show cat /proc/sys/kernel/trace_probe_strict_uaccess
show perf probe -q -a 'kread=do_sys_openat2 filename:string@kernel'
show perf record -q -e probe:kread -o /tmp/kread.data -- cat /tmp/hello.txt
perf script -i /tmp/kread.data >/tmp/kread.script 2>&1
grep -E '^ *cat ' /tmp/kread.script
echo

expect_grep "perf probe chose a user read for filename" \
	'^p:probe/do_sys_openat2 .*filename_string=\+u0\(' /sys/kernel/tracing/kprobe_events
expect_grep "the recorded strings include /tmp/hello.txt" \
	'filename_string="/tmp/hello.txt"' /tmp/demo.script
expect_grep "the recorded strings include /etc/os-release" \
	'filename_string="/etc/os-release"' /tmp/demo.script
# A string the kernel could not read is "(fault)", in perf script as in
# the trace file: never the path, never bytes that were not recorded.
if grep -q '^ *cat ' /tmp/kread.script &&
	! grep -E '^ *cat ' /tmp/kread.script | grep -qv 'filename_string=(fault)$'; then
	pass "a kernel read of the user string records a fault in strict mode: perf script says (fault)"
else
	fail "a kernel read of the user string records a fault in strict mode: perf script says (fault)"
	diag </tmp/kread.script
fi
reset_probes
exit 0
