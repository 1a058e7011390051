#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build perf after every patch of tools-perf-patches/, in a separate git
# worktree (build/linux-each) so that $TREE is left alone.  New compiler
# warnings in the files a patch touches fail it.  One TAP line per patch.
# Kernel patches are not built one by one here: 'make kernel' builds the
# top of the series.
set -u
. "$(dirname -- "$0")/lib.sh"
[ -d "$TREE/.git" ] || { echo "not ok - build-each-patch: no tree (make tree)"; exit 1; }
wt=$BUILD/linux-each
out=$BUILD/perf-each
mkdir -p "$out"
# The worktree stays between runs, so that each step builds incrementally;
# and a series that already passed as it is now is not built again.
head=$(git -C "$TREE" rev-parse HEAD)
if [ -f "$out/passed" ] && [ "$(cat "$out/passed")" = "$head" ]; then
	git -C "$TREE" log --reverse --format=%s base..HEAD | while read -r subj; do
		echo "ok - perf builds after: $subj (unchanged since it passed)"
	done
	exit 0
fi
rm -f "$out/passed"
if [ ! -d "$wt" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base || exit 1
fi
failed=
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	git -C "$wt" checkout -q "$c"
	files=$(git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" | grep '\.[ch]$' || true)
	case $(git -C "$wt" diff-tree --no-commit-id --name-only -r "$c" | grep -v '^tools/perf/' || true) in
	"")
		if sh "$TOP/scripts/perf.sh" "$wt" "$out" >"$out/step.log" 2>&1; then
			warn=
			for f in $files; do
				b=$(basename "$f")
				grep -n "$b:[0-9]*:[0-9]*: warning" "$out/build.log" && warn=1
			done >"$out/warnings"
			if [ -n "$warn" ]; then
				echo "not ok - perf builds with no new warning after: $subj"
				failed=1
				sed 's/^/#   /' "$out/warnings"
			else
				echo "ok - perf builds after: $subj"
			fi
		else
			echo "not ok - perf builds after: $subj"
			failed=1
			tail -n 20 "$out/build.log" | sed 's/^/#   /'
		fi
		;;
	*)
		echo "ok - $subj # SKIP kernel patches are built by 'make kernel' only at the top of the series"
		;;
	esac
done
[ -n "$failed" ] || echo "$head" >"$out/passed"
