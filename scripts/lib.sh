# SPDX-License-Identifier: GPL-2.0
# Common settings for the uaccess-probe build scripts.  Sourced, not run.
#
# Layout (all overridable from the environment):
#   $TOP            the repository
#   $BUILD          git-ignored build folder: kernel tree, objects, perf
#   $CACHE          cache outside the repository: ccache, root file systems
# shellcheck shell=sh

# The repository: the nearest folder above the running script that has
# scripts/lib.sh.
TOP=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
while [ ! -f "$TOP/scripts/lib.sh" ] && [ "$TOP" != / ]; do
	TOP=$(dirname -- "$TOP")
done
BUILD=${BUILD:-$TOP/build}
CACHE=${UACCESS_PROBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uaccess-probe}
LOGS=$BUILD/logs
# What the kernels' debug information calls $BUILD (kmake_in).
DEBUG_PREFIX=/usr/src/uaccess-probe

msg() { printf '%s\n' "$*"; }
info() { printf '  %-8s %s\n' "$1" "$2"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Targets as data: one descriptor per kernel generation
# (kernel/generations/GEN.conf) and one per architecture
# (qemu-image/arch/ARCH.conf).  Nothing else names a kernel version or an
# architecture; each folder's "default" file names the default one.
# UACCESS_GEN_DIR and UACCESS_ARCH_DIR move them (for the tests of the
# descriptors themselves).
GEN_DIR=${UACCESS_GEN_DIR:-$TOP/kernel/generations}
ARCH_DIR=${UACCESS_ARCH_DIR:-$TOP/qemu-image/arch}

# need_vars FILE VAR...: die naming the VARs that FILE left empty.
need_vars() {
	_f=$1
	shift
	_missing=
	for _v in "$@"; do
		eval "[ -n \"\${$_v:-}\" ]" || _missing="$_missing $_v"
	done
	[ -z "$_missing" ] || die "${_f#"$TOP"/} does not set:$_missing"
}

# load_generation GEN: read kernel/generations/GEN.conf.
load_generation() {
	GEN_CONF=$GEN_DIR/$1.conf
	[ -f "$GEN_CONF" ] || die "no kernel generation '$1': no ${GEN_CONF#"$TOP"/} (known: $(list_descriptors "$GEN_DIR"))"
	KGEN_NAME='' SRC_PKG='' SRC_TARBALL='' KSERIES='' PSERIES='' PSERIES_PARTS='' TAGS_SERIES=''
	KCONFIGS='' KCONFIGS_GCC='' KCONFIGS_DEBUG='' TRACEFS_README='' SUITES='' KNOWN_FAILURES='' GUEST_BTF='' KERNEL_DWARF_CASES=''
	DEBIAN_TAGS_CASES='' PROOF_CASES='' BACKPORT_OF='' BACKPORT_DIFFS='' FIXES_CASES=''
	# shellcheck source=../kernel/generations/6.1.conf
	. "$GEN_CONF"
	need_vars "$GEN_CONF" KGEN_NAME SRC_PKG SRC_TARBALL KSERIES PSERIES TAGS_SERIES \
		KCONFIGS TRACEFS_README SUITES KNOWN_FAILURES GUEST_BTF KERNEL_DWARF_CASES \
		DEBIAN_TAGS_CASES PROOF_CASES FIXES_CASES
	[ "$KGEN_NAME" = "$1" ] || die "${GEN_CONF#"$TOP"/} says KGEN_NAME=$KGEN_NAME"
}

# load_arch ARCH: read qemu-image/arch/ARCH.conf.
load_arch() {
	ARCH_CONF=$ARCH_DIR/$1.conf
	[ -f "$ARCH_CONF" ] || die "no architecture '$1': no ${ARCH_CONF#"$TOP"/} (known: $(list_descriptors "$ARCH_DIR"))"
	KBUILD_ARCH='' KIMAGE='' ARCH_CONFIGS='' KCC_CLANG='' KFLAGS_CLANG=''
	KCC_GCC='' KFLAGS_GCC='' KTOOLS='' ARCH_SUITES='' DEB_ARCH=''
	QEMU='' QEMU_PKG='' QEMU_MACHINE='' QEMU_KVM='' CONSOLE='' RESULTS=''
	QEMU_SERIAL='' QEMU_DISKS='' QEMU_EXIT='' GUEST_EXIT=''
	# shellcheck disable=SC2034 # read by the scripts that source this
	INIT_CFLAGS='' INIT_LD='' INIT_MACRO='' OVERLAPPING_ADDRESS_SPACES=''
	# shellcheck source=../qemu-image/arch/x86_64.conf
	. "$ARCH_CONF"
	need_vars "$ARCH_CONF" KBUILD_ARCH KIMAGE ARCH_CONFIGS KCC_CLANG \
		ARCH_SUITES QEMU QEMU_PKG QEMU_MACHINE CONSOLE QEMU_SERIAL \
		GUEST_EXIT OVERLAPPING_ADDRESS_SPACES
}

# list_descriptors DIR: the names of DIR's descriptors, on one line.
list_descriptors() {
	for _d in "$1"/*.conf; do
		[ -f "$_d" ] || continue
		_d=${_d##*/}
		printf '%s ' "${_d%.conf}"
	done
}

