#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the second "make all" of a kernel build costs: the pass that
# scripts/kernel.sh runs, without ccache and after deleting piggy.o,
# only where ccache gave back a piggy.o with another vmlinux inside
# (piggy_stale).  Before that check every kernel build ran it.  Times
# the pass in a copy of the built kernel folder of $KGEN and $KCC
# ('make kernel', 'make kernel-debug', ...), which it deletes after;
# the folder itself is not touched.  Prints the wall clock and the CPU
# time of the pass, and whether it linked vmlinux again.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
case $KCC in
clang) target=kernel ;;
*) target=kernel-$KCC ;;
esac
[ -f "$KOBJ/.uaccess-probe-built" ] || die "no built kernel in $KOBJ: run 'make $target'"
tmp=$BUILD/bench-kernel-image-pass
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
copy=$tmp/${KOBJ##*/}
cp -a "$KOBJ" "$copy"
kmake_in "$TREE" "$copy" "$KCC" outputmakefile >"$tmp/log" 2>&1 ||
	{ tail -n 20 "$tmp/log" >&2; die "make outputmakefile failed in the copy"; }
find "$copy/arch" -name piggy.o -exec rm -f {} +
before=$(readelf -n "$copy/vmlinux" | awk '/Build ID/ { print $3 }')
info BENCH "the second make all of $target (KGEN=$KGEN), in a copy of ${KOBJ#"$TOP"/}" >&2
t0=$(date +%s.%N)
c0=$(times | sed -n 2p)
CCACHE_DISABLE=1 kmake_in "$TREE" "$copy" "$KCC" -j"$(ncpus)" all >>"$tmp/log" 2>&1 ||
	{ tail -n 20 "$tmp/log" >&2; die "make all failed in the copy"; }
c1=$(times | sed -n 2p)
t1=$(date +%s.%N)
after=$(readelf -n "$copy/vmlinux" | awk '/Build ID/ { print $3 }')
# times: the children's user and system time so far, "XmY.YYYs XmY.YYYs"
cpu() { echo "$1" | awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); n += a[1] * 60 + a[2] } print n }'; }
printf 'kernel: %s (KGEN=%s, KCC=%s, ARCH=%s)\n' "$target" "$KGEN" "$KCC" "$ARCH"
awk -v t0="$t0" -v t1="$t1" -v c0="$(cpu "$c0")" -v c1="$(cpu "$c1")" \
	'BEGIN { printf "second make all: %.1f s wall, %.1f s CPU (user and system)\n", t1 - t0, c1 - c0 }'
if [ "$before" = "$after" ]; then
	echo 'vmlinux: not linked again'
else
	echo 'vmlinux: linked again (a new build-id)'
fi
printf 'cpus: %s\n' "$(ncpus)"
