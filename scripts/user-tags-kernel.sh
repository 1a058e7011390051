#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The __user tags of all of Debian's own kernel of the generation (make
# debian-kernel), image and every module, as one artifact per build-id,
# ready to serve (debuginfod -F FOLDER): make user-tags-kernel.  Every
# unit is compiled once (scripts/user-tags.sh -k, from the tagged tree of
# make tags-tree) into the cache, then packed (scripts/user-tags-artifact.sh)
# into $CACHE/user-tags-kernel/RELEASE/artifacts.  Hours for
# the cloud flavour on 2 CPUs; not part of make check (the tests use a
# few units and modules: make debian-tags).  The build folder is kept:
# a run that stops is taken up where it stopped.
#
#   user-tags-kernel.sh          make what is missing, print the folder
#   user-tags-kernel.sh --path   only print the folder; fail if it is
#                                missing or not up to date
# The times go to .cost next to the folder (bench/user-tags-coverage.sh).
set -eu
. "$(dirname -- "$0")/lib.sh"

debian_kernel_files
moddir=$DEB_DIR/root/usr/lib/debug/lib/modules/$DEBIAN_KERNEL
[ -d "$moddir" ] || die "no modules with debug information in $moddir: run 'make debian-kernel'"
[ -e "$TAGS_TREE/.git" ] || die "no $TAGS_TREE: run 'make tags-tree'"
out=$CACHE/user-tags-kernel/$DEBIAN_KERNEL
key=$( { readelf -n "$DEB_VMLINUX" | grep 'Build ID'; cat "$DEB_CONFIG";
	(cd "$moddir" && find . -name '*.ko' | LC_ALL=C sort);
	cat "$TOP/scripts/user-tags.sh" "$TOP/scripts/user-tags-artifact.sh" \
		"$TOP/scripts/user-tags-pack.c";
	git -C "$TAGS_TREE" ls-tree HEAD | grep -v '	tools$'; } | inputs_key)
if stamp_matches "$out/.stamp" "$key"; then
	info TAGS "$out/artifacts is up to date" >&2
	printf '%s\n' "$out/artifacts"
	exit 0
fi
[ "${1:-}" != --path ] ||
	die "the tags of all of $DEBIAN_KERNEL are not made, or not up to date: run 'make user-tags-kernel'"
rm -f "$out/.stamp"
nko=$(find "$moddir" -name '*.ko' | wc -l)
info TAGS "every unit of $DEBIAN_KERNEL and its $nko modules into $out (hours on 2 CPUs)" >&2
mkdir -p "$out/tags"
t0=$(date +%s)
# A unit that does not compile is reported, and has no tags.
status=0
sh "$TOP/scripts/user-tags.sh" -o "$out/tags" -s "$TAGS_TREE" -c "$DEB_CONFIG" \
	-k "$moddir" "$DEB_VMLINUX" 2>"$out/user-tags.err" || status=$?
t1=$(date +%s)
failed=$(grep -c 'does not compile' "$out/user-tags.err") || true
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] ||
	{ tail -n 20 "$out/user-tags.err" >&2; die "user-tags.sh failed (log: $out/user-tags.err)"; }
rm -rf "$out/artifacts"
mkdir -p "$out/artifacts"
info PACK "$(find "$out/tags" -mindepth 1 -maxdepth 1 -type d | wc -l) tagged builds into $out/artifacts" >&2
status=0
# shellcheck disable=SC2046 # one folder per build-id
sh "$TOP/scripts/user-tags-artifact.sh" -d "$out/artifacts" \
	$(find "$out/tags" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort) \
	>"$out/pack.log" 2>&1 || status=$?
t2=$(date +%s)
empty=$(grep -c 'has no objects' "$out/pack.log") || true
[ "$status" -eq 0 ] || [ "$empty" -gt 0 ] ||
	{ tail -n 20 "$out/pack.log" >&2; die "user-tags-artifact.sh failed (log: $out/pack.log)"; }
{
	printf 'compile %s\n' "$((t1 - t0))"
	printf 'pack %s\n' "$((t2 - t1))"
	printf 'cpus %s\n' "$(ncpus)"
	printf 'failed %s\n' "$failed"
	printf 'empty %s\n' "$empty"
} >"$out/.cost"
stamp_write "$out/.stamp" "$key"
printf '%s\n' "$out/artifacts"
