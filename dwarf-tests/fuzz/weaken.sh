#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# weaken.sh IN OUT FUNCTION...: OUT is the relocatable object IN (perf's
# perf-in.o) with each FUNCTION's definition made weak, and its code
# named __real_FUNCTION too.  A program linked with OUT that defines
# FUNCTION takes its place in every call, calls from within IN too
# (ld's --wrap reaches the calls of other objects only, and perf-in.o is
# one object), and reaches perf's own through __real_FUNCTION.
# spec-harness.mk uses it for the harness (spec-harness.c says why).
set -eu
[ $# -ge 3 ] || { echo "usage: weaken.sh IN OUT FUNCTION..." >&2; exit 1; }
in=$1 out=$2
shift 2
syms=$(readelf -sW "$in") || exit 1
sections=$(readelf -SW "$in") || exit 1
args=
for f in "$@"; do
	# "VALUE SECTION-INDEX" of the one global definition of f
	def=$(printf '%s\n' "$syms" | awk -v f="$f" \
		'$8 == f && $5 == "GLOBAL" && $4 == "FUNC" && $7 != "UND" { print $2, $7 }')
	case $def in
	*' '*' '*) echo "weaken.sh: $f is defined more than once in $in" >&2; exit 1 ;;
	*' '*) ;;
	*) echo "weaken.sh: no global function $f in $in" >&2; exit 1 ;;
	esac
	value=${def% *} index=${def#* }
	section=$(printf '%s\n' "$sections" |
		sed -n "s/^ *\[ *$index\] \([^ ]*\) .*/\1/p")
	n=$(printf '%s\n' "$sections" | awk -v s="$section" '$2 == s || $3 == s' | wc -l)
	if [ -z "$section" ] || [ "$n" -ne 1 ]; then
		echo "weaken.sh: the section of $f in $in has no name of its own ('$section')" >&2
		exit 1
	fi
	args="$args --add-symbol __real_$f=$section:0x$value,function,global --weaken-symbol=$f"
done
# shellcheck disable=SC2086 # the options, words without blanks
objcopy $args "$in" "$out"
