#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: after the tests, the kernel log has no splat: BUG: (KASAN,
# KFENCE, soft lockups, sleeping in atomic context among them),
# WARNING: (lockdep's reports among them), Oops, UBSAN, an RCU stall
# (a probe that reads the wrong memory must fault, never crash).
# Run by guest/run after every mode's tests, not from tests/.
# shellcheck source=lib.sh
. /payload/guest/lib.sh

splat='BUG:|WARNING:|Oops|UBSAN:|detected stalls|self-detected stall'
dmesg >/tmp/dmesg.out 2>&1 || { fail "dmesg"; diag </tmp/dmesg.out; exit 0; }
if grep -E "$splat" /tmp/dmesg.out >/tmp/dmesg.bad; then
	fail "the kernel log has no splat (BUG:, WARNING:, Oops, UBSAN, RCU stall)"
	diag </tmp/dmesg.bad
	grep -E -A 25 "$splat" /tmp/dmesg.out | head -n 60 | diag
else
	pass "the kernel log has no splat (BUG:, WARNING:, Oops, UBSAN, RCU stall) ($(wc -l </tmp/dmesg.out) lines)"
fi
exit 0
