#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What does ccache cost a kernel build whose cache is empty (a cold make
# check, a fresh machine)?  The directories BENCH_DIRS (default: kernel/
# fs/) of the guest kernel of $KGEN ($KOBJ/.config, so 'make kernel'
# first), built three times from the same prepared folder with
# -j$(ncpus): through ccache in its default mode, through ccache in depend
# mode (what scripts/lib.sh's kmake uses), and without ccache, each with
# an empty cache of its own.  Prints the builds' user+system CPU seconds (RECORD=1: and adds them to bench/measured.md).
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
[ -f "$KOBJ/.config" ] || die "no kernel configuration in $KOBJ: run 'make kernel'"
[ -x /usr/bin/time ] || die "no /usr/bin/time: run 'make deps'"
dirs=${BENCH_DIRS:-kernel/ fs/}

tmp=$BUILD/bench-ccache-modes
rm -rf "$tmp"
mkdir -p "$tmp/prepared"
cp "$KOBJ/.config" "$tmp/prepared/.config"
info BENCH "preparing ${tmp#"$TOP"/}/prepared (olddefconfig, prepare)" >&2
CCACHE_DISABLE=1 kmake_in "$TREE" "$tmp/prepared" clang olddefconfig prepare \
	>"$tmp/prepare.log" 2>&1 ||
	{ tail -n 20 "$tmp/prepare.log" >&2; die "make prepare failed (log: $tmp/prepare.log)"; }

# mode ID NAME VAR=VALUE...: build $dirs in a copy of the prepared
# folder, $tmp/ID, with the ccache settings VAR=VALUE; print its CPU
# seconds (user and system time of the make and its children, from
# /usr/bin/time).
mode() {
	_id=$1 _name=$2
	shift 2
	cp -a "$tmp/prepared" "$tmp/$_id"
	info BENCH "$_name: $dirs" >&2
	# shellcheck disable=SC2016,SC2086 # expanded by the inner shell; $dirs is a list
	env -u CCACHE_DEPEND -u CCACHE_NODEPEND -u CCACHE_DISABLE "$@" \
		CCACHE_DIR="$tmp/$_id.ccache" /usr/bin/time -f '%U %S' -o "$tmp/$_id.times" \
		sh -c '. "$(dirname -- "$0")/../scripts/lib.sh" && kmake_in "$TREE" "$@"' \
		"$0" "$tmp/$_id" clang -j"$(ncpus)" $dirs >"$tmp/$_id.log" 2>&1 ||
		{ tail -n 20 "$tmp/$_id.log" >&2; die "$_name: the build failed (log: $tmp/$_id.log)"; }
	awk -v n="$_name" '{ printf "  %-22s %6.0f CPU s (user %.0f, system %.0f)\n", n, $1 + $2, $1, $2 }' \
		"$tmp/$_id.times"
}

# The figures go to a file first: record only a run that completed.
{
	printf 'machine: %s; kernel %s (%s, %s), %s\n' "$(machine_kind)" "$KGEN_NAME" \
		"$ARCH" "$KCC_CLANG" "$dirs"
	mode default "ccache, default mode" CCACHE_NODEPEND=1
	mode depend "ccache, depend mode" CCACHE_DEPEND=1
	mode none "no ccache" CCACHE_DISABLE=1
} >"$tmp/figures" || exit 1
record "make bench-ccache: ccache on an empty cache" <"$tmp/figures"
rm -rf "$tmp"
