#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The parsers' own tests, on recorded output (qemu-image/recorded/), as
# kunit_tool tests its parser: every verdict that the suites draw from a
# run is fed recorded runs, good and bad, and must judge them right.
#
#   recorded/vm/results-good.tap      a real x86_64 VM run's results
#                                     channel (58 passed, 2 skipped)
#   recorded/vm/*-panic.*, *-hang.*   the runner self-test's real guests
#                                     that panic (QEMU exits 0) and hang
#   recorded/proof/console-*.txt      s390x proof consoles: a good run, a
#                                     panic, a truncated log (time out),
#                                     a silent guest, /init errors, no
#                                     trace, wrong values
#   recorded/proof/events, probes     the host's side of that run
#   recorded/dwarf/records.gcc        a DWARF test worker's records (the
#                                     head of a real run, then a failed
#                                     build, a skip, a stray line)
#   recorded/dwarf/ubsan-stderr.txt   perf-asan's stderr for a spec whose
#                                     index overflowed (real, before perf
#                                     series "Refuse array indices and
#                                     offsets that overflow a long"): a
#                                     report of UBSan's, then perf's answer
#   recorded/dwarf/plain-stderr.txt   perf's stderr without a report
#   recorded/dwarf/stock-*.cases      what the patched and the stock perf
#                                     printed for five gcc-stock cases (real;
#                                     us.value's stock output edited into an
#                                     undocumented difference, us.user added
#                                     as a difference documented with another
#                                     output, us.index left
#                                     out of the patched run)
#
# The bad VM streams are made from the good one here (cut, without the
# plan, with a bail out), so that each differs from it in one way.
# Parsers under test: the TAP tally (scripts/tap.sh: tap_count,
# tap_plan_error, tap_stream_verdict, and the writer's numbering), the VM
# suite's verdict (qemu.sh: vm_verdict), the proof suite's (proof_verdict,
# proof_trace) and its trace parser and per-event verdicts
# (proof/judge.sh), the records of the DWARF tests' workers (tap_records)
# and the gcc-stock verdicts (dwarf-tests/gcc-plugin/stock-verdicts.awk),
# the sanitizers' reports that the sanitized perf's runs yield
# (offline-perf.sh: sanitizer_take).  Host only, a few seconds.  TAP on
# stdout.
set -u
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
# shellcheck source=qemu.sh
. "$here/qemu.sh"
# shellcheck source=proof/judge.sh
. "$here/proof/judge.sh"

rec=$here/recorded
tmp=$BUILD/parsers
rm -rf "$tmp"
mkdir -p "$tmp"
tap_begin

# expect DESC GOT WANT: GOT must be WANT.
expect() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		printf 'expected: %s\ngot:      %s\n' "$3" "$2" | tap_diag
	fi
}

# --- TAP streams: the tally and the plan check -------------------------------
good=$rec/vm/results-good.tap
grep -v '^1\.\.' "$good" >"$tmp/no-plan.tap"
head -n 40 "$good" >"$tmp/truncated.tap"
sed 's/^1\.\.60/1..61/' "$good" >"$tmp/wrong-plan.tap"
{ head -n 40 "$good"; echo "Bail out! vm-x86_64-check: timed out after 900s"; } >"$tmp/bail.tap"
: >"$tmp/silent.tap"
sed '0,/^ok 5 - /s/^ok 5 - /not ok 5 - /' "$good" >"$tmp/failure.tap"

expect "tally: a good run" "$(tap_count "$good")" "58 0 2"
expect "tally: a good run has a complete plan" "$(tap_plan_error "$good")" ""
expect "tally: a failure counts" "$(tap_count "$tmp/failure.tap")" "57 1 2"
expect "tally: a stream without its plan" "$(tap_plan_error "$tmp/no-plan.tap")" \
	"no plan after 60 results (the suite stopped early)"
expect "tally: a truncated stream" "$(tap_plan_error "$tmp/truncated.tap")" \
	"no plan after 27 results (the suite stopped early)"
expect "tally: a plan that does not match" "$(tap_plan_error "$tmp/wrong-plan.tap")" \
	"planned 61 tests, ran 60"
expect "tally: a bail out" "$(tap_plan_error "$tmp/bail.tap")" \
	"Bail out! vm-x86_64-check: timed out after 900s"
expect "tally: a suite that printed nothing" "$(tap_plan_error "$tmp/silent.tap")" \
	"no result and no plan"
