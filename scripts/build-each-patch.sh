#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Each series as it would be mailed: applied with 'git am' to a fresh
# tree of its base (tag "base" of $TREE, in a separate git worktree,
# build/each/linux, so that $TREE is left alone), on its own after the
# series it depends on (Depends-on: in its cover.txt), and built after
# every patch; then its cover letter's diffstat compared with what the
# series changes.  One TAP line per patch and compiler.
#
# perf patches (PSERIES of kernel/generations/$KGEN.conf): perf, built
# with gcc.
# kernel patches (KSERIES): the objects the patch changes, with the
# architecture's clang and gcc (KCC_CLANG, KCC_GCC), in the guest
# kernel's configuration ($KOBJ/.config, so 'make kernel' comes first).  An object is changed if its .c file is, or
# if it includes a header the patch changes; include/linux/compiler_types.h
# is in every object, and fs/open.o and kernel/trace/trace_kprobe.o stand
# for them; for another header in include/, two of the files in kernel/,
# lib/ or fs/ that include it.  'make kernel' builds the whole kernel
# with every series applied.
#
# Compiler and objtool warnings about the files a patch touches fail it.
#
# The first perf series, the fixes, must also do what its patches say
# without the series on top of it: with it alone applied, its perf runs
# the DWARF fixture cases that FIXES_CASES of the descriptor lists (ids
# of dwarf-tests/cases.txt, with their patched column), one TAP line.
#
# A step that passed is not built again: its TAP line is kept in the
# cache under the key of the tree it built (the git tree of the commit,
# which is base and every patch up to this one), what it built and how,
# so that a series whose last patches changed builds those alone.  The
# kernel folders are configured again only when the guest kernel's
# configuration or a Kconfig file of the tree changed since they last
# were: 'make olddefconfig' and the syncconfig it causes took some 45 s
# of every kernel step (measured on 6.12, 2 CPUs).
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin
[ -d "$TREE/.git" ] || tap_bail "build-each-patch: no tree (make tree)"
# In build/each/, named as $TREE and $PERF_OUT are in build/ (see
# STOCK_TREE in lib.sh): perf's objects come from ccache where they are
# those of a tree built before.
wt=$BUILD/each/${TREE##*/}
out=$BUILD/each/${PERF_OUT##*/}
mkdir -p "$out"
# The worktree stays between runs, so that each step builds incrementally;
# and series that already passed as they are now are not built again: the
# run's TAP is kept in the cache under the key of everything it built from
# (the base, every patch, this script, the guest kernel's configuration,
# the compilers), so a fresh clone with the same cache reuses it too.
head=$( {
	wanted_stamp
	git -C "$TREE" rev-parse base
	cat "$0" "$TOP/scripts/perf.sh" "$KOBJ/.config" 2>/dev/null
	for c in gcc "$KCC_CLANG" ${KCC_GCC:+"$KCC_GCC"}; do "$c" --version 2>&1 | head -n 1; done
} | inputs_key)
passed=$CACHE/verdicts/series-$head.tap
if [ -f "$passed" ]; then
	tap_replay "$passed"
	exit 0
fi
base_worktree "$wt" || exit 1

# objects COMMIT: the kernel objects that COMMIT changes, one per line.
objects() {
	git -C "$wt" diff-tree --no-commit-id --name-only -r "$1" | while read -r f; do
		case $f in
		tools/*) ;;
		include/linux/compiler_types.h) printf '%s\n' fs/open.o kernel/trace/trace_kprobe.o ;;
		include/*.h)
			# Two users of a global header in kernel/, lib/ or fs/
			# that the guest kernel builds.
			h=${f#include/}
			h=${h#uapi/}
			(cd "$wt" && grep -rl "#include <$h>" kernel lib fs 2>/dev/null) |
				grep '\.c$' | sed 's|\.c$|.o|' | sort | while read -r o; do
					grep -qx "$o" "$out/kernel-objects" && echo "$o"
				done | head -n 2
			;;
		*.c) printf '%s\n' "${f%.c}.o" ;;
		*.h)
			# Users of a local header, in its own directory.
			d=$(dirname "$f")
			grep -l "#include \"$(basename "$f")\"" "$wt/$d"/*.c 2>/dev/null |
				sed "s|^$wt/||; s|\.c\$|.o|"
			;;
		esac
	done | sort -u | while read -r o; do
		# Only objects of the guest kernel's configuration.
		grep -qx "$o" "$out/kernel-objects" && echo "$o"
	done
}

# kbuild KCC: build $objs in build/kernel-each-COMPILER with the guest
# kernel's configuration and kmake's settings for KCC; print the TAP line.
kbuild() {
	case $1 in
	gcc) name=$KCC_GCC ;;
	*) name=$KCC_CLANG ;;
	esac
	ko=$BUILD/kernel-each$GEN_TAG-$name
	mkdir -p "$ko"
	log=$out/kernel-$name.log
	: >"$log"
	key=$(step_key "kernel $name $objs" "$ko")
	if step_replay "$key" "$name builds ${objs% } after: $subj"; then
		return 0
	fi
	# shellcheck disable=SC2086 # $objs: object paths without blanks
	if kconfigure "$1" "$ko" >"$log" 2>&1 &&
		kmake_in "$wt" "$ko" "$1" -j"$(ncpus)" $objs >>"$log" 2>&1; then
		warn=
		for o in $objs; do
			grep -E "(^|/)${o%.o}\.(c|h|o)(:[0-9]+:[0-9]+)?: warning" "$log" && warn=1
		done >"$out/warnings"
		if [ -n "$warn" ]; then
			tap_not_ok "$name: no new warning in ${objs% } after: $subj"
			failed=1
			tap_diag <"$out/warnings"
		else
			step_pass "$key" "$name builds ${objs% } after: $subj"
		fi
	else
		tap_not_ok "$name builds ${objs% } after: $subj"
		failed=1
		grep -E 'error|Error' "$log" | head -n 20 | tap_diag
	fi
}

# step_key WHAT [KOBJ]: the cache key of building WHAT on the tree that
# $wt has checked out (and, for the kernel, with $KOBJ's configuration).
step_key() {
	{
		printf '%s\n' "$1"
		git -C "$wt" rev-parse 'HEAD^{tree}'
		cat "$0" "$TOP/scripts/perf.sh" "$TOP/scripts/lib.sh"
		[ -z "${2:-}" ] || cat "$KOBJ/.config"
		for c in gcc "$KCC_CLANG" ${KCC_GCC:+"$KCC_GCC"}; do "$c" --version 2>&1 | head -n 1; done
	} | inputs_key
}

# step_replay KEY [MESSAGE]: print the TAP line of a step that passed,
# MESSAGE or else the kept one.  The key is the tree's, not the patch's:
# a patch split in two ends on the tree that the whole patch made, and
# its step is kept under the whole patch's subject.
step_replay() {
	[ -f "$CACHE/verdicts/step-$1" ] || return 1
	tap_ok "${2:-$(cat "$CACHE/verdicts/step-$1")} (unchanged since it passed)"
}

# step_pass KEY MESSAGE: the step passed; keep it.
step_pass() {
	tap_ok "$2"
	mkdir -p "$CACHE/verdicts"
	printf '%s\n' "$2" >"$CACHE/verdicts/step-$1.tmp" &&
		mv "$CACHE/verdicts/step-$1.tmp" "$CACHE/verdicts/step-$1"
}

# kconfigure KCC KO: give folder KO the guest kernel's configuration,
# made valid for the tree $wt has checked out (olddefconfig), unless KO
# already has it: the configuration is what it was, and no Kconfig file
# changed since the commit KO was configured on.
kconfigure() {
	_mark=$2/.uaccess-probe-each-config
	_ckey=$(inputs_key <"$KOBJ/.config")
	if [ -f "$2/.config" ] && [ -f "$_mark" ]; then
		read -r _k _c <"$_mark"
		if [ "$_k" = "$_ckey" ] &&
			git -C "$wt" diff --quiet "$_c" HEAD -- ':(glob)**/Kconfig*' 2>/dev/null; then
			echo "configuration unchanged since $_c"
			return 0
		fi
	fi
	rm -f "$_mark"
	cp "$KOBJ/.config" "$2/.config" &&
		kmake_in "$wt" "$2" "$1" olddefconfig &&
		printf '%s %s\n' "$_ckey" "$(git -C "$wt" rev-parse HEAD)" >"$_mark"
}

export CCACHE_DIR="$CACHE/ccache"
# The guest kernel's objects: vmlinux.a's members and the modules.  A
# kernel folder whose vmlinux.a cannot be listed (a thin archive whose
# members are gone) would make every kernel patch look as if it changed
# no object of the guest kernel: that fails each kernel patch, it does
# not skip it.
kobjs_err=
rm -f "$out/vmlinux-members"
if [ -f "$KOBJ/.config" ] &&
	! (cd "$KOBJ" && ar t vmlinux.a) >"$out/vmlinux-members" 2>"$out/ar.err"; then
	kobjs_err="the guest kernel's objects cannot be listed, 'ar t $KOBJ/vmlinux.a': $(head -n 1 "$out/ar.err"): run 'make kernel' (make check does)"
fi
{
	sed "s|^$KOBJ/||" "$out/vmlinux-members" 2>/dev/null
	sed 's/\.ko$/.o/' "$KOBJ/modules.order" 2>/dev/null
} >"$out/kernel-objects"
failed=
# step COMMIT: build what COMMIT, just applied in $wt, changes
step() {
	c=$1
	files=$(git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" | grep '\.[ch]$' || true)
	case $(git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" | grep -v '^tools/perf/' || true) in
	"")
		key=$(step_key perf)
		if step_replay "$key" "perf builds after: $subj"; then
			:
		elif sh "$TOP/scripts/perf.sh" "$wt" "$out" >"$out/step.log" 2>&1; then
			warn=
			for f in $files; do
				b=$(basename "$f")
				grep -n "$b:[0-9]*:[0-9]*: warning" "$out/build.log" && warn=1
			done >"$out/warnings"
			if [ -n "$warn" ]; then
				tap_not_ok "perf builds with no new warning after: $subj"
				failed=1
				tap_diag <"$out/warnings"
			else
				step_pass "$key" "perf builds after: $subj"
			fi
		else
			tap_not_ok "perf builds after: $subj"
			failed=1
			tail -n 20 "$out/build.log" | tap_diag
		fi
		;;
	*)
		objs=$(objects "$c" | tr '\n' ' ')
		if [ ! -f "$KOBJ/.config" ]; then
			tap_not_ok "$subj"
			echo "no kernel configuration at $KOBJ/.config: run 'make kernel' (make check does)" | tap_diag
			failed=1
		elif [ -n "$kobjs_err" ]; then
			tap_not_ok "$subj"
			echo "$kobjs_err" | tap_diag
			failed=1
		elif [ -z "$objs" ]; then
			tap_skip "$subj" "no object of the guest kernel changes (selftests, documentation; GCC plugins are built by make kernel-gcc)"
		else
			kbuild clang
			[ -z "$KCC_GCC" ] || kbuild gcc
		fi
		;;
	esac
}

# fixes_cases SERIES: the perf of SERIES alone, built in $out from $wt
# after the series' last patch, on the fixture cases of FIXES_CASES;
# kept as a step.
fixes_cases() {
	desc="$1 alone: perf passes the fixture cases of $FIXES_CASES"
	key=$( {
		step_key "fixes cases"
		cat "$TOP/$FIXES_CASES" "$TOP/dwarf-tests/cases.txt" "$TOP/dwarf-tests/run.sh"
		cat "$TOP"/dwarf-tests/fixtures/* "$TOP"/dwarf-tests/tracefs/*/README
	} | inputs_key)
	step_replay "$key" && return
	# The steps may have been replayed: perf is built for this tree here
	if ! sh "$TOP/scripts/perf.sh" "$wt" "$out" >"$out/step.log" 2>&1; then
		tap_not_ok "$desc"
		echo "perf does not build with $1 alone" | tap_diag
		tail -n 20 "$out/build.log" | tap_diag
		failed=1
	elif PERF=$out/perf IDS=$TOP/$FIXES_CASES BUILD=$out/fixes-cases KGEN=$KGEN_NAME \
		sh "$TOP/dwarf-tests/run.sh" >"$out/fixes-cases.tap" 2>&1; then
		step_pass "$key" "$desc: $(tail -n 1 "$out/fixes-cases.tap")"
	else
		tap_not_ok "$desc"
		grep -E '^(not ok|#)' "$out/fixes-cases.tap" | head -n 40 | tap_diag
		failed=1
	fi
}

# The diffstat that the series' cover letter (or its one patch) shows
cover_stat() {
	f=$(series_patches "$1" | head -n 1)
	for c in "$TOP/$1"/*-0000-cover-letter.patch; do
		[ ! -f "$c" ] || f=$c
	done
	awk '/^ [^ ].* \| +[0-9]/ { print } /^ [0-9]+ files? changed/ { print; exit }' "$f"
}

export GIT_COMMITTER_NAME="${SERIES_IDENTITY% <*}"
export GIT_COMMITTER_EMAIL="${SERIES_IDENTITY##*<}"
GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL%>}
for s in $(series_dirs); do
	git -C "$wt" am --abort >/dev/null 2>&1
	git -C "$wt" checkout -q -f --detach base
	applied=yes
	# What it depends on, as mailed before it: built in its own pass
	for p in $(for d in $(series_prereqs "$s"); do series_patches "$d"; done); do
		if ! git -C "$wt" am -q "$p" >"$out/am.log" 2>&1; then
			tap_not_ok "$s: ${p##*/}, which it depends on, applies with git am to base"
			tap_diag <"$out/am.log"
			failed=1
			applied=
			break
		fi
	done
	[ -n "$applied" ] || continue
	from=$(git -C "$wt" rev-parse HEAD)
	for p in $(series_patches "$s"); do
		if ! git -C "$wt" am -q "$p" >"$out/am.log" 2>&1; then
			tap_not_ok "$s: ${p##*/} applies with git am to base"
			tap_diag <"$out/am.log"
			failed=1
			applied=
			break
		fi
		subj="$s: $(git -C "$wt" log -1 --format=%s HEAD)"
		t0=$(date +%s)
		step "$(git -C "$wt" rev-parse HEAD)"
		echo "that step took $(($(date +%s) - t0)) s" | tap_diag
	done
	[ -n "$applied" ] || continue
	[ "$s" != "$(perf_series_dirs | head -n 1)" ] || fixes_cases "$s"
	# The cover letter's diffstat is the series'
	git -C "$wt" diff --stat=72 "$from" HEAD >"$out/stat.series"
	cover_stat "$s" >"$out/stat.cover"
	if diff -u "$out/stat.cover" "$out/stat.series" >"$out/stat.diff"; then
		tap_ok "$s: the cover letter's diffstat is the series'"
	else
		tap_not_ok "$s: the cover letter's diffstat is the series'"
		tap_diag <"$out/stat.diff"
		failed=1
	fi
done >"$out/run.tap"
tap_done >>"$out/run.tap"
cat "$out/run.tap"
if [ -z "$failed" ]; then
	mkdir -p "$CACHE/verdicts"
	cp "$out/run.tap" "$passed.tmp" && mv "$passed.tmp" "$passed"
fi
