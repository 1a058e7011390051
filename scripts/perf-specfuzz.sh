#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Link the probe-spec fuzzer's harness (dwarf-tests/fuzz/spec-harness.c)
# with the objects of the sanitized perf (make perf-asan: ASan, UBSan,
# LSan), by that perf's own Makefile.perf (dwarf-tests/fuzz/
# spec-harness.mk), into $PERF_OUT-specfuzz (build/perf-specfuzz): perf's
# probe code, run in one process for many specs (dwarf-tests/
# fuzz-specs.sh).  It compiles one file and links: seconds.
#
#   perf-specfuzz.sh          build it
#   perf-specfuzz.sh --path   print the path of the harness
set -eu
. "$(dirname -- "$0")/lib.sh"
out=$PERF_OUT-specfuzz
if [ "${1:-}" = --path ]; then
	printf '%s\n' "$out/spec-harness"
	exit 0
fi
asan=$(dirname -- "$(sh "$TOP/scripts/perf-asan.sh" --path)")
[ -f "$asan/perf-in.o" ] || die "no $asan/perf-in.o: run 'make perf-asan'"
mkdir -p "$out"
info LINK "$out/spec-harness (log: ${out#"$TOP"/}/build.log)"
PERF_LOG=$out/build.log sh "$TOP/scripts/perf-asan.sh" \
	-f "$TOP/dwarf-tests/fuzz/spec-harness.mk" FIXDEP=1 \
	SPEC_HARNESS="$out/spec-harness" spec-harness
# The harness runs, and it is the harness: its usage error (-r 0).
[ -x "$out/spec-harness" ] || die "the link made no $out/spec-harness"
"$out/spec-harness" -r 0 </dev/null 2>&1 | grep -q '^usage: spec-harness' ||
	die "$out/spec-harness does not run: $("$out/spec-harness" -r 0 </dev/null 2>&1 | head -n 3)"
