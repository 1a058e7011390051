#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the targets as data (suite "targets"): every kernel
# generation and architecture descriptor loads; no script names an
# architecture or a kernel version outside them; and a throwaway third
# architecture (riscv64: a descriptor and a config fragment, nothing
# else) is taken for what it is and rejected, with a message naming what
# is missing, wherever it lacks something.  TAP on stdout.
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin

# Every descriptor loads, with every field that the scripts need.
for g in $(list_descriptors "$GEN_DIR"); do
	(load_generation "$g") >"$BUILD/targets.out" 2>&1
	tap_result $? "kernel generation $g: ${GEN_DIR#"$TOP"/}/$g.conf loads" ||
		tap_diag <"$BUILD/targets.out"
done
for a in $(list_descriptors "$ARCH_DIR"); do
	(load_arch "$a") >"$BUILD/targets.out" 2>&1
	tap_result $? "architecture $a: ${ARCH_DIR#"$TOP"/}/$a.conf loads" ||
		tap_diag <"$BUILD/targets.out"
done

# No script names an architecture or a kernel version: code lines (not
# comments) of the shell scripts and the Makefile, outside the
# descriptors.  Compiler names (clang-16) are tools, not targets.
names=$(for a in $(list_descriptors "$ARCH_DIR"); do
	load_arch "$a"
	printf '%s|%s|%s|' "$a" "$KBUILD_ARCH" "$DEB_ARCH"
done)
for g in $(list_descriptors "$GEN_DIR"); do
	names="$names$(echo "$g" | sed 's/\./\\./g')|"
done
names=${names%|}
(cd "$TOP" && git ls-files -co --exclude-standard -- '*.sh' Makefile \
	qemu-image/guest/run qemu-image/guest/init .ci/run) |
	while read -r f; do
		sed -e 's/[[:space:]]#.*//' -e 's/^#.*//' "$TOP/$f" |
			grep -nE "(^|[^A-Za-z0-9_.-])($names)([^A-Za-z0-9_]|$)" |
			sed "s|^|$f:|"
	done >"$BUILD/targets.names"
if [ -s "$BUILD/targets.names" ]; then
	tap_not_ok "no script names an architecture or a kernel version ($names)"
	tap_diag <"$BUILD/targets.names"
else
	tap_ok "no script names an architecture or a kernel version ($names)"
fi

# A third architecture, as HACKING.md's recipe makes it: its descriptor
# and its config fragment.  It has no Debian root file system, no GCC
# kernel and no system call entry in proof/syscall.h.
t=$BUILD/targets
rm -rf "$t"
mkdir -p "$t/arch"
cp "$ARCH_DIR"/*.conf "$ARCH_DIR/default" "$t/arch/"
cat >"$t/riscv64.config" <<'EOF'
CONFIG_64BIT=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
# riscv has no compressed kernel choice: Image is uncompressed
# CONFIG_KERNEL_GZIP is not set
EOF
cat >"$t/arch/riscv64.conf" <<EOF
KBUILD_ARCH=riscv
KIMAGE=arch/riscv/boot/Image
ARCH_CONFIGS=$t/riscv64.config
KCC_CLANG=clang-16
KFLAGS_CLANG="LLVM=-16"
ARCH_SUITES=proof
QEMU=qemu-system-riscv64
QEMU_PKG=qemu-system-misc
QEMU_MACHINE="-M virt -m 512M"
QEMU_KVM=no
CONSOLE=ttyS0
QEMU_SERIAL="-serial file:@CONSOLE_LOG@"
GUEST_EXIT=poweroff
INIT_CFLAGS="--target=riscv64-linux-gnu"
INIT_LD=ld.lld-16
INIT_MACRO=__riscv
OVERLAPPING_ADDRESS_SPACES=no
EOF
sed '/^KIMAGE=/d' "$t/arch/riscv64.conf" >"$t/arch/riscv64-broken.conf"

# rejects DESC WANT COMMAND...: COMMAND must fail and say WANT.
rejects() {
	_desc=$1 _want=$2
	shift 2
	"$@" >"$BUILD/targets.out" 2>&1
	_rc=$?
	if [ "$_rc" -ne 0 ] && grep -qF -- "$_want" "$BUILD/targets.out"; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
		printf 'exit status %s, wanted a failure saying: %s\n' "$_rc" "$_want" | tap_diag
		tap_diag <"$BUILD/targets.out"
	fi
}
riscv="env UACCESS_ARCH_DIR=$t/arch"

(ARCH_DIR=$t/arch && load_arch riscv64) >"$BUILD/targets.out" 2>&1
tap_result $? "riscv64: a descriptor is all it takes to be an architecture" ||
	tap_diag <"$BUILD/targets.out"
# shellcheck disable=SC2086 # $riscv is a command prefix
{
	rejects "riscv64: a descriptor without a field is refused, naming it" \
		"riscv64-broken.conf does not set: KIMAGE" \
		$riscv ARCH=riscv64-broken sh "$TOP/scripts/kernel.sh"
	rejects "riscv64: an unknown architecture is refused, naming the known ones" \
		"no architecture 'arm64'" $riscv ARCH=arm64 sh "$TOP/scripts/kernel.sh"
	rejects "riscv64: the proof suite names the missing system call entry" \
		"qemu-image/proof/syscall.h has no system call entry for __riscv" \
		$riscv ARCH=riscv64 sh "$TOP/qemu-image/proof.sh"
	rejects "riscv64: the proof /init names the missing system call entry" \
		"qemu-image/proof/syscall.h has no system call entry for __riscv" \
		$riscv ARCH=riscv64 sh "$TOP/qemu-image/proof-init.sh"
	rejects "riscv64: the VM suite says it has none" "ARCH=riscv64 has no VM suite" \
		$riscv ARCH=riscv64 sh "$TOP/qemu-image/run.sh"
	rejects "riscv64: the root file system names DEB_ARCH" "DEB_ARCH is empty" \
		$riscv ARCH=riscv64 sh "$TOP/qemu-image/rootfs.sh"
	rejects "riscv64: KCC=gcc names KCC_GCC" "KCC_GCC is empty" \
		$riscv ARCH=riscv64 KCC=gcc sh "$TOP/scripts/kernel.sh"
}
# Another kernel generation ("next", which is no real one), as
# HACKING.md's recipe makes it: its descriptor (and series folders,
# which only 'make tree' reads).
mkdir -p "$t/gen"
cp "$GEN_DIR"/*.conf "$GEN_DIR/default" "$t/gen/"
sed -e 's/^KGEN_NAME=.*/KGEN_NAME=next/' \
	-e 's/^SRC_PKG=.*/SRC_PKG=uaccess-probe-no-such-package/' \
	-e 's|^SRC_TARBALL=.*|SRC_TARBALL=/nonexistent/linux-source-next.tar.xz|' \
	-e 's|^KSERIES=.*|KSERIES="kernel/next/dwarf-tags kernel/next/tracing"|' \
	-e 's|^PSERIES=.*|PSERIES=tools-perf-patches/next|' \
	"$GEN_DIR/$(cat "$GEN_DIR/default").conf" >"$t/gen/next.conf"
