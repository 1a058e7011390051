# SPDX-License-Identifier: GPL-2.0
# The proof suite's verdicts on a recorded run, sourced by proof.sh and by
# the parsers' tests (scripts/test-parsers.sh), which feed it
# recorded traces.  Needs scripts/tap.sh.
#
#   proof_judge EVENTS PROBES TRACE
#
# EVENTS: one line per event, "NAME<TAB>MUST<TAB>VALUE<TAB>DESCRIPTION",
# MUST one of right (every argument records VALUE), wrong (none does),
# any (the probe must fire), none (perf made no definition: a failure),
# nodef-ok and nodef-bad (a perf that must not be able to define the
# probe made no definition, or made one).
# PROBES: the kprobe_events lines the guest added ("p:GROUP/NAME[__K] ...";
# NAME__1, NAME__2 are the sites of one event).  TRACE: the trace file's
# lines that /init printed.  One TAP line per event, through tap_ok and
# tap_not_ok; $ARCH names the architecture in the descriptions.
# shellcheck shell=sh

# proof_results EVENTS PROBES TRACE: for every event, "NAME<TAB>ARGS<TAB>
# HITS<TAB>FIELDS<TAB>MATCHING<TAB>FIRST HIT": its number of arguments,
# init's hits (pid 1), the argument values read from them, and how many
# of these equal the workload's value.
proof_results() {
	awk -v events="$1" -v probes="$2" '
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
		# the first hit as it is, for a hit that cannot be parsed
		if (!(ev in raw))
			raw[ev] = s
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
				total[ev], same[ev], total[ev] == hits[ev] * nf[ev] ? first[ev] : raw[ev]
	}' "$3" | LC_ALL=C tr -c '\t\n[:print:]' '?'
}

proof_judge() {
	proof_results "$1" "$2" "$3" >"$3.results"
	while IFS='	' read -r ev must val desc; do
		line=$(grep "^$ev	" "$3.results" || true)
		nargs=$(printf '%s' "$line" | cut -f2)
		hits=$(printf '%s' "$line" | cut -f3)
		total=$(printf '%s' "$line" | cut -f4)
		same=$(printf '%s' "$line" | cut -f5)
		got=$(printf '%s' "$line" | cut -f6 | cut -c1-100)
		case $must in
		right) what="records \"$val\"" ;;
		wrong) what="does not record \"$val\"" ;;
		any) what="records something (the kernel hides a wrong choice on $ARCH)" ;;
		nodef-ok)
			tap_ok "$ARCH: $desc"
			continue
			;;
		*)
			tap_not_ok "$ARCH: $desc"
			continue
			;;
		esac
		if [ "${hits:-0}" -eq 0 ]; then
			tap_not_ok "$ARCH: $desc $what: the probe never fired"
		elif [ "$total" -ne $((hits * nargs)) ]; then
			tap_not_ok "$ARCH: $desc $what: cannot parse the trace: $got"
		else
			r=1
			case $must in
			right) [ "$same" -ne "$total" ] || r=0 ;;
			wrong) [ "$same" -ne 0 ] || r=0 ;;
			any) r=0 ;;
			esac
			tap_result "$r" "$ARCH: $desc $what: got $got" || true
		fi
	done <"$1"
	return 0
}
