#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What do __user tags from a tagged build of the source (the perf series'
# "perf probe: Take __user from a tagged build of the same kernel source",
# scripts/user-tags.sh) cost, on Debian's own kernel of the
# generation (make debian-kernel)?
#   cold:   preparing the build folder once per kernel build, then
#           compiling each unit of dwarf-tests/debian-tags/GEN.txt (wall
#           clock seconds: they depend on the machine and its load);
#   cached: 'perf probe -D' of every definition of dwarf-tests/debian-tags/GEN.txt in one
#           process, under callgrind (instructions, machine-independent):
#           stock perf, the patched perf without a tagged build, and with
#           the objects in place, and with them as one artifact
#           (scripts/user-tags-artifact.sh, --user-tags FILE);
#   fetch:  the same with the artifact fetched by build-id from a real
#           debuginfod on the loopback (in a network namespace of the
#           benchmark's own), perf's debuginfod cache empty (cold), then
#           holding it: instructions, and wall clock (the median of 5);
#   size:   the objects, the artifact, and the -dbg package's vmlinux.
# Host-side and offline.  Not a test suite: it prints figures (RECORD=1:
# and adds them to bench/measured.md).
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
own_netns "$0"
netns_up || die "cannot bring up the loopback of the benchmark's network namespace"
debian_kernel_files || exit 1
vmlinux=$DEB_VMLINUX
config=$DEB_CONFIG
[ -x "$PERF" ] || die "no $PERF: run 'make perf'"
[ -x "$STOCK_PERF" ] || die "no $STOCK_PERF: run 'make perf-stock'"
command -v valgrind >/dev/null || die "valgrind not found: run 'make deps'"
[ -e "$TAGS_TREE/.git" ] || die "no $TAGS_TREE: run 'make tags-tree'"

tmp=$BUILD/bench-user-tags
rm -rf "$tmp"
mkdir -p "$tmp"
offline_perf_env "$tmp/env" "$TOP/$TRACEFS_README"
cases=$TOP/$DEBIAN_TAGS_CASES
# The image's units; a module's (MODULE:UNIT) cases are left out below,
# as -k VMLINUX cannot probe them.
cus=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$cases" | cut -d'|' -f2 | grep -v : | sort -u)
# The definitions that stock perf can make (it cannot locate a bit field
# by DW_AT_data_bit_offset): one failure would stop the whole process.
set --
n=0
left_out=
while IFS='|' read -r id cu spec _; do
	case $id in '' | '#'*) continue ;; esac
	case $cu in *:*) continue ;; esac
	if ! offline_perf "$tmp/env" "$STOCK_PERF" probe -q -k "$vmlinux" -D "$spec" \
		>/dev/null 2>&1; then
		left_out="$left_out '$spec'"
		continue
	fi
	set -- "$@" -D "$spec"
	n=$((n + 1))
done <"$cases"

now() { date +%s.%N; }
t0=$(now)
sh "$TOP/scripts/user-tags.sh" -o "$tmp/tags" -s "$TAGS_TREE" -c "$config" "$vmlinux" \
	>/dev/null 2>"$tmp/prepare.err" || { cat "$tmp/prepare.err" >&2; die "user-tags.sh failed"; }
t1=$(now)
per_cu=
for cu in $cus; do
	a=$(now)
	sh "$TOP/scripts/user-tags.sh" -o "$tmp/tags" -s "$TAGS_TREE" -c "$config" "$vmlinux" "$cu" \
		>/dev/null 2>&1 || die "user-tags.sh $cu failed"
	per_cu="$per_cu$(awk -v a="$a" -v b="$(now)" -v cu="$cu" 'BEGIN { printf "  %-24s %5.1f s\n", cu, b - a }')
"
done

a=$(now)
sh "$TOP/scripts/user-tags-artifact.sh" -o "$tmp/vmlinux.debug" "$tmp/tags" >/dev/null ||
	die "user-tags-artifact.sh failed"
