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
# are compared with the workload's.  The "btf" cases are definitions
# with BTF argument names, where the kernel chooses: the guest boots the
# series' kernel with every case, then the stock kernel of the same
# configuration (make kernel-stock-ARCH) with these cases alone.
#
# Environment: ARCH, PERF_STOCK (the stock perf, default $STOCK_PERF,
# build/stock/perf/perf), PROOF_TIMEOUT (seconds for the guest, 300),
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
stock_kobj=$(kobj stock)
if grep -q '^btf[[:space:]]' "$TOP/$PROOF_CASES" && [ ! -e "$stock_kobj/kernel-image" ]; then
	die "no stock kernel in $stock_kobj for the btf cases of $PROOF_CASES: run 'make kernel-stock-$ARCH${GEN_TAG:+@$KGEN}'"
fi

# The workload: init.c gets these values on the kernel command line, and
# the probes must (or must not) record them.
v_open=/uaccess-probe/opened-by-init
v_prio=42
v_nsec=4242
v_symlink=uaccess-probe-symlink-target
v_trigger=uaccess-probe

out=$BUILD/proof$GEN_TAG-$ARCH
[ -d "$out" ] && chmod -R u+w "$out"
rm -rf "$out"
mkdir -p "$out/root" "$out/stock/root"

# --- /init: built by 'make proof-init-ARCH' (qemu-image/proof-init.sh)
init=$BUILD/proof-init$GEN_TAG-$ARCH/init
[ -x "$init" ] || die "no /init at $init: run 'make proof-init-$ARCH'"
cp "$init" "$out/root/init"
cp "$init" "$out/stock/root/init"

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
	nsec) printf '%s' "$v_nsec" ;;
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
: >"$out/stock/events"
: >"$out/stock/root/probes"
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
	btf)
		def=$(printf '%s\n' "$spec" | sed "s|^EVENT|p:uaccess/c$n|")
		add_event "c$n" right "$val" "series kernel '${spec#EVENT }'" "$def"
		printf '%s\t%s\t%s\t%s\n' "c$n" "$stock_user" "$val" \
			"stock kernel '${spec#EVENT }'" >>"$out/stock/events"
		printf '%s\n' "$def" >>"$out/stock/root/probes"
		;;
	*) die "${PROOF_CASES}: unknown kind '$how'" ;;
	esac
done <"$TOP/$PROOF_CASES"

# --- the initramfs, the boot and the verdicts -------------------------------
# guest DIR KERNEL WHAT: boot KERNEL (a kernel build folder) with an
# initramfs of DIR/root, run the workload and judge DIR/events on the
# trace; WHAT names the kernel in the output.  Fails the run (and stops)
# if the guest does not run the workload to its end.
guest() {
	_g=$1
	mkdir -p "$_g/root/dev" "$_g/root/proc" "$_g/root/tracing" \
		"$_g/root/debug" "$_g/root/tmp" "$_g/root${v_open%/*}"
	echo "opened by the proof suite's init" >"$_g/root$v_open"
	(cd "$_g/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$_g/initramfs.cpio" || die "cannot make the initramfs"

	cmdline="console=$CONSOLE panic=-1 loglevel=1 uaccess_open=$v_open"
	cmdline="$cmdline uaccess_prio=$v_prio uaccess_nsec=$v_nsec uaccess_symlink=$v_symlink"
	cmdline="$cmdline uaccess_trigger=$v_trigger ${PROOF_APPEND:-}"
	info QEMU "$ARCH proof suite, $3, timeout ${timeout}s (console: ${_g#"$TOP"/}/console.log)" >&2
	QEMU_WHAT=proof
	qemu_boot "$_g" tcg "$timeout" "$2/kernel-image" "$cmdline" \
		-initrd "$_g/initramfs.cpio"

	tr -d '\r' <"$_g/console.log" >"$_g/console.txt"
	proof_trace "$_g/console.txt" >"$_g/trace.txt"

	# The guest must have run to its end, done every step and printed
	# a trace.
	verdict=$(proof_verdict "$QEMU_RC" "$_g/console.txt" "$_g/trace.txt" "$timeout")
	if [ -n "$verdict" ]; then
		grep "^${PROOF_MARK}error: " "$_g/console.txt" | tap_diag
		qemu_fail "$ARCH proof, $3: the guest did not run the workload: $verdict" "$_g"
		exit 1
	fi
	tap_ok "$ARCH: $3: guest ran the workload and printed the trace (QEMU ${QEMU_ELAPSED}s)"
	proof_judge "$_g/events" "$_g/root/probes" "$_g/trace.txt"
}

guest "$out" "$KOBJ" "series kernel"
[ -s "$out/stock/events" ] && guest "$out/stock" "$stock_kobj" "stock kernel"
while IFS='	' read -r what why; do
	tap_skip "$ARCH: $what" "$why"
done <"$out/skips"

[ -s "$out/perf.err" ] && sed 's/^/perf: /' "$out/perf.err" | tap_diag
tap_done
