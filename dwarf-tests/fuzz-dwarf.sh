#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The DWARF mutation fuzzer: the fixtures of dwarf-tests/ with their
# debug information mutated (fuzz/dwarf-mutate.c: loops and dangling
# references in type chains and annotations, strings, abbreviations,
# truncated sections), each fed to the sanitized perf (make perf-asan)
# as one of its fixture's -V or -D cases of cases.txt, offline as
# dwarf-tests/run.sh runs perf.  perf may refuse an input; it must not
# crash (a signal), make a sanitizer report or run longer than
# FUZZ_TIMEOUT seconds.
#
# Environment:
#   FUZZ_PERF=path  the sanitized perf (default: make perf-asan's)
#   FIXTURES=dir    the fixtures' ELF files, FIXTURE.vmlinux (default:
#                   built here by run.sh with clang-16, as the suites do)
#   INPUTS=N        mutated inputs (default 200)
#   SEED=N          the run's seed (default 1): input I is mutated with
#                   seed SEED * 1000000 + I, so any one is made again
#                   with fuzz/dwarf-mutate -s THAT FIXTURE OUT
#   FUZZ_TIMEOUT=s  the longest a run may take (default 10)
#   JOBS=N          runs at a time (default: one per CPU)
# A finding listed in fuzz/known-findings.txt (not fixed yet) is a skip
# that says so.
# Its folder is build/dwarf-fuzz (build/dwarf-fuzz-GEN with KGEN=GEN);
# each finding is kept in its findings/I/: the input, its mutations,
# perf's command and output, the report.
#
# Output is TAP; its figures (inputs, perf's exit statuses, the longest
# run) are diagnostics.
set -u
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
TOP=$(dirname -- "$HERE")
# shellcheck source=../scripts/lib.sh
. "$TOP/scripts/lib.sh"
FUZZ_PERF=${FUZZ_PERF:-$(sh "$TOP/scripts/perf-asan.sh" --path)}
BUILD=$BUILD/dwarf-fuzz$GEN_TAG
FIXTURES=${FIXTURES:-}
INPUTS=${INPUTS:-200}
SEED=${SEED:-1}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${JOBS:-$(ncpus)}

tap_header
for v in INPUTS SEED FUZZ_TIMEOUT JOBS; do
	eval "_v=\$$v"
	case $_v in '' | *[!0-9]*) tap_bail "$v=$_v: a number" ;; esac
done

rm -rf "$BUILD"
mkdir -p "$BUILD/findings"
if [ -z "$FIXTURES" ]; then
	# run.sh builds every fixture first; no case matches ONLY.
	FIXTURES=$BUILD/fixtures/clang-16
	ONLY=- COMPILERS=clang-16 BUILD=$BUILD/fixtures PERF=$FUZZ_PERF \
		sh "$HERE/run.sh" >"$BUILD/fixtures.tap" 2>&1
fi
ls "$FIXTURES"/*.vmlinux >/dev/null 2>&1 ||
	tap_bail "no fixtures in $FIXTURES (see $BUILD/fixtures.tap)"
mutate=$BUILD/dwarf-mutate
cc -O2 -Wall -Wextra -Werror -o "$mutate" "$HERE/fuzz/dwarf-mutate.c" ||
	tap_bail "cannot build fuzz/dwarf-mutate.c"

# The cases: "FIXTURE<TAB>README<TAB>OPTION<TAB>ARGUMENT", the -V and -D
# ones of cases.txt whose fixture was built.
awk -F'|' '!/^[[:space:]]*(#|$)/ && NF == 7 {
	for (i = 1; i <= 5; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i)
	opt = $5; sub(/ .*/, "", opt); arg = $5; sub(/^[^ ]* */, "", arg)
	if (opt == "-V" || opt == "-D") printf "%s\t%s\t%s\t%s\n", $3, $4, opt, arg
}' "$HERE/cases.txt" | while IFS="$(printf '\t')" read -r fx readme opt arg; do
	[ -f "$FIXTURES/$fx.vmlinux" ] && printf '%s\t%s\t%s\t%s\n' "$fx" "$readme" "$opt" "$arg"
done >"$BUILD/cases"
ncases=$(wc -l <"$BUILD/cases")
[ "$ncases" -gt 0 ] || tap_bail "no -V or -D case of cases.txt has a fixture in $FIXTURES"

