#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side DWARF fixture tests for perf probe's __user handling.
#
# Builds the fixtures in fixtures/ (C, and hand-written DWARF assembly for
# encodings no compiler here emits) with every compiler, links each one
# like a tiny vmlinux (vmlinux.lds) and runs every case of cases.txt as
#   perf probe -k FIXTURE.vmlinux -D|-V 'SPEC'
# i.e. offline kernel (kprobe) definitions only.  Nothing is ever loaded
# into the running kernel: perf only runs with -D/-V, and its tracefs is a
# fixture directory holding nothing but a README (see tracefs/).
#
# Environment:
#   PERF=path        perf binary (default: $TOP/build/perf/perf)
#   EXPECT=patched   check the patched perf's column of cases.txt
#                    (EXPECT=target, its old name, is the same)
#   EXPECT=stock     check the stock perf's column
#   BUILD=dir        scratch directory (default: $TOP/build/dwarf-tests)
#   COMPILERS=list   compilers to build the fixtures with, one worker each,
#                    run in parallel (default: "clang-14 clang-16")
#   CASES=file       case file (default: cases.txt next to this script)
#   ONLY=pattern     only run the cases whose id matches this shell pattern
#   IDS=file         only run the cases whose id FILE lists, one per line
#                    ('#' starts a comment); an id that no case of CASES
#                    has fails (the series suite runs the fixes series'
#                    perf on probe-fixes.txt this way)
#   VERBOSE=1        show perf's output for passing cases too
#   KGEN=GEN         the kernel generation of PERF (default: the default
#                    generation): cases "ID@OTHER" are left out
#   CRASH_TIMEOUT=s  how long a case whose stock column wants a hang
#                    ("crash: timeout") runs before it counts as one
#                    (default 5; a fixture's run takes a fraction of a
#                    second)
#   SANITIZERS=1     PERF was built with AddressSanitizer and
#                    UndefinedBehaviorSanitizer (make perf-asan): each of
#                    their reports, leaks included, is kept per case and
#                    fails the compiler's "no sanitizer report" result
#   ABSTRACT=1       compare what matters for __user only, for compilers
#                    whose registers, stack offsets and type names differ
#                    from clang's (GCC): each dereference's memory (user or
#                    kernel) and the string types; see abstract()
#   NO_TAGS=1        the compilers emit no tags (GCC without the user_dwarf
#                    plugin): every C fixture must build without annotations,
#                    the hand-written DWARF fixtures and their cases are
#                    skipped
#
# Output is TAP (scripts/tap.sh); the last line is "N passed, N failed,
# N skipped" and the exit status is non-zero if and only if something
# failed.  $BUILD/results.CC keeps each compiler's records (see report()),
# among them one "G" line per case with what perf printed, for the
# suites that compare two runs (dwarf-tests/gcc-plugin/fixtures.sh stock).
set -u

HERE=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
TOP=$(dirname -- "$HERE")
# shellcheck source=../scripts/tap.sh
. "$TOP/scripts/tap.sh"
# shellcheck source=../scripts/offline-perf.sh
. "$TOP/scripts/offline-perf.sh"
PERF=${PERF:-$TOP/build/perf/perf}
EXPECT=${EXPECT:-patched}
BUILD=${BUILD:-$TOP/build/dwarf-tests}
COMPILERS=${COMPILERS:-clang-14 clang-16}
CASES=${CASES:-$HERE/cases.txt}
ONLY=${ONLY:-*}
IDS=${IDS:-}
VERBOSE=${VERBOSE:-0}
NO_TAGS=${NO_TAGS:-0}
ABSTRACT=${ABSTRACT:-0}
SANITIZERS=${SANITIZERS:-0}
CRASH_TIMEOUT=${CRASH_TIMEOUT:-5}
# The kernel generation whose perf this is (KGEN, as scripts/lib.sh has
# it): a case "ID@GEN" runs on that generation only.
GEN=${KGEN:-$(cat "$TOP/kernel/generations/default")}

