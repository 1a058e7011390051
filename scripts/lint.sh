#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every shell script of the repository passes shellcheck.
# One TAP line per script.
set -u
. "$(dirname -- "$0")/lib.sh"
cd "$TOP" || exit 1
command -v shellcheck >/dev/null || { echo "not ok - shellcheck: not installed (make deps)"; exit 1; }
git ls-files -co --exclude-standard | while read -r f; do
	case $f in
	*.sh | .ci/run | qemu-image/guest/run | qemu-image/guest/init) ;;
	*) continue ;;
	esac
	if shellcheck -x "$f" >"$BUILD/shellcheck.out" 2>&1; then
		echo "ok - shellcheck $f"
	else
		echo "not ok - shellcheck $f"
		sed 's/^/#   /' "$BUILD/shellcheck.out"
	fi
done
