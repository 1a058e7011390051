#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the tracefs README that host-side perf runs against for
# this kernel generation (TRACEFS_README of its descriptor, the payload's
# tracefs-README) tells perf what this kernel's own README tells it: each
# pattern perf looks for in it (ftrace_readme_table in the tree's
# tools/perf/util/probe-file.c, the payload's perf-readme-patterns) is in
# both or in neither.
# requires: README
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

real=/sys/kernel/tracing/README
fixture=/payload/tracefs-README
patterns=/payload/perf-readme-patterns
[ -s "$patterns" ] || { fail "the payload has perf's README patterns"; exit 0; }

# has FILE PATTERN: a line of FILE matches the glob PATTERN, as perf's
# strglobmatch() matches it.
has() {
	while IFS= read -r line; do
		# shellcheck disable=SC2254 # PATTERN is a glob
		case $line in $2) return 0 ;; esac
	done <"$1"
	return 1
}

differ=
while IFS= read -r pat; do
	has "$real" "$pat" && r=yes || r=no
	has "$fixture" "$pat" && f=yes || f=no
	if [ "$r" = "$f" ]; then
		pass "README pattern '$pat': $r in the kernel's and in the fixture"
	else
		fail "README pattern '$pat': $r in the kernel's, $f in the fixture"
		differ=1
	fi
done <"$patterns"
if [ -n "$differ" ]; then
	echo "this kernel's $real:" | diag
	diag <"$real"
fi
exit 0