# Everything a fixture is compiled with: kernel-like code generation (no
# PIC, kernel code model, no red zone), -O2 unless the fixture asks for
# something else with a "FIXTURE-CFLAGS:" line.
FIXTURE_CFLAGS="-g -gdwarf-5 -O2 -fno-inline -ffreestanding -fno-builtin \
-fno-pic -mcmodel=kernel -mno-red-zone -fno-stack-protector \
-fno-asynchronous-unwind-tables -fno-unwind-tables -Wall"

# Workers write records, report() turns them into TAP (tap_records):
#   "R ok DESC" / "R notok DESC" / "R skip DESC<TAB>REASON" / "D diagnostic"
#   "G DESC<TAB>OUTPUT<TAB>EXIT": what perf printed for a case (normalized)
ok() {
	printf 'R ok %s\n' "$1"
}

not_ok() {
	printf 'R notok %s\n' "$1"
}

skip() {
	printf 'R skip %s\t%s\n' "$1" "$2"
}

diag() {
	printf '%s\n' "$@" | sed 's/^/D /'
}

bail() {
	tap_not_ok "$*"
	tap_summary 0 1 0 | tap_diag
	tap_bail "$*"
}

# trim STRING: strip leading and trailing blanks
trim() {
	_t=$1
	_t=${_t#"${_t%%[![:space:]]*}"}
	_t=${_t%"${_t##*[![:space:]]}"}
	printf '%s' "$_t"
}

# normalize < text: the output lines joined with " ;; ", blanks squeezed,
# and the event name of a definition dropped ("p:probe/f_1 " becomes
# "p: "), since perf may name events differently.
normalize() {
	sed -e 's/[[:space:]][[:space:]]*/ /g' -e 's/^ //' -e 's/ $//' \
		-e '/^$/d' -e 's/^\([pr]\):[^ ]* /\1: /' |
		awk 'NR > 1 { printf " ;; " } { printf "%s", $0 }'
}

# abstract < normalized output: registers and stack slots (where one
# compiler may keep in a register what the other spills) become %R, a
# user dereference
# U(...), a kernel one K(...), fetch types other than string and ustring
# are dropped, and a variable of -V keeps only its name, "__user" and
# its '*'s.  What is left is the same for GCC and clang DWARF.
abstract() {
	sed -E -e 's/[+-][0-9]+\(%[sb]p\)/%R/g' \
		-e 's/%[a-z0-9]+/%R/g' -e 's/\+u-?[0-9]+\(/U(/g' \
		-e 's/[+-][0-9]+\(/K(/g' -e 's/:[sux](8|16|32|64)//g' |
		awk 'BEGIN { RS = " ;; "; ORS = "" }
		{
			sub(/\n$/, "")
			if ($0 ~ /^(Available|@<)/ || $0 ~ /^p:/ || $0 ~ /=/) {
				out = $0
			} else {
				out = ""
				for (i = 1; i < NF; i++) {
					stars = $i
					gsub(/[^*]/, "", stars)
					if ($i ~ /__user/) out = out "__user" stars " "
					else if (stars != "") out = out stars " "
				}
				out = out $NF
			}
			print (NR > 1 ? " ;; " : "") out
		}'
}

first_tool() {
	for _tool in "$@"; do
		if command -v "$_tool" >/dev/null 2>&1; then
			printf '%s' "$_tool"
			return 0
		fi
	done
	return 1
}

# count_tags ELF: print "<annotations> <btf_type_tag("user") annotations>"
count_tags() {
	if [ -n "$DWARFDUMP" ]; then
		"$DWARFDUMP" --debug-info "$1"
	else
		eu-readelf --debug-dump=info "$1"
	fi | awk '
		/name/ && /"btf_(type|decl)_tag"/ { all++; tt = /btf_type_tag/; next }
		tt && /const_value/ { if ($0 ~ /"user"/) user++ }
		{ tt = 0 }
		END { printf "%d %d\n", all, user }'
}

# annotation_abbrevs ELF: how many abbreviations of ELF's DWARF describe
# an annotation DIE (clang's DW_TAG_LLVM_annotation, 0x6000, or GCC 16's
# DW_TAG_GNU_annotation, 0x6001), by the tag each one declares: by name
# (llvm-dwarfdump), or by number where the dumper does not know it
# (elfutils 0.188 prints 0x6000 as "lo_user+0x1f80"), never by an
# attribute (DW_AT_GNU_annotation) or an offset; fails if the dumper does
annotation_abbrevs() {
	if [ -n "$DWARFDUMP" ]; then
		_aa=$("$DWARFDUMP" --debug-abbrev "$1") || return 1
	else
		_aa=$(eu-readelf --debug-dump=abbrev "$1") || return 1
	fi
	printf '%s\n' "$_aa" | grep -c -E -e 'DW_TAG_(LLVM|GNU)_annotation' \
		-e 'DW_TAG_[A-Za-z_]*(0x)?600[01]([^0-9A-Fa-f]|$)' \
		-e 'tag: (lo_user\+0x1f8[01]|0x600[01]|(LLVM|GNU)_annotation)$'
	return 0
}

# run_perf VARIANT ELF OPTION ARG: run perf in the fake environment,
# leaving its output in $OUT and $ERR and its exit status in $RC
run_perf() {
	_readme=$1 _elf=$2
	shift 2
	# -vD: -D, with perf's reason for each dereference on stderr
	case $1 in
	-vD) shift; set -- -v -D "$@" ;;
	esac
	# shellcheck disable=SC2086 # $TIMEOUT is empty or "timeout N"
	PERF_HOME=$WORK/home offline_perf "$ENVDIR/$_readme" \
		$TIMEOUT "$PERF" probe -k "$_elf" "$@" >"$OUT" 2>"$ERR"
	RC=$?
	RUNS=$((RUNS + 1))
	[ "$SANITIZERS" = 1 ] &&
		sanitizer_take "$WORK" "$WORK/san.reports" "perf probe -k $_elf $*" "$ERR"
	return 0
}

