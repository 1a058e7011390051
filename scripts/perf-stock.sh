#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the stock perf: perf from the tree without the series (the tag
# "base") into $STOCK_PERF_OUT (build/stock/perf), from a git worktree at
# $STOCK_TREE (build/stock/linux): the baseline that the DWARF tests' stock
# column,
# the s390x proof suite and the benchmark compare with.
set -eu
. "$(dirname -- "$0")/lib.sh"
[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
src=$STOCK_TREE
base_worktree "$src"
sh "$TOP/scripts/perf.sh" "$src" "$STOCK_PERF_OUT"
