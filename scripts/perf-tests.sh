#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host suite "perf-tests": the perf series' own 'perf test' cases that
# read no kernel, run by the perf built with AddressSanitizer and UBSan
# (make perf-asan): each must say Ok, and no sanitizer may report
# anything (a read past a record, a leak, undefined behaviour).  Nothing
# here reads the host's tracefs or adds a probe.  TAP on stdout.
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin

# The cases, by the description perf test knows them by.
TESTS="Print a probe's string that could not be read as (fault)"

perf=$(sh "$TOP/scripts/perf-asan.sh" --path)
[ -x "$perf" ] || tap_bail "no sanitized perf at $perf (make perf-asan)"
sanitized_perf "$perf" || tap_bail "$perf is not built with ASan and UBSan (make perf-asan)"
w=$BUILD/perf-tests$GEN_TAG
rm -rf "$w"
mkdir -p "$w/home"
sanitizer_env "$w"
printf '%s\n' "$TESTS" | while IFS= read -r t; do
	HOME=$w/home "$perf" test -v "$t" >"$w/out" 2>&1
	result=$(grep -F -- "$t" "$w/out" | grep -E ': *(Ok|FAILED!|Skip.*)$' | tail -n 1 | sed 's/.*: *//')
	if [ "$result" = Ok ]; then
		tap_ok "perf test '$t'"
	else
		tap_not_ok "perf test '$t': ${result:-no result line}"
		tap_diag <"$w/out"
	fi
	if sanitizer_take "$w" "$w/reports" "perf test '$t'" "$w/out"; then
		tap_not_ok "perf test '$t': no sanitizer report"
		tap_diag <"$w/reports"
	else
		tap_ok "perf test '$t': no sanitizer report"
	fi
done
tap_done
