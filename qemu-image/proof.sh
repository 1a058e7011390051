#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The proof suite: perf's automatic user/kernel choice against the stock
# one, on a kernel whose address spaces overlap (s390x), where a wrong
# choice reads the wrong memory instead of being retried.
#
#   ARCH=s390x proof.sh     any architecture whose descriptor
#                           (qemu-image/arch/ARCH.conf) has "proof" in
#                           ARCH_SUITES
#
# On the host, for every probe of proof/cases.txt, the patched perf and
# the stock perf make kprobe definitions offline (perf probe -k vmlinux
# -D).  The guest, booted from an initramfs whose /init is proof/init.c,
# writes them to kprobe_events, runs a known workload and prints the
# trace on its console; back on the host, each event's recorded values
# are compared with the workload's.
#
# Environment: ARCH, PERF_BASE (stock perf, default $STOCK_PERF,
# build/perf-base/perf), PROOF_TIMEOUT (seconds for the guest, 300),
# PROOF_APPEND (more kernel parameters, e.g. loglevel=7 to debug).
# Output: TAP on stdout, progress on stderr.  Exit status 0 only if every
# test passed.  A guest that hangs or dies fails with its console's tail.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

# What this architecture must provide, named when it is missing.
if ! arch_has proof; then
	with=
	for a in $(list_descriptors "$ARCH_DIR"); do
		(load_arch "$a" && arch_has proof) && with="$with $a"
	done
	die "ARCH=$ARCH has no proof suite (ARCH_SUITES=\"$ARCH_SUITES\" in ${ARCH_CONF#"$TOP"/}); architectures with one:${with:- none}"
fi
need_vars "$ARCH_CONF" INIT_CFLAGS INIT_LD INIT_MACRO
grep -q "^#if.* defined($INIT_MACRO)" "$here/proof/syscall.h" ||
	die "ARCH=$ARCH: qemu-image/proof/syscall.h has no system call entry for $INIT_MACRO (INIT_MACRO in ${ARCH_CONF#"$TOP"/}): add sys_call5() and _start for it"
missing=$(arch_missing_tools proof)
[ -z "$missing" ] ||
	die "ARCH=$ARCH: missing host tools (command:package): $missing- run 'make deps' (KTOOLS, QEMU_PKG, INIT_LD in ${ARCH_CONF#"$TOP"/})"

perf_base=${PERF_BASE:-$STOCK_PERF}
timeout=${PROOF_TIMEOUT:-300}
for t in "$KCC_CLANG" cpio timeout; do
	command -v "$t" >/dev/null || die "$t not found: run 'make deps'"
done
{ [ -e "$KOBJ/kernel-image" ] && [ -f "$KOBJ/vmlinux" ]; } ||
	die "no kernel in $KOBJ: run 'make kernel ARCH=$ARCH'"
[ -x "$PERF" ] || die "no patched perf at $PERF: run 'make perf'"
[ -x "$perf_base" ] || die "no stock perf at $perf_base: run 'sh scripts/perf-base.sh'"

# The workload: init.c gets these values on the kernel command line, and
# the probes must (or must not) record them.
v_open=/uaccess-probe/opened-by-init
v_prio=42
v_symlink=uaccess-probe-symlink-target
v_trigger=uaccess-probe

out=$BUILD/proof-$ARCH
rm -rf "$out"
mkdir -p "$out/root" "$out/env/debugfs" "$out/env/tracefs" "$out/env/home"
console=$out/console.log

# --- /init, from the kernel's own UAPI headers -----------------------------
if [ ! -f "$KOBJ/usr/include/asm/unistd.h" ]; then
	info PROOF "installing the $ARCH UAPI headers into ${KOBJ#"$TOP"/}/usr" >&2
	kmake headers >"$out/headers.log" 2>&1 ||
		{ tail -n 20 "$out/headers.log" >&2; die "make headers failed"; }
fi
# shellcheck disable=SC2086 # INIT_CFLAGS is a list of options
"$KCC_CLANG" $INIT_CFLAGS -O2 -Wall -Wextra -Werror -ffreestanding \
	-fno-stack-protector -fno-pic -nostdinc -isystem "$KOBJ/usr/include" \
	-c "$here/proof/init.c" -o "$out/init.o" ||
	die "cannot compile $here/proof/init.c"
"$INIT_LD" -static -e _start -o "$out/root/init" "$out/init.o" ||
	die "cannot link /init"

