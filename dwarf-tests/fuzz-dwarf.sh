#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The DWARF mutation fuzzer: the fixtures of dwarf-tests/ with their
# debug information mutated (fuzz/dwarf-mutate.c: loops and dangling
# references in type chains and annotations, strings, abbreviations,
# truncated sections), each fed to the sanitized perf's probe code as
# one of its fixture's -V or -D cases of cases.txt, offline as
# dwarf-tests/run.sh runs perf.  perf may refuse an input; it must not
# crash (a signal), make a sanitizer report (ASan, UBSan, LSan: a leak)
# or run longer than FUZZ_TIMEOUT seconds.
#
# It runs in the harness that links the sanitized perf's objects
# (fuzz/spec-harness.c, make perf-specfuzz), as the probe-spec fuzzer
# does (fuzz/harness.sh runs it for both), many inputs per process: each
# line "-k INPUT -D ARG" (or -V) reads its own mutated file as the
# kernel.  Inputs are mutated a thousand at a time (dwarf-mutate -b),
# into a folder that the harness then reads; one harness process serves
# one README (the case's), which perf reads once per process.  A finding
# made in the harness is run once more by the sanitized perf itself
# (FUZZ_PERF), alone, to confirm it: the harness's shared state must not
# make findings of its own.
#
# Environment:
#   FUZZ_PERF=path  the sanitized perf, for confirming findings (default:
#                   make perf-asan's)
#   HARNESS=path    the harness (default: make perf-specfuzz's)
#   FIXTURES=dir    the fixtures' ELF files, FIXTURE.vmlinux (default:
#                   built here by run.sh with clang-16, as the suites do)
#   INPUTS=N        mutated inputs (default 200)
#   SEED=N          the run's seed (default 1): input I is mutated with
#                   seed SEED * 1000000 + I, so any one is made again
#                   with fuzz/dwarf-mutate -s THAT FIXTURE OUT
#   FUZZ_TIMEOUT=s  the longest an input may take (default 10)
#   JOBS=N          harness processes at a time (default: one per CPU)
#   RENEW=N         the harness checks for leaks every N inputs (default
#                   8); a group that leaked is run again an input at a
#                   time, for at most PINPOINT=N groups (default 3) of a
#                   site where the leaked memory was allocated
# A finding listed in fuzz/known-findings.txt (not fixed yet) is a skip
# that says so.
# Its folder is build/dwarf-fuzz (build/dwarf-fuzz-GEN with KGEN=GEN):
# the harness's records (records.W, fuzz/spec-harness.c says what they
# are, numbered by input), and each finding in findings/I/: the input
# (input.elf), its mutations, the harness's output and report, perf's
# own output and report (perf.output, perf.report), what (the finding,
# and whether perf alone repeated it), again (how to run it again).
#
# Output is TAP; its figures (inputs, accepted and rejected by option,
# harness processes, the longest input, inputs per second) are
# diagnostics.
set -u
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
TOP=$(dirname -- "$HERE")
# shellcheck source=../scripts/lib.sh
. "$TOP/scripts/lib.sh"
# shellcheck source=fuzz/harness.sh
. "$HERE/fuzz/harness.sh"
FUZZ_PERF=${FUZZ_PERF:-$(sh "$TOP/scripts/perf-asan.sh" --path)}
HARNESS=${HARNESS:-$(sh "$TOP/scripts/perf-specfuzz.sh" --path)}
BUILD=$BUILD/dwarf-fuzz$GEN_TAG
FIXTURES=${FIXTURES:-}
INPUTS=${INPUTS:-200}
SEED=${SEED:-1}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${JOBS:-$(ncpus)}
RENEW=${RENEW:-8}
PINPOINT=${PINPOINT:-3}
# Inputs mutated at a time by a worker, then run: their files are
# deleted after (100,000 inputs of a few kilobytes each would be gigabytes).
CHUNK=1000
FINDINGS=$BUILD/findings
tab=$(printf '\t')

tap_header
tap_begin
for v in INPUTS SEED FUZZ_TIMEOUT JOBS RENEW PINPOINT; do
	eval "_v=\$$v"
	case $_v in '' | *[!0-9]*) tap_bail "$v=$_v: a number" ;; esac
done
if [ "$JOBS" -eq 0 ] || [ "$RENEW" -eq 0 ] || [ "$FUZZ_TIMEOUT" -eq 0 ]; then
	tap_bail "JOBS, RENEW and FUZZ_TIMEOUT: 1 or more"