# build_fixtures CC: build $WORK/<fixture>.vmlinux for every fixture
build_fixtures() {
	for src in "$HERE"/fixtures/*.c "$HERE"/fixtures/*.S; do
		fx=$(basename "$src")
		fx=${fx%.?}
		cflags=$FIXTURE_CFLAGS
		# Hand-written DWARF (GCC 16's encoding): assemble it as it is.
		case $src in *.S) cflags= ;; esac
		extra=$(sed -n 's/.*FIXTURE-CFLAGS:[[:space:]]*//p' "$src")
		tags=$(sed -n 's/.*FIXTURE-TAGS:[[:space:]]*//p' "$src")
		if [ "$NO_TAGS" = 1 ]; then
			case $src in *.S) continue ;; esac
			tags=none
		fi
		obj=$WORK/$fx.o
		elf=$WORK/$fx.vmlinux
		# shellcheck disable=SC2086 # flag lists are split on purpose
		if ! "$1" $cflags $extra -I"$HERE/fixtures" \
			-fdebug-prefix-map="$HERE"=. \
			-c "$src" -o "$obj" >"$WORK/$fx.log" 2>&1 ||
			! "$LD" -T "$HERE/vmlinux.lds" -o "$elf.tmp" "$obj" \
				>>"$WORK/$fx.log" 2>&1; then
			not_ok "$1: build $fx"
			diag "$(cat "$WORK/$fx.log")"
			continue
		fi
		# A fixture whose tags were silently lost would test nothing:
		# check that the DW_TAG_LLVM_annotation DIEs really are there.
		# One that must have none is checked on its abbreviations:
		# a dumper that follows its type chains may not survive it
		# (fixtures/typeloops.S).
		if [ "$tags" = none ]; then
			if ! _abbr=$(annotation_abbrevs "$elf.tmp" 2>>"$WORK/$fx.log"); then
				not_ok "$1: build $fx: its abbreviations cannot be read"
				diag "$(cat "$WORK/$fx.log")"
			elif [ "$_abbr" -eq 0 ]; then
				ok "$1: build $fx (no annotations, as wanted)"
				mv "$elf.tmp" "$elf"
			else
				not_ok "$1: build $fx: $_abbr annotation abbreviations, wanted none"
			fi
			continue
		fi
		# shellcheck disable=SC2046 # two numbers
		set -- "$1" $(count_tags "$elf.tmp")
		if [ "$3" -gt 0 ]; then
			ok "$1: build $fx ($3 btf_type_tag(\"user\") of $2 annotations)"
			mv "$elf.tmp" "$elf"
		else
			not_ok "$1: build $fx: no btf_type_tag(\"user\") annotation in its DWARF"
		fi
	done
}