for readme in "$HERE"/tracefs/*/README; do
	v=$(basename "$(dirname "$readme")")
	offline_perf_env "$BUILD/env/$v" "$readme" || tap_bail "cannot create $BUILD/env/$v"
done
offline_perf_env "$BUILD/env/none" none || tap_bail "cannot create $BUILD/env/none"

# worker W: inputs W+1, W+1+JOBS, ...; one line per input:
# "I RC SECONDS", and the finding's folder where there is one.
worker() {
	_w=$BUILD/w$1
	mkdir -p "$_w/home"
	sanitizer_env "$_w"
	_i=$(($1 + 1))
	while [ "$_i" -le "$INPUTS" ]; do
		_line=$(sed -n "$(((_i - 1) % ncases + 1))p" "$BUILD/cases")
		_fx=${_line%%"$(printf '\t')"*}
		_rest=${_line#*"$(printf '\t')"}
		_readme=${_rest%%"$(printf '\t')"*}
		_rest=${_rest#*"$(printf '\t')"}
		_opt=${_rest%%"$(printf '\t')"*}
		_arg=${_rest#*"$(printf '\t')"}
		_seed=$((SEED * 1000000 + _i))
		"$mutate" -s "$_seed" "$FIXTURES/$_fx.vmlinux" "$_w/input.elf" >"$_w/mutations" 2>&1 ||
			{ echo "$_i mutate-failed 0"; _i=$((_i + JOBS)); continue; }
		_t0=$(date +%s)
		PERF_HOME=$_w/home offline_perf "$BUILD/env/$_readme" timeout -k 5 "$FUZZ_TIMEOUT" \
			"$FUZZ_PERF" probe -k "$_w/input.elf" "$_opt" "$_arg" >"$_w/out" 2>&1
		_rc=$?
		_t=$(($(date +%s) - _t0))
		_why=$(perf_crash "$_rc")
		rm -f "$_w/report"
		if sanitizer_take "$_w" "$_w/report" "perf probe -k input.elf $_opt '$_arg'"; then
			_why="${_why:+$_why, }sanitizer"
		fi
		echo "$_i $_rc $_t"
		if [ -n "$_why" ]; then
			_f=$BUILD/findings/$_i
			mkdir -p "$_f"
			cp "$_w/input.elf" "$_f/input.elf"
			cp "$_w/mutations" "$_f/mutations"
			cp "$_w/out" "$_f/output"
			[ ! -f "$_w/report" ] || cp "$_w/report" "$_f/report"
			printf 'fixture %s, seed %s: perf probe -k input.elf %s %s (README %s): %s, exit %s\n' \
				"$_fx" "$_seed" "$_opt" "'$_arg'" "$_readme" "$_why" "$_rc" >"$_f/what"
			printf '%s|%s %s|%s\n' "$_fx" "$_opt" "$_arg" "$_why" >"$_f/key"
		fi
		_i=$((_i + JOBS))
	done
}

w=0
pids=
while [ "$w" -lt "$JOBS" ]; do
	worker "$w" >"$BUILD/results.$w" &
	pids="$pids $!"
	w=$((w + 1))
done
# shellcheck disable=SC2086 # process ids
wait $pids
cat "$BUILD"/results.* >"$BUILD/results"

tap_begin
ran=$(grep -cv ' mutate-failed ' "$BUILD/results")
longest=$(awk 'BEGIN { m = 0 } $3 > m { m = $3 } END { print m }' "$BUILD/results")
{
	printf '%s inputs from %s cases of %s fixtures, seed %s; perf ran %s times\n' \
		"$INPUTS" "$ncases" "$(cut -f1 "$BUILD/cases" | sort -u | wc -l)" "$SEED" "$ran"
	printf "perf's exit statuses: %s\n" "$(awk '{ n[$2]++ } END { for (r in n) printf "%s: %d, ", r, n[r] }' "$BUILD/results" | sed 's/, $//')"
	printf 'the longest run: %s s\n' "$longest"
} | tap_diag
if [ "$ran" -eq "$INPUTS" ]; then
	tap_ok "dwarf-mutate made every one of the $INPUTS inputs"
else
	tap_not_ok "dwarf-mutate made every one of the $INPUTS inputs"
	grep ' mutate-failed ' "$BUILD/results" | head -n 5 | tap_diag
fi
# The known findings (fuzz/known-findings.txt), as "FIXTURE|ARGS|KIND".
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/fuzz/known-findings.txt" |
	awk -F'|' '{ for (i = 1; i <= 4; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i)
		r = $4; for (i = 5; i <= NF; i++) r = r "|" $i
		print $1 "|" $2 "|" $3 "\t" r }' >"$BUILD/known"
tab=$(printf '\t')
for f in "$BUILD"/findings/*/key; do
	[ -f "$f" ] || continue
	k=$(cat "$f")
	r=$(grep -F "$k$tab" "$BUILD/known" | head -n 1 | cut -f2)
	if [ -n "$r" ]; then
		tap_skip "${k##*|}: $(cat "$(dirname "$f")/what")" "known finding: $r"
		rm -f "$(dirname "$f")/what"
	fi
done
for what in signal sanitizer timeout; do
	case $what in
	signal) desc="perf was never killed by a signal" ;;
	sanitizer) desc="no sanitizer report" ;;
	timeout) desc="no run took more than $FUZZ_TIMEOUT s" ;;
	esac
	found=$(grep -l "$what" "$BUILD"/findings/*/what 2>/dev/null)
	if [ -z "$found" ]; then
		tap_ok "$desc ($ran runs)"
	else
		tap_not_ok "$desc ($ran runs)"
		for f in $found; do
			cat "$f"
			sed -n '1,30p' "$(dirname "$f")/report" 2>/dev/null
		done | head -n 80 | tap_diag
		printf 'the findings, each with its input: %s\n' "$BUILD/findings" | tap_diag
	fi
done
tap_done
