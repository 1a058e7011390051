#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every shell script of the repository passes shellcheck.
# One TAP line per script.
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
tap_done