fi
# awk computes the seeds, in doubles: exact up to 2^53
[ "${#SEED}" -le 9 ] || tap_bail "SEED=$SEED: at most 9 digits"
# the harness's "-k PATH" ends at a blank
case $BUILD in *[[:space:]]*) tap_bail "BUILD=$BUILD: a folder without blanks" ;; esac
[ -x "$HARNESS" ] || tap_bail "no harness $HARNESS (make perf-specfuzz)"
[ -x "$FUZZ_PERF" ] || tap_bail "no sanitized perf $FUZZ_PERF (make perf-asan)"

rm -rf "$BUILD"
mkdir -p "$FINDINGS"
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
}' "$HERE/cases.txt" | while IFS="$tab" read -r fx readme opt arg; do
	[ -f "$FIXTURES/$fx.vmlinux" ] && printf '%s\t%s\t%s\t%s\n' "$fx" "$readme" "$opt" "$arg"
done >"$BUILD/cases"
ncases=$(wc -l <"$BUILD/cases")
[ "$ncases" -gt 0 ] || tap_bail "no -V or -D case of cases.txt has a fixture in $FIXTURES"

for readme in "$HERE"/tracefs/*/README; do
	v=$(basename "$(dirname "$readme")")
	offline_perf_env "$BUILD/env/$v" "$readme" || tap_bail "cannot create $BUILD/env/$v"
done
offline_perf_env "$BUILD/env/none" none || tap_bail "cannot create $BUILD/env/none"

# input_case I: "FIXTURE<TAB>README<TAB>OPTION<TAB>ARGUMENT" of input I.
input_case() {
	sed -n "$((($1 - 1) % ncases + 1))p" "$BUILD/cases"
}

# finding DIR SPECS N KIND (fuzz/harness.sh calls it): line N of SPECS,
# "I<TAB>-k INPUT OPTION ARGUMENT", is a finding of KIND in the harness;
# DIR has its records and report.  It is kept in FINDINGS/I, with what
# perf itself does with the input, alone (MUTATIONS: the mutations of
# the input's chunk, dwarf-mutate's output).
finding() {
	_f_line=$(sed -n "$(($3 + 1))p" "$2")
	_f_i=${_f_line%%"$tab"*}
	_f_k=${_f_line#*"$tab"-k }
	_f_input=${_f_k%% *}
	_f_case=$(input_case "$_f_i")
	_f_fx=${_f_case%%"$tab"*}
	_f_rest=${_f_case#*"$tab"}
	_f_readme=${_f_rest%%"$tab"*}
	_f_rest=${_f_rest#*"$tab"}
	_f_opt=${_f_rest%%"$tab"*}
	_f_arg=${_f_rest#*"$tab"}
	_f_seed=$((SEED * 1000000 + _f_i))
	FINDING=$FINDINGS/$_f_i
	mkdir -p "$FINDING"
	# -R: a special file (the self-test's FIFO) stays one, unread
	cp -R "$_f_input" "$FINDING/input.elf"
	awk -v s="seed $_f_seed:" '$1 " " $2 == s { on = 1; print; next }
		$1 == "seed" { on = 0 } on' "$MUTATIONS" >"$FINDING/mutations"
	sed -n "s/^O $3 //p" "$1/run.rec" >"$FINDING/output"
	[ ! -s "$1/report" ] || cp "$1/report" "$FINDING/report"
	echo "$4" >"$FINDING/kind"
	printf '%s|%s %s|%s\n' "$_f_fx" "$_f_opt" "$_f_arg" "$4" >"$FINDING/key"
	_f_cmd="perf probe -k input.elf $_f_opt '$_f_arg'"
	{
		printf 'cd %s\n' "$FINDING"
		printf '%s -s %s %s input.elf\n' "$mutate" "$_f_seed" "$FIXTURES/$_f_fx.vmlinux"
		printf '(. %s/scripts/lib.sh && offline_perf %s %s probe -k input.elf %s %s)\n' \
			"$TOP" "$BUILD/env/$_f_readme" "$FUZZ_PERF" "$_f_opt" "'$_f_arg'"
	} >"$FINDING/again"
	# The confirmation: perf itself, alone, as the fuzzer ran it before
	# the harness (a report of LSan's comes at its exit).
	mkdir -p "$1/alone/home"
	rm -f "$1"/alone/san.log.*
	(
		sanitizer_env "$1/alone"
		cd "$FINDING" && PERF_HOME=$1/alone/home offline_perf "$BUILD/env/$_f_readme" \
			timeout -k 5 "$FUZZ_TIMEOUT" "$FUZZ_PERF" probe -k input.elf "$_f_opt" "$_f_arg" \
			>"$FINDING/perf.output" 2>&1
	)
	_f_rc=$?
	_f_why=$(perf_crash "$_f_rc")
	if sanitizer_take "$1/alone" "$FINDING/perf.report" "$_f_cmd" "$FINDING/perf.output"; then
		_f_why="${_f_why:+$_f_why, }sanitizer"
	fi
	printf '%s\n' "${_f_why:-no}" >"$FINDING/confirmed"
	{
		printf 'input %s: fixture %s, seed %s: %s (README %s): %s in the harness\n' \
			"$_f_i" "$_f_fx" "$_f_seed" "$_f_cmd" "$_f_readme" "$4"
		if [ -n "$_f_why" ]; then
			printf '  perf alone repeats it: %s, exit status %s\n' "$_f_why" "$_f_rc"
		else
			printf '  perf alone does not repeat it: exit status %s\n' "$_f_rc"
		fi
	} >"$FINDING/what"
}

# leak_group SPECS FIRST LAST SITE REPORT (fuzz/harness.sh calls it):
# inputs of lines FIRST to LAST leaked, none of them alone.
leak_group() {
	_f_i=$(sed -n "$(($2 + 1))p" "$1" | cut -f1)
	FINDING=$FINDINGS/$_f_i-group
	mkdir -p "$FINDING"
	cp "$5" "$FINDING/report"
	echo sanitizer >"$FINDING/kind"
	echo no >"$FINDING/confirmed"
	sed -n "$(($2 + 1)),$(($3 + 1))p" "$1" >"$FINDING/lines"
	printf 'inputs %s of seed %s: a leak in %s, made by none of them alone\n' \
		"$(cut -f1 "$FINDING/lines" | tr '\n' ' ')" "$SEED" "$4" >"$FINDING/what"
}

# chunk W A B: worker W's inputs A to B: mutated in one run of
# dwarf-mutate, then run in one harness process per README (more if
# findings end one), with SPECS lines "I<TAB>-k INPUT OPTION ARGUMENT";
# the records, numbered by input, go to records.W.
chunk() {
	_c_in=$BUILD/in$1
	rm -rf "$_c_in"
	mkdir -p "$_c_in"
	awk -F'\t' -v a="$2" -v b="$3" -v s="$SEED" -v fx="$FIXTURES" -v dir="$_c_in" '
		{ f[NR - 1] = $1 }
		END { for (i = a; i <= b; i++)
			printf "%.0f %s/%s.vmlinux %s/%d.elf\n", s * 1000000 + i, fx, f[(i - 1) % NR], dir, i }' \
		"$BUILD/cases" >"$_c_in/list"
	"$mutate" -b <"$_c_in/list" >"$_c_in/mutations" 2>"$_c_in/mutate.err"
	sed -n 's/^dwarf-mutate: stdin:[0-9]*: seed \([0-9]*\): failed$/\1/p' "$_c_in/mutate.err" |
		awk -v s="$SEED" '{ printf "%.0f\n", $1 - s * 1000000 }' >"$_c_in/failed"
	cat "$_c_in/failed" >>"$BUILD/failed.$1"
	awk -F'\t' -v a="$2" -v b="$3" -v dir="$_c_in" -v cls="$BUILD/classes.$1" '
		FILENAME == ARGV[1] { bad[$1] = 1; next }
		{ k = nc++; r[k] = $2; o[k] = $3; g[k] = $4 }
		END { for (i = a; i <= b; i++) {
			if (i in bad) continue
			k = (i - 1) % nc
			printf "%d\t-k %s/%d.elf %s %s\n", i, dir, i, o[k], g[k] > (dir "/seg." r[k])
			printf "%d %s\n", i, o[k] >> cls
		} }' "$_c_in/failed" "$BUILD/cases"
	MUTATIONS=$_c_in/mutations
	for _c_seg in "$_c_in"/seg.*; do
		[ -f "$_c_seg" ] || continue
		rm -f "$BUILD/records.s$1" "$BUILD/exits.s$1" "$BUILD/leaks.s$1"
		harness_worker "s$1" "$_c_seg" 0 $(($(wc -l <"$_c_seg") - 1)) \
			"$BUILD/env/${_c_seg##*/seg.}" || {
			cp "$BUILD/broken.s$1" "$BUILD/broken.$1"
			return 1
		}
		# the leaked groups, while their inputs are there
		[ ! -f "$BUILD/leaks.s$1" ] ||
			harness_pinpoint "$BUILD/ws$1/alone" "$_c_seg" "$BUILD/env/${_c_seg##*/seg.}" \
				"$BUILD/leaks.done.$1" <"$BUILD/leaks.s$1" >>"$BUILD/alone.$1"
		# lines to inputs
		awk 'FILENAME == ARGV[1] { split($0, f, "\t"); n[FNR - 1] = f[1]; next }
			$1 == "L" { print "L", n[$2], n[$3]; next }
			$1 != "E" { sub(/^[A-Z] [0-9]+/, $1 " " n[$2]) } 1' \
			"$_c_seg" "$BUILD/records.s$1" >>"$BUILD/records.$1"
		[ ! -f "$BUILD/exits.s$1" ] ||
			awk 'FILENAME == ARGV[1] { split($0, f, "\t"); n[FNR - 1] = f[1]; next } { print n[$1] }' \
				"$_c_seg" "$BUILD/exits.s$1" >>"$BUILD/exits.$1"
	done
	cat "$BUILD/runs.s$1" >>"$BUILD/runs.$1" 2>/dev/null
	rm -f "$BUILD/runs.s$1"
	rm -rf "$_c_in"
}

