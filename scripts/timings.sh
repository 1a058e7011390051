#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print how long each step of the last 'make check' or 'make demo' took,
# from $LOGS/timings: one line per step, "END-TIME NAME SECONDS STATUS".
# Steps nest: check-vm includes rootfs, payload and the QEMU run.
#
#   timings.sh              print the last run
#   timings.sh --begin WHAT mark the start of a run (used by the Makefile)
#
# To measure a cold run:  rm -rf build ~/.cache/uaccess-probe; make check; make timings
set -eu
. "$(dirname -- "$0")/lib.sh"
f=$LOGS/timings
if [ "${1:-}" = --begin ]; then
	mkdir -p "$LOGS"
	printf '%s begin 0 0 %s\n' "$(date -u +%FT%TZ)" "${2:-run}" >>"$f"
	exit 0
fi
[ -s "$f" ] || die "no timings recorded yet: run 'make check' or 'make demo' first"
printf 'machine: %s, %s CPUs, %s, %s (vm-* lines name the accelerator used)\n' "$(uname -m)" "$(ncpus)" \
	"$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)" \
	"$([ -w /dev/kvm ] && echo "/dev/kvm present" || echo "no /dev/kvm")"
awk '
	$2 == "begin" { n = 0; start = $1; what = $5; next }
	{ line[++n] = $0 }
	END {
		printf "run: make %s, started %s\n", what, start
		for (i = 1; i <= n; i++) {
			split(line[i], a, " ")
			if (a[2] ~ /first-line-ms$/)
				printf "  %-26s %7.1f s\n", a[2], a[3] / 1000
			else
				printf "  %-26s %7d s%s\n", a[2], a[3], a[4] == 0 ? "" : "  (exit " a[4] ")"
			end = a[1]
		}
		print start, end > "/dev/stderr"
	}' "$f" 2>"$BUILD/.timings-span"
read -r start end <"$BUILD/.timings-span"
rm -f "$BUILD/.timings-span"
[ -n "$end" ] && printf '  %-26s %7d s\n' "total (wall clock)" \
	"$(( $(date -d "$end" +%s) - $(date -d "$start" +%s) ))"
