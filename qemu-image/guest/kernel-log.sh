#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: after the tests, the kernel log has no BUG:, WARNING: or
# Oops (a probe that reads the wrong memory must fault, never crash).
# Run by guest/run after every mode's tests, not from tests/.
# shellcheck source=lib.sh
. /payload/guest/lib.sh

dmesg >/tmp/dmesg.out 2>&1 || { fail "dmesg"; diag </tmp/dmesg.out; exit 0; }
if grep -E 'BUG:|WARNING:|Oops' /tmp/dmesg.out >/tmp/dmesg.bad; then
	fail "the kernel log has no BUG:, WARNING: or Oops"
	diag </tmp/dmesg.bad
	grep -E -A 25 'BUG:|WARNING:|Oops' /tmp/dmesg.out | head -n 60 | diag
else
	pass "the kernel log has no BUG:, WARNING: or Oops ($(wc -l </tmp/dmesg.out) lines)"
fi
exit 0
