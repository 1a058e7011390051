#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# $TAGS_TREE (build/linux-tags): the source of a tagged build of Debian's
# own kernel (scripts/user-tags.sh, perf probe --user-tags).  It must be
# the kernel's own source plus the GCC plugin, and nothing that moves a
# line of code: perf refuses a function whose declaration line differs.
# So it is the tree's base with only the series that TAGS_SERIES of the
# generation descriptor names, applied by 'git am', in a git worktree of
# $TREE.  Quick when it already carries exactly those patches.
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
patches=$(for s in $TAGS_SERIES; do series_patches "$s"; done)
[ -n "$patches" ] || die "TAGS_SERIES ($TAGS_SERIES) names no patches"
# shellcheck disable=SC2086 # patch paths without blanks
key=$( { git -C "$TREE" rev-parse base; cat "$0" $patches; } | inputs_key)
stamp=$TAGS_TREE.stamp
if stamp_matches "$stamp" "$key" && [ -e "$TAGS_TREE/.git" ]; then
	info TREE "$TAGS_TREE is up to date"
	exit 0
fi
rm -f "$stamp"
base_worktree "$TAGS_TREE"
git -C "$TAGS_TREE" am --abort >/dev/null 2>&1 || true
git -C "$TAGS_TREE" checkout -q -f --detach base
for p in $patches; do
	git -C "$TAGS_TREE" am -q --committer-date-is-author-date "$p" >"$TAGS_TREE.git-am.log" 2>&1 || {
		cat "$TAGS_TREE.git-am.log" >&2
		git -C "$TAGS_TREE" am --abort >/dev/null 2>&1 || true
		die "patch does not apply to base: ${p#"$TOP"/}"
	}
done
info TREE "$TAGS_TREE: base + $TAGS_SERIES"
stamp_write "$stamp" "$key"