# arch_has SUITE: does this architecture run SUITE (vm or proof)?
arch_has() {
	case " $ARCH_SUITES " in *" $1 "*) return 0 ;; esac
	return 1
}

# arch_missing_tools [proof]: the host tools (COMMAND:PACKAGE words) that
# this architecture needs and the host lacks: the kernel build's, QEMU,
# and with "proof" /init's linker.
arch_missing_tools() {
	_tools="$KTOOLS $QEMU:$QEMU_PKG"
	[ "${1:-}" = proof ] && [ -n "$INIT_LD" ] && _tools="$_tools $INIT_LD:$INIT_LD"
	for _t in $_tools; do
		command -v "${_t%%:*}" >/dev/null 2>&1 || printf '%s ' "$_t"
	done
}

# arch_packages: the Debian packages of this architecture's host tools.
arch_packages() {
	for _t in $KTOOLS "$QEMU:$QEMU_PKG"; do
		printf '%s\n' "${_t#*:}"
	done
}

KGEN=${KGEN:-$(cat "$GEN_DIR/default")}
ARCH=${ARCH:-$(cat "$ARCH_DIR/default")}
load_generation "$KGEN"
load_arch "$ARCH"

# Build folders.  The default generation's have no suffix, another
# generation's name it: build/linux-GEN, build/kernel-GEN-ARCH...
GEN_TAG=
[ "$KGEN" = "$(cat "$GEN_DIR/default")" ] || GEN_TAG=-$KGEN
TREE=$BUILD/linux$GEN_TAG
# The source of a tagged build of Debian's kernel (scripts/tags-tree.sh)
# shellcheck disable=SC2034 # used by the scripts that source this file
TAGS_TREE=$TREE-tags
# KCC=gcc: the kernel built with GCC 12 and the user_dwarf plugin
# (KCONFIGS_GCC) in its own folder, instead of clang.  KCC=debian: not
# built here, Debian's own GCC-built kernel of the generation
# (DEBIAN_KERNEL), which qemu-image/debian-boot.sh readies for booting.
# KCC=stock: the stock kernel, built with clang from the tree without
# the series (tag "base", the worktree $STOCK_TREE), in the same
# configuration: the control of the proof suite's "btf" cases.
# KCC=debug: the patched kernel built with clang and the generation's
# KCONFIGS_DEBUG (KASAN, lockdep...), which the fuzzer's smoke boots.
# KCC=stock-debug: the stock kernel with KCONFIGS_DEBUG too, the control
# of the fuzzer's campaign (make fuzz).
KCC=${KCC:-clang}
case $KCC in
clang | gcc | debian | stock | debug | stock-debug) ;;
*) die "unsupported KCC=$KCC (clang, gcc, debian, stock, debug, stock-debug)" ;;
esac
# What the kernel of KCC is made of, for the scripts to ask once: the tree
# without the series (KCC_STOCK) and the debug options (KCC_DEBUG).
KCC_STOCK='' KCC_DEBUG=''
case $KCC in stock | stock-debug) KCC_STOCK=1 ;; esac
case $KCC in debug | stock-debug) KCC_DEBUG=1 ;; esac
# The trees without the series and their perf builds are in build/stock/,
# named as those of the patched tree are in build/: perf compiles the
# same files there at the same relative paths, which lets ccache share
# its objects between them (scripts/perf.sh).
STOCK_TREE=$BUILD/stock/linux$GEN_TAG
# variant KCC: what names the build folders (kernel-, payload-, vm-) of
# this generation and architecture's kernel built by KCC: x86_64,
# x86_64-gcc, 6.12-x86_64...
variant() {
	_var=${GEN_TAG#-}${GEN_TAG:+-}$ARCH
	case $1 in gcc | debian | stock | debug | stock-debug) _var=$_var-$1 ;; esac
	printf '%s\n' "$_var"
}
kobj() { printf '%s\n' "$BUILD/kernel-$(variant "$1")"; }
KVARIANT=$(variant "$KCC")
KOBJ=$BUILD/kernel-$KVARIANT
PERF_OUT=$BUILD/perf$GEN_TAG
PERF=$PERF_OUT/perf
# The stock perf: built from the tree without the series (tag "base").
# The patched perf is $PERF.  One word each, in names, files and output.
STOCK_PERF_OUT=$BUILD/stock/perf$GEN_TAG
STOCK_PERF=$STOCK_PERF_OUT/perf

