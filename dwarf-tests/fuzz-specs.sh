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
#                   checks for leaks, every N specs (default 8; see
#                   fuzz/spec-harness.c)
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
HARNESS=${HARNESS:-$(sh "$TOP/scripts/perf-specfuzz.sh" --path)}
VMLINUX=${VMLINUX:-$KOBJ/vmlinux}
VOCAB_DIR=$BUILD/spec-fuzz$GEN_TAG-vocab
BUILD=$BUILD/spec-fuzz$GEN_TAG
SPECS=${SPECS:-1000}
SEED=${SEED:-1}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${JOBS:-$(ncpus)}
RENEW=${RENEW:-8}
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
t0=$(date +%s)

# run_harness DIR FIRST LAST: specs FIRST to LAST (numbers, from 0) in
# one harness process; its records in DIR/run.rec, its sanitizer reports
# in DIR/san.log.PID, which the harness watches (-l: a report of UBSan,
# which lets perf go on, ends the process after its spec); LSan checks
# where the harness asks it to, not at the exit.
run_harness() {
	rm -f "$1"/san.log.*
	sanitizer_env "$1"
	ASAN_OPTIONS="$ASAN_OPTIONS:leak_check_at_exit=0"
	sed -n "$(($2 + 1)),$(($3 + 1))p" "$BUILD/specs" |
		PERF_HOME=$1/home offline_perf "$BUILD/env" "$HARNESS" -t "$FUZZ_TIMEOUT" \
			-r "$RENEW" -i "$2" -l "$1/san.log" "$VMLINUX" >"$1/run.rec" 2>"$1/run.err"
}

# report_site FILE: where a sanitizer's report says perf went wrong: the
# function of its first frame outside the sanitizers' own code.
report_site() {
	awk '/^ *#[0-9]+ 0x[0-9a-f]+ in / && !/libsanitizer|_interceptor_|__sanitizer/ {
		for (i = 1; i < NF; i++) if ($i == "in") { print $(i + 1); exit } }' "$1"
}

# report_kind FILE STATUS: signal or sanitizer (ASan's reports of a
# signal are "deadly signals"; without a report, a signal's exit status).
report_kind() {
	if [ -s "$1" ]; then
		if grep -q 'DEADLYSIGNAL\|AddressSanitizer: \(SEGV\|BUS\|FPE\|ILL\|ABRT\)' "$1"; then
			echo signal
		else
			echo sanitizer
		fi
	elif [ "$2" -gt 128 ]; then
		echo signal
	fi
}