got=$(UACCESS_GEN_DIR=$t/gen KGEN=next sh -c '. "$0"; kobj gcc; echo "$TREE $KOBJ $PERF $STOCK_PERF $KSERIES"' \
	"$TOP/scripts/lib.sh" 2>&1 | tr '\n' ' ')
want="$BUILD/kernel-next-$ARCH-gcc $BUILD/linux-next $BUILD/kernel-next-$ARCH $BUILD/perf-next/perf $BUILD/stock/perf-next/perf kernel/next/dwarf-tags kernel/next/tracing "
if [ "$got" = "$want" ]; then
	tap_ok "next: a descriptor is all it takes to be a kernel generation, with build folders of its own"
else
	tap_not_ok "next: a descriptor is all it takes to be a kernel generation, with build folders of its own"
	printf 'expected: %s\ngot:      %s\n' "$want" "$got" | tap_diag
fi
gen="env UACCESS_GEN_DIR=$t/gen"
# shellcheck disable=SC2086 # $gen is a command prefix
{
	rejects "next: make tree names the source package to install" \
		"install it with 'apt-get install uaccess-probe-no-such-package'" \
		$gen KGEN=next sh "$TOP/scripts/tree.sh"
	rejects "next: an unknown generation is refused, naming the known ones" \
		"no kernel generation '5.10'" $gen KGEN=5.10 sh "$TOP/scripts/tree.sh"
}
# The build graph: every build that make check or make demo can start
# has a path to deps in make's own database, so that on a fresh machine
# nothing is compiled while deps is still installing its packages.
graph=$(sh "$TOP/scripts/build-graph.sh" "$TOP" check demo 2>&1)
if [ -z "$graph" ]; then
	tap_ok "build graph: every build of make check and make demo runs after make deps"
else
	tap_not_ok "build graph: every build of make check and make demo runs after make deps"
	printf '%s\n' "$graph" | tap_diag
fi
# The check itself can fail: a throwaway Makefile whose "orphan" reaches
# deps only through an order-only prerequisite (no report), whose demo
# starts "stray" and whose check hands "loose" to a sub-make, neither of
# which reaches deps (both reported).
mkdir -p "$t/graph"
# shellcheck disable=SC2016 # $(MAKE) is make's, not the shell's
printf '%s\n' '.PHONY: deps check check-plan demo built orphan stray loose' \
	'deps:' '	@:' 'built: deps' '	@:' 'orphan: built.txt' '	@:' 'built.txt: | deps' '	@:' \
	'check: built orphan' '	@$(MAKE) loose' 'loose:' '	@:' 'demo: stray' 'stray:' '	@:' \
	'check-plan:' '	@echo "builds: loose"' >"$t/graph/Makefile"
graph=$(sh "$TOP/scripts/build-graph.sh" "$t/graph" check demo 2>&1)
want='loose: no path to deps (loose)
stray: no path to deps (demo -> stray)'
if [ "$graph" = "$want" ]; then
	tap_ok "build graph: a build without a path to deps is named, with the chain that reached it"
else
	tap_not_ok "build graph: a build without a path to deps is named, with the chain that reached it"
	printf 'expected:\n%s\ngot:\n%s\n' "$want" "$graph" | tap_diag
fi
tap_done
