#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build perf from the unpatched tree (the "base" tag) into build/perf-base,
# from a git worktree at build/linux-base: the baseline that the DWARF
# tests' stock column and the benchmark compare with.
set -eu
. "$(dirname -- "$0")/lib.sh"
[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
src=$BUILD/linux-base
if [ ! -d "$src" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$src" base
fi
sh "$TOP/scripts/perf.sh" "$src" "$BUILD/perf-base"
