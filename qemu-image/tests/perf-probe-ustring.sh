#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: perf probe -a with a variable name and an explicit :ustring
# on do_sys_openat2; perf record of cat on a known file; perf script
# shows the path.
# requires: kprobe_events ustring:README
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

reset_probes
file=/tmp/uaccess-probe-ustring.txt
echo hello >"$file"
cd /tmp || exit 1

if run_cmd /tmp/add.log perf probe -a 'do_sys_openat2 filename:ustring'; then
	pass "perf probe -a 'do_sys_openat2 filename:ustring'"
else
	fail "perf probe -a 'do_sys_openat2 filename:ustring'"
	exit 0
fi
expect_grep "the probe reads filename with ustring" \
	'^p:probe/do_sys_openat2 .*filename_ustring=\+0\(%si\):ustring' \
	/sys/kernel/tracing/kprobe_events

if run_cmd /tmp/record.log perf record -q -e probe:do_sys_openat2 -o /tmp/perf.data -- cat "$file"; then
	pass "perf record of cat"
else
	fail "perf record of cat"
fi
perf script -i /tmp/perf.data >/tmp/script.out 2>&1
diag </tmp/script.out
expect_grep "perf script shows the path cat opened" \
	"cat .*probe:do_sys_openat2: .*filename_ustring=\"$file\"" /tmp/script.out

reset_probes
exit 0
