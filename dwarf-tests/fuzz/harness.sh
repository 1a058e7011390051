# SPDX-License-Identifier: GPL-2.0
# Running perf's probe code in the harness (spec-harness.c, make
# perf-specfuzz), many lines per process, for the fuzzers that feed it:
# the probe-spec fuzzer (fuzz-specs.sh: specs on one vmlinux) and the
# DWARF mutation fuzzer (fuzz-dwarf.sh: "-k INPUT" lines, one mutated
# file each).  Sourced by them, after scripts/lib.sh.
#
# What the fuzzer sets: HARNESS, FUZZ_TIMEOUT, RENEW, PINPOINT (see
# fuzz-specs.sh), BUILD (its folder), and the functions the worker calls:
#   finding DIR SPECS I KIND
#                 line I (from 0) of the file SPECS is a finding of KIND
#                 (signal, sanitizer, timeout); DIR/report holds the
#                 sanitizers' report, DIR/run.rec the records; it sets
#                 FINDING to the finding's folder (which has a file what)
#   leak_group SPECS FIRST LAST SITE REPORT
#                 lines FIRST to LAST leaked (at SITE), none of them alone
#
#   harness_run DIR SPECS FIRST LAST ENV [VMLINUX]
#   harness_worker TAG SPECS FIRST LAST ENV [VMLINUX]
#   harness_pinpoint DIR SPECS ENV DONE [VMLINUX] <LEAKS
#   harness_figures NOUN CLASSES RECORDS
#   report_site FILE, report_kind FILE STATUS
# Their variables are named _hw_ and _hp_ (the callbacks run in the
# same shell).
# shellcheck shell=sh

# harness_run DIR SPECS FIRST LAST ENV [VMLINUX]: lines FIRST to LAST
# (numbers, from 0) of SPECS in one harness process, in the offline perf
# environment ENV (offline_perf_env: its README); its records in
# DIR/run.rec, its sanitizer reports in DIR/san.log.PID, which the
# harness watches (-l: a report of UBSan, which lets perf go on, ends
# the process after its line); LSan checks where the harness asks it to,
# not at the exit.
harness_run() {
	rm -f "$1"/san.log.*
	sanitizer_env "$1"
	ASAN_OPTIONS="$ASAN_OPTIONS:leak_check_at_exit=0"
	# shellcheck disable=SC2086 # VMLINUX: one word, or none (-k lines)
	sed -n "$(($3 + 1)),$(($4 + 1))p" "$2" |
		PERF_HOME=$1/home offline_perf "$5" "$HARNESS" -t "$FUZZ_TIMEOUT" \
			-r "$RENEW" -i "$3" -l "$1/san.log" ${6:-} >"$1/run.rec" 2>"$1/run.err"
}

# report_site FILE: where a sanitizer's report says perf went wrong: the
# function of its first frame outside the sanitizers' own code.
report_site() {
	awk '/^ *#[0-9]+ 0x[0-9a-f]+ in / && !/libsanitizer|_interceptor_|__sanitizer/ {
		for (i = 1; i < NF; i++) if ($i == "in") { print $(i + 1); exit } }' "$1"
}

# report_kind FILE STATUS: signal or sanitizer (ASan's reports of a
# signal are "deadly signals"; without a report, a signal's exit status).
report_kind() {
	if [ -s "$1" ]; then
		if grep -q 'DEADLYSIGNAL\|AddressSanitizer: \(SEGV\|BUS\|FPE\|ILL\|ABRT\)' "$1"; then
			echo signal
		else
			echo sanitizer
		fi
	elif [ "$2" -gt 128 ]; then
		echo signal
	fi
}