# --- the probe definitions -----------------------------------------------
# perf only ever runs with -D here, against a tracefs that is nothing but
# the README of the guest's kernel generation (TRACEFS_README), so that
# neither the answer nor anything else depends on the host's kernel.
cp "$TOP/$TRACEFS_README" "$out/env/tracefs/README"
chmod -R a-w "$out/env/tracefs" "$out/env/debugfs"

# define PERF SPEC [MODULE.ko]: the kprobe_events line(s) PERF makes for SPEC
define() {
	env TRACEFS_PATH="$out/env/tracefs" DEBUGFS_PATH="$out/env/debugfs" \
		PERF_CONFIG=/dev/null HOME="$out/env/home" PERF_PAGER=cat \
		timeout 120 "$1" probe -q -k "$KOBJ/vmlinux" ${3:+-m "$3"} \
		-D "$2" 2>>"$out/perf.err"
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
bad=0
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
	val=$(value "$key") || die "proof/cases.txt: unknown value '$key'"
	ko=
	if [ "$where" != vmlinux ]; then
		ko=$(find "$KOBJ" -name "$where.ko" 2>/dev/null | head -n 1)
		if [ -z "$ko" ]; then
			printf "%s '%s' # SKIP module %s was not built\n" "$how" \
				"$spec" "$where" >>"$out/skips"
			continue
		fi
		cp "$ko" "$out/root/"
	fi
	case $how in
	user)
		perf_event "c${n}_auto" "$PERF" "$spec" right "$val" "automatic" "$ko"
		perf_event "c${n}_stock" "$perf_base" "$spec" "$stock_user" "$val" "stock" "$ko"
		;;
	kernel)
		perf_event "c${n}_auto" "$PERF" "$spec" right "$val" "automatic" "$ko"
		perf_event "c${n}_stock" "$perf_base" "$spec" right "$val" "stock" "$ko"
		;;
	right | wrong)
		add_event "c$n" "$how" "$val" "'${spec#EVENT }'" "$(printf '%s\n' "$spec" |
			sed "s|^EVENT|p:uaccess/c$n|")"
		;;
	*) die "proof/cases.txt: unknown kind '$how'" ;;
	esac
done <"$here/proof/cases.txt"

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
t0=$(date +%s)
rc=0
# shellcheck disable=SC2046,SC2086 # the settings are word lists
timeout -k 10 "$timeout" "$QEMU" $QEMU_MACHINE -accel tcg -nodefaults -display none \
	-no-reboot $(printf '%s\n' "$QEMU_SERIAL" | sed "s|@CONSOLE_LOG@|$console|g") \
	-kernel "$KOBJ/kernel-image" -initrd "$out/initramfs.cpio" \
	-append "$cmdline" </dev/null >"$out/qemu.log" 2>&1 || rc=$?
elapsed=$(($(date +%s) - t0))
printf '%s vm-%s-proof-tcg %s %s\n' "$(date -u +%FT%TZ)" "$ARCH" "$elapsed" "$rc" \
	>>"$LOGS/timings"
info QEMU "QEMU ran for ${elapsed}s, exit status $rc" >&2

tr -d '\r' <"$console" >"$out/console.txt"
mark='uaccess-probe-init: '
sed -n "/^${mark}trace begin\$/,/^${mark}trace end\$/p" "$out/console.txt" \
	>"$out/trace.txt"

t=0
tap() { # ok|not-ok DESCRIPTION
	t=$((t + 1))
	if [ "$1" = ok ]; then
		printf 'ok %d - %s: %s\n' "$t" "$ARCH" "$2"
	else
		printf 'not ok %d - %s: %s\n' "$t" "$ARCH" "$2"
		bad=$((bad + 1))
	fi
}

# The guest must have run to its end, done every step and printed a trace.
verdict=
case $rc in
0) ;;
124 | 137) verdict="the guest timed out after ${timeout}s" ;;
*) verdict="QEMU exited with status $rc" ;;
esac
if [ -z "$verdict" ] && ! grep -q "^${mark}end, 0 errors\$" "$out/console.txt"; then
	verdict="the guest ended without its end marker, or with errors"
fi
if [ -z "$verdict" ] && [ ! -s "$out/trace.txt" ]; then
	verdict="the guest printed no trace"
