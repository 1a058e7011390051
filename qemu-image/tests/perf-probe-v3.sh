#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the perf series v3 fixes on the running kernel: a pointer
# whose value is an address on the stack (cp_new_stat's stat), a bit field
# through a __user pointer (perf_copy_attr's uattr->disabled), recorded
# with their real values; and perf probe -a refusing a user read on a
# kernel whose tracing/README lacks "[u]<offset>", where -D only warns.
# requires: kprobe_events
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1

# 1. DW_OP_stack_value: stat is %sp + N in the inlined cp_new_stat(); stock
# perf loads the stack at N first and records whatever is there.
reset_probes
file=/tmp/uaccess-probe-v3.bin
head -c 12345 /dev/zero >"$file"
probe 'cp_new_stat stat->size' 'size=(\+[0-9]+\(%[a-z0-9]+\)|%[a-z0-9]+):s64' \
	"the member, not a load of the pointer first"
# dash's test -s calls stat(), i.e. newfstatat(2) and cp_new_stat()
record 'probe:cp_new_stat*' sh -c "test -s $file"
check "perf script shows the file's size through stat->size" \
	'probe:cp_new_stat[_0-9]*: .*size=12345( |$)'

# 2. A bit field located by DW_AT_data_bit_offset, read through the __user
# perf_event_attr of perf_event_open(2); stock perf cannot find its offset.
reset_probes
probe 'perf_copy_attr uattr->disabled' 'disabled=\+u[0-9]+\(%[a-z0-9]+\):b1@[0-9]+/[0-9]+' \
	"the bit field's container with a user read"
# perf stat opens its counter disabled, to enable it at exec
record 'probe:perf_copy_attr*' perf stat -o /tmp/stat.out -e task-clock true
check "perf script shows disabled=1 for perf stat's counter" \
	'probe:perf_copy_attr[_0-9]*: .*disabled=1'

# 3. A kernel whose probe events cannot read user memory: a copy of this
# kernel's tracing/README without "[u]<offset>", as perf probe sees it.
reset_probes
old=/tmp/old-tracefs
rm -rf "$old"
mkdir -p "$old"
grep -v 'u]<offset>' /sys/kernel/tracing/README >"$old/README"
spec='do_sys_openat2 filename:string'
if TRACEFS_PATH=$old perf probe -a "$spec" >/tmp/old.out 2>&1; then
	fail "perf probe -a '$spec' fails on a kernel without user access"
	diag </tmp/old.out
else
	expect_grep "perf probe -a '$spec' fails on a kernel without user access, saying why" \
		'cannot read user memory' /tmp/old.out
fi
if grep -q do_sys_openat2 /sys/kernel/tracing/kprobe_events; then
	fail "the refused probe was not added"
	diag </sys/kernel/tracing/kprobe_events
else
	pass "the refused probe was not added"
fi
if TRACEFS_PATH=$old perf probe -D "$spec" >/tmp/old.out 2>/tmp/old.err &&
	grep -Eq 'filename_string=\+u0\(' /tmp/old.out; then
	expect_grep "perf probe -D '$spec' shows the definition there, with a warning" \
		'lists no "\[u\]<offset>"' /tmp/old.err
else
	fail "perf probe -D '$spec' shows the definition there"
	diag </tmp/old.out
	diag </tmp/old.err
fi
rm -rf "$old"

reset_probes
exit 0
