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
dirs=${BENCH_DIRS:-kernel/ fs/}

tmp=$BUILD/bench-ccache-modes
rm -rf "$tmp"
mkdir -p "$tmp/prepared"
cp "$KOBJ/.config" "$tmp/prepared/.config"
info BENCH "preparing ${tmp#"$TOP"/}/prepared (olddefconfig, prepare)" >&2
CCACHE_DISABLE=1 kmake_in "$TREE" "$tmp/prepared" clang olddefconfig prepare \
	>"$tmp/prepare.log" 2>&1 ||
	{ tail -n 20 "$tmp/prepare.log" >&2; die "make prepare failed (log: $tmp/prepare.log)"; }

# mode NAME VAR=VALUE...: build $dirs in a copy of the prepared folder
# with the ccache settings VAR=VALUE; print its CPU seconds (the shell's
# times builtin: user and system time of the make and its children).
mode() {
	_name=$1
	shift
	cp -a "$tmp/prepared" "$tmp/$_name"
	info BENCH "$_name: $dirs" >&2
	(
		unset CCACHE_DEPEND CCACHE_NODEPEND CCACHE_DISABLE
		for _a in "$@"; do export "${_a?}"; done
		export CCACHE_DIR="$tmp/$_name.ccache"
		# shellcheck disable=SC2086 # $dirs is a list of folders
		kmake_in "$TREE" "$tmp/$_name" clang -j"$(ncpus)" $dirs >"$tmp/$_name.log" 2>&1 ||
			{ tail -n 20 "$tmp/$_name.log" >&2; die "$_name: the build failed (log: $tmp/$_name.log)"; }
		times | tail -n 1
	) | awk -v n="$_name" '{
		split($1, u, "m"); split($2, s, "m")
		user = u[1] * 60 + u[2]; sys = s[1] * 60 + s[2]
		printf "  %-22s %6.0f CPU s (user %.0f, system %.0f)\n", n, user + sys, user, sys
	}'
}

{
	printf 'machine: %s; kernel %s (%s, %s), %s\n' "$(machine_kind)" "$KGEN_NAME" \
		"$ARCH" "$KCC_CLANG" "$dirs"
	mode "ccache, default mode" CCACHE_NODEPEND=1
	mode "ccache, depend mode" CCACHE_DEPEND=1
	mode "no ccache" CCACHE_DISABLE=1
} | record "make bench-ccache: ccache on an empty cache"
rm -rf "$tmp"
