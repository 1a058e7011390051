#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the probe-event fuzzer (qemu-image/fuzz/probe-fuzz.c) for
# uaccess.fuzz_seconds of guest time (default 60), seeded with
# uaccess.fuzz_seed when it is given: no splat in the kernel log, no
# failure of an operation that must succeed.  With targets
# (uaccess.fuzz_accepted definitions, uaccess.fuzz_hits hits), it goes
# on until it reaches them, for uaccess.fuzz_max_seconds at most, and
# fails if it does not.  Its figures (definitions tried, accepted,
# rejected by reason, hits, splats) are diagnostics.
# Run by guest/run in the fuzz mode (make fuzz), not from tests/.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

param() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^uaccess\.$1=//p" | tail -n 1
}
seconds=$(param fuzz_seconds)
max=$(param fuzz_max_seconds)
accepted=$(param fuzz_accepted)
hits=$(param fuzz_hits)
seed=$(param fuzz_seed)
modprobe test_probe_user 2>/dev/null
probe-fuzz -t "${seconds:-60}" ${max:+-T "$max"} ${accepted:+-a "$accepted"} \
	${hits:+-H "$hits"} ${seed:+-s "$seed"} >/tmp/fuzz.out 2>&1
rc=$?
diag </tmp/fuzz.out
figures=$(sed -n 's/^probe-fuzz: \(tried .*\)/\1/p' /tmp/fuzz.out)
case $rc in
0 | 3) pass "no splat, no finding (${figures:-no figures})" ;;
1) fail "no splat, no finding (${figures:-no figures})" ;;
*)
	fail "probe-fuzz ran (exit status $rc)"
	exit 0
	;;
esac
if [ -n "$accepted$hits" ]; then
	targets=$(sed -n 's/^probe-fuzz: targets //p' /tmp/fuzz.out)
	case $targets in
	*": reached "*) pass "the campaign reached its targets: $targets" ;;
	*) fail "the campaign reached its targets: ${targets:-no figures}" ;;
	esac
fi
exit 0
