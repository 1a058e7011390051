#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The probe-spec fuzzer: random perf probe specs (fuzz/spec-gen.c: valid
# and broken chains of ->, . and [N], casts, @user and @kernel anywhere,
# $vars, $params, $retval, registers, symbols, names, escapes, very long
# ones, probe points, -V) drawn from the vocabulary of the real guest
# kernel's DWARF (make kernel), each run by perf's own probe code as
# "perf probe -k vmlinux -D SPEC" (or -V) would, offline (the generation's
# fixture README, scripts/offline-perf.sh), in the harness that links
# the sanitized perf's objects (fuzz/spec-harness.c, make perf-specfuzz),
# many specs per process.  perf may reject a spec; it must not crash (a
# signal), make a sanitizer report (ASan, UBSan, LSan: a leak) or take
# longer than FUZZ_TIMEOUT seconds on one.
#
# Environment:
#   SPECS=N         specs (default 1000)
#   SEED=N          the run's seed (default 1): spec I is made again
#                   with fuzz/spec-gen -s SEED -f I -n 1 VOCAB, alone
#   FUZZ_TIMEOUT=s  the longest a spec may take (default 10)
#   JOBS=N          harness processes at a time (default: one per CPU),
#                   each on its share of the specs
#   RENEW=N         the harness makes perf's symbol maps again, and
#                   checks for leaks, every N specs (default 32; see
#                   fuzz/spec-harness.c: making them, which reads the
#                   host's kallsyms, costs as much as 12 specs)
#   VMLINUX=path    the kernel (default: make kernel's)
#   HARNESS=path    the harness (default: make perf-specfuzz's)
# A finding listed in fuzz/known-findings.txt (not fixed yet) is a skip
# that says so.
# Its folder is build/spec-fuzz (build/spec-fuzz-GEN with KGEN=GEN): the
# specs, the harness's records (records.W, fuzz/spec-harness.c says
# what they are), and each finding in findings/I/ (the spec, the
# sanitizer's report, how to run it again).  The vocabulary of a kernel
# is made once, into build/spec-fuzz-vocab (-GEN).
#
# Output is TAP; its figures (specs of each class, accepted, rejected,
# harness processes, the longest spec, specs per second) are
# diagnostics.
set -u
HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
TOP=$(dirname -- "$HERE")
# shellcheck source=../scripts/lib.sh
. "$TOP/scripts/lib.sh"
# shellcheck source=fuzz/harness.sh
. "$HERE/fuzz/harness.sh"
HARNESS=${HARNESS:-$(sh "$TOP/scripts/perf-specfuzz.sh" --path)}
VMLINUX=${VMLINUX:-$KOBJ/vmlinux}
VOCAB_DIR=$BUILD/spec-fuzz$GEN_TAG-vocab
BUILD=$BUILD/spec-fuzz$GEN_TAG
SPECS=${SPECS:-1000}
SEED=${SEED:-1}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${JOBS:-$(ncpus)}
RENEW=${RENEW:-32}
# Runs of one spec alone, to find the one that leaked in a group: at most
# this many groups per kind of leak (where it was allocated).
PINPOINT=${PINPOINT:-3}

tap_header
tap_begin
for v in SPECS SEED FUZZ_TIMEOUT JOBS RENEW PINPOINT; do
	eval "_v=\$$v"
	case $_v in '' | *[!0-9]*) tap_bail "$v=$_v: a number" ;; esac
done
if [ "$JOBS" -eq 0 ] || [ "$RENEW" -eq 0 ]; then
	tap_bail "JOBS and RENEW: 1 or more"
fi
[ -x "$HARNESS" ] || tap_bail "no harness $HARNESS (make perf-specfuzz)"
[ -f "$VMLINUX" ] || tap_bail "no kernel $VMLINUX (make kernel)"

rm -rf "$BUILD"
mkdir -p "$BUILD/findings" "$VOCAB_DIR"
gen=$BUILD/spec-gen
cc -O2 -Wall -Wextra -Werror -o "$gen" "$HERE/fuzz/spec-gen.c" -ldw -lelf ||
	tap_bail "cannot build fuzz/spec-gen.c"