t_pack=$(awk -v a="$a" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
objects=$(find "$tmp/tags" -name '*.o' ! -path '*/.build/*' -exec cat {} + | wc -c)
artifact=$(wc -c <"$tmp/vmlinux.debug")
dbg=$(wc -c <"$vmlinux")
count() { # what perf args...
	_what=$1 _p=$2
	shift 2
	offline_perf_instructions "$tmp/env" "$tmp/defs.$_what" "$_p" probe -q -k "$vmlinux" "$@"
}
stock=$(count stock "$STOCK_PERF" "$@")
notags=$(count notags "$PERF" "$@")
tagged=$(count tagged "$PERF" --user-tags "$tmp/tags" "$@")
packed=$(count artifact "$PERF" --user-tags "$tmp/vmlinux.debug" "$@")
cmp -s "$tmp/defs.tagged" "$tmp/defs.artifact" ||
	die "the artifact gave other definitions than the objects: diff $tmp/defs.tagged $tmp/defs.artifact"

# Fetched: the artifact under its build-id's name, as make
# user-tags-kernel serves them
mkdir -p "$tmp/srv/ours"
cp "$tmp/vmlinux.debug" "$tmp/srv/ours/"
trap 'kill $DEBUGINFOD_PIDS 2>/dev/null' EXIT
debuginfod_serve "$tmp/srv/ours" 8012 || die "debuginfod did not start"
# from_server: in this (sub)shell, perf fetches from that server into
# its own debuginfod cache
from_server() {
	DEBUGINFOD_URLS=http://127.0.0.1:8012
	DEBUGINFOD_CACHE_PATH=$tmp/dcache
	export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
}
fetch() { # cold|cached what perf args...
	[ "$1" = cached ] || rm -rf "$tmp/dcache"
	_w=$2
	shift 2
	(from_server && count "$_w" "$@")
}
fetch_cold=$(fetch cold fetch-cold "$PERF" "$@")
fetch_cached=$(fetch cached fetch-cached "$PERF" "$@")
for f in fetch-cold fetch-cached; do
	cmp -s "$tmp/defs.tagged" "$tmp/defs.$f" ||
		die "the fetched artifact gave other definitions than the objects: diff $tmp/defs.tagged $tmp/defs.$f"
done
wall() { # cold|cached|stock: the median of 5 runs, seconds
	_k=$1
	shift
	for _r in 1 2 3 4 5; do
		[ "$_k" != cold ] || rm -rf "$tmp/dcache"
		_a=$(now)
		(from_server && offline_perf "$tmp/env" "$@" >/dev/null 2>&1) ||
			die "perf failed ($_k)"
		awk -v a="$_a" -v b="$(now)" 'BEGIN { printf "%.3f\n", b - a }'
	done | sort -n | sed -n 3p
}
wall_stock=$(wall stock "$STOCK_PERF" probe -q -k "$vmlinux" "$@")
wall_cold=$(wall cold "$PERF" probe -q -k "$vmlinux" "$@")
wall_cached=$(wall cached "$PERF" probe -q -k "$vmlinux" "$@")
{
	printf 'machine: %s, %s CPUs; Debian %s (%s); %s definitions of %s\n' \
		"$(uname -m)" "$(ncpus)" "$DEBIAN_KERNEL" "$DEBIAN_KERNEL_VERSION" "$n" \
		"${cases#"$TOP"/}"
	[ -z "$left_out" ] || echo "left out, stock perf cannot make them:$left_out"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "cold, once per kernel build: configure and make prepare %.0f s\n", b - a }'
	echo "cold, once per unit (make of one object, with the plugin):"
	printf '%s' "$per_cu"
	printf 'cached, perf probe -D of all %s in one process, instructions:\n' "$n"
	printf '  stock perf:                       %s\n' "$stock"
	printf '  patched perf, no tagged build:    %s\n' "$notags"
	printf '  patched perf, tagged build:       %s\n' "$tagged"
	printf '  patched perf, artifact:           %s\n' "$packed"
	awk -v a="$stock" -v b="$tagged" 'BEGIN {
		printf "  tagged/stock:                     %.4f (%+.2f%%)\n", b / a, (b - a) * 100 / a }'
	awk -v a="$stock" -v b="$packed" 'BEGIN {
		printf "  artifact/stock:                   %.4f (%+.2f%%)\n", b / a, (b - a) * 100 / a }'
	printf 'fetched from debuginfod on the loopback, instructions:\n'
	printf '  cold (perf'"'"'s debuginfod cache empty): %s\n' "$fetch_cold"
	printf '  cached (the artifact in that cache):   %s\n' "$fetch_cached"
	awk -v a="$stock" -v b="$fetch_cached" 'BEGIN {
		printf "  cached/stock:                     %.4f (%+.2f%%)\n", b / a, (b - a) * 100 / a }'
	printf 'wall clock, the median of 5: stock perf %s s; fetched cold %s s, cached %s s\n' \
		"$wall_stock" "$wall_cold" "$wall_cached"
	printf 'size, bytes: the %s units'"'"' objects %s; their artifact %s (%s s to pack); the -dbg vmlinux %s\n' \
		"$(echo "$cus" | wc -w)" "$objects" "$artifact" "$t_pack" "$dbg"
	echo "definitions that the tagged build changed (stock < > patched):"
	diff "$tmp/defs.stock" "$tmp/defs.tagged" | grep '^[<>]' | sed 's/^/  /' || echo "  none"
} | record "make bench-user-tags: __user from a tagged build of Debian's kernel"
