#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test: every patch of every series folder (scripts/lib.sh series_files)
# carries a Signed-off-by and is 'checkpatch.pl --strict' clean.
#
# One exception: perf's DWARF code uses the types of elfutils (Dwarf, Elf, Dwarf_Die,
# Dwarf_Attribute, ...), which are CamelCase and cannot be renamed; a
# "CHECK: Avoid CamelCase" about one of those is not a finding.  Any other
# message, CamelCase included, fails the patch.
#
# "added, moved or deleted file(s), does MAINTAINERS need updating?" is a
# question, and this script answers it: when MAINTAINERS already has a
# section other than THE REST for every file the patch adds (by the
# tree's get_maintainer.pl), the warning is dropped; otherwise it stays.
# Likewise "do not add new typedefs" is dropped for a typedef that is not
# new: one that the same file of the unpatched tree (tag base) declares.
#
# Two more are facts of this tree, not of the patches:
# - "Unknown commit id" of a Fixes: tag: the tree is a tarball without
#   upstream history, so checkpatch cannot look any id up (the patches
#   suite checks the tags' form; their ids come from upstream's log).
# - The SPDX tag on line 3 of a new tools/perf/tests/shell/*.sh: perf test
#   takes a shell test's description from its line 2, as every test there
#   does.  Only for a patch whose new test has its description on line 2.
set -u
. "$(dirname -- "$0")/lib.sh"
cp=$TREE/scripts/checkpatch.pl
tap_begin
[ -f "$cp" ] || tap_bail "checkpatch: no tree at $TREE (make tree)"
lib_types='(Dwarf|Dwfl|GElf|Elf)(_[A-Za-z0-9_]+)?'
# checkpatch runs scripts/spdxcheck.py, which needs Debian's python3-ply
# and python3-git, not whatever python3 comes first in PATH.
PATH=/usr/bin:$PATH

# Succeeds if MAINTAINERS covers every file that patch $1 adds.
maintained() {
	awk '/^diff --git / { f = $4; sub(/^b\//, "", f) }
		/^new file mode / { print f }' "$1" >"$BUILD/checkpatch.new"
	[ -s "$BUILD/checkpatch.new" ] || return 1
	while read -r nf; do
		(cd "$TREE" && perl scripts/get_maintainer.pl --no-git \
			--no-git-fallback --sections -f "$nf") 2>/dev/null |
			grep -v -e '^[A-Z]:' -e '^$' -e '^THE REST$' | grep -q . ||
			return 1
	done <"$BUILD/checkpatch.new"
}

# Succeeds if patch $1 adds perf shell tests only with their description
# on line 2 and the SPDX tag on line 3, as perf test wants them.
perf_shell_test() {
	awk '
		/^diff --git / { f = $4; t = (f ~ /^b\/tools\/perf\/tests\/shell\/[^\/]*\.sh$/); n = 0; next }
		t && /^@@ -0,0 / { n = 0; next }
		t && /^\+/ {
			n++
			if (n == 2 && ($0 !~ /^\+# / || $0 ~ /SPDX/)) bad = 1
			if (n == 3 && $0 !~ /^\+# SPDX-License-Identifier: /) bad = 1
			if (n == 3) seen = 1
		}
		END { exit !(seen && !bad) }' "$1"
}

series_files | while read -r f; do
	p=${f#"$TOP"/}
	if ! grep -q '^Signed-off-by: ' "$f"; then
		tap_not_ok "$p: no Signed-off-by"
		continue
	fi
	# Tree mode, so that checkpatch knows the tree's own identifiers.
	(cd "$TREE" && perl "$cp" --strict -q --no-summary --show-types "$f") \
		>"$BUILD/checkpatch.out" 2>&1
	# Messages are paragraphs; drop those about elfutils' CamelCase types.
	# Typedefs that only moved: "FILE IDENT" of every NEW_TYPEDEFS, kept
	# if base's FILE declares IDENT.
	old_typedefs=$(awk -v RS='' '/^WARNING:NEW_TYPEDEFS:/ {
		if (match($0, /FILE: [^:]+/)) f = substr($0, RSTART + 6, RLENGTH - 6)
		if (match($0, /[A-Za-z_][A-Za-z0-9_]*;/)) print f, substr($0, RSTART, RLENGTH - 1)
	}' "$BUILD/checkpatch.out" | while read -r file ident; do
		git -C "$TREE" show "base:$file" 2>/dev/null |
			grep -Eq "[^A-Za-z0-9_]$ident;" && printf '%s|' "$ident"
	done)
	paths=no-such-message
	maintained "$f" && paths='^WARNING:FILE_PATH_CHANGES:'
	spdx=no-such-message
	perf_shell_test "$f" && spdx='^WARNING:SPDX_LICENSE_TAG:.*tools/perf/tests/shell/'
	awk -v RS='' -v re="^CHECK:CAMELCASE: Avoid CamelCase: <$lib_types>" \
		-v paths="$paths" -v moved="^WARNING:NEW_TYPEDEFS:.*[^A-Za-z0-9_](${old_typedefs%|});" \
		-v spdx="$spdx" \
		'$0 !~ re && $0 !~ paths && $0 !~ spdx && $0 !~ /^WARNING:UNKNOWN_COMMIT_ID:/ &&
		(moved ~ /\(\);$/ || $0 !~ moved) { print; print "" }' \
		"$BUILD/checkpatch.out" >"$BUILD/checkpatch.left"
	# A Fixes: tag, whose id checkpatch cannot look up here, must at least
	# have the form checkpatch wants: 12 digits, the subject in ("").
	if grep '^Fixes:' "$f" | grep -Evq '^Fixes: [0-9a-f]{12} \(".+"\)$'; then
		echo "malformed Fixes: tag:" >>"$BUILD/checkpatch.left"
		grep '^Fixes:' "$f" >>"$BUILD/checkpatch.left"
	fi
	if [ -s "$BUILD/checkpatch.left" ]; then
		tap_not_ok "checkpatch --strict $p"
		tap_diag <"$BUILD/checkpatch.left"
	else
		tap_ok "checkpatch --strict $p"
	fi
done
[ -n "$(series_files)" ] || tap_skip "checkpatch: the series are empty" "no patches"
tap_done
