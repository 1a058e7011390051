#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The proof suite: the patched perf's user/kernel choice against the stock
# one, on a kernel whose address spaces overlap (s390x), where a wrong
# choice reads the wrong memory instead of being retried.
#
#   ARCH=s390x proof.sh     any architecture whose descriptor
#                           (qemu-image/arch/ARCH.conf) has "proof" in
#                           ARCH_SUITES
#
# On the host, for every probe of the generation's PROOF_CASES
# (proof/cases/GEN.txt), the patched perf and the stock perf make kprobe
# definitions offline (perf probe -k vmlinux -D).  The guest, booted
# from an initramfs whose /init is proof/init.c, writes them to
# kprobe_events, runs a known workload and prints the
# trace on its console; back on the host, each event's recorded values
# are compared with the workload's.
#
# Environment: ARCH, PERF_STOCK (the stock perf, default $STOCK_PERF,
# build/perf-stock/perf), PROOF_TIMEOUT (seconds for the guest, 300),
# PROOF_APPEND (more kernel parameters, e.g. loglevel=7 to debug).
# Output: TAP on stdout, progress on stderr.  Exit status 0 only if every
# test passed.  A guest that hangs or dies fails with its console's tail.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
# shellcheck source=qemu.sh
. "$here/qemu.sh"
# shellcheck source=proof/judge.sh
. "$here/proof/judge.sh"

proof_require_arch

perf_stock=${PERF_STOCK:-$STOCK_PERF}
timeout=${PROOF_TIMEOUT:-300}
for t in cpio timeout; do
	command -v "$t" >/dev/null || die "$t not found: run 'make deps'"
done
{ [ -e "$KOBJ/kernel-image" ] && [ -f "$KOBJ/vmlinux" ]; } ||
	die "no kernel in $KOBJ: run 'make kernel-$ARCH'"
[ -x "$PERF" ] || die "no patched perf at $PERF: run 'make perf'"
[ -x "$perf_stock" ] || die "no stock perf at $perf_stock: run 'make perf-stock'"

# The workload: init.c gets these values on the kernel command line, and
# the probes must (or must not) record them.
v_open=/uaccess-probe/opened-by-init
v_prio=42
v_symlink=uaccess-probe-symlink-target
v_trigger=uaccess-probe

out=$BUILD/proof$GEN_TAG-$ARCH
[ -d "$out" ] && chmod -R u+w "$out"
rm -rf "$out"
mkdir -p "$out/root"
console=$out/console.log

# --- /init: built by 'make proof-init-ARCH' (qemu-image/proof-init.sh)
init=$BUILD/proof-init$GEN_TAG-$ARCH/init
[ -x "$init" ] || die "no /init at $init: run 'make proof-init-$ARCH'"
cp "$init" "$out/root/init"

# --- the probe definitions -----------------------------------------------
# perf only ever runs offline with -D here (scripts/offline-perf.sh),
# against a tracefs that is nothing but the README of the guest's kernel
# generation (TRACEFS_README), so that neither the answer nor anything
# else depends on the host's kernel.
offline_perf_env "$out/env" "$TOP/$TRACEFS_README" || die "cannot make $out/env"

# define PERF SPEC [MODULE.ko]: the kprobe_events line(s) PERF makes for SPEC
define() {
	offline_perf "$out/env" timeout 120 "$1" probe -q -k "$KOBJ/vmlinux" \
		${3:+-m "$3"} -D "$2" 2>>"$out/perf.err"
}

value() {
	case $1 in
	open) printf '%s' "$v_open" ;;
	prio) printf '%s' "$v_prio" ;;
	symlink) printf '%s' "$v_symlink" ;;
	trigger) printf '%s' "$v_trigger" ;;
	len) printf '0x%x' "${#v_trigger}" ;;
	pid) printf '1' ;; # init writes the trigger
	=*) printf '%s' "${1#=}" ;;
	*) return 1 ;;
	esac
}

# Every event: "NAME<TAB>right|wrong|any<TAB>VALUE<TAB>DESCRIPTION"; the
# definitions go to the initramfs, one kprobe_events line each.
events=$out/events
probes=$out/root/probes
: >"$events"
: >"$probes"
n=0
# add_event NAME MUST VALUE DESCRIPTION [DEFINITION]
add_event() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$events"
	[ -z "$5" ] || printf '%s\n' "$5" | sed "s|^p:[^ ]*|p:uaccess/$1|" >>"$probes"
}

