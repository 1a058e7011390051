#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: on the debug kernel (KCC=debug: run.sh passes
# uaccess.debug_kernel=1), the checks that the fuzzer relies on are
# live: KASAN (its report function is in the kernel), lockdep
# (/proc/lockdep) and KFENCE (its debugfs statistics, enabled); a run
# on a kernel without them would find nothing of what they find.
# Elsewhere, what the kernel has is a diagnostic.  Run by guest/run in
# the fuzz mode, before probe-fuzz.sh.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

want=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^uaccess\.debug_kernel=//p' | tail -n 1)
have=
grep -q ' kasan_report$' /proc/kallsyms && have="$have KASAN"
[ -r /proc/lockdep ] && have="$have lockdep"
grep -qs 'enabled: 1' /sys/kernel/debug/kfence/stats && have="$have KFENCE"
if [ "$want" = 1 ]; then
	case $have in
	*KASAN*lockdep*KFENCE*) pass "the debug kernel has KASAN, lockdep and KFENCE live" ;;
	*) fail "the debug kernel has KASAN, lockdep and KFENCE live (found:${have:- none})" ;;
	esac
else
	echo "not the debug kernel; its checks:${have:- none}" | diag
fi
exit 0
