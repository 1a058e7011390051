#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the kernel's ftracetest kprobe directory, with the seed
# series' kprobe_args_user.tc and kernel/'s strict-mode and dereference
# cases required to pass.
# One TAP line per .tc file; a FAIL listed in known-failures.txt is
# reported as a skip with its reason, any other FAIL fails the run.
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

ft=/payload/ftrace
known=/payload/known-failures.txt
logs=/tmp/ftracetest-logs
[ -x "$ft/ftracetest" ] || { fail "ftracetest is not in the payload"; exit 0; }

rm -rf "$logs"
mkdir -p "$logs"
cd "$ft" || exit 1
./ftracetest -k -l "$logs" test.d/kprobe/ >"$logs/summary" 2>&1
echo "ftracetest exit status $?" | diag

# "[N] description<TAB>[RESULT]"; the kept log N-name.tc-log.* names case N.
sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' "$logs/summary" >"$logs/results"
[ -s "$logs/results" ] || { fail "ftracetest ran no test case"; diag <"$logs/summary"; exit 0; }

# These must run and pass: no skip, no known failure.
required="kprobe_args_user.tc kprobe_args_strict_uaccess.tc kprobe_args_deref_user.tc"
is_required() { case " $required " in *" $1 "*) return 0 ;; esac; return 1; }
seen=
while read -r n result; do
	log=
	for l in "$logs/$n"-*-log.*; do [ -f "$l" ] && log=$l && break; done
	tc=$(basename "${log:-$n-unknown-log}")
	tc=${tc#"$n"-}
	tc=${tc%-log.*}
	reason=$(awk -v tc="kprobe/$tc" '$1 == tc { $1 = ""; sub(/^ /, ""); print }' "$known")
	is_required "$tc" && seen="$seen $tc"
	case $result in
	PASS) pass "kprobe/$tc" ;;
	UNSUPPORTED | UNTESTED | XFAIL)
		if is_required "$tc"; then
			fail "kprobe/$tc: $result, but this case must pass"
		else
			skip "kprobe/$tc" "$result"
		fi
		;;
	*)
		if [ -n "$reason" ] && ! is_required "$tc"; then
			skip "kprobe/$tc" "known failure ($result): $reason"
		else
			fail "kprobe/$tc: $result"
			[ -n "$log" ] && tail -n 30 "$log" | diag
		fi
		;;
	esac
done <"$logs/results"

for tc in $required; do
	case " $seen " in *" $tc "*) ;; *) fail "kprobe/$tc did not run" ;; esac
done
exit 0
