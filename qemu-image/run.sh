#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot the patched kernel under QEMU and run the guest tests or the demo,
# or give a shell in the guest.
#
#   run.sh [check|demo]
#   run.sh bench        bench/guest/*.sh (make bench-events)
#   run.sh fuzz         the probe-event fuzzer for FUZZ_SECONDS of guest
#                       time (default 60), seeded with FUZZ_SEED if set;
#                       with FUZZ_ACCEPTED definitions and FUZZ_HITS hits
#                       as targets, until it reaches them, for at most
#                       FUZZ_MAX_SECONDS (make fuzz)
#   run.sh shell        the guest's console on this terminal, a root shell
#                       in it (make shell); 'exit' powers the guest off
#
# Environment: ARCH (qemu-image/arch/default), KCC (clang; gcc boots the
# GCC kernel, debug the debug kernel, stock-debug its stock control, as
# scripts/lib.sh says), TESTS (comma-separated tests/*.sh names), VM_TIMEOUT
# (seconds, default 900; a day for the shell), VM_APPEND (more kernel
# parameters).  The root file system and the payload disk must be built
# (make rootfs payload).
#
# The guest prints TAP on its results channel and leaves QEMU through the
# exit device: status 33 means every test passed, 35 that some failed.
# Anything else (hang, panic, a guest that never reached its end marker)
# is a failure, reported with the console log's path and last lines.
# The verdict is this script's exit status; the TAP goes to stdout, and
# to stderr while the guest runs.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
# shellcheck source=qemu.sh
. "$here/qemu.sh"

mode=${1:-check}
case $mode in
check | demo | bench | fuzz) ;;
shell)
	QEMU_STDIO=1
	[ -t 0 ] || die "run.sh shell needs a terminal"
	;;
hang | panic) ;; # a misbehaving guest, for selftest.sh
*) die "usage: run.sh [check|demo|bench|fuzz|shell]" ;;
esac
arch_has vm ||
	die "ARCH=$ARCH has no VM suite (ARCH_SUITES=\"$ARCH_SUITES\" in ${ARCH_CONF#"$TOP"/})"
need_vars "$ARCH_CONF" DEB_ARCH RESULTS QEMU_DISKS
command -v "$QEMU" >/dev/null || die "$QEMU not found: apt-get install $QEMU_PKG, or run 'make deps'"
[ -e "$KOBJ/kernel-image" ] || die "no kernel image in $KOBJ: run 'make kernel'"

# Built by 'make rootfs payload' (or payload-gcc); this only boots.
rootfs=$(sh "$here/rootfs.sh" --path)
payload=$BUILD/payload-$KVARIANT.ext4
[ -f "$payload" ] || die "no payload disk at $payload: run 'make payload' (KCC=gcc: 'make payload-gcc')"

out=$BUILD/vm-$KVARIANT-$mode
rm -rf "$out"
mkdir -p "$out"
console=$out/console.log
results=$out/results.tap