# What check.sh adds to a suite's results.
v() { (TAP_STATE='' && tap_stream_verdict "$@"); }
expect "suite verdict: a good run adds nothing" "$(v vm "$good" 0)" ""
expect "suite verdict: failures that the stream shows add nothing" \
	"$(v vm "$tmp/failure.tap" 1)" ""
expect "suite verdict: a silent suite fails" "$(v vm "$tmp/silent.tap" 1)" \
	"not ok 1 - suite vm: no result and no plan (exit status 1)"
expect "suite verdict: a missing plan fails even with status 0" \
	"$(v vm "$tmp/no-plan.tap" 0)" \
	"not ok 1 - suite vm: no plan after 60 results (the suite stopped early) (exit status 0)"
expect "suite verdict: a failed exit that no result explains" \
	"$(v vm "$good" 2)" "not ok 1 - suite vm exited with status 2"

# The writer: one numbering across subshells and pipelines, the plan.
(
	TAP_STATE=''
	tap_begin
	tap_ok one
	(tap_not_ok two)
	echo x | while read -r _; do tap_skip three "no reason"; done
	tap_result 0 four
	tap_done
	echo "status $?"
) >"$tmp/writer.tap"
expect "writer: numbered across subshells, plan, status" "$(tr '\n' '|' <"$tmp/writer.tap")" \
	"ok 1 - one|not ok 2 - two|ok 3 - three # SKIP no reason|ok 4 - four|1..4|status 1|"

# The records of parallel writers (dwarf-tests/run.sh's workers).
(TAP_STATE='' && tap_begin && tap_records <"$rec/dwarf/records.gcc" && tap_done) >"$tmp/records.tap"
expect "records: numbered results, a skip with its reason, data left out, diagnostics" \
	"$(tr '\n' '|' <"$tmp/records.tap")" \
	"ok 1 - gcc: build argv (no annotations, as wanted)|ok 2 - gcc: build badtags (no annotations, as wanted)|ok 3 - gcc: build bitfield (no annotations, as wanted)|not ok 4 - gcc: build ustring: no btf_type_tag(\"user\") annotation in its DWARF|#   clang: error: unknown argument|ok 5 - us.old.x [gcc v5.4] -D us_open filename # SKIP NO_TAGS: hand-written DWARF|#   stray output of a worker|1..5|"

# The sanitizers' reports of a run of the sanitized perf: those in the
# log folder (ASan's, LSan's), and UBSan's in perf's stderr (GCC 12 puts
# them there whatever log_path says).
mkdir -p "$tmp/san"
printf '==1==ERROR: AddressSanitizer: heap-buffer-overflow\n' >"$tmp/san/san.log.1"
: >"$tmp/san.out"
sanitizer_take "$tmp/san" "$tmp/san.out" "run 1" "$rec/dwarf/plain-stderr.txt"
expect "sanitizers: a report in the log is taken, and the log emptied" \
	"$? $(grep -c '^=== run 1$' "$tmp/san.out") $(find "$tmp/san" -name 'san.log.*' | wc -l)" "0 1 0"
sanitizer_take "$tmp/san" "$tmp/san.out" "run 2" "$rec/dwarf/ubsan-stderr.txt"
expect "sanitizers: a report of UBSan's in perf's stderr is taken, with the output" \
	"$? $(grep -c '^=== run 2 (UBSan, in its output)$' "$tmp/san.out") $(grep -c 'runtime error: signed integer overflow' "$tmp/san.out")" "0 1 1"
sanitizer_take "$tmp/san" "$tmp/san.out" "run 3" "$rec/dwarf/plain-stderr.txt"
expect "sanitizers: perf's stderr without a report, and no log: nothing" \
	"$? $(grep -c '^=== run 3' "$tmp/san.out")" "1 0"

# The gcc-stock verdicts: the patched perf as the stock one, or a
# documented difference.
awk -F '\t' -v known="$rec/dwarf/known.txt" \
	-f "$TOP/dwarf-tests/gcc-plugin/stock-verdicts.awk" \
	"$rec/dwarf/stock-patched.cases" "$rec/dwarf/stock-stock.cases" >"$tmp/stock.records"
expect "gcc-stock: the same output passes, twice" \
	"$(grep -c '^R ok us\.\(string\|vars\) .*: as stock perf$' "$tmp/stock.records")" 2