# worker W: chunks W, W + JOBS, ... of the inputs.
worker() {
	_c=$1
	while [ $((_c * size)) -lt "$INPUTS" ]; do
		_b=$(((_c + 1) * size))
		[ "$_b" -le "$INPUTS" ] || _b=$INPUTS
		chunk "$1" $((_c * size + 1)) "$_b" || return 1
		_c=$((_c + JOBS))
	done
}

# The self-test: the harness must see an input that hangs perf (there is
# no known one: findings get fixed), and perf alone must confirm it.  A
# FIFO as the kernel does: perf's open() waits for a writer that never
# comes.  The lines around it must be answered (the worker starts a
# harness process again after the timeout).  2 s: the fixture's lines
# take milliseconds, also on a loaded machine.
st=$BUILD/selftest
mkdir -p "$st/findings"
mkfifo "$st/hang.elf" || tap_bail "mkfifo $st/hang.elf failed"
case1=$(input_case 1)
set -- "$FIXTURES/${case1%%"$tab"*}.vmlinux" "$(printf '%s\n' "$case1" | cut -f3-4 | tr '\t' ' ')"
printf '1\t-k %s %s\n' "$1" "$2" "$st/hang.elf" "$2" "$1" "$2" >"$st/specs"
(FINDINGS=$st/findings MUTATIONS=/dev/null FUZZ_TIMEOUT=2 harness_worker selftest "$st/specs" \
	0 2 "$BUILD/env/$(printf '%s\n' "$case1" | cut -f2)") >"$st/out" 2>&1
