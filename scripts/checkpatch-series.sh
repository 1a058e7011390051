#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every patch in kernel/series and tools-perf-patches/series
# carries a Signed-off-by and is 'checkpatch.pl --strict' clean.
#
# One exception: perf's DWARF code uses the types of elfutils (Dwarf_Die,
# Dwarf_Attribute, ...), which are CamelCase and cannot be renamed; a
# "CHECK: Avoid CamelCase" about one of those is not a finding.  Any other
# message, CamelCase included, fails the patch.
set -u
. "$(dirname -- "$0")/lib.sh"
cp=$TREE/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "not ok - checkpatch: no tree at $TREE (make tree)"; exit 1; }
lib_types='(Dwarf|Dwfl|GElf|Elf)_[A-Za-z0-9_]+'
series_files | while read -r f; do
	p=${f#"$TOP"/}
	if ! grep -q '^Signed-off-by: ' "$f"; then
		echo "not ok - $p: no Signed-off-by"
		continue
	fi
	# Tree mode, so that checkpatch knows the tree's own identifiers.
	(cd "$TREE" && perl "$cp" --strict -q --no-summary --show-types "$f") \
		>"$BUILD/checkpatch.out" 2>&1
	# Messages are paragraphs; drop those about elfutils' CamelCase types.
	awk -v RS='' -v re="^CHECK:CAMELCASE: Avoid CamelCase: <$lib_types>" \
		'$0 !~ re { print; print "" }' "$BUILD/checkpatch.out" >"$BUILD/checkpatch.left"
	if [ -s "$BUILD/checkpatch.left" ]; then
		echo "not ok - checkpatch --strict $p"
		sed 's/^/#   /' "$BUILD/checkpatch.left"
	else
		echo "ok - checkpatch --strict $p"
	fi
done
[ -n "$(series_files)" ] || echo "ok - checkpatch: the series are empty # SKIP no patches"
