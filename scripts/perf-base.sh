#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the stock perf: perf from the unpatched tree (the "base" tag) into
# $STOCK_PERF_OUT (build/perf-base), from a git worktree at $TREE-base
# (build/linux-base): the baseline that the DWARF tests' stock column,
# the s390x proof suite and the benchmark compare with.
set -eu
. "$(dirname -- "$0")/lib.sh"
[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
src=$TREE-base
if [ ! -d "$src" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$src" base
fi
sh "$TOP/scripts/perf.sh" "$src" "$STOCK_PERF_OUT"
