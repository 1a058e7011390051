#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tagged build of Debian's own kernel for dwarf-tests/debian-tags.sh
# (make debian-tags): the compilation units that dwarf-tests/debian-tags/GEN.txt lists,
# compiled by scripts/user-tags.sh from the tree (make tree) with the
# kernel's .config, into $BUILD/debian-tags-$KGEN.  Needs
# 'make debian-kernel'.  A unit written MODULE:UNIT is one of MODULE's.
set -eu
. "$(dirname -- "$0")/lib.sh"

debian_kernel_files
out=$BUILD/debian-tags-$KGEN_NAME
# The units, "MODULE:UNIT" for a module's (its tags in .modules/MODULE,
# by the module's build-id; the build folder is the kernel's).
cus=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/$DEBIAN_TAGS_CASES" |
	cut -d'|' -f2 | sort -u)
key=$( { printf '%s\n' "$cus"; cat "$TOP/scripts/user-tags.sh";
	git -C "$TAGS_TREE" ls-tree HEAD | grep -v '	tools$'; } | inputs_key)
if stamp_matches "$out/.stamp" "$key"; then
	info TAGS "$out is up to date"
	exit 0
fi
rm -f "$out/.stamp"
rm -rf "$out/.modules"
info TAGS "$(echo "$cus" | wc -l) units of $DEBIAN_KERNEL into ${out#"$TOP"/}"
# shellcheck disable=SC2046 # a list of compilation units
sh "$TOP/scripts/user-tags.sh" -o "$out" -s "$TAGS_TREE" \
	-c "$DEB_CONFIG" "$DEB_VMLINUX" $(printf '%s\n' "$cus" | grep -v :)
for m in $(printf '%s\n' "$cus" | sed -n 's/:.*//p' | sort -u); do
	ko=$(debian_module "$m") || die "Debian's kernel $DEBIAN_KERNEL has no module $m"
	# shellcheck disable=SC2046 # a list of compilation units
	sh "$TOP/scripts/user-tags.sh" -o "$out/.modules/$m" -b "$out/.build" \
		-s "$TAGS_TREE" -c "$DEB_CONFIG" -m "$ko" "$DEB_VMLINUX" \
		$(printf '%s\n' "$cus" | sed -n "s/^$m://p")
done
stamp_write "$out/.stamp" "$key"
