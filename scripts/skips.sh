#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# skips.sh LIST SUITE TAP: the skipped results of the stream TAP of the
# suite SUITE (SUITE@GEN for another kernel generation) that the list
# LIST does not expect, one "DESC<TAB>REASON" per line; nothing if every
# skip is listed.  scripts/check.sh fails a run for each one it prints.
#
# LIST (scripts/known-skips.txt): one expected skip per line, four
# fields separated by " | ": the suite, the test's description and the
# skip's reason (shell patterns, as in "case"), and why the skip is
# right.  A line without the fourth field is an error.  '#' starts a
# comment line.
set -u
. "$(dirname -- "$0")/tap.sh"
list=$1 suite=$2 tap=$3
[ -f "$list" ] || { printf 'error: no list of expected skips at %s\n' "$list" >&2; exit 2; }

# The list, one entry per line as "SUITE<TAB>DESC<TAB>REASON".
entries=$(awk -F ' [|] ' '
	/^[[:space:]]*(#|$)/ { next }
	NF != 4 || $4 ~ /^[[:space:]]*$/ {
		printf "error: %s:%d: not \"suite | test | reason | why\"\n", FILENAME, FNR > "/dev/stderr"
		bad = 1; next
	}
	{
		for (i = 1; i <= 3; i++) { gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i) }
		print $1 "\t" $2 "\t" $3
	}
	END { exit bad }' "$list") || exit 2

tab=$(printf '\t')
tap_skips "$tap" | while IFS= read -r skip; do
	desc=${skip%%"$tab"*}
	reason=${skip#*"$tab"}
	listed=
	while IFS="$tab" read -r s d r; do
		# shellcheck disable=SC2254 # the fields are patterns
		case $suite in $s) ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case $desc in $d) ;; *) continue ;; esac
		# shellcheck disable=SC2254
		case $reason in $r) listed=1 && break ;; esac
	done <<LIST
$entries
LIST
	[ -n "$listed" ] || printf '%s\n' "$skip"
done
