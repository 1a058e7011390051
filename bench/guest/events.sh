#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: make bench-events, in the guest (run.sh bench): how many
# openat() calls per second one CPU makes while a probe with a BTF
# argument records each of them, for a user string (do_sys_openat2's
# filename), a kernel string (do_filp_open's pathname->name) and a
# number (do_filp_open's op->open_flag), and without a probe; with the
# strict mode off and on where the kernel has it.  Each figure is a
# "bench:" diagnostic line, which bench/events.sh reads; the TAP line
# says that the probe recorded the right value while it was measured.
# requires: kprobe_events
# shellcheck source=../../qemu-image/guest/lib.sh
. /payload/guest/lib.sh

T=/sys/kernel/tracing
strict=/proc/sys/kernel/trace_probe_strict_uaccess
file=/tmp/bench-events-file
secs=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^uaccess\.bench_seconds=//p' | tail -n 1)
reps=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^uaccess\.bench_reps=//p' | tail -n 1)
: >"$file"
modes=off
[ -f "$strict" ] && modes="off on"

# define PROBE: the kprobe_events line of PROBE, and the value it must
# record, on two lines.
define() {
	case $1 in
	ustr) printf '%s\n%s\n' "p:bench/ev do_sys_openat2 v=filename:string" "v=\"$file\"" ;;
	kstr) printf '%s\n%s\n' "p:bench/ev do_filp_open v=pathname->name:string" "v=\"$file\"" ;;
	num) printf '%s\n%s\n' "p:bench/ev do_filp_open v=op->open_flag" "v=[0-9]" ;;
	esac
}

rep=1
while [ "$rep" -le "${reps:-3}" ]; do
	for probe in none ustr kstr num; do
		for mode in $modes; do
			[ -f "$strict" ] && { [ "$mode" = on ] && echo 1 || echo 0; } >"$strict"
			echo >"$T/kprobe_events"
			if [ "$probe" != none ]; then
				def=$(define "$probe" | sed -n 1p)
				want=$(define "$probe" | sed -n 2p)
				if ! echo "$def" >"$T/kprobe_events"; then
					fail "$probe, strict $mode: '$def' is accepted"
					continue
				fi
				echo 1 >"$T/events/bench/ev/enable"
			fi
			echo >"$T/trace"
			rate=$(/payload/bin/events-loop "$file" "${secs:-3}") ||
				{ fail "$probe, strict $mode: events-loop ran"; continue; }
			if [ "$probe" != none ]; then
				echo 0 >"$T/events/bench/ev/enable"
				got=$(grep -m 1 ' ev: ' "$T/trace" | sed 's/.*) //')
				# shellcheck disable=SC2254 # $want is a pattern
				case $got in
				$want*) ;;
				*)
					fail "$probe, strict $mode, run $rep: records $want (got: ${got:-no event})"
					continue
					;;
				esac
			fi
			echo "bench: probe=$probe strict=$mode rep=$rep rate=$rate" | diag
			pass "$probe, strict $mode, run $rep: $rate openat()/s${want:+, recording $want}"
			want=
		done
	done
	rep=$((rep + 1))
done
echo >"$T/kprobe_events"
[ -f "$strict" ] && echo 1 >"$strict"
exit 0