# The vocabulary, once per kernel (its build-id) and extractor.
vocab=$VOCAB_DIR/vocab
key=$({
	readelf -n "$VMLINUX" | awk '/Build ID:/ { print $3; exit }'
	cat "$HERE/fuzz/spec-gen.c"
} | inputs_key)
if ! stamp_matches "$vocab.stamp" "$key"; then
	"$gen" -x "$VMLINUX" >"$vocab.tmp" 2>"$VOCAB_DIR/spec-gen.err" ||
		tap_bail "spec-gen -x $VMLINUX failed: $(head -n 3 "$VOCAB_DIR/spec-gen.err")"
	mv "$vocab.tmp" "$vocab" && stamp_write "$vocab.stamp" "$key"
fi

offline_perf_env "$BUILD/env" "$TOP/$TRACEFS_README" || tap_bail "cannot create $BUILD/env"
"$gen" -s "$SEED" -n "$SPECS" "$vocab" >"$BUILD/specs" 2>"$BUILD/spec-gen.err" ||
	tap_bail "spec-gen made no specs: $(head -n 3 "$BUILD/spec-gen.err")"
made=$(wc -l <"$BUILD/specs")

# finding DIR SPECS I KIND: spec I is a finding of KIND, with DIR's
# report (fuzz/harness.sh calls it).
finding() {
	FINDING=$BUILD/findings/$3
	mkdir -p "$FINDING"
	_spec=$(sed -n "$(($3 + 1))p" "$2")
	printf '%s\n' "$_spec" >"$FINDING/spec"
	cp "$1/report" "$FINDING/report"
	cp "$1/run.rec" "$FINDING/records"
	_site=$(report_site "$FINDING/report")
	printf '%s%s\n' "$4" "${_site:+@$_site}" >"$FINDING/kind"
	_opt=${_spec#*	}
	{
		printf 'spec %s (%s) of seed %s: %s%s\n' "$3" "${_spec%%	*}" "$SEED" \
			"$4" "${_site:+ in $_site}"
		printf "  perf probe -k %s %s '%s'\n" "$VMLINUX" "${_opt%% *}" "${_opt#* }" |
			cut -c1-300
		printf '  or: %s -s %s -f %s -n 1 %s\n' "$gen" "$SEED" "$3" "$vocab"
	} >"$FINDING/what"
}

# leak_group SPECS FIRST LAST SITE REPORT: the group leaks, none of its
# specs alone: keep the group's report (fuzz/harness.sh calls it).
leak_group() {
	_f=$BUILD/findings/$2
	mkdir -p "$_f"
	cp "$5" "$_f/report"
	echo "sanitizer@$4" >"$_f/kind"
	printf 'specs %s-%s of seed %s: a leak in %s, made by none of them alone\n' \
		"$2" "$3" "$SEED" "$4" >"$_f/what"
	sed -n "$(($2 + 1)),$(($3 + 1))p" "$1" >"$_f/spec"
}

# The self-test: a report of UBSan's ends the harness after its line (R),
# in the sanitizers' log, which the worker takes as the line's finding.
# GCC 12's UBSan writes its reports to perf's stderr, not to that log
# (fuzz/harness.sh): the harness must find them there.  The harness's
# "-U" line is a signed overflow of its own.
st=$BUILD/selftest
mkdir -p "$st/home"
first=$(sed -n 1p "$BUILD/specs")
printf '%s\nselftest\t-U\n%s\n' "$first" "$first" >"$st/specs"
harness_run "$st" "$st/specs" 0 2 "$BUILD/env" "$VMLINUX"
st_rc=$?
cat "$st"/san.log.* >"$st/report" 2>/dev/null
if [ "$st_rc" -eq 22 ] && grep -q '^V 0 ' "$st/run.rec" && grep -q '^R 1$' "$st/run.rec" &&
	! grep -q '^S 2 ' "$st/run.rec" &&
	grep -q 'runtime error: signed integer overflow' "$st/report" &&
	[ "$(report_site "$st/report")" = ubsan_selftest ]; then
	tap_ok "self-test: a report of UBSan's (in perf's stderr) is a report of the spec it came in"
else
	tap_not_ok "self-test: a report of UBSan's (in perf's stderr) is a report of the spec it came in"
	{
		echo "exit status $st_rc"
		cat "$st/run.rec" "$st/report" "$st/run.err"
	} 2>&1 | head -n 30 | tap_diag
fi

t0=$(date +%s)
w=0
pids=
per=$(((made + JOBS - 1) / JOBS))
while [ "$w" -lt "$JOBS" ] && [ $((w * per)) -lt "$made" ]; do
	last=$(((w + 1) * per - 1))
	[ "$last" -lt "$made" ] || last=$((made - 1))
	: >"$BUILD/records.$w"
	harness_worker "$w" "$BUILD/specs" $((w * per)) "$last" "$BUILD/env" "$VMLINUX" &
	pids="$pids $!"
	w=$((w + 1))
done
# shellcheck disable=SC2086 # process ids
wait $pids
for b in "$BUILD"/broken.*; do
	[ -f "$b" ] && tap_bail "$(cat "$b")"
done

# Leaks: each group's specs alone, for at most PINPOINT groups of a site.
cat "$BUILD"/leaks.* 2>/dev/null >"$BUILD/leaks"
: >"$BUILD/leaks.done"
nalone=$(harness_pinpoint "$BUILD/alone" "$BUILD/specs" "$BUILD/env" "$BUILD/leaks.done" "$VMLINUX" \
	<"$BUILD/leaks")
seconds=$(($(date +%s) - t0))

# The figures.  Every spec has a verdict (V), or is a finding, or perf
# exited (X) in it.
cat "$BUILD"/records.* >"$BUILD/records"
cat "$BUILD"/exits.* 2>/dev/null >"$BUILD/exits"
awk -F'\t' '{ print NR - 1, $1 }' "$BUILD/specs" >"$BUILD/classes"
harness_figures specs "$BUILD/classes" "$BUILD/records" >"$BUILD/figures"
# shellcheck disable=SC2046 # three numbers
set -- $(sed -n 's/^A //p' "$BUILD/figures")
answered=$1 longest=$2 longest_at=$3
runs=$(cat "$BUILD"/runs.* | wc -l)
kept=$(awk '$1 == "K" { n += $2 } END { print n + 0 }' "$BUILD/records")
rss=$(awk '$1 == "K" && $3 > m { m = $3 } END { print int(m / 1024) }' "$BUILD/records")
nfind=$(find "$BUILD/findings" -name kind | wc -l)
nexit=$(wc -l <"$BUILD/exits")
{
	printf '%s specs of seed %s, from the vocabulary of %s (%s)\n' "$made" "$SEED" \
		"$VMLINUX" "$(tail -n 1 "$vocab" | sed 's/^# //')"
	sed -n 's/^D //p' "$BUILD/figures"
	printf '%s answered (accepted or rejected), %s where perf exited, %s findings\n' \
		"$answered" "$nexit" "$nfind"
	printf '%s harness processes (%s jobs, symbol maps made again every %s specs), %s more to find leaks\n' \
		"$runs" "$JOBS" "$RENEW" "$nalone"
	printf "%s calls of perf's served by what the harness keeps (the kernel's DWARF and symbols)\n" \
		"$kept"
	printf 'the largest harness process: %s MB resident\n' "$rss"
	printf 'the longest spec: %s ms, spec %s: %s\n' "$longest" "$longest_at" \
		"$(sed -n "$((longest_at + 1))p" "$BUILD/specs" | cut -f2 | cut -c1-160)"
	printf '%s s, %s specs/s\n' "$seconds" \
		"$(awk -v n="$made" -v s="$seconds" 'BEGIN { printf "%.1f", s ? n / s : n }')"
} | tap_diag
if [ "$made" -eq "$SPECS" ]; then
	tap_ok "spec-gen made the $SPECS specs"
else
	tap_not_ok "spec-gen made the $SPECS specs (it made $made)"
fi
# Valid chains that perf finds (the vocabulary is the kernel's): if few
# of them are accepted, the fuzzer tests perf's errors only.
valid=$(awk '$2 == "valid" { print $3, $5 }' "$BUILD/figures")
# shellcheck disable=SC2086 # two numbers
set -- $valid
if [ "${1:-0}" -gt 0 ] && [ $((${2:-0} * 100 / $1)) -ge 40 ]; then
	tap_ok "perf accepted ${2:-0} of the $1 valid specs (40% or more)"
else
	tap_not_ok "perf accepted ${2:-0} of the ${1:-0} valid specs (40% or more)"
fi
if [ $((answered + nexit + nfind)) -ge "$made" ]; then
	tap_ok "every spec was answered, or is a finding"
else
	tap_not_ok "every spec was answered, or is a finding ($answered answers, $nexit exits, $nfind findings of $made)"
fi

# The harness opens the kernel's DWARF once for many specs (without it,
# make fuzz's 100,000 specs take hours): a process that ran two specs or
# more was spared perf's second opening at least.
if [ "$runs" -ge "$made" ] || [ "$kept" -gt 0 ]; then
	tap_ok "the harness kept the kernel's DWARF and symbols between specs"
else
	tap_not_ok "the harness kept the kernel's DWARF and symbols between specs (no call spared: see fuzz/spec-harness.mk)"
fi

# The known findings (fuzz/known-findings.txt) of this fuzzer: fixture
# "vmlinux" (every generation) or "vmlinux@GEN", a pattern of the spec,
# the kind and where ("sanitizer@__match_charclass"), the reason.
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/fuzz/known-findings.txt" |
	awk -F'|' -v gen="vmlinux@$KGEN" '{
		for (i = 1; i <= 4; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i)
		r = $4; for (i = 5; i <= NF; i++) r = r "|" $i
		if ($1 == "vmlinux" || $1 == gen) print $2 "\t" $3 "\t" r }' >"$BUILD/known"
