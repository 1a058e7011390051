#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the trace_probe_strict_uaccess boot parameter (run.sh
# passes it) turns the kernel.trace_probe_strict_uaccess sysctl on, and
# the sysctl can be switched at run time.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

strict=/proc/sys/kernel/trace_probe_strict_uaccess
if [ ! -f "$strict" ]; then
	fail "$strict exists"
	exit 0
fi
case " $(cat /proc/cmdline) " in
*" trace_probe_strict_uaccess "*)
	v=$(cat "$strict")
	if [ "$v" = 1 ]; then
		pass "booted with trace_probe_strict_uaccess, the sysctl reads 1"
	else
		fail "booted with trace_probe_strict_uaccess, the sysctl reads 1 (it reads $v)"
	fi
	;;
*) skip "the boot parameter sets the sysctl" "not on the command line" ;;
esac

old=$(cat "$strict")
for v in 0 1 0; do
	echo "$v" >"$strict"
	got=$(cat "$strict")
	if [ "$got" = "$v" ]; then
		pass "writing $v to the sysctl reads back $v"
	else
		fail "writing $v to the sysctl reads back $v (it reads $got)"
	fi
done
# Only 0 and 1 are valid; anything else is refused and changes nothing.
if echo 2 >"$strict" 2>/dev/null; then
	fail "writing 2 to the sysctl is refused"
else
	got=$(cat "$strict")
	if [ "$got" = 0 ]; then
		pass "writing 2 to the sysctl is refused and leaves it at 0"
	else
		fail "writing 2 to the sysctl is refused and leaves it at 0 (it reads $got)"
	fi
fi
echo "$old" >"$strict"
exit 0