expect "gcc-stock: a documented difference passes" \
	"$(grep -c '^R ok us\.at_kernel .*: differs from stock perf, as documented$' "$tmp/stock.records")" 1
expect "gcc-stock: an undocumented difference fails, showing both outputs" \
	"$(grep -A2 '^R notok us\.value .*: differs from stock perf$' "$tmp/stock.records" | grep -c '^D \(patched\|stock\): ')" 2
expect "gcc-stock: a documented difference with another output fails, showing all three" \
	"$(grep -A3 '^R notok us\.user .*: differs from stock perf, not as documented$' "$tmp/stock.records" | grep -c '^D \(documented\|patched\|stock\): ')" 3
expect "gcc-stock: a case the patched perf did not run fails" \
	"$(grep -c '^R notok us\.index .*: no result with the patched perf$' "$tmp/stock.records")" 1

# --- the VM suite's verdict ---------------------------------------------------
expect "vm: a good run passes" "$(vm_verdict 33 "$good" 900)" pass
expect "vm: a run with failures fails" "$(vm_verdict 35 "$tmp/failure.tap" 900)" fail
expect "vm: a panic (QEMU exits 0) is not a pass" "$(vm_verdict 0 "$tmp/truncated.tap" 900)" \
	"guest ended without its end marker (QEMU status 0: panic, crash or no exit device)"
expect "vm: a hang is a time out" "$(vm_verdict 124 "$tmp/truncated.tap" 900)" \
	"timed out after 900s"
expect "vm: status 33 without the end marker is not a pass" \
	"$(vm_verdict 33 "$tmp/truncated.tap" 900)" \
	"guest ended without its end marker (QEMU status 33: panic, crash or no exit device)"
expect "vm: a real panic (QEMU exits 0)" "$(vm_verdict 0 "$rec/vm/results-panic.tap" 300)" \
	"guest ended without its end marker (QEMU status 0: panic, crash or no exit device)"
expect "vm: a real panic's stream has no result and no plan" \
	"$(tap_plan_error "$rec/vm/results-panic.tap")" "no result and no plan"
expect "vm: a real hang" "$(vm_verdict 124 "$rec/vm/results-hang.tap" 40)" "timed out after 40s"
expect "vm: a silent guest" "$(vm_verdict 0 "$tmp/silent.tap" 900)" \
	"guest ended without its end marker (QEMU status 0: panic, crash or no exit device)"
expect "vm: the end marker and a QEMU crash" "$(vm_verdict 1 "$good" 900)" \
	"guest finished but QEMU exited with status 1"
expect "vm: a missing plan passes the runner, not check.sh" \
	"$(vm_verdict 33 "$tmp/no-plan.tap" 900) / $(tap_plan_error "$tmp/no-plan.tap")" \
	"pass / no plan after 60 results (the suite stopped early)"

# --- the proof suite ----------------------------------------------------------
pv() { # console status: proof_verdict on a recorded console
	proof_trace "$rec/proof/console-$1.txt" >"$tmp/trace-$1.txt"
	proof_verdict "$2" "$rec/proof/console-$1.txt" "$tmp/trace-$1.txt" 300
}
expect "proof: a good run" "$(pv good 0)" ""
expect "proof: the trace is what /init printed between its markers" \
	"$(grep -c 'init-1 ' "$tmp/trace-good.txt")" 6
expect "proof: a panic (QEMU exits 0)" "$(pv panic 0)" \
	"the guest ended without its end marker, or with errors"
expect "proof: a truncated log (time out)" "$(pv truncated 124)" \
	"the guest timed out after 300s"
expect "proof: a silent guest" "$(pv silent 0)" \
	"the guest ended without its end marker, or with errors"
expect "proof: QEMU failed" "$(pv silent 1)" "QEMU exited with status 1"
expect "proof: /init reported errors" "$(pv errors 0)" \
	"the guest ended without its end marker, or with errors"
expect "proof: no trace" "$(pv notrace 0)" "the guest printed no trace"

# Each event of a recorded run, as the host judges it.
(TAP_STATE='' && ARCH=recorded && proof_judge "$rec/proof/events" "$rec/proof/probes" \
	"$tmp/trace-good.txt") >"$tmp/judge-good.tap"
expect "proof judge: a good run, every event right (and two definitions that failed)" \
	"$(tap_count "$tmp/judge-good.tap")" "6 2 0"