# perf_event NAME PERF SPEC MUST VALUE LABEL [MODULE.ko]: the definitions
# PERF makes for SPEC, one per probe site (a function inlined into two
# callers has two), as the events NAME__1, NAME__2...; the test's
# verdict is over the hits of all of them.
perf_event() {
	def=$(define "$2" "$3" "${7:-}" | grep '^p:') || def=
	sites=$(printf '%s' "$def" | grep -c '^p:') || sites=0
	if [ "$4" = nodef ]; then
		# This perf must not be able to define it at all
		[ "$sites" -eq 0 ] && must=nodef-ok || must=nodef-bad
		printf '%s\t%s\t%s\t%s\n' "$1" "$must" "$5" \
			"$6 '$3' makes no definition" >>"$events"
		return
	fi
	if [ "$sites" -eq 0 ]; then
		printf '%s\t%s\t%s\t%s\n' "$1" "none" "$5" \
			"$6 '$3' makes a definition (see perf's errors below)" >>"$events"
		return
	fi
	first=$(printf '%s\n' "$def" | head -n 1)
	desc="$6 '$3' (${first#* * }"
	[ "$sites" -gt 1 ] && desc="$desc, at $sites sites"
	add_event "$1" "$4" "$5" "$desc)" ""
	k=0
	printf '%s\n' "$def" | while IFS= read -r d; do
		k=$((k + 1))
		printf '%s\n' "$d" | sed "s|^p:[^ ]*|p:uaccess/${1}__$k|" >>"$probes"
	done
}

if [ "$OVERLAPPING_ADDRESS_SPACES" = yes ]; then
	stock_user=wrong
else
	stock_user=any
fi
: >"$out/skips"
while IFS='	' read -r how key where spec; do
	case $how in '' | '#'*) continue ;; esac
	n=$((n + 1))
	val=$(value "$key") || die "${PROOF_CASES}: unknown value '$key'"
	ko=
	if [ "$where" != vmlinux ]; then
		ko=$(find "$KOBJ" -name "$where.ko" 2>/dev/null | head -n 1)
		if [ -z "$ko" ]; then
			printf "%s '%s'\tmodule %s was not built\n" "$how" \
				"$spec" "$where" >>"$out/skips"
			continue
		fi
		cp "$ko" "$out/root/"
	fi
	case $how in
	user)
		perf_event "c${n}_patched" "$PERF" "$spec" right "$val" "patched" "$ko"
		perf_event "c${n}_stock" "$perf_stock" "$spec" "$stock_user" "$val" "stock" "$ko"
		;;
	kernel)
		perf_event "c${n}_patched" "$PERF" "$spec" right "$val" "patched" "$ko"
		perf_event "c${n}_stock" "$perf_stock" "$spec" right "$val" "stock" "$ko"
		;;
	new)
		perf_event "c${n}_patched" "$PERF" "$spec" right "$val" "patched" "$ko"
		perf_event "c${n}_stock" "$perf_stock" "$spec" nodef "$val" "stock" "$ko"
		;;
	right | wrong)
		add_event "c$n" "$how" "$val" "'${spec#EVENT }'" "$(printf '%s\n' "$spec" |
			sed "s|^EVENT|p:uaccess/c$n|")"
		;;
	*) die "${PROOF_CASES}: unknown kind '$how'" ;;
	esac
done <"$TOP/$PROOF_CASES"

# --- the initramfs ---------------------------------------------------------
mkdir -p "$out/root/dev" "$out/root/proc" "$out/root/tracing" \
	"$out/root/debug" "$out/root/tmp" "$out/root${v_open%/*}"
echo "opened by the proof suite's init" >"$out/root$v_open"
(cd "$out/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
	>"$out/initramfs.cpio" || die "cannot make the initramfs"

# --- boot ------------------------------------------------------------------
cmdline="console=$CONSOLE panic=-1 loglevel=1 uaccess_open=$v_open"
cmdline="$cmdline uaccess_prio=$v_prio uaccess_symlink=$v_symlink"
cmdline="$cmdline uaccess_trigger=$v_trigger ${PROOF_APPEND:-}"
info QEMU "$ARCH proof suite, timeout ${timeout}s (console: ${console#"$TOP"/})" >&2
QEMU_WHAT=proof
qemu_boot "$out" tcg "$timeout" "$KOBJ/kernel-image" "$cmdline" \
	-initrd "$out/initramfs.cpio"

tr -d '\r' <"$console" >"$out/console.txt"
proof_trace "$out/console.txt" >"$out/trace.txt"

# --- the verdicts ----------------------------------------------------------
# The guest must have run to its end, done every step and printed a trace.
verdict=$(proof_verdict "$QEMU_RC" "$out/console.txt" "$out/trace.txt" "$timeout")
if [ -n "$verdict" ]; then
	grep "^${PROOF_MARK}error: " "$out/console.txt" | tap_diag
	qemu_fail "$ARCH proof: the guest did not run the workload: $verdict" "$out"
	exit 1
fi
tap_ok "$ARCH: guest ran the workload and printed the trace (QEMU ${QEMU_ELAPSED}s)"
proof_judge "$events" "$probes" "$out/trace.txt"
while IFS='	' read -r what why; do
	tap_skip "$ARCH: $what" "$why"
done <"$out/skips"

[ -s "$out/perf.err" ] && sed 's/^/perf: /' "$out/perf.err" | tap_diag
tap_done