# check_case DESC WANT README ELF OPTION ARG
check_case() {
	_desc=$1 _want=$2
	shift 2
	# A hang that the stock column wants is cut short.
	_timeout=$TIMEOUT
	[ "$_want" = 'crash: timeout' ] && TIMEOUT="timeout $CRASH_TIMEOUT"
	run_perf "$@"
	TIMEOUT=$_timeout
	_got=$(normalize <"$OUT")
	_good=1
	case $_want in
	'crash:'*)
		[ "$(perf_crash "$RC")" = "$(trim "${_want#crash:}")" ] || _good=0
		;;
	'error:'*)
		_sub=$(trim "${_want#error:}")
		[ "$RC" -ne 0 ] || _good=0
		grep -qiF -- "$_sub" "$ERR" || _good=0
		;;
	*)
		_sub=
		_once=
		_exp=$_want
		case $_want in
		*' && stderr:'*)
			_exp=$(trim "${_want%% && stderr:*}")
			_sub=$(trim "${_want#* && stderr:}")
			;;
		*' && once:'*)
			_exp=$(trim "${_want%% && once:*}")
			_once=$(trim "${_want#* && once:}")
			;;
		esac
		_exp=$(printf '%s\n' "$_exp" | normalize)
		if [ "$ABSTRACT" = 1 ]; then
			_exp=$(printf '%s\n' "$_exp" | abstract)
			_got=$(printf '%s\n' "$_got" | abstract)
		fi
		[ "$RC" -eq 0 ] && [ "$_got" = "$_exp" ] || _good=0
		if [ -n "$_sub" ] && ! grep -qiF -- "$_sub" "$ERR"; then
			_good=0
		fi
		if [ -n "$_once" ] && [ "$(grep -ciF -- "$_once" "$ERR")" -ne 1 ]; then
			_good=0
		fi
		;;
	esac
	# A timeout or a signal is a crash, not an answer, unless the
	# case wants that crash.
	case $_want in
	'crash:'*) ;;
	*) [ -z "$(perf_crash "$RC")" ] || _good=0 ;;
	esac
	printf 'G %s\t%s\t%s\n' "$_desc" "$_got" "$RC"
	if [ $_good -eq 1 ]; then
		ok "$_desc"
		[ "$VERBOSE" = 1 ] && diag "got: $_got" "exit: $RC"
	else
		not_ok "$_desc"
		diag "expected: $_want" "got:      $_got" "exit:     $RC"
		[ -s "$ERR" ] && diag "stderr:" "$(sed -n 1,6p "$ERR")"
	fi
	return 0
}