# finding DIR I KIND: spec I is a finding of KIND, with DIR's report.
finding() {
	_f=$BUILD/findings/$2
	mkdir -p "$_f"
	_spec=$(sed -n "$(($2 + 1))p" "$BUILD/specs")
	printf '%s\n' "$_spec" >"$_f/spec"
	cp "$1/report" "$_f/report"
	cp "$1/run.rec" "$_f/records"
	_site=$(report_site "$_f/report")
	printf '%s%s\n' "$3" "${_site:+@$_site}" >"$_f/kind"
	_opt=${_spec#*	}
	{
		printf 'spec %s (%s) of seed %s: %s%s\n' "$2" "${_spec%%	*}" "$SEED" \
			"$3" "${_site:+ in $_site}"
		printf "  perf probe -k %s %s '%s'\n" "$VMLINUX" "${_opt%% *}" "${_opt#* }" |
			cut -c1-300
		printf '  or: %s -s %s -f %s -n 1 %s\n' "$gen" "$SEED" "$2" "$vocab"
	} >"$_f/what"
}

# worker W FIRST LAST: specs FIRST to LAST, in as many harness processes
# as findings take; the records in records.W, one line per process in
# runs.W ("FIRST LAST-RUN STATUS").
worker() {
	_w=$BUILD/w$1
	mkdir -p "$_w/home"
	_next=$2
	while [ "$_next" -le "$3" ]; do
		run_harness "$_w" "$_next" "$3"
		_rc=$?
		cat "$_w"/san.log.* >"$_w/report" 2>/dev/null
		cat "$_w/run.rec" >>"$BUILD/records.$1"
		if grep -q '^F ' "$_w/run.rec"; then
			sed -n 's/^F [0-9]* //p' "$_w/run.rec" >"$BUILD/broken.$1"
			return 1
		fi
		_last=$(awk '$1 == "S" { s = $2 } END { print s }' "$_w/run.rec")
		printf '%s %s %s\n' "$_next" "${_last:--}" "$_rc" >>"$BUILD/runs.$1"
		if grep -q '^E ' "$_w/run.rec"; then
			# A report of a process that ended well: at the exit
			if [ -s "$_w/report" ]; then
				finding "$_w" "$_next" sanitizer
				echo "the report came after the specs $_next-$3 ended" >>"$BUILD/findings/$_next/what"
			fi
			break
		fi
		[ -n "$_last" ] || {
			echo "harness died before a spec: $(tail -n 3 "$_w/run.err")" >"$BUILD/broken.$1"
			return 1
		}
		_leak=$(awk '$1 == "L" { print $2, $3 }' "$_w/run.rec")
		if [ -n "$_leak" ]; then
			# The group's specs ran; leak.W keeps the group and its report.
			_site=$(report_site "$_w/report")
			printf '%s %s\n' "$_leak" "${_site:-?}" >>"$BUILD/leaks.$1"
			cp "$_w/report" "$_w/leak.${_leak% *}"
			_next=$((${_leak#* } + 1))
			continue
		fi
		if grep -q "^R $_last\$" "$_w/run.rec"; then
			finding "$_w" "$_last" "$(report_kind "$_w/report" "$_rc")"
		elif grep -q "^T $_last\$" "$_w/run.rec"; then
			finding "$_w" "$_last" timeout
		elif grep -q "^X $_last\$" "$_w/run.rec"; then
			# perf called exit(): an answer, as the command line gives it
			echo "$_last" >>"$BUILD/exits.$1"
		elif ! grep -q "^V $_last " "$_w/run.rec"; then
			_kind=$(report_kind "$_w/report" "$_rc")
			finding "$_w" "$_last" "${_kind:-signal}"
			[ -n "$_kind" ] || echo "  (no report; exit status $_rc)" >>"$BUILD/findings/$_last/what"
		fi
		_next=$((_last + 1))
	done
	return 0
}

w=0
pids=
per=$(((made + JOBS - 1) / JOBS))
while [ "$w" -lt "$JOBS" ] && [ $((w * per)) -lt "$made" ]; do
	last=$(((w + 1) * per - 1))
	[ "$last" -lt "$made" ] || last=$((made - 1))
	: >"$BUILD/records.$w"
	worker "$w" $((w * per)) "$last" &
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
mkdir -p "$BUILD/alone/home"
nalone=0
while read -r first last site; do
	if [ "$(awk -v s="$site" '$3 == s' "$BUILD/leaks.done" | wc -l)" -ge "$PINPOINT" ]; then
		echo "$first $last $site not-run" >>"$BUILD/leaks.done"
		continue
	fi
	found=
	i=$first
	while [ "$i" -le "$last" ]; do
		run_harness "$BUILD/alone" "$i" "$i"
		cat "$BUILD"/alone/san.log.* >"$BUILD/alone/report" 2>/dev/null
		if grep -q '^L ' "$BUILD/alone/run.rec"; then
			finding "$BUILD/alone" "$i" sanitizer
			found=$i
		fi
		i=$((i + 1))
		nalone=$((nalone + 1))
	done
	if [ -z "$found" ]; then
		# the group leaks, none of its specs alone: keep the group's report
		f=$BUILD/findings/$first
		mkdir -p "$f"
		cat "$BUILD"/w*/leak."$first" >"$f/report" 2>/dev/null
		echo "sanitizer@$site" >"$f/kind"
		printf 'specs %s-%s of seed %s: a leak in %s, made by none of them alone\n' \
			"$first" "$last" "$SEED" "$site" >"$f/what"
		sed -n "$((first + 1)),$((last + 1))p" "$BUILD/specs" >"$f/spec"
	fi
	echo "$first $last $site ${found:-none}" >>"$BUILD/leaks.done"
done <"$BUILD/leaks"
seconds=$(($(date +%s) - t0))

# The figures.  Every spec has a verdict (V), or is a finding, or perf
# exited (X) in it.
cat "$BUILD"/records.* >"$BUILD/records"
cat "$BUILD"/exits.* 2>/dev/null >"$BUILD/exits"
awk -F'\t' '{ print NR - 1, $1 }' "$BUILD/specs" >"$BUILD/classes"
awk 'FILENAME ~ /classes$/ { class[$1] = $2; next }
	$1 == "V" { n[class[$2]]++; v[class[$2], $3]++; answered++
		if ($4 + 0 > most) { most = $4 + 0; at = $2 } }
	END {
		for (c in n) printf "D %-8s %6d specs: %6d accepted, %6d rejected\n", c, n[c], v[c, "accepted"], v[c, "rejected"]
		printf "A %d %d %d\n", answered, most, at
	}' "$BUILD/classes" "$BUILD/records" | sort >"$BUILD/figures"
# shellcheck disable=SC2046 # three numbers
set -- $(sed -n 's/^A //p' "$BUILD/figures")
answered=$1 longest=$2 longest_at=$3
runs=$(cat "$BUILD"/runs.* | wc -l)
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
