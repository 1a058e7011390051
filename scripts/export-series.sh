#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Write the commits of $TREE back into the kernel generation's series
# folders (kernel/generations/$KGEN.conf):
#   base..HEAD commits that touch only tools/perf/ -> $PSERIES
#   all others                                     -> $KSERIES
# as 'git format-patch' files, and rewrite both series files.  The subjects
# carry the version of the series' cover-letter.txt ("[PATCH v3 0/N]"), and
# each patch its changelog from the series' changes.txt, below '---'.  The
# diffstat at the end of cover-letter.txt (below its last '---') is
# rewritten; the text above it is the author's.  Kernel
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

# changelog FILE SUBJECT: the section of FILE (the series' changes.txt)
# headed "[SUBJECT]", up to the next heading: what changed in the patch
# since its earlier versions, for below its '---' line.
changelog() {
	[ -f "$1" ] || return 0
	awk -v want="[$2]" '
		/^#/ { next }
		/^\[/ { on = ($0 == want); next }
		on { print }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

export_one() { # folder commit-list
	dir=$TOP/$1
	mkdir -p "$dir"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$dir/series" 2>/dev/null |
		while read -r p; do rm -f "$dir/$p"; done
	: >"$dir/series.new"
	total=$(wc -l <"$2")
	# The version of the series is the one its cover letter says.
	ver=$(sed -n '1s/^Subject: \[PATCH \(v[0-9][0-9]*\) .*/\1 /p' \
		"$dir/cover-letter.txt" 2>/dev/null)
	i=0
	while read -r c; do
		i=$((i + 1))
		f=$(git -C "$TREE" format-patch -1 --zero-commit --no-signature \
			--start-number "$i" -o "$dir" "$c")
		# Number the subject within its own series, not the whole range.
		[ "$total" -gt 1 ] && sed -i "1,/^Subject: /s/^Subject: \[PATCH\]/Subject: [PATCH $ver$i\/$total]/" "$f"
		changelog "$dir/changes.txt" "$(git -C "$TREE" log -1 --format=%s "$c")" \
			>"$BUILD/changelog"
		if [ -s "$BUILD/changelog" ]; then
			# Below the first '---': git am leaves it out of the commit.
			awk -v cl="$BUILD/changelog" '
				!done && /^---$/ {
					print
					while ((getline l < cl) > 0) print l
					print ""
					done = 1
					next
				}
				{ print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
		fi
		basename "$f" >>"$dir/series.new"
	done <"$2"
	rm -f "$BUILD/changelog"
	# The cover letter's diffstat, below its last '---', is the series'.
	if [ -s "$2" ] && [ -f "$dir/cover-letter.txt" ] && grep -q '^---$' "$dir/cover-letter.txt"; then
		last=$(grep -n '^---$' "$dir/cover-letter.txt" | tail -n 1 | cut -d: -f1)
		{
			head -n "$last" "$dir/cover-letter.txt"
			echo
			git -C "$TREE" diff --stat=72 "$(head -n 1 "$2")^" "$(tail -n 1 "$2")"
		} >"$dir/cover-letter.txt.new"
		mv "$dir/cover-letter.txt.new" "$dir/cover-letter.txt"
	fi
	mv "$dir/series.new" "$dir/series"
	info SERIES "$1: $total patch(es)"
}
export_one "$KSERIES" "$tmp/kernel"
export_one "$PSERIES" "$tmp/perf"

# The tree now matches the series files: keep 'make tree' from rebuilding it.
stamp_write "$TREE/.git/uaccess-probe-stamp" "$(wanted_stamp)"
git -C "$TREE" rev-parse HEAD >"$TREE/.git/uaccess-probe-head"
