#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a string that a probe could not read (a user string read
# as kernel memory, in strict mode) is "(fault)" in perf script, as in the
# trace file, and never bytes that were not recorded; a string that was
# read is printed as before.
# requires: kprobe_events /proc/sys/kernel/trace_probe_strict_uaccess
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

reset_probes
strict=/proc/sys/kernel/trace_probe_strict_uaccess
old=$(cat "$strict")
echo 1 >"$strict"
file=/tmp/uaccess-probe-fault.txt
echo hello >"$file"
cd /tmp || exit 1

# kread reads the user string as kernel memory: a fault in strict mode.
# uread reads it as perf probe chooses, from user memory.
if run_cmd /tmp/add.log perf probe -a 'kread=do_sys_openat2 filename:string@kernel' &&
	run_cmd /tmp/add2.log perf probe -a 'uread=do_sys_openat2 filename:string'; then
	pass "perf probe -a: kread (@kernel) and uread"
else
	fail "perf probe -a: kread (@kernel) and uread"
	echo "$old" >"$strict"
	exit 0
fi

# The trace file: what ftrace itself prints for the fault.
echo 1 >/sys/kernel/tracing/events/probe/kread/enable
cat "$file" >/dev/null
echo 0 >/sys/kernel/tracing/events/probe/kread/enable
grep ' kread:' /sys/kernel/tracing/trace >/tmp/trace.out
expect_grep "the trace file prints the kernel read of cat's path as (fault)" \
	'cat-[0-9]+ .* kread: .*filename_string=\(fault\)' /tmp/trace.out

if run_cmd /tmp/record.log perf record -q -e probe:kread -e probe:uread -o /tmp/fault.data -- cat "$file"; then
	pass "perf record of cat"
else
	fail "perf record of cat"
fi
perf script -i /tmp/fault.data >/tmp/script.out 2>&1
diag </tmp/script.out
grep -E '^ *cat ' /tmp/script.out >/tmp/script.cat
expect_grep "perf script prints the kernel read of cat's path as (fault)" \
	'probe:kread: .*filename_string=\(fault\)$' /tmp/script.cat
if grep 'probe:kread:' /tmp/script.cat | grep -qv 'filename_string=(fault)$'; then
	fail "every kernel read of a user string by cat is (fault), nothing else"
	grep 'probe:kread:' /tmp/script.cat | diag
else
	pass "every kernel read of a user string by cat is (fault), nothing else"
fi
expect_grep "perf script prints the string that was read, as before" \
	"probe:uread: .*filename_string=\"$file\"\$" /tmp/script.cat

echo "$old" >"$strict"
reset_probes
exit 0
