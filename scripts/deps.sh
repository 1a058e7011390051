#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that the build, the guest image and the
# tests need.  Quick and silent when everything is there; otherwise it
# installs what is missing (as root) or names it and fails (not root).
set -eu
. "$(dirname -- "$0")/lib.sh"

# kernel tree, kernel build (clang-16), perf build (gcc), guest image,
# QEMU, DWARF fixtures (clang-14, clang-16, elfutils), lint and checkpatch
# (spdxcheck.py needs ply and GitPython), benchmark, the GCC kernel's
# user_dwarf plugin (gcc-12-plugin-dev), the s390x proof suite (QEMU,
# binutils to link its kernel and /init)
PKGS="$SRC_PKG
clang-16 lld-16 llvm-16 dwarves gcc make flex bison bc python3 git xz-utils
libelf-dev libdw-dev libssl-dev zlib1g-dev libzstd-dev liblzma-dev libcap-dev
libnuma-dev pkg-config ccache kmod
debootstrap cpio e2fsprogs qemu-system-x86
clang-14 elfutils
shellcheck python3-ply python3-git valgrind
gcc-12-plugin-dev
qemu-system-misc binutils-s390x-linux-gnu"

missing=
for p in $PKGS; do
	dpkg-query -W -f '${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	info DEPS "all $(echo "$PKGS" | wc -w) packages are installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	printf 'error: missing Debian packages:%s\n' "$missing" >&2
	printf 'Run "make deps" as root, or: sudo apt-get install%s\n' "$missing" >&2
	exit 1
fi
command -v apt-get >/dev/null ||
	die "apt-get not found: this needs Debian 12 (bookworm); install by hand:$missing"

info DEPS "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
log=$LOGS/deps.log
mkdir -p "$LOGS"
# shellcheck disable=SC2086 # $missing is a list of package names
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "apt-get could not install:$missing (log: $log)"
fi
