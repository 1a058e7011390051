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
