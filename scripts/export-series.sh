#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Write the commits of $TREE back into the kernel generation's series
# folders (KSERIES and PSERIES of kernel/generations/$KGEN.conf), as the
# mail that each series is:
#
#   - each commit goes to the series that 'make tree' applied it from (its
#     note in refs/notes/series); a new commit without a note that touches
#     only tools/perf/ goes to the perf series of the commit before it (to
#     the first perf series after a kernel commit), any other new commit
#     must be given one: git -C build/linux notes --ref series add -m
#     kernel/NAME COMMIT
#   - each series is picked onto 'base' on its own, with the series it
#     depends on (its cover.txt's "Depends-on:") picked first, in a
#     scratch worktree, so that it applies to the base without the others,
#     and written by 'git format-patch -v N --base=base' (with
#     --cover-letter when it has more than one patch): the version in
#     every subject, base-commit: in the cover letter (or the single
#     patch) and a prerequisite-patch-id: for each patch it depends on,
#     the shortlog and diffstat made by git;
#   - the hand-written parts come from the series folder: cover.txt
#     (first line "Version: N", then "Subject: ...", optionally
#     "Depends-on: FOLDER" and "RFC: yes", a blank line and the cover
#     letter's text: what, why, changes in vN, the figures), and
#     changes.txt (each patch's changelog, put below its '---');
#   - From: and Signed-off-by: are $SERIES_IDENTITY (scripts/lib.sh);
#     dates are the commits' author dates, the cover letter's that of its
#     newest patch, so the same tree gives the same files, byte for byte.
#
# Nothing generated is edited by hand: the series file, the patches and
# 0000-cover-letter.patch are rewritten on every export.  SERIES_OUT=DIR
# writes the folders under DIR instead of the repository, and leaves the
# tree's stamps alone (the patches suite checks that way that the tree
# gives the committed series back).
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no tree at $TREE: run 'make tree'"
git -C "$TREE" rev-parse -q --verify base >/dev/null || die "$TREE has no 'base' tag"
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"
if [ -d "$TREE/.git/rebase-apply" ] || [ -d "$TREE/.git/rebase-merge" ]; then
	die "$TREE is in the middle of a rebase or 'git am'"
