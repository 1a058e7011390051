#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fetch Debian's own kernel of the generation (DEBIAN_KERNEL and
# DEBIAN_KERNEL_VERSION in kernel/generations/$KGEN.conf): the image, the
# debug vmlinux (-dbg, about 280 MB) and the headers (the kernel's .config
# and generated headers), with 'apt-get download', unpacked into
# $CACHE/debian/RELEASE_VERSION (make debian-kernel).  Prints that folder.
#   debian-kernel.sh          fetch what is missing
#   debian-kernel.sh --path   only print the folder; fail if it is missing
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -n "${DEBIAN_KERNEL:-}${DEBIAN_KERNEL_VERSION:-}" ] ||
	die "kernel generation $KGEN names no Debian kernel (DEBIAN_KERNEL in ${GEN_CONF#"$TOP"/})"
dir=$CACHE/debian/${DEBIAN_KERNEL}_$DEBIAN_KERNEL_VERSION
if [ -f "$dir/.complete" ]; then
	printf '%s\n' "$dir"
	exit 0
fi
[ "${1:-}" != --path ] || die "Debian's kernel $DEBIAN_KERNEL is not fetched: run 'make debian-kernel'"

srcver=$(dpkg-query -W -f '${Version}' "$SRC_PKG" 2>/dev/null) ||
	die "package $SRC_PKG is not installed: run 'make deps'"
[ "$srcver" = "$DEBIAN_KERNEL_VERSION" ] ||
	die "$SRC_PKG is $srcver, but Debian's kernel $DEBIAN_KERNEL is $DEBIAN_KERNEL_VERSION: the tags would come from another source (update both in ${GEN_CONF#"$TOP"/})"

pkgs="linux-image-$DEBIAN_KERNEL-unsigned linux-image-$DEBIAN_KERNEL-dbg
linux-headers-$DEBIAN_KERNEL linux-headers-${DEBIAN_KERNEL%-*-*}-common"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/deb"
log=$LOGS/debian-kernel-$DEBIAN_KERNEL.log
mkdir -p "$LOGS"
# shellcheck disable=SC2086 # a list of package names
info DEBIAN "apt-get download $(printf '%s ' $pkgs)(log: ${log#"$TOP"/})" >&2
# apt-get download writes into the current folder, as the _apt user if it
# can; with no package lists yet (a fresh machine), update them once.
download() {
	# shellcheck disable=SC2046,SC2086 # a list of package names
	(cd "$dir.tmp/deb" && chmod 0777 . &&
		apt-get download $(for p in $pkgs; do printf '%s=%s ' "$p" "$DEBIAN_KERNEL_VERSION"; done))
}
if ! download >"$log" 2>&1 &&
	! { [ "$(id -u)" -eq 0 ] && apt-get update -q >>"$log" 2>&1 && download >>"$log" 2>&1; }; then
	tail -n 5 "$log" >&2
	rm -rf "$dir.tmp"
	die "apt-get download failed: is Debian's archive reachable, and does it still have $DEBIAN_KERNEL_VERSION? (log: $log)"
fi
for d in "$dir.tmp/deb"/*.deb; do
	dpkg-deb -x "$d" "$dir.tmp/root" || die "cannot unpack $d"
done
rm -rf "$dir.tmp/deb"
for f in "boot/vmlinuz-$DEBIAN_KERNEL" "usr/lib/debug/boot/vmlinux-$DEBIAN_KERNEL" \
	"usr/src/linux-headers-$DEBIAN_KERNEL/.config"; do
	[ -f "$dir.tmp/root/$f" ] || die "Debian's packages of $DEBIAN_KERNEL have no $f"
done
: >"$dir.tmp/.complete"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
printf '%s\n' "$dir"
