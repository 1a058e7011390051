#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the kernel's ftracetest kprobe directory, with the seed
# series' kprobe_args_user.tc required to pass.
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
echo "# ftracetest exit status $?"

# "[N] description<TAB>[RESULT]"; the kept log N-name.tc-log.* names case N.
sed -n 's/^\[\([0-9]*\)\].*\[\([A-Z]*\)\]$/\1 \2/p' "$logs/summary" >"$logs/results"
[ -s "$logs/results" ] || { fail "ftracetest ran no test case"; diag <"$logs/summary"; exit 0; }

seen_user=
while read -r n result; do
	log=
	for l in "$logs/$n"-*-log.*; do [ -f "$l" ] && log=$l && break; done
	tc=$(basename "${log:-$n-unknown-log}")
	tc=${tc#"$n"-}
	tc=${tc%-log.*}
	reason=$(awk -v tc="kprobe/$tc" '$1 == tc { $1 = ""; sub(/^ /, ""); print }' "$known")
	[ "$tc" = kprobe_args_user.tc ] && seen_user=$result
	case $result in
	PASS) pass "kprobe/$tc" ;;
	UNSUPPORTED | UNTESTED | XFAIL)
		if [ "$tc" = kprobe_args_user.tc ]; then
			fail "kprobe/$tc: $result, but the seed series' user access must be supported"
		else
			skip "kprobe/$tc" "$result"
		fi
		;;
	*)
		if [ -n "$reason" ] && [ "$tc" != kprobe_args_user.tc ]; then
			skip "kprobe/$tc" "known failure ($result): $reason"
		else
			fail "kprobe/$tc: $result"
			[ -n "$log" ] && tail -n 30 "$log" | diag
		fi
		;;
	esac
done <"$logs/results"

[ -n "$seen_user" ] || fail "kprobe/kprobe_args_user.tc did not run"
exit 0