export TOP BUILD CACHE TREE STOCK_TREE ARCH KGEN KCC KCC_STOCK KCC_DEBUG KVARIANT KOBJ PERF_OUT PERF \
	STOCK_PERF_OUT STOCK_PERF LOGS

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
	printf '%s %s %s %s %s\n' "$(date -u +%FT%TZ)" "$_name" "$((_t1 - _t0))" "$_rc" \
		"$(cpu_ticks)" >>"$LOGS/timings"
	return $_rc
}

# cpu_ticks: the machine's idle and its total CPU time so far, all CPUs
# together, in clock ticks ("IDLE TOTAL", /proc/stat: idle with iowait;
# user to steal), for timings.sh to say how much of a run's CPU was idle.
cpu_ticks() {
	awk '$1 == "cpu" { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' \
		/proc/stat 2>/dev/null || echo '0 0'
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

# machine_kind: what bench/measured.md says about the machine.
machine_kind() {
	printf '%s, %s CPUs, %s, %s' "$(uname -m)" "$(ncpus)" \
		"$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)" \
		"$([ -w /dev/kvm ] && echo "/dev/kvm present" || echo "no /dev/kvm, TCG")"
}

# record TITLE: with RECORD=1, append stdin to bench/measured.md as an
# entry with the date and the machine kind; stdin goes to stdout too.
record() {
	if [ "${RECORD:-0}" = 1 ]; then
		_rec=$(mktemp)
		tee "$_rec"
		{
			printf '\n## %s (%s)\n\n' "$1" "$(date -u +%F)"
			printf 'Machine: %s; load average %s.\n\n' "$(machine_kind)" \
				"$(cut -d' ' -f1-3 /proc/loadavg)"
			sed 's/^/    /' "$_rec"
		} >>"$TOP/bench/measured.md"
		rm -f "$_rec"
		info RECORD "added to bench/measured.md" >&2
	else
		cat
	fi
}

# kmake ARGS...: make in the kernel tree for $ARCH with $KCC, always with
# the same settings (a different CC would make Kconfig rewrite .config).
kmake() {
	kmake_in "$TREE" "$KOBJ" "$KCC" "$@"
}

# kmake_in TREE OBJ KCC ARGS...: the same in another tree and folder, or
# with another compiler (scripts/build-each-patch.sh).
kmake_in() {
	_ktree=$1 _kobj=$2
	case $3 in
	gcc) _kcc=$KCC_GCC _kflags=$KFLAGS_GCC ;;
	*) _kcc=$KCC_CLANG _kflags=$KFLAGS_CLANG ;;
	esac
	[ -n "$_kcc" ] ||
		die "ARCH=$ARCH has no KCC=$3 kernel (KCC_$(echo "$3" | tr '[:lower:]' '[:upper:]') is empty in ${ARCH_CONF#"$TOP"/})"
	_kextra=
	# ccache does not hash plugins: make it hash the plugin's source.
	[ "$3" = gcc ] && [ -f "$_ktree/scripts/gcc-plugins/user_dwarf_plugin.c" ] &&
		_kextra=$_ktree/scripts/gcc-plugins/user_dwarf_plugin.c
	shift 3
	# ccache's depend mode: on a miss, ccache takes the headers from the
	# compiler's dependency file (Kbuild's -MMD) instead of running the
	# preprocessor a second time.  Measured on 6.12's kernel/ and fs/ with
	# an empty cache (2 CPUs, make bench-ccache): 533 CPU seconds in
	# ccache's default mode, 442 in depend mode, 458 without ccache.
	# CCACHE_NODEPEND=1 keeps the default mode.
	[ -n "${CCACHE_NODEPEND:-}" ] || export CCACHE_DEPEND=1
	# The same objects from every clone: the debug information names
	# $BUILD as $DEBUG_PREFIX (the kernel maps only macros' paths), and
	# ccache, which then hashes the mapped working directory, takes the
	# paths under $BUILD as relative ones.  The prefix maps name the
	# clone's own $BUILD and change nothing else: they are not hashed.
	# A second clone at another path reuses the first one's objects
	# (make bench-ccache-clones).  What the compiler writes into the
	# code itself keeps the path it was given: the debug kernel's KASAN
	# descriptors of globals (.rodata) name the clone that compiled the
	# object first.
	_kbuild=$(build_real)
	# The host programs (fixdep, kconfig, modpost, objtool: some 50
	# objects in every build folder) through ccache too, so that the
	# kernels of one tree share them: the compiler that Kbuild would
	# take, HOSTCC of the flags, clang with LLVM=, or else gcc.
	# shellcheck disable=SC2086 # $_kflags is a list of assignments
	_khostcc=$(printf '%s\n' $_kflags | sed -n 's/^HOSTCC=//p')
	if [ -z "$_khostcc" ]; then
		# shellcheck disable=SC2086 # $_kflags is a list of assignments
		case " $(printf '%s ' $_kflags)" in
		*" LLVM=1 "*) _khostcc=clang ;;
		*" LLVM=-"*) _khostcc=clang-$(printf '%s\n' $_kflags | sed -n 's/^LLVM=-//p') ;;
		*" LLVM="*/*) _khostcc=$(printf '%s\n' $_kflags | sed -n 's/^LLVM=//p')clang ;;
		*) _khostcc=gcc ;;
		esac
	fi
	# shellcheck disable=SC2086 # $_kflags is a list of assignments
	CCACHE_EXTRAFILES=$_kextra CCACHE_BASEDIR=$_kbuild \
		CCACHE_IGNOREOPTIONS='-fdebug-prefix-map=* -fmacro-prefix-map=*' \
		make -C "$_ktree" O="$_kobj" \
		ARCH="$KBUILD_ARCH" CC="ccache $_kcc" $_kflags HOSTCC="ccache $_khostcc" \
		KCFLAGS="-fdebug-prefix-map=$_kbuild/=$DEBUG_PREFIX/" \
		KAFLAGS="-fdebug-prefix-map=$_kbuild/=$DEBUG_PREFIX/" "$@"
}

# build_real: $BUILD without symbolic links, as the kernel's build
# (realpath) and the compiler see it.
build_real() {
	(cd "$BUILD" 2>/dev/null && pwd -P) || printf '%s\n' "$BUILD"
}

# debug_path PATH: where the debug information of a kernel built by
# kmake names PATH (a path under $BUILD).
debug_path() {
	_dp=$(cd "$1" 2>/dev/null && pwd -P) || _dp=$1
	_db=$(build_real)
	case $_dp in
	"$_db"/*) printf '%s\n' "$DEBUG_PREFIX/${_dp#"$_db"/}" ;;
	*) printf '%s\n' "$_dp" ;;
	esac
}

# The series folders of the generation, in the order 'make tree' applies
# them: the kernel's (KSERIES, one per tree that takes it), then perf's.
series_dirs() {
	# shellcheck disable=SC2086 # a list of folders without blanks
	printf '%s\n' $KSERIES
	perf_series_dirs
}

# perf_series_dirs: perf's series folders, in the order they apply: the
# folders PSERIES_PARTS of PSERIES (the fixes, then the series that build
# on them), or PSERIES itself.
perf_series_dirs() {
	if [ -z "$PSERIES_PARTS" ]; then
		printf '%s\n' "$PSERIES"
		return
	fi
	for _part in $PSERIES_PARTS; do
		printf '%s/%s\n' "$PSERIES" "$_part"
	done
}

# series_field DIR NAME: the value of header line "NAME: value" of the
# cover.txt of series folder DIR (the lines before its first blank one).
series_field() {
	[ -f "$TOP/$1/cover.txt" ] || return 0
	sed -n "/^\$/q; s/^$2: //p" "$TOP/$1/cover.txt"
}

# series_prereqs DIR: the series that DIR applies on top of, one per
# line, the first to apply first: its cover.txt's "Depends-on: FOLDER",
# and what that one depends on.  A series without one applies to base.
series_prereqs() {
	_dep=$(series_field "$1" Depends-on)
	[ -n "$_dep" ] || return 0
	case " $(series_dirs | tr '\n' ' ') " in
	*" $_dep "*) ;;
	*) die "$1/cover.txt: Depends-on: $_dep is not a series of generation $KGEN_NAME" ;;
	esac
	(series_prereqs "$_dep")
	printf '%s\n' "$_dep"
}

# patch_prefix [DIR]: the subject prefix of the mail of series DIR:
# "PATCH", "RFC PATCH" for a series whose cover.txt says "RFC: yes", and
# for a backport of another generation (BACKPORT_OF) the generation
# after it ("PATCH 6.1"), as the backports of stable kernels name their
# kernel.
patch_prefix() {
	_pp=PATCH
	[ "$(series_field "${1:-}" RFC)" != yes ] || _pp="RFC PATCH"
	if [ -n "$BACKPORT_OF" ]; then printf '%s %s\n' "$_pp" "$KGEN_NAME"; else echo "$_pp"; fi
}

# series_patches DIR: the patch files of series folder DIR, in order.
series_patches() {
	[ -f "$TOP/$1/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/$1/series" |
		while read -r _p; do printf '%s\n' "$TOP/$1/$_p"; done
}

# base_worktree DIR: DIR is a git worktree of $TREE at its tag "base".  A
# worktree of an earlier tree (make tree extracted it again) is gone from
# the repository: it is made again.  What DIR has checked out otherwise
# is left alone (the caller checks out what it needs).
# Builds run in parallel (make check): one worktree change at a time.
base_worktree() {
	(
		flock 9
		if [ -d "$1" ] && [ "$(git -C "$1" rev-parse base 2>/dev/null)" != "$(git -C "$TREE" rev-parse base)" ]; then
			rm -rf "$1"
		fi
		if [ ! -d "$1" ]; then
			git -C "$TREE" worktree prune
			git -C "$TREE" worktree add -q --detach "$1" base
		fi
	) 9>"$TREE/.git/uaccess-probe-worktree.lock"
}

# A real debuginfod on the loopback, for the host-side tests and
# benchmarks that fetch by build-id.  elfutils 0.188's debuginfod listens
# on every address: whoever serves runs in a network namespace of its
# own, whose only interface is the loopback.
#   own_netns SCRIPT      unless already there, run sh SCRIPT again in a
#                         network namespace of its own (root: unshare -n,
#                         else a user namespace too: -rn); does not return
#   netns_up              bring up the loopback there
#   debuginfod_serve DIR PORT
#                         debuginfod -F on DIR at 127.0.0.1:PORT (index
#                         DIR.sqlite, log DIR.log), returning once every
#                         file of DIR is indexed, its pid appended to
#                         $DEBUGINFOD_PIDS; fails, with its log on
#                         stderr, if it does not within a minute
own_netns() {
	[ -z "${UACCESS_PROBE_NETNS:-}" ] || return 0
	if [ "$(id -u)" -eq 0 ]; then _ns=-n; else _ns=-rn; fi
	UACCESS_PROBE_NETNS=1 exec unshare "$_ns" sh "$1"
}
netns_up() {
	[ -n "${UACCESS_PROBE_NETNS:-}" ] && ip link set lo up
}
DEBUGINFOD_PIDS=''
debuginfod_serve() {
	debuginfod -F -L --disable-source-scan -p "$2" -d "$1.sqlite" \
		"$1" >"$1.log" 2>&1 &
	DEBUGINFOD_PIDS="$DEBUGINFOD_PIDS $!"
	_want=$(find -L "$1" -type f | wc -l)
	_i=0
	while [ $_i -lt 120 ]; do
		curl -s "http://127.0.0.1:$2/metrics" >"$1.metrics"
		_trav=$(sed -n 's/^thread_work_total{role="traverse"} //p' "$1.metrics")
		_got=$(sed -n 's/^scanned_files_total{source="file"} //p' "$1.metrics")
		[ "${_trav:-0}" -ge 1 ] && [ "${_got:-0}" -ge "$_want" ] && return 0
		sleep 0.5
		_i=$((_i + 1))
	done
	cat "$1.log" >&2
	return 1
}

# debian_kernel_files: the files of Debian's own kernel of the generation
# that make debian-kernel fetched: DEB_DIR, its debug vmlinux DEB_VMLINUX
# and its .config DEB_CONFIG.  Fails, saying why, if it is not fetched.
# shellcheck disable=SC2034 # used by the scripts that source this file
debian_kernel_files() {
	DEB_DIR=$(sh "$TOP/scripts/debian-kernel.sh" --path) || return 1
	DEB_VMLINUX=$DEB_DIR/root/usr/lib/debug/boot/vmlinux-$DEBIAN_KERNEL
	DEB_CONFIG=$DEB_DIR/root/usr/src/linux-headers-$DEBIAN_KERNEL/.config
}
# debian_module NAME: the module NAME of Debian's kernel with its debug
# information (the .ko of the -dbg package); fails if there is none.
debian_module() {
	_ko=$(find "$DEB_DIR/root/usr/lib/debug/lib/modules/$DEBIAN_KERNEL" \
		-name "$1.ko" 2>/dev/null | head -n 1)
	[ -n "$_ko" ] && printf '%s\n' "$_ko"
}

# The patch files of every series, in the order 'make tree' applies them.
series_files() {
	series_dirs | while read -r _s; do series_patches "$_s"; done
}

# The identity in the From: and Signed-off-by: of every patch of the
# series: the project's, or the sender's (SERIES_IDENTITY="Name <addr>"
# for make export-series, then make send-check).
SERIES_IDENTITY=${SERIES_IDENTITY:-"Seed 5af95b92 maintainers <maintainers@users.noreply.a-seed-5af95b92.example>"}

# Skipping a build step whose inputs did not change, the one way every
# step does it: the step hashes all its inputs (file contents, package
# versions, settings) with inputs_key, and records that key in a stamp
# file once its output is whole.  A key that names a cache entry (the
# root file system) is the entry's name instead of a stamp.
#   ... | inputs_key              the key of what stdin carries
#   stamp_matches STAMP KEY       the output was made from inputs KEY
#   stamp_write STAMP KEY         record it (atomically), output complete
inputs_key() {
	sha256sum | cut -d' ' -f1
}

stamp_matches() {
	[ -f "$1" ] && [ "$(cat "$1")" = "$2" ]
}

stamp_write() {
	printf '%s\n' "$2" >"$1.tmp" && mv "$1.tmp" "$1"
}

# What the tree should contain: base version + patches, as one key.
wanted_stamp() {
	{
		dpkg-query -W -f '${Version}\n' "$SRC_PKG"
		series_files | while read -r p; do
			[ -f "$p" ] || die "patch listed in a series file is missing: $p"
			printf '%s ' "${p#"$TOP"/}"
			sha256sum <"$p"
		done
	} | inputs_key
}

# tree_key DIR [PATHSPEC...]: what a git work tree holds, by content: its
# commit's tree object (with PATHSPECs: the blobs of those paths), and
# the changes and new files in its work tree.  The same in every clone
# (the kernel's and perf's build keys).
tree_key() {
	_tk_dir=$1
	shift
	if [ $# -eq 0 ]; then
		git -C "$_tk_dir" rev-parse 'HEAD^{tree}'
	else
		git -C "$_tk_dir" ls-files -s -- "$@" | inputs_key
	fi
	git -C "$_tk_dir" diff HEAD -- "$@" | inputs_key
	(cd "$_tk_dir" && git ls-files -z -o --exclude-standard -- "$@" | xargs -0 -r sha256sum)
}

# without_paths: stdin with the clone's and the cache's folders written
# as @BUILD@, @CACHE@ and @TOP@ (build/ is in the clone: it goes first),
# for a key that is the same in every clone of the same content.
without_paths() {
	awk -v b="$BUILD" -v c="$CACHE" -v t="$TOP" '
	function sub_all(s, from, to,   i, r) {
		if (from == "")
			return s
		r = ""
		while ((i = index(s, from)) > 0) {
			r = r substr(s, 1, i - 1) to
			s = substr(s, i + length(from))
		}
		return r s
	}
	{ print sub_all(sub_all(sub_all($0, b, "@BUILD@"), c, "@CACHE@"), t, "@TOP@") }'
}

# build_identity BUILD: lines that change whenever what make's target
# BUILD (as make check-needs names it, without @GEN: the caller sets
# KGEN) made changes, for scripts/check.sh to key a suite's kept verdict
# on.  A kernel folder by what kernel.sh built it from (its build keys:
# Kbuild compiles the clone's paths into host objects, so the bytes may
# differ from clone to clone); perf, its sanitized build, the harness
# linked with it and the package by what perf was built from
# (scripts/perf.sh's build key: perf 6.1 compiles the clone's path into
# its code); other files by content; a tree by its commit (the
# same in every clone: scripts/tree.sh) and the changes in its work
# tree.  Paths by their place under $BUILD or $CACHE (_where).  A
# payload disk is made afresh by every make check from the builds before
# it, which its suite's key covers.  A build it does not know is an
# error: a new target needs a line here (the suite "verdicts" checks).
build_identity() {
	case $1 in
	deps | export-series | payload | payload-*) ;;
	tree) _tree_identity "$TREE" ;;
	tags-tree) _tree_identity "$TAGS_TREE" ;;
	rootfs) _file_identity "$(sh "$TOP/qemu-image/rootfs.sh" --path 2>/dev/null)" ;;
	kernel | clang-objects) _kobj_identity "$(kobj clang)" ;;
	kernel-gcc | gcc-objects) _kobj_identity "$(kobj gcc)" ;;
	kernel-debug) _kobj_identity "$(kobj debug)" ;;
	kernel-stock-debug) _kobj_identity "$(kobj stock-debug)" ;;
	kernel-stock-*) _arch_identity "${1#kernel-stock-}" stock ;;
	kernel-*) _arch_identity "${1#kernel-}" clang ;;
	perf) _perf_identity "$PERF" ;;
	perf-stock) _perf_identity "$STOCK_PERF" ;;
	deb)
		_d=$(sh "$TOP/scripts/deb.sh" --path 2>/dev/null) || _d=$BUILD/deb$GEN_TAG/none
		_perf_identity "$PERF"
		if [ -f "$_d" ]; then printf 'package %s\n' "${_d##*/}"; else echo 'package none'; fi
		sha256sum <"$TOP/scripts/deb.sh"
		;;
	perf-asan) _perf_identity "$(sh "$TOP/scripts/perf-asan.sh" --path)" ;;
	perf-specfuzz)
		_h=$(sh "$TOP/scripts/perf-specfuzz.sh" --path)
		_perf_identity "$(sh "$TOP/scripts/perf-asan.sh" --path)"
		if [ -x "$_h" ]; then echo 'harness linked'; else echo 'harness none'; fi
		;;
	dwarf-marks) _file_identity "$BUILD/gcc-plugin/dwarf-marks" ;;
	debian-kernel) sh "$TOP/scripts/debian-kernel.sh" --path 2>/dev/null || echo none ;;
	debian-boot) _file_identity "$(kobj debian)/.stamp" ;;
	debian-tags) _file_identity "$BUILD/debian-tags-$KGEN_NAME/.stamp" ;;
	# The program alone: headers.log names the clone's path.
	proof-init-*) _file_identity "$BUILD/proof-init$GEN_TAG-${1#proof-init-}/init" ;;
	*) die "build_identity: no identity for the build '$1' (scripts/lib.sh)" ;;
	esac
}
_file_identity() {
	if [ -f "$1" ]; then
		printf '%s %s\n' "$(sha256sum <"$1" | cut -d' ' -f1)" "$(_where "$1")"
	else
		printf 'none %s\n' "$(_where "$1")"
	fi
}
# _perf_identity PERF: the key perf.sh built PERF from, next to it.
_perf_identity() {
	if [ -x "$1" ] && [ -f "${1%/*}/.uaccess-probe-built" ]; then
		printf '%s %s\n' "$(cat "${1%/*}/.uaccess-probe-built")" "$(_where "$1")"
	else
		printf 'none %s\n' "$(_where "$1")"
	fi
}
# _where PATH: PATH by its place in the build folder or the cache, the
# same in every clone (an identity keys verdicts that clones share).
_where() {
	printf '%s\n' "$1" | without_paths
}
# _arch_identity ARCH KCC: the kernel folder of another architecture
_arch_identity() {
	ARCH=$1 sh -c '. "$0"; _kobj_identity "$(kobj "$1")"' "$TOP/scripts/lib.sh" "$2"
}
# _kobj_identity KOBJ: the keys kernel.sh built the folder from (its
# kernel, and the objects built alone: KTARGETS), and its images.
_kobj_identity() {
	[ -f "$1/.uaccess-probe-built" ] || { printf 'none %s\n' "$(_where "$1")"; return 0; }
	printf 'built %s\n' "$(cat "$1/.uaccess-probe-built")"
	[ ! -f "$1/.uaccess-probe-targets" ] || printf 'targets %s\n' "$(cat "$1/.uaccess-probe-targets")"
	(cd "$1" && ls -d vmlinux kernel-image 2>/dev/null) || true
}
_tree_identity() {
	git -C "$1" rev-parse HEAD 2>/dev/null || { printf 'none %s\n' "$(_where "$1")"; return 0; }
	git -C "$1" status --porcelain --untracked-files=no 2>/dev/null
	git -C "$1" diff HEAD 2>/dev/null | inputs_key
}

# shellcheck source=tap.sh
. "$TOP/scripts/tap.sh"
# shellcheck source=offline-perf.sh
. "$TOP/scripts/offline-perf.sh"
