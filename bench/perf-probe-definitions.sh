#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What does the __user detection cost perf probe?  Runs 'perf probe -D'
# for every spec in bench/probes.txt, in one process, on the built
# vmlinux, with the patched perf and with the stock perf (built from the
# tree without the series), under callgrind, and prints both instruction
# counts and the ratio.  Instruction counts do not depend on the machine's load.
# Host-side and offline: -D only, README from a fixture (no tracefs).
# Not a test suite: it prints figures, not TAP (RECORD=1: and adds them
# to bench/measured.md).
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

vmlinux=$KOBJ/vmlinux
[ -f "$vmlinux" ] || die "no $vmlinux: run 'make kernel'"
[ -x "$PERF" ] || die "no $PERF: run 'make perf'"
command -v valgrind >/dev/null || die "valgrind not found: run 'make deps'"

[ -x "$STOCK_PERF" ] || die "no $STOCK_PERF: run 'make perf-stock'"

# The guest kernel's tracing README (scripts/offline-perf.sh), so that
# both perfs take the same path whatever the host kernel is.
fake=$(mktemp -d)
trap 'chmod -R u+w "$fake"; rm -rf "$fake"' EXIT
offline_perf_env "$fake/env" "$TOP/$TRACEFS_README"

set --
n=0
while IFS= read -r spec; do
	case $spec in "" | "#"*) continue ;; esac
	set -- "$@" -D "$spec"
	n=$((n + 1))
done <"$here/probes.txt"

count() { # perf args...
	_p=$1
	shift
	offline_perf_instructions "$fake/env" "$fake/defs" "$_p" probe -q -k "$vmlinux" "$@"
}
stock=$(count "$STOCK_PERF" "$@")
cp "$fake/defs" "$fake/defs.stock"
patched=$(count "$PERF" "$@")
{
	printf 'machine: %s, %s CPUs; %s probes; vmlinux %s\n' "$(uname -m)" "$(ncpus)" "$n" "$vmlinux"
	printf 'instructions, stock perf:     %s\n' "$stock"
	printf 'instructions, patched perf:   %s\n' "$patched"
	awk -v a="$stock" -v b="$patched" 'BEGIN {
		printf "ratio patched/stock:         %.4f (%+.2f%%; target: at most +1%%)\n", b / a, (b - a) * 100 / a }'
	echo "definitions that changed (stock < > patched):"
	diff "$fake/defs.stock" "$fake/defs" | grep '^[<>]' || echo "  none"
} | record "make bench: what the __user detection costs perf probe -D"
