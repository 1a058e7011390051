#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the probe-event fuzzer (qemu-image/fuzz/probe-fuzz.c) for
# uaccess.fuzz_seconds of guest time (default 60), seeded with
# uaccess.fuzz_seed when it is given: no splat in the kernel log, no
# failure of an operation that must succeed.  Its figures (definitions
# tried, accepted, rejected by reason, hits, splats) are diagnostics.
# Run by guest/run in the fuzz mode (make fuzz), not from tests/.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

param() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^uaccess\.$1=//p" | tail -n 1
}
seconds=$(param fuzz_seconds)
seed=$(param fuzz_seed)
modprobe test_probe_user 2>/dev/null
probe-fuzz -t "${seconds:-60}" ${seed:+-s "$seed"} >/tmp/fuzz.out 2>&1
rc=$?
diag </tmp/fuzz.out
figures=$(sed -n 's/^probe-fuzz: \(tried .*\)/\1/p' /tmp/fuzz.out)
case $rc in
0) pass "no splat, no finding (${figures:-no figures})" ;;
1) fail "no splat, no finding (${figures:-no figures})" ;;
*) fail "probe-fuzz ran (exit status $rc)" ;;
esac
exit 0
