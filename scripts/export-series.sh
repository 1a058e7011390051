#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Write the commits of $TREE back into the kernel generation's series
# folders (kernel/generations/$KGEN.conf):
#   base..HEAD commits that touch only tools/perf/ -> $PSERIES
#   all others                                     -> $KSERIES
# as 'git format-patch' files, and rewrite both series files.  Kernel
# commits must come before perf commits, as the series are applied in
# that order.
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
git -C "$TREE" rev-parse -q --verify base >/dev/null || die "$TREE has no 'base' tag"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"
if [ -d "$TREE/.git/rebase-apply" ] || [ -d "$TREE/.git/rebase-merge" ]; then
	die "$TREE is in the middle of a rebase or 'git am'"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/kernel"
: >"$tmp/perf"
seen_perf=
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	other=$(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" | grep -v '^tools/perf/' || true)
	if [ -z "$other" ]; then
		echo "$c" >>"$tmp/perf"
		seen_perf=$c
	else
		[ -z "$seen_perf" ] ||
			die "kernel commit $(git -C "$TREE" log -1 --format='%h %s' "$c") comes after perf commit $(git -C "$TREE" log -1 --format='%h %s' "$seen_perf"): reorder them"
		echo "$c" >>"$tmp/kernel"
	fi
done

export_one() { # folder commit-list
	dir=$TOP/$1
	mkdir -p "$dir"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series" 2>/dev/null |
		while read -r p; do rm -f "$dir/$p"; done
	: >"$dir/series.new"
	total=$(wc -l <"$2")
	i=0
	while read -r c; do
		i=$((i + 1))
		f=$(git -C "$TREE" format-patch -1 --zero-commit --no-signature \
			--start-number "$i" -o "$dir" "$c")
		# Number the subject within its own series, not the whole range.
		[ "$total" -gt 1 ] && sed -i "1,/^Subject: /s/^Subject: \[PATCH\]/Subject: [PATCH $i\/$total]/" "$f"
		basename "$f" >>"$dir/series.new"
	done <"$2"
	mv "$dir/series.new" "$dir/series"
	info SERIES "$1: $total patch(es)"
}
export_one "$KSERIES" "$tmp/kernel"
export_one "$PSERIES" "$tmp/perf"

# The tree now matches the series files: keep 'make tree' from rebuilding it.
wanted_stamp >"$TREE/.git/uaccess-probe-stamp"
git -C "$TREE" rev-parse HEAD >"$TREE/.git/uaccess-probe-head"
