#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Ready Debian's own kernel of the generation (make debian-kernel) for the
# guest (make debian-boot): $BUILD/kernel-ARCH-debian (KCC=debian) gets
#   kernel-image  Debian's vmlinuz
#   vmlinux       Debian's debug vmlinux (-dbg), for perf in the guest
#   initrd        /init (qemu-image/debian-init.c, static) and the modules
#                 of DEBIAN_BOOT_MODULES with their dependencies, in
#                 order, which mount the root disk and start the guest
#                 as the project's own kernels do
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

[ "$KCC" = debian ] || die "debian-boot.sh readies KCC=debian, not KCC=$KCC"
deb=$(sh "$TOP/scripts/debian-kernel.sh" --path)
root=$deb/root
[ -n "${DEBIAN_BOOT_MODULES:-}" ] ||
	die "no DEBIAN_BOOT_MODULES in ${GEN_CONF#"$TOP"/}"
out=$KOBJ
key=$( { cat "$0" "$here/debian-init.c"; printf '%s\n' "$deb" "$DEBIAN_BOOT_MODULES"; } |
	inputs_key)
if stamp_matches "$out/.stamp" "$key"; then
	info DEBIAN "$out is up to date"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/initrd.d/modules"
cp "$root/boot/vmlinuz-$DEBIAN_KERNEL" "$out/kernel-image"
ln -s "$root/usr/lib/debug/boot/vmlinux-$DEBIAN_KERNEL" "$out/vmlinux"

# modules.dep is made at install time: make it in the unpacked tree.
[ -f "$root/lib/modules/$DEBIAN_KERNEL/modules.dep" ] ||
	depmod -b "$root" "$DEBIAN_KERNEL" || die "depmod failed on $root"
# shellcheck disable=SC2086 # a list of module names
modprobe -a -d "$root" -S "$DEBIAN_KERNEL" --show-depends $DEBIAN_BOOT_MODULES \
	>"$out/depends" || die "modprobe cannot resolve $DEBIAN_BOOT_MODULES in $root"
awk '$1 == "insmod" && !seen[$2]++ { print $2 }' "$out/depends" | while read -r ko; do
	case $ko in
	*.ko) cp "$ko" "$out/initrd.d/modules/" ;;
	*.ko.xz) xz -dc "$ko" >"$out/initrd.d/modules/$(basename "$ko" .xz)" ;;
	*) die "cannot load $ko" ;;
	esac
	basename "${ko%.xz}" >>"$out/initrd.d/modules.order"
done
[ -s "$out/initrd.d/modules.order" ] || die "no modules for $DEBIAN_BOOT_MODULES"
gcc -static -O2 -Wall -Wextra -Werror -o "$out/initrd.d/init" "$here/debian-init.c" ||
	die "cannot build $here/debian-init.c (libc6-dev)"
(cd "$out/initrd.d" && find . | cpio -o -H newc --quiet) >"$out/initrd" ||
	die "cpio failed"
info DEBIAN "$out: $DEBIAN_KERNEL, initrd with $(tr '\n' ' ' <"$out/initrd.d/modules.order")"
stamp_write "$out/.stamp" "$key"