# harness_worker TAG SPECS FIRST LAST ENV [VMLINUX]: lines FIRST to LAST
# of SPECS, in as many harness processes as findings take (each starts
# again after the line that ended the one before), in the folder
# BUILD/wTAG.  What it leaves in BUILD: the records in records.TAG, one
# line per process in runs.TAG ("FIRST LAST-RUN STATUS"), the lines where
# perf exited in exits.TAG, the leaked groups in leaks.TAG ("FIRST LAST
# SITE REPORT", REPORT the sanitizers' report), and why it could not go
# on in broken.TAG (status 1).
harness_worker() {
	_hw_w=$BUILD/w$1
	mkdir -p "$_hw_w/home"
	_hw_next=$3
	while [ "$_hw_next" -le "$4" ]; do
		harness_run "$_hw_w" "$2" "$_hw_next" "$4" "$5" "${6:-}"
		_hw_rc=$?
		cat "$_hw_w"/san.log.* >"$_hw_w/report" 2>/dev/null
		cat "$_hw_w/run.rec" >>"$BUILD/records.$1"
		if grep -q '^F ' "$_hw_w/run.rec"; then
			sed -n 's/^F [0-9]* //p' "$_hw_w/run.rec" >"$BUILD/broken.$1"
			return 1
		fi
		_hw_last=$(awk '$1 == "S" { s = $2 } END { print s }' "$_hw_w/run.rec")
		printf '%s %s %s\n' "$_hw_next" "${_hw_last:--}" "$_hw_rc" >>"$BUILD/runs.$1"
		if grep -q '^E ' "$_hw_w/run.rec"; then
			# A report of a process that ended well: at the exit
			if [ -s "$_hw_w/report" ]; then
				finding "$_hw_w" "$2" "$_hw_next" sanitizer
				echo "the report came after the lines $_hw_next-$4 ended" >>"$FINDING/what"
			fi
			break
		fi
		[ -n "$_hw_last" ] || {
			echo "harness died before a line: $(tail -n 3 "$_hw_w/run.err")" >"$BUILD/broken.$1"
			return 1
		}
		_hw_leak=$(awk '$1 == "L" { print $2, $3 }' "$_hw_w/run.rec")
		if [ -n "$_hw_leak" ]; then
			# The group's lines ran; leak.N keeps the group's report.
			_hw_site=$(report_site "$_hw_w/report")
			printf '%s %s %s\n' "$_hw_leak" "${_hw_site:-?}" "$_hw_w/leak.${_hw_leak% *}" \
				>>"$BUILD/leaks.$1"
			cp "$_hw_w/report" "$_hw_w/leak.${_hw_leak% *}"
			_hw_next=$((${_hw_leak#* } + 1))
			continue
		fi
		if grep -q "^R $_hw_last\$" "$_hw_w/run.rec"; then
			finding "$_hw_w" "$2" "$_hw_last" "$(report_kind "$_hw_w/report" "$_hw_rc")"
		elif grep -q "^T $_hw_last\$" "$_hw_w/run.rec"; then
			finding "$_hw_w" "$2" "$_hw_last" timeout
		elif grep -q "^X $_hw_last\$" "$_hw_w/run.rec"; then
			# perf called exit(): an answer, as the command line gives it
			echo "$_hw_last" >>"$BUILD/exits.$1"
		elif ! grep -q "^V $_hw_last " "$_hw_w/run.rec"; then
			_hw_kind=$(report_kind "$_hw_w/report" "$_hw_rc")
			finding "$_hw_w" "$2" "$_hw_last" "${_hw_kind:-signal}"
			[ -n "$_hw_kind" ] || echo "  (no report; exit status $_hw_rc)" >>"$FINDING/what"
		else
			# Killed after the line's verdict (making the symbol maps
			# again, or the kernel's OOM killer): a finding of the line
			_hw_kind=$(report_kind "$_hw_w/report" "$_hw_rc")
			finding "$_hw_w" "$2" "$_hw_last" "${_hw_kind:-signal}"
			echo "  (the process ended after the line's verdict; exit status $_hw_rc)" >>"$FINDING/what"
		fi
		_hw_next=$((_hw_last + 1))
	done
	return 0
}

# harness_pinpoint DIR SPECS ENV DONE [VMLINUX] <LEAKS: for each leaked
# group of LEAKS (lines of SPECS, as harness_worker writes them), each
# of its lines alone, in the folder DIR, for at most PINPOINT groups of a
# site (the file DONE counts them, "FIRST LAST SITE FOUND"); prints how
# many lines ran alone.
harness_pinpoint() {
	mkdir -p "$1/home"
	: >>"$4"
	_hp_n=0
	while read -r _hp_first _hp_last _hp_site _hp_report; do
		if [ "$(awk -v s="$_hp_site" '$3 == s' "$4" | wc -l)" -ge "$PINPOINT" ]; then
			echo "$_hp_first $_hp_last $_hp_site not-run" >>"$4"
			continue
		fi
		_hp_found=
		_hp_i=$_hp_first
		while [ "$_hp_i" -le "$_hp_last" ]; do
			harness_run "$1" "$2" "$_hp_i" "$_hp_i" "$3" "${5:-}"
			cat "$1"/san.log.* >"$1/report" 2>/dev/null
			if grep -q '^L ' "$1/run.rec"; then
				finding "$1" "$2" "$_hp_i" sanitizer
				_hp_found=$_hp_i
			fi
			_hp_i=$((_hp_i + 1))
			_hp_n=$((_hp_n + 1))
		done
		[ -n "$_hp_found" ] ||
			leak_group "$2" "$_hp_first" "$_hp_last" "$_hp_site" "$_hp_report"
		echo "$_hp_first $_hp_last $_hp_site ${_hp_found:-none}" >>"$4"
	done
	echo "$_hp_n"
}

# harness_figures NOUN CLASSES RECORDS: from the V records of RECORDS and
# the class of each line ("I CLASS" lines of CLASSES), one line per
# class, "D CLASS N NOUN: A accepted, R rejected", and "A ANSWERED
# LONGEST-MS ITS-LINE", sorted.
harness_figures() {
	awk -v noun="$1" 'FILENAME == ARGV[1] { class[$1] = $2; next }
		$1 == "V" { n[class[$2]]++; v[class[$2], $3]++; answered++
			if ($4 + 0 > most) { most = $4 + 0; at = $2 } }
		END {
			for (c in n) printf "D %-8s %6d %s: %6d accepted, %6d rejected\n", c, n[c], noun, v[c, "accepted"], v[c, "rejected"]
			printf "A %d %d %d\n", answered, most, at
		}' "$2" "$3" | sort
}
