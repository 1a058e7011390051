#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What does a second clone at another path get from the ccache that a
# first clone filled?  CI clones main to a path of its own, a newcomer
# to theirs; the cache ($CACHE/ccache) is shared by content.  This clone
# must have built the guest kernel of $KGEN and $KCC ('make kernel', or
# KCC=debug: 'make kernel-debug'...): its objects are in the cache.  A
# fresh clone of this repository's HEAD at a deeper, different path,
# $BUILD/bench-ccache-clones/..., then builds the same kernel through the
# same cache ('make tree kernel' there).  Prints the
# second build's wall clock and ccache's counts for it (stats_log), and
# how many strings of each vmlinux name either clone's path, in the debug
# information (none: scripts/lib.sh's kmake_in maps it to $DEBUG_PREFIX)
# and in all (what a compiler writes into the code itself, such as
# KASAN's descriptors of globals, names the path of the clone that
# compiled the object first).  RECORD=1: adds the figures to
# bench/measured.md.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
case $KCC in
clang) target=kernel ;;
*) target=kernel-$KCC ;;
esac
[ -f "$KOBJ/vmlinux" ] || die "no kernel in $KOBJ: run 'make $target'"
git -C "$TOP" diff --quiet HEAD -- scripts kernel qemu-image Makefile ||
	die "the clone under test is HEAD: commit the changes to scripts/, kernel/, qemu-image/ or Makefile first"

tmp=$BUILD/bench-ccache-clones
rm -rf "$tmp"
second=$tmp/a/second/clone/at/another/depth/uaccess-probe
mkdir -p "$(dirname "$second")"
git clone -q "$TOP" "$second"
stats=$tmp/ccache-stats.log
info BENCH "a second clone: ${second#"$TOP"/}, make tree $target (KGEN=$KGEN)" >&2
start=$(date +%s)
# The tree's extraction is not a compiler's work: timed on its own.
env -u KCC -u BUILD KGEN="$KGEN" make -C "$second" --no-print-directory tree >"$tmp/tree.log" 2>&1 ||
	{ tail -n 20 "$tmp/tree.log" >&2; die "make tree failed in the second clone (log: $tmp/tree.log)"; }
mid=$(date +%s)
env -u KCC -u BUILD CCACHE_STATSLOG="$stats" KGEN="$KGEN" make -C "$second" --no-print-directory "$target" \
	>"$tmp/kernel.log" 2>&1 ||
	{ tail -n 20 "$tmp/kernel.log" >&2; die "make $target failed in the second clone (log: $tmp/kernel.log)"; }
end=$(date +%s)
[ -s "$stats" ] || die "ccache wrote no statistics to $stats: did the build go through ccache?"

# leaks VMLINUX ROOT: how many strings of VMLINUX name ROOT (a clone's
# build folder): in its debug information, and in all of it.
leaks() {
	_dbg=0
	for _s in .debug_str .debug_line_str; do
		objcopy -O binary --only-section="$_s" "$1" "$tmp/section" 2>/dev/null || continue
		_dbg=$((_dbg + $(strings -a "$tmp/section" | grep -c -F "$2")))
	done
	printf '%s in the debug information, %s in all\n' "$_dbg" "$(strings -a "$1" | grep -c -F "$2")"
}
first_vmlinux=$KOBJ/vmlinux
second_vmlinux=$second/build/${KOBJ#"$BUILD"/}/vmlinux
[ -f "$second_vmlinux" ] || die "the second clone built no $second_vmlinux"

{
	printf 'machine: %s; kernel %s (%s, %s): the second clone at %s\n' \
		"$(machine_kind)" "$KGEN_NAME" "$ARCH" "$KCC_CLANG" "$(dirname "$second")"
	printf '  make tree               %6d s\n' $((mid - start))
	printf '  make %-18s %6d s (wall clock)\n' "$target" $((end - mid))
	CCACHE_STATSLOG=$stats ccache --show-log-stats | sed 's/^/  ccache: /'
	one=$(build_real)
	two=$(cd "$second/build" && pwd -P)
	printf '  strings naming the first clone (%s):\n' "$one"
	printf '    in its vmlinux: %s\n' "$(leaks "$first_vmlinux" "$one")"
	printf '    in the second clone'"'"'s: %s\n' "$(leaks "$second_vmlinux" "$one")"
	printf '  strings naming the second clone:\n'
	printf '    in its vmlinux: %s\n' "$(leaks "$second_vmlinux" "$two")"
} >"$tmp/figures" || die "ccache --show-log-stats cannot read $stats"
record "make bench-ccache-clones: a second clone's kernel from the first's cache" <"$tmp/figures"
rm -rf "$tmp"
