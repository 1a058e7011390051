#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench-events: what a probe hit costs with the kernel series
# against the stock kernel of the same generation and configuration.
# Boots the x86_64 guest twice, with the stock kernel (KCC=stock) and
# with the series' kernel, and runs bench/guest/events.sh in each: one
# CPU's openat() calls per second while a kprobe event with a BTF
# argument records every call (a user string, a kernel string, a
# number), and without a probe, BENCH_REPS times each (default 3) for
# BENCH_SECONDS each (default 3), with the series' strict mode off and
# on.  Prints the median rates and, per probe, the series' rate over the
# stock kernel's, measured in this one run.
#
#   make bench-events [RECORD=1]   (KGEN=6.12 unless given)
#
# RECORD=1 appends the table to bench/measured.md with the machine kind.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

secs=${BENCH_SECONDS:-3}
reps=${BENCH_REPS:-3}
out=$BUILD/bench-events$GEN_TAG
mkdir -p "$out"

# run KCC: the guest's "bench:" lines with KCC's kernel, into $out/KCC.
run() {
	info BENCH "$1 kernel: $reps x $secs s per probe and mode" >&2
	if ! KCC=$1 TESTS=events VM_APPEND="uaccess.bench_seconds=$secs uaccess.bench_reps=$reps" \
		sh "$TOP/qemu-image/run.sh" bench >"$out/$1.tap"; then
		grep -E '^not ok|^Bail' "$out/$1.tap" >&2 || true
		die "the $1 kernel's guest did not measure every case (TAP: $out/$1.tap)"
	fi
	sed -n 's/^# *bench: //p' "$out/$1.tap" >"$out/$1"
	[ -s "$out/$1" ] || die "no figures from the $1 kernel's guest (TAP: $out/$1.tap)"
}
run stock
run clang

# rates KCC PROBE STRICT: the rates of these runs, sorted.
rates() {
	sed -n "s/^probe=$2 strict=$3 rep=[0-9]* rate=//p" "$out/$1" | sort -n
}
# median KCC PROBE STRICT: their median; range: "min-max".
median() {
	rates "$@" | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
range() {
	rates "$@" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) print lo "-" hi }'
}

{
	echo "openat()/s of one CPU (median of $reps runs of $secs s), stock and series kernel of $KGEN_NAME:"
	echo "probe (BTF argument)               strict  stock   series  series/stock  runs: stock, series"
	for p in none ustr kstr num; do
		case $p in
		none) what="no probe" ;;
		ustr) what="do_sys_openat2 filename:string" ;;
		kstr) what="do_filp_open pathname->name:string" ;;
		num) what="do_filp_open op->open_flag" ;;
		esac
		s=$(median stock "$p" off)
		for m in off on; do
			c=$(median clang "$p" "$m")
			[ -n "$c" ] || continue
			printf '%-34s %-6s %7s %7s  %-12s  %s, %s\n' "$what" "$m" "$s" "$c" \
				"$(awk -v c="$c" -v s="$s" 'BEGIN { printf "%.3f", c / s }')" \
				"$(range stock "$p" off)" "$(range clang "$p" "$m")"
		done
	done
	echo "(the stock kernel has no strict mode: its rate is the same in both rows)"
} | record "make bench-events: the cost of a probe hit, series over stock"
