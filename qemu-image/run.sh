#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot the patched kernel under QEMU and run the guest tests or the demo.
#
#   run.sh [check|demo]
#
# Environment: ARCH (qemu-image/arch/default), KCC (clang; gcc boots the
# GCC kernel), TESTS
# (comma-separated tests/*.sh names), VM_TIMEOUT (seconds, default 900).
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

mode=${1:-check}
case $mode in
check | demo) ;;
hang | panic) ;; # a misbehaving guest, for selftest.sh
*) die "usage: run.sh [check|demo]" ;;
esac
arch_has vm ||
	die "ARCH=$ARCH has no VM suite (ARCH_SUITES=\"$ARCH_SUITES\" in ${ARCH_CONF#"$TOP"/})"
need_vars "$ARCH_CONF" DEB_ARCH RESULTS QEMU_DISKS
command -v "$QEMU" >/dev/null || die "$QEMU not found: apt-get install $QEMU_PKG, or run 'make deps'"
[ -e "$KOBJ/kernel-image" ] || die "no kernel image in $KOBJ: run 'make kernel'"

rootfs=$(timed rootfs sh "$here/rootfs.sh")
payload=$(timed payload sh "$here/payload.sh" "${rootfs%.ext4}")

out=$BUILD/vm-$KVARIANT-$mode
rm -rf "$out"
mkdir -p "$out"
console=$out/console.log
results=$out/results.tap

subst() {
	printf '%s\n' "$1" | sed -e "s|@CONSOLE_LOG@|$console|g" -e "s|@RESULTS_LOG@|$results|g" \
		-e "s|@ROOTFS@|$rootfs|g" -e "s|@PAYLOAD@|$payload|g"
}
cmdline="console=$CONSOLE root=/dev/vda rw init=/sbin/uaccess-probe-init panic=-1 loglevel=4"
# Strict user-memory mode (kernel/ patch 2): a probe that reads user memory
# as kernel memory records a fault instead of being rescued, as on s390.
cmdline="$cmdline trace_probe_strict_uaccess"
cmdline="$cmdline uaccess.mode=$mode uaccess.results=$RESULTS uaccess.exit=$GUEST_EXIT"
[ -n "${TESTS:-}" ] && cmdline="$cmdline uaccess.tests=$TESTS"
timeout=${VM_TIMEOUT:-900}

boot() { # accelerator; sets rc and elapsed
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
		printf '%s vm-%s-%s-first-line-ms %s 0\n' "$(date -u +%FT%TZ)" "$ARCH" \
			"$1" "$(($(date +%s%3N) - ms0))" >>"$LOGS/timings"
	) &
	watcher=$!
	rc=0
	# shellcheck disable=SC2046,SC2086 # the settings are word lists
	timeout -k 10 "$timeout" "$QEMU" $QEMU_MACHINE -accel "$1" -nodefaults \
		-display none -no-reboot $(subst "$QEMU_SERIAL") \
		$(subst "$QEMU_DISKS") $QEMU_EXIT -kernel "$KOBJ/kernel-image" \
		-append "$cmdline" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
	elapsed=$(($(date +%s) - t0))
	sleep 1
	kill "$tailer" "$watcher" 2>/dev/null || true
	wait "$tailer" "$watcher" 2>/dev/null || true
	printf '%s vm-%s-%s-%s %s %s\n' "$(date -u +%FT%TZ)" "$ARCH" "$mode" "$1" \
		"$elapsed" "$rc" >>"$LOGS/timings"
	info QEMU "QEMU ran for ${elapsed}s, exit status $rc" >&2
}

# KVM when /dev/kvm is there and works, TCG otherwise (UACCESS_ACCEL=tcg
# forces TCG).  A nested KVM can exist and still fail at the first vCPU
# setup: a KVM boot that dies before the guest printed anything is
# retried under TCG.
if [ "${UACCESS_ACCEL:-auto}" != tcg ] && [ "$QEMU_KVM" = yes ] &&
	[ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	boot kvm
	if [ "$rc" -ne 33 ] && [ "$rc" -ne 35 ] && [ ! -s "$results" ] && [ ! -s "$console" ]; then
		info QEMU "KVM did not start the guest ($(tail -n 1 "$out/qemu.log")); using TCG" >&2
		boot tcg
	fi
else
	boot tcg
fi

cat "$results"
marker=$(grep '^# uaccess-probe-guest: end ' "$results" || true)
verdict=
case $rc in
33) [ -n "$marker" ] && verdict=pass ;;
35) [ -n "$marker" ] && verdict=fail ;;
124 | 137) verdict="timed out after ${timeout}s" ;;
esac
case $verdict in
pass) exit 0 ;;
fail) exit 1 ;;
"")
	if [ -n "$marker" ]; then
		verdict="guest finished but QEMU exited with status $rc"
	else
		verdict="guest ended without its end marker (QEMU status $rc: panic, crash or no exit device)"
	fi
	;;
esac
# The guest did not finish: a failure the TAP summary must count.
echo "not ok - vm-$KVARIANT-$mode: $verdict"
{
	printf 'error: %s\n' "$verdict"
	printf 'console log: %s\nQEMU output: %s\nlast console lines:\n' "$console" "$out/qemu.log"
	tail -n 30 "$console"
	tail -n 5 "$out/qemu.log"
} >&2
exit 1
