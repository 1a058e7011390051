#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Make $TREE: the kernel generation's Debian source tarball (SRC_PKG and
# SRC_TARBALL in kernel/generations/$KGEN.conf) as a git repository (tag
# "base"), with the KSERIES and then the PSERIES series applied by
# 'git am', each commit noted with its series folder (git notes --ref
# series) for make export-series.  Quick when the tree already carries
# exactly these series.  The base commits are made with a fixed identity
# and the tarball's date, so that 'base' (the series' base-commit) is the
# same commit on every machine.
#
# A tree with local work (commits or changes that are not in the series
# files) is never reset: export it first with 'make export-series'.
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -f "$SRC_TARBALL" ] ||
	die "$SRC_TARBALL not found: install it with 'apt-get install $SRC_PKG' (or run 'make deps' as root)"
pkgver=$(dpkg-query -W -f '${Version}' "$SRC_PKG" 2>/dev/null) ||
	die "package $SRC_PKG is not installed: run 'make deps' as root"

want=$(wanted_stamp)
stamp=$TREE/.git/uaccess-probe-stamp

if [ -d "$TREE/.git" ]; then
	if stamp_matches "$stamp" "$want"; then
		info TREE "$TREE is up to date"
		exit 0
	fi
	# Refuse to throw away work: local changes, or commits that were
	# not exported (the stamp is rewritten by every apply and export).
	if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
		die "$TREE has uncommitted changes and the series files changed: commit them and run 'make export-series', or discard them ('git -C $TREE reset --hard')"
	fi
	if [ -f "$stamp" ] && [ "$(git -C "$TREE" rev-parse HEAD)" != "$(cat "$TREE/.git/uaccess-probe-head" 2>/dev/null)" ]; then
		die "$TREE has commits that are not in the series files: run 'make export-series' first, or 'rm -rf $TREE' to start over"
	fi
	# The root commit names the package version it was extracted from.
	base_ver=$(git -C "$TREE" log --max-parents=0 --format=%s base 2>/dev/null || true)
	case $base_ver in
	*"$SRC_PKG $pkgver") ;;
	*)
		info TREE "base is '$base_ver', package is $pkgver: re-extracting"
		rm -rf "$TREE"
		;;
	esac
fi

if [ ! -d "$TREE/.git" ]; then
	info TREE "extracting $SRC_TARBALL ($SRC_PKG $pkgver)"
	rm -rf "$TREE.tmp"
	mkdir -p "$TREE.tmp"
	tar -C "$TREE.tmp" --strip-components=1 -xJf "$SRC_TARBALL"
	(
		cd "$TREE.tmp"
		git init -q
		git config user.name "uaccess-probe build"
		git config user.email "uaccess-probe@localhost"
		git config gc.auto 0
		GIT_AUTHOR_DATE="@$(stat -c %Y "$SRC_TARBALL") +0000"
		GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
		export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
		git add -f -A .
		git commit -q -m "Linux from Debian $SRC_PKG $pkgver" \
			-m "Unmodified contents of $SRC_TARBALL."
		# Debian appends "/*" to .gitignore, which would hide every
		# new file from 'git status' while the series is edited.
		sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
		sed -i '${/^#$/d}' .gitignore
		git commit -q -a -m "Drop the Debian packaging rules from .gitignore" \
			-m "They ignore every top-level entry, so new files would not show up."
		git tag base
	)
	mv "$TREE.tmp" "$TREE"
fi

info TREE "applying series to $TREE"
# Until every patch is in, the tree matches no series.
rm -f "$stamp" "$TREE/.git/uaccess-probe-head"
git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" reset -q --hard base
# Rebases and amends keep a commit's series note.
git -C "$TREE" config notes.rewriteRef refs/notes/series
git -C "$TREE" update-ref -d refs/notes/series
series_dirs | while read -r s; do
	series_patches "$s" | while read -r p; do
		# -3: each series applies to base on its own; on top of the
		# series before it, context may have moved.
		if ! git -C "$TREE" am -q -3 --committer-date-is-author-date "$p" >"$BUILD/git-am$GEN_TAG.log" 2>&1; then
			cat "$BUILD/git-am$GEN_TAG.log" >&2
			git -C "$TREE" am --abort >/dev/null 2>&1 || true
			die "patch does not apply: ${p#"$TOP"/}"
		fi
		git -C "$TREE" notes --ref series add -f -m "$s" HEAD
		info AM "${p#"$TOP"/}"
	done
done
git -C "$TREE" rev-parse HEAD >"$TREE/.git/uaccess-probe-head"
stamp_write "$stamp" "$want"
