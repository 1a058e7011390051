#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: each series folder reads as the mail its maintainers would
# receive (the 'send' suite; make send-check runs it with the patches and
# series suites, which check checkpatch.pl --strict per patch, and that
# each series applies to base on its own and builds after every patch).
#
# Per series: every patch's From: is $SERIES_IDENTITY and signs off as
# it, last; the subjects carry the series' prefix (patch_prefix in
# lib.sh: "RFC PATCH" for an RFC, "PATCH 6.1" for a backport), the
# version of the series' cover.txt and
# number each patch i/N (as git pads them: 01/16); a series of more than one patch has the
# cover letter, with its subject, base-commit: and no placeholder left;
# a series that depends on others (Depends-on: in cover.txt) names each
# of their patches by a prerequisite-patch-id: after its base-commit:;
# get_maintainer.pl gives addresses for every file a patch touches (that
# every file a patch adds is in a MAINTAINERS section is the patches
# suite's: checkpatch asks it); in a backport (BACKPORT_OF), each patch
# of a series names the patch it backports, or says why it has none.
# Then 'make export-series'
# into a scratch folder must give the committed folders back, byte for
# byte, from the tree that 'make tree' made from them.
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin
[ -e "$TREE/.git" ] || tap_bail "send-check: no tree at $TREE (make tree)"

# unfold FILE HEADER: the value of a mail header, folded lines joined
unfold() {
	awk -v h="$2: " 'index($0, h) == 1 { v = substr($0, length(h) + 1); on = 1; next }
		on && /^[ \t]/ { sub(/^[ \t]+/, " "); v = v $0; next }
		on { print v; exit }' "$1"
}

# addresses FILE: where get_maintainer.pl sends a patch to FILE
addresses() {
	(cd "$TREE" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats -f "$1") 2>/dev/null | grep '@'
}

for s in $(series_dirs); do
	ver=$(sed -n '/^$/q; s/^Version: //p' "$TOP/$s/cover.txt" 2>/dev/null)
	n=$(series_patches "$s" | wc -l)
	if [ -z "$ver" ] || [ "$n" -eq 0 ]; then
		tap_not_ok "$s: a cover.txt with its Version:, and patches"
		continue
	fi
	i=0
	for p in $(series_patches "$s"); do
		i=$((i + 1))
		name=${p##*/}
		from=$(unfold "$p" From)
		subj=$(unfold "$p" Subject)
		last=$(grep '^Signed-off-by: ' "$p" | tail -n 1)
		# git pads the number to the width of the count: 01/16
		want="[$(patch_prefix "$s") v$ver $(printf "%0${#n}d" "$i")/$n]"
		[ "$n" -gt 1 ] || want="[$(patch_prefix "$s") v$ver]"
		bad=
		[ "$from" = "$SERIES_IDENTITY" ] || bad="$bad
From: is '$from', not '$SERIES_IDENTITY'"
		[ "$last" = "Signed-off-by: $SERIES_IDENTITY" ] || bad="$bad
the last sign-off is '$last'"
		case $subj in
		"$want "*) ;;
		*) bad="$bad
the subject '$subj' does not begin with '$want'" ;;
		esac
		# A backport's patch names, first below its '---', the patch
		# of $BACKPORT_OF that it backports, or why it has none.
		what=
		if [ -n "$BACKPORT_OF" ]; then
			what=", and what it backports"
			note=$(sed -n '/^---$/{n;p;q;}' "$p")
			case $note in
			"Backport of ["*"] of the $BACKPORT_OF series"* | "Only in "*) ;;
			*) bad="$bad
below its '---', it names no $BACKPORT_OF patch that it backports: '$note'" ;;
			esac
		fi
		if [ -z "$bad" ]; then
			tap_ok "$s: $name: From:, sign-off and '$want'$what"
		else
			tap_not_ok "$s: $name: From:, sign-off and '$want'$what"
			printf '%s\n' "$bad" | sed '/^$/d' | tap_diag
		fi
		lost=$(awk '/^diff --git / { f = $4; sub(/^b\//, "", f); print f }' "$p" |
			while read -r f; do
				addresses "$f" | grep -q . || printf ' %s' "$f"
			done)
		if [ -z "$lost" ]; then
			tap_ok "$s: $name: get_maintainer.pl resolves every file"
		else
			tap_not_ok "$s: $name: get_maintainer.pl resolves every file"
			echo "no address for:$lost" | tap_diag
		fi
	done
	cl=$TOP/$s/v$ver-0000-cover-letter.patch
	[ "$n" -gt 1 ] || cl=$(series_patches "$s")
	pre=$(for d in $(series_prereqs "$s"); do series_patches "$d"; done | wc -l)
	got=$(grep -c '^prerequisite-patch-id: [0-9a-f]\{40\}$' "$cl" 2>/dev/null)
	if [ "${got:-0}" -eq "$pre" ]; then
		tap_ok "$s: $pre prerequisite-patch-id: line(s), one per patch of the series it depends on"
	else
		tap_not_ok "$s: $pre prerequisite-patch-id: line(s), one per patch of the series it depends on"
		echo "${cl##*/} has ${got:-0}; Depends-on: $(series_field "$s" Depends-on)" | tap_diag
	fi
	if [ "$n" -gt 1 ]; then
		subj=$(unfold "$cl" Subject 2>/dev/null)
		if [ -f "$cl" ] && [ "$subj" = "[$(patch_prefix "$s") v$ver $(printf "%0${#n}d" 0)/$n] $(sed -n '/^$/q; s/^Subject: //p' "$TOP/$s/cover.txt")" ] &&
			grep -q '^base-commit: [0-9a-f]\{40\}$' "$cl" && ! grep -q '\*\*\* .* HERE \*\*\*' "$cl"; then
			tap_ok "$s: cover letter v$ver-0000 with its subject and base-commit:"
		else
			tap_not_ok "$s: cover letter v$ver-0000 with its subject and base-commit:"
		fi
	elif grep -q '^base-commit: [0-9a-f]\{40\}$' "$(series_patches "$s")"; then
		tap_ok "$s: its one patch has base-commit: and no cover letter"
	else
		tap_not_ok "$s: its one patch has base-commit: and no cover letter"
	fi
done

# The committed series are what the tree exports
out=$BUILD/send-check
rm -rf "$out"
if SERIES_OUT=$out sh "$TOP/scripts/export-series.sh" >"$BUILD/send-check.log" 2>&1; then
	for s in $(series_dirs); do
		if (cd "$TOP/$s" && for f in series *.patch; do cmp -s "$f" "$out/$s/$f" || echo "$f"; done;
			cd "$out/$s" && for f in *.patch; do [ -f "$TOP/$s/$f" ] || echo "$f (not committed)"; done) |
			grep . >"$BUILD/send-check.diff"; then
			tap_not_ok "$s: make export-series gives the committed folder back"
			tap_diag <"$BUILD/send-check.diff"
		else
			tap_ok "$s: make export-series gives the committed folder back"
		fi
	done
else
	tap_not_ok "make export-series into a scratch folder"
	tail -n 20 "$BUILD/send-check.log" | tap_diag
fi
tap_done
