# SPDX-License-Identifier: GPL-2.0
# Common settings for the uaccess-probe build scripts.  Sourced, not run.
#
# Layout (all overridable from the environment):
#   $TOP            the repository
#   $BUILD          git-ignored build folder: kernel tree, objects, perf
#   $CACHE          cache outside the repository: ccache, root file systems
# shellcheck shell=sh

TOP=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CACHE=${UACCESS_PROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uaccess-probe}
TREE=$BUILD/linux
ARCH=${ARCH:-x86_64}
# KCC=gcc: the x86_64 kernel built with GCC 12 and the user_dwarf plugin
# (kernel/configs/gcc.config) in its own folder, instead of clang-16.
# KVARIANT names its build folders (kernel-, payload-, vm-).
KCC=${KCC:-clang}
case $KCC in
gcc) KVARIANT=$ARCH-gcc ;;
*) KVARIANT=$ARCH ;;
esac
KOBJ=$BUILD/kernel-$KVARIANT
PERF_OUT=$BUILD/perf
PERF=$PERF_OUT/perf
LOGS=$BUILD/logs

# The Debian package whose tarball is the base of every patch series.
SRC_PKG=linux-source-6.1
SRC_TARBALL=/usr/src/linux-source-6.1.tar.xz

export TOP BUILD CACHE TREE ARCH KCC KVARIANT KOBJ PERF_OUT PERF LOGS SRC_PKG SRC_TARBALL

msg() { printf '%s\n' "$*"; }
info() { printf '  %-8s %s\n' "$1" "$2"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# timed NAME COMMAND...: run COMMAND, record its wall-clock duration in
# $LOGS/timings so that 'make timings' can print where the time went.
timed() {
	_name=$1
	shift
	mkdir -p "$LOGS"
	_t0=$(date +%s)
	_rc=0
	"$@" || _rc=$?
	_t1=$(date +%s)
	printf '%s %s %s %s\n' "$(date -u +%FT%TZ)" "$_name" "$((_t1 - _t0))" "$_rc" \
		>>"$LOGS/timings"
	return $_rc
}

# run_logged LOG COMMAND...: run COMMAND with its output in LOG, show only
# a progress dot every 30 seconds, and the tail of LOG if it fails.
run_logged() {
	_log=$1
	shift
	mkdir -p "$(dirname "$_log")"
	"$@" >"$_log" 2>&1 &
	_pid=$!
	_n=0
	while kill -0 "$_pid" 2>/dev/null; do
		sleep 1
		_n=$((_n + 1))
		[ $((_n % 30)) -eq 0 ] && printf '.' >&2
	done
	_rc=0
	wait "$_pid" || _rc=$?
	printf '\n' >&2
	if [ "$_rc" -ne 0 ]; then
		printf 'error: command failed (exit %s): %s\n' "$_rc" "$*" >&2
		printf 'last lines of %s:\n' "$_log" >&2
		tail -n 25 "$_log" >&2
	fi
	return $_rc
}

ncpus() { getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2; }

# kmake ARGS...: make in the kernel tree for $ARCH, always with the same
# compiler settings (a different CC would make Kconfig rewrite .config).
kmake() {
	case $ARCH in
	x86_64)
		if [ "$KCC" = gcc ]; then
			# ccache does not hash plugins: make it hash the source.
			CCACHE_EXTRAFILES=$TREE/scripts/gcc-plugins/user_dwarf_plugin.c \
				make -C "$TREE" O="$KOBJ" ARCH=x86_64 CC="ccache gcc" "$@"
		else
			make -C "$TREE" O="$KOBJ" ARCH=x86_64 LLVM=-16 CC="ccache clang-16" "$@"
		fi
		;;
	s390x)
		# Debian's lld-16 cannot link s390: clang compiles, binutils links.
		make -C "$TREE" O="$KOBJ" ARCH=s390 CC="ccache clang-16" \
			HOSTCC=clang-16 CROSS_COMPILE=s390x-linux-gnu- "$@"
		;;
	*)
		die "unsupported ARCH=$ARCH (x86_64, s390x)"
		;;
	esac
}

# The patch files of kernel/series, then tools-perf-patches/series.
series_files() {
	for s in kernel tools-perf-patches; do
		[ -f "$TOP/$s/series" ] || continue
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/$s/series" |
			while read -r p; do printf '%s\n' "$TOP/$s/$p"; done
	done
}

# What the tree should contain: base version + patches, as one hash.
wanted_stamp() {
	{
		dpkg-query -W -f '${Version}\n' "$SRC_PKG"
		series_files | while read -r p; do
			[ -f "$p" ] || die "patch listed in a series file is missing: $p"
			printf '%s ' "${p#"$TOP"/}"
			sha256sum <"$p"
		done
	} | sha256sum | cut -d' ' -f1
}
