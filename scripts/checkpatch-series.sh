#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every patch in kernel/series and tools-perf-patches/series is
# 'checkpatch.pl --strict' clean and carries a Signed-off-by.
set -u
. "$(dirname -- "$0")/lib.sh"
cp=$TREE/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "not ok - checkpatch: no tree at $TREE (make tree)"; exit 1; }
n=0
for s in kernel tools-perf-patches; do
	# shellcheck disable=SC2013 # patch names have no blanks
	for p in $(sed -e 's/#.*//' "$TOP/$s/series"); do
		n=$((n + 1))
		f=$TOP/$s/$p
		if ! grep -q '^Signed-off-by: ' "$f"; then
			echo "not ok - $s/$p: no Signed-off-by"
		elif (cd "$TREE" && perl "$cp" --strict --no-tree -q --no-summary "$f") >"$BUILD/checkpatch.out" 2>&1; then
			echo "ok - checkpatch --strict $s/$p"
		else
			echo "not ok - checkpatch --strict $s/$p"
			sed 's/^/#   /' "$BUILD/checkpatch.out"
		fi
	done
done
[ "$n" -gt 0 ] || echo "ok - checkpatch: the series are empty # SKIP no patches"