cmdline="console=$CONSOLE root=/dev/vda rw init=/sbin/uaccess-probe-init panic=-1 loglevel=4"
# Strict user-memory mode (the tracing series' "tracing/probes: Add a strict
# mode that never reads user memory implicitly"): a probe that reads user memory
# as kernel memory records a fault instead of being rescued, as on s390.
cmdline="$cmdline trace_probe_strict_uaccess"
cmdline="$cmdline uaccess.mode=$mode uaccess.results=$RESULTS uaccess.exit=$GUEST_EXIT"
[ -n "${TESTS:-}" ] && cmdline="$cmdline uaccess.tests=$TESTS"
timeout=${VM_TIMEOUT:-900}
if [ "$mode" = fuzz ]; then
	fuzz_seconds=${FUZZ_SECONDS:-60}
	fuzz_max=${FUZZ_MAX_SECONDS:-$fuzz_seconds}
	for v in "FUZZ_SECONDS=$fuzz_seconds" "FUZZ_MAX_SECONDS=$fuzz_max" \
		"FUZZ_SEED=${FUZZ_SEED:-1}" "FUZZ_ACCEPTED=${FUZZ_ACCEPTED:-0}" "FUZZ_HITS=${FUZZ_HITS:-0}"; do
		case ${v#*=} in '' | *[!0-9]*) die "$v: a number" ;; esac
	done
	[ "$fuzz_max" -ge "$fuzz_seconds" ] ||
		die "FUZZ_MAX_SECONDS=$fuzz_max: less than FUZZ_SECONDS=$fuzz_seconds"
	cmdline="$cmdline uaccess.fuzz_seconds=$fuzz_seconds${FUZZ_SEED:+ uaccess.fuzz_seed=$FUZZ_SEED}"
	if [ -n "${FUZZ_ACCEPTED:-}${FUZZ_HITS:-}" ]; then
		cmdline="$cmdline uaccess.fuzz_max_seconds=$fuzz_max"
		cmdline="$cmdline${FUZZ_ACCEPTED:+ uaccess.fuzz_accepted=$FUZZ_ACCEPTED}"
		cmdline="$cmdline${FUZZ_HITS:+ uaccess.fuzz_hits=$FUZZ_HITS}"
	fi
	# fuzz/debug-kernel.sh checks that its checks are live
	[ -z "$KCC_DEBUG" ] || cmdline="$cmdline uaccess.debug_kernel=1"
	# the campaign, and the boot and the checks around it
	timeout=${VM_TIMEOUT:-$((fuzz_max + 900))}
fi
[ -n "${VM_APPEND:-}" ] && cmdline="$cmdline $VM_APPEND"
# A kernel that needs modules to mount its root disk (Debian's own,
# KCC=debian) comes with an initrd that loads them.
initrd=
[ -f "$KOBJ/initrd" ] && initrd="-initrd $KOBJ/initrd"
QEMU_ROOTFS=$rootfs
QEMU_PAYLOAD=$payload
QEMU_WHAT=$mode
if [ "$mode" = shell ]; then
	accel=tcg
	if [ "${UACCESS_ACCEL:-auto}" != tcg ] && [ "$QEMU_KVM" = yes ] &&
		[ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		accel=kvm
	fi
	info QEMU "$ARCH shell, $accel; 'exit' in the guest or Ctrl-A X leaves QEMU" >&2
	# shellcheck disable=SC2086 # $initrd is empty or two words
	qemu_boot "$out" "$accel" "${VM_TIMEOUT:-86400}" "$KOBJ/kernel-image" "$cmdline" $initrd
	exit 0
fi

boot() { # accelerator; sets QEMU_RC
	info QEMU "$ARCH $mode, $1, timeout ${timeout}s (console: ${console#"$TOP"/})" >&2
	: >"$results"
	: >"$console"
	# Show the results channel as it grows (on stderr: stdout gets the
	# TAP once the guest is done).
	tail -n +1 -f "$results" >&2 &
	tailer=$!
	t0=$(date +%s)
	# How long from QEMU's start to the guest's first line: a number
	# README quotes, kept in the timings log.
	(
		ms0=$(date +%s%3N)
		while [ ! -s "$results" ] && [ $(($(date +%s) - t0)) -lt "$timeout" ]; do
			sleep 0.2
		done
		printf '%s vm-%s-%s-first-line-ms %s 0\n' "$(date -u +%FT%TZ)" "$KVARIANT" \
			"$1" "$(($(date +%s%3N) - ms0))" >>"$LOGS/timings"
	) &
	watcher=$!
	# shellcheck disable=SC2086 # $initrd is empty or two words
	qemu_boot "$out" "$1" "$timeout" "$KOBJ/kernel-image" "$cmdline" $initrd
	sleep 1
	kill "$tailer" "$watcher" 2>/dev/null || true
	wait "$tailer" "$watcher" 2>/dev/null || true
}

# KVM when the architecture allows it and /dev/kvm is there and works,
# TCG otherwise (UACCESS_ACCEL=tcg forces TCG).  A nested KVM can exist
# and still fail at the first vCPU setup: a KVM boot that dies before the
# guest printed anything is retried under TCG.
if [ "${UACCESS_ACCEL:-auto}" != tcg ] && [ "$QEMU_KVM" = yes ] &&
	[ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	boot kvm
	if [ "$QEMU_RC" -ne 33 ] && [ "$QEMU_RC" -ne 35 ] && [ ! -s "$results" ] && [ ! -s "$console" ]; then
		info QEMU "KVM did not start the guest ($(tail -n 1 "$out/qemu.log")); using TCG" >&2
		boot tcg
	fi
else
	boot tcg
fi

cat "$results"
verdict=$(vm_verdict "$QEMU_RC" "$results" "$timeout")
case $verdict in
pass) exit 0 ;;
fail) exit 1 ;;
esac
# The guest did not finish: the stream says why, and check.sh counts it.
qemu_fail "vm-$KVARIANT-$mode: $verdict" "$out"
exit 1
