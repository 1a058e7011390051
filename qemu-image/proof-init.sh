#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build the proof suite's /init for $ARCH (make proof-init-ARCH):
# proof/init.c, freestanding, compiled by the architecture's clang
# (KCC_CLANG, INIT_CFLAGS) against the kernel's own UAPI headers and
# linked by INIT_LD, into $BUILD/proof-init$GEN_TAG-$ARCH/init.  The kernel of
# $ARCH must be configured (make kernel-ARCH): its headers are
# installed into its build folder first.
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"
# shellcheck source=qemu.sh
. "$here/qemu.sh"

proof_require_arch
command -v "$KCC_CLANG" >/dev/null || die "$KCC_CLANG not found: run 'make deps'"
[ -f "$KOBJ/.config" ] || die "no kernel configuration in $KOBJ: run 'make kernel-$ARCH'"
out=$BUILD/proof-init$GEN_TAG-$ARCH
mkdir -p "$out"
if [ ! -f "$KOBJ/usr/include/asm/unistd.h" ]; then
	info PROOF "installing the $ARCH UAPI headers into ${KOBJ#"$TOP"/}/usr"
	kmake headers >"$out/headers.log" 2>&1 ||
		{ tail -n 20 "$out/headers.log" >&2; die "make headers failed"; }
fi
# shellcheck disable=SC2086 # INIT_CFLAGS is a list of options
"$KCC_CLANG" $INIT_CFLAGS -O2 -Wall -Wextra -Werror -ffreestanding \
	-fno-stack-protector -fno-pic -nostdinc -isystem "$KOBJ/usr/include" \
	-c "$here/proof/init.c" -o "$out/init.o" ||
	die "cannot compile $here/proof/init.c"
"$INIT_LD" -static -e _start -o "$out/init" "$out/init.o" ||
	die "cannot link /init"
info PROOF "$out/init"