# run_cases CC: run every case of $CASES that applies to CC
# cases.txt: "id | compilers | fixture | readme | perf-args | stock | target"
# (see README.md).  Blank lines and lines starting with # are ignored.
run_cases() {
	cc=$1
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		case $line in
		'' | '#'*) continue ;;
		esac
		old_ifs=$IFS
		IFS='|'
		set -f
		# shellcheck disable=SC2086 # split on '|'
		set -- $line
		set +f
		IFS=$old_ifs
		if [ $# -ne 7 ]; then
			not_ok "$cc cases.txt:$lineno: malformed line ($# fields, want 7)"
			continue
		fi
		id=$(trim "$1")
		ccs=$(trim "$2")
		fx=$(trim "$3")
		readme=$(trim "$4")
		args=$(trim "$5")
		stock=$(trim "$6")
		target=$(trim "$7")
		# shellcheck disable=SC2254 # $ONLY is a pattern
		case $id in
		$ONLY) ;;
		*) continue ;;
		esac
		# "ID@GEN": the case of one kernel generation's perf only
		case $id in
		*@*) [ "${id##*@}" = "$GEN" ] || continue ;;
		esac
		[ -z "$IDS" ] || grep -qxF -- "$id" "$BUILD/ids" || continue
		case ",$(printf '%s' "$ccs" | tr -d ' ')," in
		*",$cc,"* | *',*,'*) ;;
		*) continue ;;
		esac
		# "=" is the stock column; "= && ..." adds a stderr check to it
		case $target in
		=) target=$stock ;;
		'= &&'*) target="$stock ${target#=}" ;;
		esac
		want=$target
		[ "$EXPECT" = stock ] && want=$stock
		opt=${args%% *}
		arg=$(trim "${args#"$opt"}")
		desc="$id [$cc $readme] $args"
		elf=$WORK/$fx.vmlinux

		case $opt in
		-D | -V | -L | -vD) ;;
		*)
			# never anything that could add or enable a probe
			not_ok "$desc"
			diag "cases.txt:$lineno: only -D, -vD, -V and -L are allowed, not '$opt'"
			continue
			;;
		esac
		if [ "$readme" != none ] && [ ! -f "$HERE/tracefs/$readme/README" ]; then
			not_ok "$desc"
			diag "cases.txt:$lineno: no README variant tracefs/$readme"
		elif [ ! -f "$HERE/fixtures/$fx.c" ] && [ ! -f "$HERE/fixtures/$fx.S" ]; then
			not_ok "$desc"
			diag "cases.txt:$lineno: no fixture fixtures/$fx.c or .S"
		elif [ -z "$want" ]; then
			not_ok "$desc"
			diag "cases.txt:$lineno: empty $EXPECT expectation"
		elif [ "$EXPECT" = patched ] && [ "${want#crash:}" != "$want" ]; then
			not_ok "$desc"
			diag "cases.txt:$lineno: the patched perf may not crash; 'crash:' is for the stock column"
		elif [ "$NO_TAGS" = 1 ] && [ ! -f "$HERE/fixtures/$fx.c" ]; then
			skip "$desc" "NO_TAGS: hand-written DWARF"
		elif [ "${want%%[ :]*}" = TODO ]; then
			skip "$desc" "$want"
		elif ! command -v "$cc" >/dev/null 2>&1; then
			not_ok "$desc"
			diag "$cc is not installed: 'make deps' installs the package $cc"
		elif [ ! -f "$elf" ]; then
			not_ok "$desc"
			diag "fixture $fx was not built with $cc"
		else
			check_case "$desc" "$want" "$readme" "$elf" "$opt" "$arg"
		fi
	done <"$CASES"
}

# worker CC: everything for one compiler, as records on stdout
worker() {
	WORK=$BUILD/$1
	OUT=$WORK/out
	ERR=$WORK/err
	RUNS=0
	rm -rf "$WORK"
	mkdir -p "$WORK/home"
	if [ "$SANITIZERS" = 1 ]; then
		# Reports go to files, so that perf's stderr stays what the
		# cases compare; perf's exit status is left alone (a case
		# fails on it where it matters), the reports count below.
		sanitizer_env "$WORK"
		: >"$WORK/san.reports"
	fi
	if command -v "$1" >/dev/null 2>&1; then
		build_fixtures "$1"
	else
		not_ok "$1: build fixtures"
		diag "$1 is not installed: 'make deps' installs the package $1"
	fi
	run_cases "$1"
	if [ "$SANITIZERS" = 1 ]; then
		if [ "$RUNS" -eq 0 ]; then
			not_ok "$1: no sanitizer report from perf: perf never ran"
		elif [ -s "$WORK/san.reports" ]; then
			not_ok "$1: no sanitizer report from perf"
			diag "$(grep -c '^=== ' "$WORK/san.reports") run(s) with reports, all in $WORK/san.reports; the first:"
			diag "$(sed -n '1,40p' "$WORK/san.reports")"
		else
			ok "$1: no sanitizer report from perf in $RUNS runs (AddressSanitizer, LeakSanitizer, UBSan)"
		fi
	fi
}

