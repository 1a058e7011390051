#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages that the build, the guest image and the
# tests need.  Quick and silent when everything is there; otherwise it
# installs what is missing (as root) or names it and fails (not root).
set -eu
. "$(dirname -- "$0")/lib.sh"

# kernel build (clang-16), perf build (gcc; perf 6.2 and later link the
# system's libtraceevent), guest image (the vfat image of Debian's
# guest: dosfstools), DWARF fixtures
# (clang-14, clang-16, elfutils), lint and checkpatch (spdxcheck.py needs
# ply and GitPython), benchmark, the GCC kernel's user_dwarf plugin
# (gcc-12-plugin-dev), perf's debuginfod client and its Debian package
# (scripts/deb.sh, lintian), the server of the user tags artifacts
# (debuginfod, curl); then every kernel generation's source package and
# every architecture's QEMU and tools, from their descriptors.
PKGS="clang-16 lld-16 llvm-16 dwarves gcc make flex bison bc python3 git xz-utils
libelf-dev libdw-dev libssl-dev zlib1g-dev libzstd-dev liblzma-dev libcap-dev
libnuma-dev libtraceevent-dev pkg-config ccache kmod
debootstrap cpio e2fsprogs dosfstools
clang-14 elfutils
shellcheck python3-ply python3-git valgrind time
gcc-12-plugin-dev
libdebuginfod-dev dpkg-dev file lintian debuginfod curl iproute2"
for g in $(list_descriptors "$GEN_DIR"); do
	PKGS="$PKGS $(load_generation "$g" && printf '%s' "$SRC_PKG")"
done
for a in $(list_descriptors "$ARCH_DIR"); do
	PKGS="$PKGS $(load_arch "$a" && arch_packages | tr '\n' ' ')"
done
# shellcheck disable=SC2086 # a list of package names
PKGS=$(printf '%s\n' $PKGS | awk '!seen[$0]++')

# deps.sh --list: only name them (scripts/check.sh keys verdicts on them).
if [ "${1:-}" = --list ]; then
	# shellcheck disable=SC2086 # a list of package names
	printf '%s\n' $PKGS
	exit 0
fi

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
