# SPDX-License-Identifier: GPL-2.0
# Host-side perf, offline only: the one way the host suites, the proof
# suite and the benchmark run perf (perf probe -D / -V / -L with -k).
# perf never sees the host's tracefs or debugfs, and nothing is mounted:
# it gets a fixture tracefs holding nothing but a README (which tells perf
# what the target kernel's probe events support), an empty debugfs (no
# kprobe blacklist), no perfconfig, a throw-away $HOME and no pager.
# Sourced (scripts/lib.sh sources it).
#
#   offline_perf_env DIR README   make DIR/tracefs (README a copy of
#                                 README; "none": no README at all, as a
#                                 user without access sees it),
#                                 DIR/debugfs and DIR/home; the tracefs and
#                                 debugfs read-only
#   offline_perf DIR PERF ARGS... run PERF ARGS in DIR's environment
#                                 ($PERF_HOME, if set, instead of DIR/home)
#   offline_perf_instructions DIR OUT PERF ARGS...
#                                 the same under callgrind, its stdout in
#                                 OUT: print the instructions it took (the
#                                 benchmarks' measure, machine-independent)
# shellcheck shell=sh

offline_perf_env() {
	[ -d "$1" ] && chmod -R u+w "$1"
	rm -rf "$1"
	mkdir -p "$1/tracefs" "$1/debugfs" "$1/home" || return 1
	if [ "$2" != none ]; then
		cp "$2" "$1/tracefs/README" || return 1
	fi
	chmod -R a-w "$1/tracefs" "$1/debugfs"
}

offline_perf() {
	_op_dir=$1
	shift
	env TRACEFS_PATH="$_op_dir/tracefs" DEBUGFS_PATH="$_op_dir/debugfs" \
		PERF_CONFIG=/dev/null HOME="${PERF_HOME:-$_op_dir/home}" \
		PERF_PAGER=cat "$@"
}

offline_perf_instructions() {
	_opi_dir=$1 _opi_out=$2
	shift 2
	offline_perf "$_opi_dir" valgrind --tool=callgrind \
		--callgrind-out-file="$_opi_dir/callgrind.out" "$@" >"$_opi_out" \
		2>"$_opi_dir/valgrind.err" ||
		{ tail -n 20 "$_opi_dir/valgrind.err" >&2; die "$1 failed under callgrind"; }
	sed -n 's/^summary: //p' "$_opi_dir/callgrind.out"
}

# perf_crash RC: what perf's exit status RC says went wrong, if anything
# but an error: "timeout" (timeout's 124, or its SIGKILL), "signal"
# (SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV), else nothing.  perf exits
# with 255, 254, 234... on errors, which are answers, not crashes.
perf_crash() {
	case $1 in
	124 | 137) echo timeout ;;
	132 | 134 | 135 | 136 | 139) echo signal ;;
	esac
}

# The sanitized perf (make perf-asan), run offline:
#   sanitized_perf PERF         fail unless PERF has ASan and UBSan
#   sanitizer_env DIR           export ASAN_OPTIONS and UBSAN_OPTIONS: the
#                               reports of ASan and LSan go to
#                               DIR/san.log.PID (UBSan's: below; perf's
#                               stderr stays what the cases compare,
#                               its exit status is left alone)
#   sanitizer_take DIR OUT HEAD [OUTPUT]
#                               move the reports in DIR to OUT, headed by
#                               HEAD, and copy OUTPUT there (perf's
#                               stderr) if it has a report of UBSan's;
#                               fail if there was none
# UBSan's reports go to stderr, not to log_path, in a program that has
# ASan too, as GCC 12 builds it (GCC bug 94328; checked here with a
# small program: with -fsanitize=undefined alone the report reaches the
# log): perf's output must be searched for them.  UBSAN_REPORT matches their first line
# ("FILE:LINE:COLUMN: runtime error: ..."); spec-harness.c has the same.
sanitized_perf() {
	grep -q __asan_init "$1" && grep -q __ubsan_handle_ "$1"
}

sanitizer_env() {
	export ASAN_OPTIONS="log_path=$1/san.log:detect_leaks=1:exitcode=0:symbolize=1"
	export UBSAN_OPTIONS="log_path=$1/san.log:print_stacktrace=1"
}

UBSAN_REPORT='(:[0-9]+:[0-9]+|<unknown>): runtime error: '

sanitizer_take() {
	_st=1
	if [ -n "${4:-}" ] && grep -Eq "$UBSAN_REPORT" "$4"; then
		{
			printf '=== %s (UBSan, in its output)\n' "$3"
			cat "$4"
		} >>"$2"
		_st=0
	fi
	for _sr in "$1"/san.log.*; do
		[ -f "$_sr" ] || continue
		{
			printf '=== %s\n' "$3"
			cat "$_sr"
		} >>"$2"
		rm -f "$_sr"
		_st=0
	done
	return $_st
}
