#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest root file system: a debootstrap minbase of bookworm plus
# packages.list and the stage-1 init, as an ext4 image made with
# 'mke2fs -d' (no loop device, no mount).  Cached outside the repository
# under a key made of everything that goes into it.
#
#   rootfs.sh            print the image path, building it if needed
#   rootfs.sh --path     print the image path; fail if it is not built
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

debarch=$DEB_ARCH
[ -n "$debarch" ] ||
	die "ARCH=$ARCH has no Debian root file system (DEB_ARCH is empty in ${ARCH_CONF#"$TOP"/})"
suite=bookworm

# The mirror apt already uses (deb822 sources or classic sources.list).
mirror() {
	m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ { print $2; exit }')
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $0 ~ / (bookworm|stable) / && $2 !~ /security/ {
			for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }')
	printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

pkgs=$(sed -e 's/#.*//' "$here/packages.list" | tr -s ' \n' ',,' | sed -e 's/^,//' -e 's/,$//')
# Bump when the recipe below changes what ends up in the image.
recipe=1
key=$( { printf '%s %s %s %s\n' "$recipe" "$suite" "$debarch" "$pkgs"; cat "$here/guest/init"; } |
	inputs_key | cut -c1-16)
dir=$CACHE/rootfs/$debarch-$key
img=$dir.ext4

if [ -f "$img" ]; then
	printf '%s\n' "$img"
	exit 0
fi
[ "${1:-}" != --path ] || die "no root file system at $img: run 'make rootfs'"

[ "$(id -u)" -eq 0 ] || die "debootstrap needs root: run 'make rootfs' as root once (the image is then cached in $CACHE/rootfs)"
command -v debootstrap >/dev/null || die "debootstrap not found: run 'make deps'"
command -v mke2fs >/dev/null || die "mke2fs not found: apt-get install e2fsprogs"

m=$(mirror)
log=$LOGS/rootfs-$debarch.log
info ROOTFS "debootstrap --variant=minbase $suite ($debarch) from $m (log: ${log#"$TOP"/})" >&2
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
run_logged "$log" debootstrap --variant=minbase --arch="$debarch" \
	--include="$pkgs" "$suite" "$dir.tmp" "$m" >&2 ||
	die "debootstrap failed (log: $log)"

install -m 0755 "$here/guest/init" "$dir.tmp/sbin/uaccess-probe-init"
# Nothing in the guest needs these; they only make the image bigger.
rm -rf "$dir.tmp/var/cache/apt/archives/"*.deb "$dir.tmp/var/lib/apt/lists/"* \
	"$dir.tmp/usr/share/doc" "$dir.tmp/usr/share/man" "$dir.tmp/usr/share/locale"
printf 'uaccess-probe\n' >"$dir.tmp/etc/hostname"

size=$(( $(du -sm "$dir.tmp" | cut -f1) * 3 / 2 + 64 ))
mke2fs -q -t ext4 -L uaccess-root -d "$dir.tmp" "$img.tmp" "${size}M" \
	>"$LOGS/mke2fs-rootfs.log" 2>&1 ||
	{ cat "$LOGS/mke2fs-rootfs.log" >&2; die "mke2fs -d failed for $img"; }
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$img.tmp" "$img"
info ROOTFS "$img (${size} MiB)" >&2
printf '%s\n' "$img"
