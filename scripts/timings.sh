#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print how long each step of the last 'make check' or 'make demo' took,
# from $LOGS/timings: one line per step, "END-TIME NAME SECONDS STATUS
# IDLE TOTAL" (IDLE, TOTAL: the machine's CPU ticks when it ended,
# lib.sh's cpu_ticks; the QEMU lines have none), and how much of the
# run's CPU time was idle, from the run's start ("... begin 0 0 WHAT IDLE
# TOTAL") to its last step.  Steps nest: check-vm includes rootfs,
# payload and the QEMU run.
#
#   timings.sh              print the last run (RECORD=1: and add it to
#                           bench/measured.md)
#   timings.sh --begin WHAT mark the start of a run (used by the Makefile)
#
# To measure a cold run:
#   rm -rf build ~/.cache/uaccess-probe; make check; make timings RECORD=1
set -eu
. "$(dirname -- "$0")/lib.sh"
f=$LOGS/timings
if [ "${1:-}" = --begin ]; then
	mkdir -p "$LOGS"
	printf '%s begin 0 0 %s %s\n' "$(date -u +%FT%TZ)" "${2:-run}" "$(cpu_ticks)" >>"$f"
	exit 0
fi
[ -s "$f" ] || die "no timings recorded yet: run 'make check' or 'make demo' first"
# timings: the last run's steps, one line each, and its wall clock.
timings() {
	printf 'machine: %s (vm-* lines name the accelerator used)\n' "$(machine_kind)"
	awk -v hz="$(getconf CLK_TCK)" '
		$2 == "begin" { n = 0; start = $1; what = $5; i0 = $6; t0 = $7; i1 = t1 = ""; next }
		{ line[++n] = $0 }
		NF >= 6 { i1 = $5; t1 = $6 }
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
			if (t0 != "" && t1 != "" && t1 > t0)
				printf "  %-26s %7d s of %d s (%d%%)\n", "idle CPU", (i1 - i0) / hz,
					(t1 - t0) / hz, 100 * (i1 - i0) / (t1 - t0)
			print start, end > "/dev/stderr"
		}' "$f" 2>"$BUILD/.timings-span"
	read -r start end <"$BUILD/.timings-span"
	rm -f "$BUILD/.timings-span"
	[ -n "$end" ] && printf '  %-26s %7d s\n' "total (wall clock)" \
		"$(( $(date -d "$end" +%s) - $(date -d "$start" +%s) ))"
}

timings | record "make timings of $(awk '$2 == "begin" { w = $5 } END { print "make " w }' "$f")"