fi
case $SERIES_IDENTITY in
*?' <'?*@?*'>') ;;
*) die "SERIES_IDENTITY='$SERIES_IDENTITY' is not 'Name <address>'" ;;
esac
ident_name=${SERIES_IDENTITY% <*}
ident_mail=${SERIES_IDENTITY##*<}
ident_mail=${ident_mail%>}

tmp=$(mktemp -d)
wt=$tmp/worktree
cleanup() {
	git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# Which series each commit belongs to
prev=
for c in $(git -C "$TREE" rev-list --reverse base..HEAD); do
	s=$(git -C "$TREE" notes --ref series show "$c" 2>/dev/null || true)
	if [ -z "$s" ]; then
		other=$(git -C "$TREE" diff-tree --no-commit-id --name-only -r "$c" |
			grep -v '^tools/perf/' || true)
		[ -n "$other" ] && die "commit $(git -C "$TREE" log -1 --format='%h %s' "$c") belongs to no series: name it with 'git -C $TREE notes --ref series add -m SERIES $(git -C "$TREE" rev-parse --short "$c")' (SERIES: one of $(series_dirs | tr '\n' ' '))"
		if perf_series_dirs | grep -qx "$prev"; then
			s=$prev
		else
			s=$(perf_series_dirs | head -n 1)
		fi
	fi
	series_dirs | grep -qx "$s" ||
		die "commit $(git -C "$TREE" log -1 --format='%h %s' "$c") is noted for series '$s', which kernel/generations/$KGEN_NAME.conf does not list"
	echo "$c" >>"$tmp/$(echo "$s" | tr / _)"
	prev=$s
done

git -C "$TREE" worktree prune
git -C "$TREE" worktree add -q --detach "$wt" base

# changelog FILE SUBJECT: the section of FILE (the series' changes.txt)
# headed "[SUBJECT]", up to the next heading.
changelog() {
	[ -f "$1" ] || return 0
	awk -v want="[$2]" '
		/^#/ { next }
		/^\[/ { on = ($0 == want); next }
		on { print }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# field FILE NAME: the value of header line "NAME: value" of cover.txt
field() {
	sed -n "/^\$/q; s/^$2: //p" "$1"
}

# patch_subject FILE: the subject of patch FILE as git wrote it,
# unfolded, without its "[PATCH ...]" or "[RFC PATCH ...]" prefix (with
# PREFIX=1: only what that prefix holds, "PATCH vN M/T").
patch_subject() {
	awk -v prefix="${PREFIX:-}" '
		/^Subject: / { t = $0; cont = 1; next }
		cont && /^ / { t = t $0; next }
		cont {
			if (prefix) {
				sub(/^Subject: \[/, "", t)
				sub(/\].*/, "", t)
			} else {
				sub(/^Subject: \[(RFC )?PATCH[^]]*\] /, "", t)
			}
			print t
			exit
		}' "$1"
}

# A generation that is a backport of another (BACKPORT_OF) says, below
# the '---' of each patch, which patch of the other generation it
# backports and how it differs (BACKPORT_DIFFS, which the drift suite
# checks), or why it has no counterpart there.  The other generation's
# series as they are in their folders: "SUBJECT<tab>FOLDER vN M/T".
primary_index=$tmp/primary-index
: >"$primary_index"
if [ -n "$BACKPORT_OF" ]; then
	for d in $(load_generation "$BACKPORT_OF" && series_dirs); do
		series_patches "$d" | while read -r f; do
			printf '%s\t%s %s\n' "$(patch_subject "$f")" "$d" "$(PREFIX=1 patch_subject "$f")"
		done
	done >"$primary_index"
fi
# backport_note SUBJECT: the note for the patch SUBJECT, or nothing
backport_note() {
	[ -n "$BACKPORT_OF" ] || return 0
	_theirs=$(awk -F '\t' -v s="$1" '$1 == s { print $2; exit }' "$primary_index")
	_diff=$(awk -F ' [|] ' -v s="$1" '$1 == s { print $2 "\t" $3; exit }' "$TOP/$BACKPORT_DIFFS")
	_why=${_diff#*	}
	case $_why in *.) ;; ?*) _why=$_why. ;; esac
	if [ -n "$_theirs" ]; then
		printf 'Backport of [%s] of the %s series (%s), of the same subject' \
			"${_theirs#* }" "$BACKPORT_OF" "${_theirs%% *}"
		if [ -n "$_diff" ]; then
			printf '.  It differs: %s\n' "$_why"
		else
			printf ': the same change.\n'
		fi
	elif [ "${_diff%%	*}" = only ]; then
		printf 'Only in %s, not a backport: %s\n' "$KGEN_NAME" "$_why"
	else
		printf 'No patch of that subject in %s'"'"'s series.\n' "$BACKPORT_OF"
	fi | fold -s -w 72 | sed 's/ *$//'
}

out_top=${SERIES_OUT:-$TOP}
export_one() { # folder commit-list
	dir=$out_top/$1
	mkdir -p "$dir"
	list=$2
	cover=$TOP/$1/cover.txt
	[ -f "$cover" ] || die "$1/cover.txt is missing (Version:, Subject:, a blank line, the cover letter's text)"
	ver=$(field "$cover" Version)
	subject=$(field "$cover" Subject)
	case $ver in
	'' | *[!0-9]*) die "$1/cover.txt: 'Version: N' is missing or not a number" ;;
	esac
	[ -n "$subject" ] || die "$1/cover.txt: 'Subject: ...' is missing"
	total=$(wc -l <"$list")

	# The series on its own, from base, after the series it depends
	# on, as the sender's commits
	git -C "$wt" checkout -q --detach base
	for d in $(series_prereqs "$1"); do
		dl=$tmp/$(echo "$d" | tr / _)
		[ -s "$dl" ] || die "$1 depends on $d, which has no commits"
		cat "$dl"
	done >"$tmp/prereqs"
	while read -r c; do
		git -C "$wt" cherry-pick --allow-empty "$c" >"$tmp/pick.log" 2>&1 ||
			die "$(series_prereqs "$1" | tr '\n' ' ')does not apply to base on its own at: $(git -C "$TREE" log -1 --format='%h %s' "$c")"
	done <"$tmp/prereqs"
	from=$(git -C "$wt" rev-parse HEAD)
	while read -r c; do
		if ! git -C "$wt" cherry-pick --allow-empty "$c" >"$tmp/pick.log" 2>&1; then
			cat "$tmp/pick.log" >&2
			die "$1 does not apply to base on its own at: $(git -C "$TREE" log -1 --format='%h %s' "$c")"
		fi
		author=$(git -C "$wt" log -1 --format='%an <%ae>' HEAD)
		git -C "$wt" log -1 --format=%B HEAD |
			awk -v old="Signed-off-by: $author" -v new="Signed-off-by: $SERIES_IDENTITY" \
				'$0 == old { $0 = new } { print }' >"$tmp/msg"
		grep -qxF "Signed-off-by: $SERIES_IDENTITY" "$tmp/msg" ||
			die "commit $(git -C "$TREE" log -1 --format='%h %s' "$c") has no Signed-off-by: of its author"
		GIT_COMMITTER_NAME=$ident_name GIT_COMMITTER_EMAIL=$ident_mail \
			GIT_COMMITTER_DATE=$(git -C "$wt" log -1 --format=%aD HEAD) \
			git -C "$wt" commit -q --amend --allow-empty --cleanup=verbatim \
			--author="$SERIES_IDENTITY" --date="$(git -C "$wt" log -1 --format=%aD HEAD)" \
			-F "$tmp/msg"
	done <"$list"

	out=$tmp/out
	rm -rf "$out"
	cl=
	[ "$total" -gt 1 ] && cl=--cover-letter
	# The index lines' abbreviated hashes at a fixed 12 digits, the
	# length the kernel's process documents for commit ids.  Git makes
	# one longer where it is ambiguous among the objects of the tree's
	# repository, which differ from one tree to another: at 7 digits,
	# the objects that a rebase left behind made one index line 8
	# digits long in one repository and not in a fresh one.  Left to
	# git, the length also grows with the objects it counts in the
	# tree's packs.
	# A blank line of context is an empty line, not a lone space
	# (diff.suppressBlankEmpty; git am takes either): checkpatch run
	# on a patch file that git tracks, as in this repository, checks it
	# as a source file, where the space is trailing whitespace.
	# shellcheck disable=SC2086 # $cl: one option or none
	GIT_COMMITTER_NAME=$ident_name GIT_COMMITTER_EMAIL=$ident_mail \
		git -C "$wt" -c format.coverFromDescription=default -c core.abbrev=12 \
		-c diff.suppressBlankEmpty=true format-patch -q --zero-commit --no-signature -v "$ver" $cl \
		--subject-prefix="$(patch_prefix "$1")" \
		--base=base -o "$out" "$from..HEAD"

	# Each patch's changelog, below its first '---'
	for f in "$out"/v"$ver"-[0-9]*.patch; do
		case $f in */v"$ver"-0000-*) continue ;; esac
		s=$(patch_subject "$f")
		backport_note "$s" >"$tmp/changelog"
		changelog "$TOP/$1/changes.txt" "$s" >"$tmp/versions"
		if [ -s "$tmp/changelog" ] && [ -s "$tmp/versions" ]; then
			echo >>"$tmp/changelog"
		fi
		cat "$tmp/versions" >>"$tmp/changelog"
		if [ -s "$tmp/changelog" ]; then
			awk -v cl="$tmp/changelog" '
				!done && /^---$/ {
					print
					while ((getline l < cl) > 0) print l
					print ""
					done = 1
					next
				}
				{ print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
		fi
	done

	# The cover letter: the hand-written subject and text merged in, the
	# date of the newest patch
	if [ "$total" -gt 1 ]; then
		f=$out/v$ver-0000-cover-letter.patch
		sed '1,/^$/d' "$cover" >"$tmp/blurb"
		date=$(git -C "$wt" log -1 --format=%aD HEAD)
		awk -v subj="$subject" -v blurb="$tmp/blurb" -v date="$date" '
			/^Date: / && !d { print "Date: " date; d = 1; next }
			/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj); print; next }
			/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; next }
			{ print }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	fi

	# Replace the folder's generated files
	for old in "$dir"/*.patch; do
		[ -e "$old" ] && rm -f "$old"
	done
	cp "$out"/*.patch "$dir/"
	for f in "$out"/*.patch; do
		case $f in *-0000-cover-letter.patch) ;; *) basename "$f" ;; esac
	done >"$dir/series"
	info SERIES "$1: v$ver, $total patch(es)"
}

series_dirs | while read -r s; do
	list=$tmp/$(echo "$s" | tr / _)
	if [ -s "$list" ]; then
		export_one "$s" "$list"
	else
		info SERIES "$s: no commits"
	fi
done

[ -z "${SERIES_OUT:-}" ] || exit 0
# The tree now matches the series files: keep 'make tree' from rebuilding it.
stamp_write "$TREE/.git/uaccess-probe-stamp" "$(wanted_stamp)"
git -C "$TREE" rev-parse HEAD >"$TREE/.git/uaccess-probe-head"
