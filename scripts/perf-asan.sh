#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the patched perf with AddressSanitizer (LeakSanitizer included)
# and UndefinedBehaviorSanitizer into $PERF_OUT-asan (build/perf-asan):
# the perf that the dwarf-asan suite runs the DWARF fixtures with
# (dwarf-tests/run.sh SANITIZERS=1).  Same tree and options as
# scripts/perf.sh, plus the sanitizers; frame pointers and debug
# information for readable reports (perf 6.12 builds without -g unless
# DEBUG=1, which also drops its -O3; without it, a report names the
# function that inlined the one that failed, and no line).
#
#   perf-asan.sh           build it
#   perf-asan.sh --path    print the path of its perf
#   perf-asan.sh MAKE-ARGUMENTS...
#                          make those in its build, with its options
#                          (scripts/perf.sh; perf-specfuzz.sh links the
#                          probe-spec fuzzer's harness so)
set -eu
. "$(dirname -- "$0")/lib.sh"
out=$PERF_OUT-asan
if [ "${1:-}" = --path ]; then
	printf '%s\n' "$out/perf"
	exit 0
fi
# perf.sh runs "perf version" once: that it leaks is not this build's
# question (the suite checks every report it gets).
ASAN_OPTIONS=detect_leaks=0 \
	PERF_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g" sh "$TOP/scripts/perf.sh" "$TREE" "$out" "$@"