tab=$(printf '\t')
for k in "$BUILD"/findings/*/kind; do
	[ -f "$k" ] || continue
	d=$(dirname "$k")
	kind=$(cat "$k")
	spec=$(cut -f2 "$d/spec" | head -n 1)
	while IFS="$tab" read -r pattern kk reason; do
		# shellcheck disable=SC2254 # the pattern is a pattern
		case $spec in $pattern) ;; *) continue ;; esac
		[ "$kk" = "$kind" ] || [ "$kk" = "${kind%@*}" ] || continue
		printf '%s\t%s\n' "$kk" "$reason" >"$d/known"
		break
	done <"$BUILD/known"
done
# One skip per known finding, with how many specs hit it.
cat "$BUILD"/findings/*/known 2>/dev/null | cut -f1 | sort | uniq -c >"$BUILD/known.found"
while read -r n k; do
	eg=$(dirname "$(grep -l "^$k$tab" "$BUILD"/findings/*/known | head -n 1)")
	tap_skip "$k: $n specs, e.g. $(head -n 1 "$eg/what")" \
		"known finding: $(cut -f2 "$eg/known" | cut -c1-200)"
done <"$BUILD/known.found"
for what in signal sanitizer timeout; do
	case $what in
	signal) desc="perf was never killed by a signal" ;;
	sanitizer) desc="no sanitizer report (ASan, UBSan, LSan)" ;;
	timeout) desc="no spec took more than $FUZZ_TIMEOUT s" ;;
	esac
	found=
	for k in "$BUILD"/findings/*/kind; do
		if [ ! -f "$k" ] || [ -f "$(dirname "$k")/known" ]; then
			continue
		fi
		case $(cat "$k") in "$what" | "$what"@*) found="$found $(dirname "$k")" ;; esac
	done
	if [ -z "$found" ]; then
		tap_ok "$desc ($made specs)"
	else
		tap_not_ok "$desc ($made specs)"
		for f in $found; do
			cat "$f/what"
			sed -n '/ERROR\|runtime error\|SUMMARY/p' "$f/report" 2>/dev/null | head -n 3
		done | head -n 60 | tap_diag
		printf 'the findings, each with its spec and report: %s\n' "$BUILD/findings" | tap_diag
	fi
done
tap_done
