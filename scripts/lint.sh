#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every shell script of the repository passes shellcheck (one
# TAP line per script), and no tracked file outside the series folders
# names a patch by its number (one TAP line, each hit as a diagnostic).
set -u
. "$(dirname -- "$0")/lib.sh"
cd "$TOP" || exit 1
tap_begin
command -v shellcheck >/dev/null || tap_bail "shellcheck: not installed (make deps)"
git ls-files -co --exclude-standard | while read -r f; do
	case $f in
	*.sh | .ci/run | qemu-image/guest/run | qemu-image/guest/init) ;;
	*) continue ;;
	esac
	shellcheck -x "$f" >"$BUILD/shellcheck.out" 2>&1
	tap_result $? "shellcheck $f" || tap_diag <"$BUILD/shellcheck.out"
done

# A patch's number changes whenever its series does: docs and comments
# name a patch by its subject.  Exempt: what the series folders of every
# kernel generation (KSERIES, PSERIES) hold for the series themselves
# (the mail, series, cover.txt, changes.txt).
folders=$(for g in $(list_descriptors "$GEN_DIR"); do
	(load_generation "$g" && series_dirs)
done | sort -u)
series_own() {
	case ${1##*/} in
	*.patch | series | cover.txt | changes.txt) ;;
	*) return 1 ;;
	esac
	for _d in $folders; do
		[ "${1%/*}" = "$_d" ] && return 0
	done
	return 1
}
# Not a kernel version: "[PATCH 6.1 v13 ...]" is a backport's prefix.
patch_number='(^|[^[:alnum:]_@/-])patch(es)?[[:space:]]+#?[0-9]+(\.[^0-9]|\.$|[^.0-9]|$)'
git ls-files | while read -r f; do
	series_own "$f" && continue
	[ -f "$f" ] || continue
	# /dev/null: grep names the file on each line it prints.
	grep -n -i -E "$patch_number" "$f" /dev/null
done >"$BUILD/patch-numbers.out"
[ ! -s "$BUILD/patch-numbers.out" ]
tap_result $? "patches named by subject, not by number, outside the series folders" ||
	tap_diag <"$BUILD/patch-numbers.out"
tap_done