if grep -q '^T 1$' "$BUILD/records.selftest" && grep -q '^V 0 ' "$BUILD/records.selftest" &&
	grep -q '^V 2 ' "$BUILD/records.selftest" &&
	[ "$(cat "$st/findings/1/kind" 2>/dev/null)" = timeout ] &&
	[ "$(cat "$st/findings/1/confirmed")" = timeout ]; then
	tap_ok "self-test: the harness and perf alone time out on an input that hangs perf, the next runs"
else
	tap_not_ok "self-test: the harness and perf alone time out on an input that hangs perf, the next runs"
	cat "$BUILD/records.selftest" "$st/findings/1/what" "$st/out" 2>&1 | head -n 30 | tap_diag
fi

t0=$(date +%s)
# Chunks of up to CHUNK inputs, at least one per worker.
size=$(((INPUTS + JOBS - 1) / JOBS))
[ "$size" -le "$CHUNK" ] || size=$CHUNK
[ "$size" -gt 0 ] || size=1
w=0
pids=
while [ "$w" -lt "$JOBS" ]; do
	: >"$BUILD/records.$w"
	: >"$BUILD/failed.$w"
	: >"$BUILD/classes.$w"
	worker "$w" &
	pids="$pids $!"
	w=$((w + 1))
done
# shellcheck disable=SC2086 # process ids
wait $pids
for b in "$BUILD"/broken.[0-9]*; do
	[ -f "$b" ] && tap_bail "$(cat "$b")"
done
seconds=$(($(date +%s) - t0))