fi
if [ -n "$verdict" ]; then
	tap not-ok "guest ran the workload: $verdict"
	{
		printf 'error: %s\n' "$verdict"
		printf 'console log: %s\nQEMU output: %s\nlast console lines:\n' \
			"$console" "$out/qemu.log"
		tail -n 30 "$out/console.txt"
		tail -n 5 "$out/qemu.log"
	} >&2
	grep "^${mark}error: " "$out/console.txt" | sed 's/^/# /'
else
	tap ok "guest ran the workload and printed the trace (QEMU ${elapsed}s)"
fi

# --- the verdicts ----------------------------------------------------------
# For every event: "NAME<TAB>ARGS<TAB>HITS<TAB>FIELDS<TAB>MATCHING<TAB>FIRST
# HIT": its number of arguments, init's hits (pid 1), the argument values
# read from them, and how many of these equal the workload's value.
awk -v events="$events" -v probes="$probes" '
	BEGIN {
		while ((getline l < events) > 0) {
			split(l, e, "\t")
			val[e[1]] = e[3]
		}
		# field names of each definition: "name=fetcharg" words
		while ((getline l < probes) > 0) {
			nw = split(l, w, " ")
			ev = w[1]; sub(/^p:[^\/]*\//, "", ev); sub(/__[0-9]+$/, "", ev)
			nf[ev] = 0
			for (i = 3; i <= nw; i++) {
				if (w[i] ~ /=/) {
					f = w[i]; sub(/=.*/, "", f)
					field[ev, ++nf[ev]] = f
				}
			}
		}
	}
	$0 ~ /^ *init-1 +\[[0-9]+\] / {
		s = $0
		sub(/^ *init-1 +\[[0-9]+\] [^ ]+ +[0-9.]+: /, "", s)
		ev = s; sub(/: .*/, "", ev); sub(/__[0-9]+$/, "", ev)
		if (!(ev in val))
			next
		# "EVENT: (func+0x0/0x10 [module]) args"
		sub(/^[^ ]+ \([^)]*\) /, "", s)
		hits[ev]++
		for (i = 1; i <= nf[ev]; i++) {
			pre = field[ev, i] "="
			if (substr(s, 1, length(pre)) != pre)
				break
			s = substr(s, length(pre) + 1)
			v = s
			if (i < nf[ev]) {
				p = index(s, " " field[ev, i + 1] "=")
				if (p == 0)
					break
				v = substr(s, 1, p - 1)
				s = substr(s, p + 1)
			}
			total[ev]++
			if (v == val[ev] || v == "\"" val[ev] "\"")
				same[ev]++
			if (!(ev in first))
				first[ev] = ""
			if (hits[ev] == 1)
				first[ev] = first[ev] (i > 1 ? " " : "") pre v
		}
	}
	END {
		for (ev in val)
			printf "%s\t%d\t%d\t%d\t%d\t%s\n", ev, nf[ev], hits[ev],
				total[ev], same[ev], first[ev]
	}' "$out/trace.txt" | LC_ALL=C tr -c '\t\n[:print:]' '?' >"$out/results"

while IFS='	' read -r ev must val desc; do
	line=$(grep "^$ev	" "$out/results" || true)
	nargs=$(printf '%s' "$line" | cut -f2)
	hits=$(printf '%s' "$line" | cut -f3)
	total=$(printf '%s' "$line" | cut -f4)
	same=$(printf '%s' "$line" | cut -f5)
	got=$(printf '%s' "$line" | cut -f6 | cut -c1-100)
	case $must in
	right) what="records \"$val\"" ;;
	wrong) what="does not record \"$val\"" ;;
	any) what="records something (the kernel hides a wrong choice on $ARCH)" ;;
	none)
		tap not-ok "$desc"
		continue
		;;
	esac
	if [ "${hits:-0}" -eq 0 ]; then
		tap not-ok "$desc $what: the probe never fired"
	elif [ "$total" -ne $((hits * nargs)) ]; then
		tap not-ok "$desc $what: cannot parse the trace: $got"
	else
		case $must in
		right) [ "$same" -eq "$total" ] && r=ok || r=not-ok ;;
		wrong) [ "$same" -eq 0 ] && r=ok || r=not-ok ;;
		any) r=ok ;;
		esac
		tap "$r" "$desc $what: got $got"
	fi
done <"$events"
while IFS= read -r line; do
	tap ok "$line"
done <"$out/skips"

[ -s "$out/perf.err" ] && sed 's/^/# perf: /' "$out/perf.err"
printf '# %d tests, %d failed\n' "$t" "$bad"
[ "$bad" -eq 0 ]
