# SPDX-License-Identifier: GPL-2.0
# The test library of uaccess-probe: the only code that writes or counts
# TAP.  Sourced by the host suites (through scripts/lib.sh or directly)
# and, from the payload disk, by the guest (qemu-image/guest/lib.sh).
# POSIX sh, no bashisms, nothing but sed, awk and wc: the guest runs it
# under dash.
#
# Writing (one dialect: numbered lines, the plan at the end):
#   tap_header               "TAP version 13", for a stream's first line
#   tap_ok DESC              ok N - DESC
#   tap_not_ok DESC          not ok N - DESC
#   tap_skip DESC REASON     ok N - DESC # SKIP REASON
#   tap_result STATUS DESC   ok if STATUS is 0, not ok otherwise; returns
#                            STATUS
#   tap_diag                 stdin as diagnostics ("#   LINE")
#   tap_bail REASON          "Bail out! REASON" and the plan; exit 1
#   tap_bail_line REASON     only the line "Bail out! REASON", for a
#                            stream whose writer is someone else (a guest)
#   tap_counts               "PASSED FAILED SKIPPED" of this stream so far
#   tap_done                 the plan "1..N"; status 0 if nothing failed
#   tap_records              records on stdin as TAP, for writers that
#                            cannot print in order (parallel workers) or
#                            that are awk programs: "R ok DESC",
#                            "R notok DESC", "R skip DESC<TAB>REASON",
#                            "D DIAGNOSTIC"; other one-letter records
#                            ("G ...") are data and are left out, any
#                            other line is a diagnostic
# The numbering survives subshells and pipelines: it is kept in the file
# $TAP_STATE, which tap_begin makes (and which a parent can export so
# that its children number on).  $TAP_PREFIX goes before every DESC.
#
# Reading (check.sh, guest/run, the tests of the parsers):
#   tap_count FILE...        "PASSED FAILED SKIPPED" of the result lines
#   tap_plan_error FILE      why FILE is not a complete TAP stream (no
#                            plan, a plan that does not match its results,
#                            a bail out); nothing if it is one
#   tap_stream_verdict NAME FILE STATUS
#                            the "not ok" line that the stream FILE of the
#                            suite NAME, which exited with STATUS, adds:
#                            an incomplete stream, or a failed exit that
#                            no result explains; nothing otherwise
#   tap_summary P F S        the final line "P passed, F failed, S skipped"
#   tap_replay FILE          the kept stream FILE of a run that passed,
#                            each result marked "(unchanged since it
#                            passed)" once
#   tap_skips FILE           the skipped results of FILE, "DESC<TAB>REASON"
# shellcheck shell=sh

# tap_begin: start a stream (a new $TAP_STATE unless one is exported; a
# new one goes away when the shell exits, unless the script sets an EXIT
# trap of its own after this).
tap_begin() {
	if [ -z "${TAP_STATE:-}" ] || [ ! -f "$TAP_STATE" ]; then
		TAP_STATE=$(mktemp "${TMPDIR:-/tmp}/tap.XXXXXX")
		TAP_OWN_STATE=1
		trap 'rm -f "$TAP_STATE"' EXIT
	fi
}

# _tap_emit KIND TEXT: count a result and print its line.
_tap_emit() {
	[ -n "${TAP_STATE:-}" ] || tap_begin
	printf '%s\n' "$1" >>"$TAP_STATE"
	_tap_n=$(wc -l <"$TAP_STATE")
	_tap_n=$((_tap_n + 0))
	case $1 in
	notok) printf 'not ok %d - %s%s\n' "$_tap_n" "${TAP_PREFIX:-}" "$2" ;;
	*) printf 'ok %d - %s%s\n' "$_tap_n" "${TAP_PREFIX:-}" "$2" ;;
	esac
}

