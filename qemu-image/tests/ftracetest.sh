#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the kernel's ftracetest kprobe and dynevent directories;
# the cases of the payload's ftrace-required.txt must pass (the kernel
# series' own, and the seed series' kprobe_args_user.tc unless the
# generation lists it as a known failure).
# One TAP line per .tc file; a FAIL listed in the generation's known
# failures (the payload's known-failures.txt) is reported as a skip with
# its reason, any other FAIL fails the run.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

ft=/payload/ftrace
known=/payload/known-failures.txt
# one line, blank-separated
required=$(tr '\n' ' ' </payload/ftrace-required.txt)
logs=/tmp/ftracetest-logs
[ -x "$ft/ftracetest" ] || { fail "ftracetest is not in the payload"; exit 0; }
[ -n "$required" ] || { fail "the payload names no required ftracetest case"; exit 0; }

is_required() { case " $required " in *" $1 "*) return 0 ;; esac; return 1; }
seen=
for d in kprobe dynevent; do
	[ -d "$ft/test.d/$d" ] || { fail "$d: no test.d/$d in the payload"; continue; }
	rm -rf "$logs"
	mkdir -p "$logs"
	(cd "$ft" && ./ftracetest -k -l "$logs" "test.d/$d/") >"$logs/summary" 2>&1
	echo "ftracetest test.d/$d exit status $?" | diag

	# "[N] description<TAB>[RESULT]"; the kept log N-name.tc-log.* names case N.
	sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' "$logs/summary" >"$logs/results"
	[ -s "$logs/results" ] || { fail "$d: ftracetest ran no test case"; diag <"$logs/summary"; continue; }

	while read -r n result; do
		log=
		for l in "$logs/$n"-*-log.*; do [ -f "$l" ] && log=$l && break; done
		tc=$(basename "${log:-$n-unknown-log}")
		tc=$d/${tc#"$n"-}
		tc=${tc%-log.*}
		reason=$(awk -v tc="$tc" '$1 == tc { $1 = ""; sub(/^ /, ""); print }' "$known")
		is_required "$tc" && seen="$seen $tc"
		case $result in
		PASS) pass "$tc" ;;
		UNSUPPORTED | UNTESTED | XFAIL)
			if is_required "$tc"; then
				fail "$tc: $result, but this case must pass"
			else
				skip "$tc" "$result"
			fi
			;;
		*)
			if [ -n "$reason" ] && ! is_required "$tc"; then
				skip "$tc" "known failure ($result): $reason"
			else
				fail "$tc: $result"
				[ -n "$log" ] && tail -n 30 "$log" | diag
			fi
			;;
		esac
	done <"$logs/results"
done

for tc in $required; do
	case " $seen " in *" $tc "*) ;; *) fail "$tc did not run" ;; esac
done
exit 0
