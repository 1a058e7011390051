#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build perf with gcc from a kernel tree's tools/perf.
#   perf.sh                 the patched tree $TREE into $PERF_OUT
#   perf.sh SRC OUT         any other tree (perf-stock.sh: the stock perf)
#   perf.sh SRC OUT MAKE-ARGUMENTS...
#                           make those in OUT instead, with the options
#                           that built perf there, logged in $PERF_LOG
#                           (perf-specfuzz.sh: the probe-spec fuzzer's
#                           harness, linked with that perf's objects)
# It does not need the kernel to be built.
set -eu
. "$(dirname -- "$0")/lib.sh"

src=${1:-$TREE}
out=${2:-$PERF_OUT}
[ -f "$src/tools/perf/Makefile" ] || die "$src is not a kernel tree: run 'make tree'"
mkdir -p "$out"
# What follows SRC and OUT: the make arguments, if any.
if [ $# -ge 2 ]; then shift 2; else set --; fi
goals=$#

# Python and Perl scripting are not needed by any workflow here and would
# pull in large build dependencies.  libtraceevent is the tree's own up
# to 6.1, the system's (libtraceevent-dev) from 6.2 on.  The build of
# perf 6.12 runs shellcheck on perf's shell tests, and its own
# tests/shell/lib/coresight.sh fails shellcheck 0.9 (SC3037): the lint
# suite checks our scripts, NO_SHELLCHECK=1 skips perf's step.
# Disassembly is not needed either (perf 6.12 links libLLVM or capstone
# for it when it finds them, and the guest has neither).  libdebuginfod
# is (libdebuginfod-dev): perf fetches debuginfo by build-id with it.
# Built for /usr and Debian's /usr/lib/perf-core, as the package of
# scripts/deb.sh installs it: the package carries this very binary.
# Through Makefile.perf, as Debian's build does: perf's Makefile does not
# pass perfexecdir on.
set -- -C "$src/tools/perf" -f Makefile.perf O="$out" CC=gcc prefix=/usr perfexecdir=lib/perf-core \
	NO_LIBPYTHON=1 NO_LIBPERL=1 \
	NO_LIBBABELTRACE=1 NO_JVMTI=1 NO_GTK2=1 NO_SLANG=1 NO_LIBUNWIND=1 \
	NO_LIBCRYPTO=1 NO_LIBBPF=1 NO_BPF_SKEL=1 NO_SHELLCHECK=1 NO_LIBLLVM=1 \
	NO_CAPSTONE=1 WERROR=0 -j"$(ncpus)" "$@"
# PERF_CFLAGS: more compiler flags, for every object and the link
# (scripts/perf-asan.sh: the sanitizers).
[ -z "${PERF_CFLAGS:-}" ] || set -- "$@" EXTRA_CFLAGS="$PERF_CFLAGS"

# Through ccache, in the cache shared with the kernel builds.  The
# trees of one generation (the patched one in build/, the stock one in
# build/stock/, the series suite's in build/each/) compile mostly the
# same files, each at the same path relative to its own folder.  With
# the paths below $BUILD made relative and the working directory left
# out of the hash, they share each other's objects, and so do clones of
# this repository at other paths.  perf's build names the object by its
# absolute path in -Wp,-MT, which is only the target name of the
# dependency file, and its fixdep reads the dependencies alone: that
# option is left out of the hash.  An object's DWARF then names the
# folder of the build that compiled it first (perf's own debug
# information, which no test reads).
mkdir -p "$CACHE/ccache"
export CCACHE_DIR="$CACHE/ccache"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
export CCACHE_BASEDIR="$BUILD"
export CCACHE_NOHASHDIR=1
export CCACHE_IGNOREOPTIONS='-Wp,-MT,*'
# Debian's ccache links compilers' names to itself there.
[ -x /usr/lib/ccache/gcc ] || die "no /usr/lib/ccache/gcc: apt-get install ccache, or run 'make deps'"
PATH=/usr/lib/ccache:$PATH

if [ "$goals" -gt 0 ]; then
	run_logged "${PERF_LOG:-$out/make.log}" make "$@"
	exit
fi
# What this perf is built from, recorded next to it once the build is
# whole: the tree's content, this script and its make arguments (without
# the clone's paths), the compiler.  It identifies the build to the
# suites' kept verdicts (build_identity in lib.sh), in every clone.
key=$({
	tree_key "$src"
	cat "$0"
	printf '%s\n' "$@" | without_paths
	gcc --version
} | inputs_key)
rm -f "$out/.uaccess-probe-built"
info PERF "building $out/perf (log: ${out#"$TOP"/}/build.log)"
run_logged "$out/build.log" make "$@"
# The build is incremental, but it is the only thing that knows whether it
# did anything; this check catches a build that "succeeded" without perf.
[ -x "$out/perf" ] || die "perf build produced no $out/perf"
"$out/perf" version >/dev/null || die "$out/perf does not run"
# make deps installs libdebuginfod-dev: a perf without it is a build
# that did not find it, not one to test or package.
"$out/perf" version --build-options | grep -Eq 'debuginfod: \[ on' ||
	die "$out/perf was built without libdebuginfod: apt-get install libdebuginfod-dev, or run 'make deps' (log: ${out#"$TOP"/}/build.log)"
stamp_write "$out/.uaccess-probe-built" "$key"