expect "proof judge: a perf that must not define a probe and does not" \
	"$(grep -c "^ok .*stock 'probe_user_struct pt->mode' makes no definition" "$tmp/judge-good.tap")" 1
expect "proof judge: a perf that must not define a probe and does" \
	"$(grep -c "^not ok .*stock 'probe_user_struct pt->flags' makes no definition" "$tmp/judge-good.tap")" 1
expect "proof judge: a perf that made no definition where it must" \
	"$(grep -c "^not ok .*'do_sched_setscheduler param->x' makes a definition" "$tmp/judge-good.tap")" 1
expect "proof judge: init's hits only (a kworker's are ignored)" \
	"$(grep -c 'patched .do_sys_openat2 filename:string.* records "/uaccess-probe/opened-by-init": got filename_string="/uaccess-probe/opened-by-init"' "$tmp/judge-good.tap")" 1
expect "proof judge: a stock kernel read of user memory records something else" \
	"$(grep -c '^ok .*stock .do_sys_openat2.* does not record' "$tmp/judge-good.tap")" 1
expect "proof judge: every argument of a two-argument event" \
	"$(grep -c '^ok .*prio2=.*: got prio=42 prio2=42' "$tmp/judge-good.tap")" 1
expect "proof judge: an event at two sites (inlined)" \
	"$(grep -c '^ok .*at 2 sites).* records "kernel-name"' "$tmp/judge-good.tap")" 1
proof_trace "$rec/proof/console-wrong.txt" >"$tmp/trace-wrong.txt"
(TAP_STATE='' && ARCH=recorded && proof_judge "$rec/proof/events" "$rec/proof/probes" \
	"$tmp/trace-wrong.txt") >"$tmp/judge-wrong.tap"
expect "proof judge: a fault where the value should be fails" \
	"$(grep -c '^not ok .*patched .do_sys_openat2.*got filename_string=(fault)' "$tmp/judge-wrong.tap")" 1
expect "proof judge: a stock read that records the user value fails" \
	"$(grep -c '^not ok .*stock .do_sys_openat2.* does not record' "$tmp/judge-wrong.tap")" 1
expect "proof judge: a hit with fewer fields than the definition cannot be parsed" \
	"$(grep -c '^not ok .*cannot parse the trace: prio=42' "$tmp/judge-wrong.tap")" 1
expect "proof judge: an event that never fired fails" \
	"$(grep -c '^not ok .*the probe never fired' "$tmp/judge-wrong.tap")" 1
expect "proof judge: 'any' passes on any value" \
	"$(grep -c '^ok .*records something' "$tmp/judge-wrong.tap")" 1
# shellcheck disable=SC2034 # read by the library
(TAP_STATE='' && ARCH=recorded && proof_judge "$rec/proof/events" "$rec/proof/probes" \
	"$tmp/trace-silent.txt") >"$tmp/judge-silent.tap"
expect "proof judge: nothing recorded, every event that must fire fails" \
	"$(tap_count "$tmp/judge-silent.tap")" "1 7 0"

# make timings: a run's idle CPU time, from the CPU ticks of its start and
# of its last step (scripts/timings.sh; QEMU's own lines carry none), in
# a build folder of its own.  A run recorded before the ticks: no line.
hz=$(getconf CLK_TCK)
mkdir -p "$tmp/timings/logs"
cat >"$tmp/timings/logs/timings" <<EOF_TIMINGS
2026-01-01T00:00:00Z begin 0 0 check $((10 * hz)) $((20 * hz))
2026-01-01T00:01:40Z deps 100 0 $((12 * hz)) $((60 * hz))
2026-01-01T00:03:20Z vm-x86_64-check-tcg 100 33
2026-01-01T00:03:20Z check-vm 200 0 $((40 * hz)) $((120 * hz))
EOF_TIMINGS
expect "timings: the idle CPU time of a run, from its start to its last step" \
	"$(BUILD=$tmp/timings sh "$TOP/scripts/timings.sh" | sed -n 's/^ *idle CPU *//p')" "30 s of 100 s (30%)"
printf '%s\n' '2026-01-01T00:00:00Z begin 0 0 check' '2026-01-01T00:01:40Z deps 100 0' \
	>"$tmp/timings/logs/timings"
expect "timings: no idle CPU time for a run recorded without the ticks" \
	"$(BUILD=$tmp/timings sh "$TOP/scripts/timings.sh" | grep -c 'idle CPU')" 0
tap_done