tap_header() { printf 'TAP version 13\n'; }
tap_ok() { _tap_emit ok "$*"; }
tap_not_ok() { _tap_emit notok "$*"; }
tap_skip() { _tap_emit skip "$1 # SKIP $2"; }
tap_result() {
	_tap_rc=$1
	shift
	if [ "$_tap_rc" -eq 0 ]; then tap_ok "$@"; else tap_not_ok "$@"; fi
	return "$_tap_rc"
}
tap_diag() { sed 's/^/#   /'; }

tap_records() {
	while IFS= read -r _tap_r; do
		case $_tap_r in
		'R ok '*) tap_ok "${_tap_r#R ok }" ;;
		'R notok '*) tap_not_ok "${_tap_r#R notok }" ;;
		'R skip '*)
			_tap_r=${_tap_r#R skip }
			tap_skip "${_tap_r%%	*}" "${_tap_r#*	}"
			;;
		'D '*) printf '%s\n' "${_tap_r#D }" | tap_diag ;;
		[A-Z]' '*) ;;
		*) printf '%s\n' "$_tap_r" | tap_diag ;;
		esac
	done
}

# tap_counts: "PASSED FAILED SKIPPED" of this stream so far.
tap_counts() {
	[ -n "${TAP_STATE:-}" ] || tap_begin
	awk '{ n[$1]++ } END { print n["ok"] + 0, n["notok"] + 0, n["skip"] + 0 }' "$TAP_STATE"
}

tap_done() {
	[ -n "${TAP_STATE:-}" ] || tap_begin
	# shellcheck disable=SC2046 # three numbers
	set -- $(tap_counts)
	printf '1..%d\n' $(($1 + $2 + $3))
	[ -n "${TAP_OWN_STATE:-}" ] && rm -f "$TAP_STATE"
	[ "$2" -eq 0 ]
}

tap_bail_line() { printf 'Bail out! %s\n' "$*"; }

tap_bail() {
	tap_bail_line "$@"
	tap_done
	exit 1
}

tap_count() {
	awk '
		/^not ok( |$)/ { f++; next }
		/^ok( |$)/ { if ($0 ~ /# [Ss][Kk][Ii][Pp]/) s++; else p++ }
		END { print p + 0, f + 0, s + 0 }' "$@"
}

tap_plan_error() {
	awk '
		/^(not )?ok( |$)/ { n++; next }
		/^1\.\.[0-9]+/ { plans++; plan = substr($1, 4) + 0; next }
		/^Bail out!/ { bail = $0 }
		END {
			if (bail != "") print bail
			else if (n == 0 && plans == 0) print "no result and no plan"
			else if (plans == 0) print "no plan after " n " results (the suite stopped early)"
			else if (plans > 1) print plans " plans"
			else if (plan != n) print "planned " plan " tests, ran " n
		}' "$1"
}

tap_stream_verdict() {
	_tap_why=$(tap_plan_error "$2")
	_tap_failed=$(tap_count "$2" | cut -d' ' -f2)
	if [ -n "$_tap_why" ]; then
		tap_not_ok "suite $1: $_tap_why (exit status $3)"
	elif [ "$3" -ne 0 ] && [ "$_tap_failed" -eq 0 ]; then
		tap_not_ok "suite $1 exited with status $3"
	fi
	return 0
}

tap_summary() {
	printf '%s passed, %s failed, %s skipped\n' "$1" "$2" "$3"
}

tap_replay() {
	sed '/^ok /{/ (unchanged since it passed)$/!s/$/ (unchanged since it passed)/;}' "$1"
}

# tap_skips FILE: the skipped results of FILE, one "DESC<TAB>REASON" per
# line (a replayed result without its replay mark, a guest's line
# without the carriage return of its serial port).
tap_skips() {
	sed -n -e 's/\r$//' -e 's/ (unchanged since it passed)$//' -e 's/\r$//' \
		-e 's/^ok [0-9]* - \(.*\) # [Ss][Kk][Ii][Pp] \(.*\)$/\1	\2/p' \
		-e 's/^ok [0-9]* - \(.*\) # [Ss][Kk][Ii][Pp]$/\1	/p' "$1"
}