# report: the records of the workers as TAP, then the summary
report() {
	tap_begin
	tap_records
	# shellcheck disable=SC2046 # three numbers
	set -- $(tap_counts)
	_rc=0
	tap_done || _rc=$?
	tap_summary "$@"
	return $_rc
}

# ---------------------------------------------------------------- main
case $EXPECT in
stock | patched) ;;
target) EXPECT=patched ;;
*) bail "EXPECT must be 'stock' or 'patched', not '$EXPECT'" ;;
esac

tap_header
printf 'perf: %s (EXPECT=%s)\nbuild: %s\n' "$PERF" "$EXPECT" "$BUILD" | tap_diag

[ -x "$PERF" ] || bail "no perf binary at $PERF (set PERF=...)"
# SANITIZERS=1 with a perf that has no sanitizer would find nothing.
if [ "$SANITIZERS" = 1 ] && ! sanitized_perf "$PERF"; then
	bail "SANITIZERS=1: $PERF has no AddressSanitizer and UBSan (build it with make perf-asan)"
fi
[ -f "$CASES" ] || bail "no case file $CASES"
if [ -n "$IDS" ]; then
	[ -f "$IDS" ] || bail "no list of case ids $IDS"
	mkdir -p "$BUILD"
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' -e '/^$/d' "$IDS" >"$BUILD/ids"
	[ -s "$BUILD/ids" ] || bail "$IDS lists no case"
	# Every id listed is a case of CASES (of this generation, ID@GEN)
	sed -n 's/^\([^#|][^|]*\)|.*/\1/p' "$CASES" | sed 's/[[:space:]]*$//' >"$BUILD/ids.all"
	while read -r _id; do
		grep -qxF -- "$_id" "$BUILD/ids.all" ||
			bail "$IDS lists '$_id', which no case of ${CASES##*/} has"
	done <"$BUILD/ids"
fi
LD=$(first_tool ld.lld ld.lld-16 ld.lld-14 ld) || bail "no linker found"
DWARFDUMP=$(first_tool llvm-dwarfdump llvm-dwarfdump-16 llvm-dwarfdump-14) || DWARFDUMP=
if [ -z "$DWARFDUMP" ] && ! command -v eu-readelf >/dev/null 2>&1; then
	bail "neither llvm-dwarfdump nor eu-readelf found"
fi
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 60"

# What perf sees (scripts/offline-perf.sh): one environment per README
# variant, $ENVDIR/VARIANT, with a copy of tracefs/VARIANT/README (so that
# nothing could ever write into the source tree); "none" has no README.
# Each worker has its own $HOME (perf keeps a build-id cache there).
ENVDIR=$BUILD/env
[ -d "$ENVDIR" ] && chmod -R u+w "$ENVDIR"
rm -rf "$ENVDIR"
for readme in "$HERE"/tracefs/*/README; do
	variant=$(basename "$(dirname "$readme")")
	offline_perf_env "$ENVDIR/$variant" "$readme" || bail "cannot create $ENVDIR/$variant"
done
offline_perf_env "$ENVDIR/none" none || bail "cannot create $ENVDIR/none"

pids=
for cc in $COMPILERS; do
	worker "$cc" >"$BUILD/results.$cc" 2>&1 &
	pids="$pids $!"
done
for pid in $pids; do
	wait "$pid"
done
for cc in $COMPILERS; do
	cat "$BUILD/results.$cc"
done | report