# The figures.  Every input has a verdict (V), or is a finding, or perf
# exited (X) in it.
cat "$BUILD"/records.[0-9]* >"$BUILD/records"
cat "$BUILD"/classes.[0-9]* >"$BUILD/classes"
cat "$BUILD"/failed.[0-9]* >"$BUILD/failed"
cat "$BUILD"/exits.[0-9]* 2>/dev/null >"$BUILD/exits"
harness_figures inputs "$BUILD/classes" "$BUILD/records" >"$BUILD/figures"
# shellcheck disable=SC2046 # three numbers
set -- $(sed -n 's/^A //p' "$BUILD/figures")
answered=$1 longest=$2 longest_at=$3
ran=$(wc -l <"$BUILD/classes")
nfailed=$(wc -l <"$BUILD/failed")
nexit=$(wc -l <"$BUILD/exits")
nfind=$(find "$FINDINGS" -name kind | wc -l)
runs=$(cat "$BUILD"/runs.[0-9]* 2>/dev/null | wc -l)
nalone=$(cat "$BUILD"/alone.[0-9]* 2>/dev/null | awk '{ n += $1 } END { print n + 0 }')
{
	printf '%s inputs from %s cases of %s fixtures, seed %s; %s mutated and run\n' \
		"$INPUTS" "$ncases" "$(cut -f1 "$BUILD/cases" | sort -u | wc -l)" "$SEED" "$ran"
	sed -n 's/^D //p' "$BUILD/figures"
	printf '%s answered (accepted or rejected), %s where perf exited, %s findings\n' \
		"$answered" "$nexit" "$nfind"
	printf '%s harness processes (%s jobs, a README each, leaks checked every %s inputs), %s inputs more to find leaks\n' \
		"$runs" "$JOBS" "$RENEW" "$nalone"
	c=$(input_case "${longest_at:-1}")
	printf 'the longest input: %s ms, input %s: %s %s\n' "$longest" "$longest_at" \
		"$(printf '%s\n' "$c" | cut -f1)" "$(printf '%s\n' "$c" | cut -f3-4 | tr '\t' ' ')"
	printf '%s s, %s inputs/s\n' "$seconds" \
		"$(awk -v n="$ran" -v s="$seconds" 'BEGIN { printf "%.1f", s ? n / s : n }')"
} | tap_diag
if [ "$nfailed" -eq 0 ] && [ "$ran" -eq "$INPUTS" ]; then
	tap_ok "dwarf-mutate made every one of the $INPUTS inputs"
else
	tap_not_ok "dwarf-mutate made every one of the $INPUTS inputs"
	cat "$BUILD"/in*/mutate.err 2>/dev/null | head -n 5 | tap_diag
	printf 'inputs not made: %s\n' "$(head -n 10 "$BUILD/failed" | tr '\n' ' ')" | tap_diag
fi
if [ $((answered + nexit + nfind)) -ge "$ran" ]; then
	tap_ok "every input was answered, or is a finding"
else
	tap_not_ok "every input was answered, or is a finding ($answered answers, $nexit exits, $nfind findings of $ran)"
fi

# The known findings (fuzz/known-findings.txt), as "FIXTURE|ARGS|KIND".
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/fuzz/known-findings.txt" |
	awk -F'|' '{ for (i = 1; i <= 4; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i)
		r = $4; for (i = 5; i <= NF; i++) r = r "|" $i
		print $1 "|" $2 "|" $3 "\t" r }' >"$BUILD/known"
for f in "$FINDINGS"/*/key; do
	[ -f "$f" ] || continue
	k=$(cat "$f")
	r=$(grep -F "$k$tab" "$BUILD/known" | head -n 1 | cut -f2)
	if [ -n "$r" ]; then
		tap_skip "${k##*|}: $(head -n 1 "$(dirname "$f")/what")" "known finding: $r"
		echo "$r" >"$(dirname "$f")/known"
	fi
done
# A finding counts as perf's when perf alone repeats it; one that it
# does not is the harness's doubt, reported on its own.
for what in signal sanitizer timeout unconfirmed; do
	case $what in
	signal) desc="perf was never killed by a signal" ;;
	sanitizer) desc="no sanitizer report (ASan, UBSan, LSan)" ;;
	timeout) desc="no input took more than $FUZZ_TIMEOUT s" ;;
	unconfirmed) desc="perf alone repeats every finding of the harness" ;;
	esac
	found=
	for k in "$FINDINGS"/*/kind; do
		d=$(dirname "$k")
		if [ ! -f "$k" ] || [ -f "$d/known" ]; then
			continue
		fi
		if [ "$(cat "$d/confirmed")" = no ]; then
			[ "$what" = unconfirmed ] && found="$found $d"
		elif [ "$(cat "$k")" = "$what" ]; then
			found="$found $d"
		fi
	done
	if [ -z "$found" ]; then
		tap_ok "$desc ($ran inputs)"
	else
		tap_not_ok "$desc ($ran inputs)"
		for f in $found; do
			cat "$f/what"
			sed -n '/ERROR\|runtime error\|SUMMARY/p' "$f/report" "$f/perf.report" 2>/dev/null | head -n 3
		done | head -n 60 | tap_diag
		printf 'the findings, each with its input and how to run it again: %s\n' "$FINDINGS" | tap_diag
	fi
done
tap_done
