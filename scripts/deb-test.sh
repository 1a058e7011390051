#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host suite "deb": the patched perf's Debian package of a generation
# (make deb, scripts/deb.sh), read as apt and lintian read it: its
# version sorts above Debian's package of the same source, it depends on
# the package of every library its binaries need, it carries the perf
# that the other suites test (same build-id), with debuginfod, and
# lintian finds no error in it.  Nothing is installed on the host: the
# package is unpacked into a folder of the build (qemu-image/tests/
# deb-install.sh installs it with apt in the guest).  TAP on stdout.
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin

deb=$(sh "$TOP/scripts/deb.sh" --path 2>/dev/null) || tap_bail "no perf package (make deb)"
for t in dpkg-deb lintian readelf; do
	command -v "$t" >/dev/null || tap_bail "$t not found (make deps)"
done
w=$BUILD/deb-test$GEN_TAG
rm -rf "$w"
mkdir -p "$w"
dpkg-deb -x "$deb" "$w/root" || tap_bail "dpkg-deb -x $deb failed"
field() { dpkg-deb -f "$deb" "$1"; }

# 1. The name and version of a drop-in for Debian's linux-perf.
base=$(dpkg-query -W -f '${Version}' "$SRC_PKG" 2>/dev/null)
v=$(field Version)
if [ "$(field Package)" = linux-perf ] && [ -n "$base" ] &&
	dpkg --compare-versions "$v" gt "$base" &&
	case $v in "$base+uaccessprobe.v"[0-9]*) true ;; *) false ;; esac; then
	tap_ok "linux-perf $v sorts above Debian's $SRC_PKG $base and names the series"
else
	tap_not_ok "linux-perf $v sorts above Debian's $SRC_PKG ${base:-(not installed)} and names the series"
	dpkg-deb -f "$deb" | tap_diag
fi

# 2. Every library that a binary of the package needs is the library of
# a package that it depends on: the file the dynamic loader of this host
# (which built it) resolves it to, and dpkg -S of that file.
depends=$(field Depends)
missing=
elfs=$(find "$w/root" -type f -exec sh -c 'readelf -h "$1" >/dev/null 2>&1 && echo "$1"' sh {} \;)
for f in $elfs; do
	for lib in $(readelf -d "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		file=$(ldd "$f" 2>/dev/null | awk -v l="$lib" '$1 == l && $2 == "=>" { print $3; exit }')
		pkg=
		[ -z "$file" ] || pkg=$(dpkg -S "$file" 2>/dev/null | sed -n '1s/:.*//p')
		[ -n "$pkg" ] || pkg=$(dpkg -S "$(readlink -f "$file" 2>/dev/null)" 2>/dev/null | sed -n '1s/:.*//p')
		[ -n "$pkg" ] || { missing="$missing $lib(${file:-not found}: no package)"; continue; }
		case ", $depends" in *", $pkg "* | *", $pkg,"* | *", $pkg") ;; *) missing="$missing $lib($pkg)" ;; esac
	done
done
if [ -z "$missing" ] && [ -n "$depends" ]; then
	tap_ok "Depends names the package of every library the binaries need"
else
	tap_not_ok "Depends names the package of every library the binaries need:${missing:- no Depends}"
	printf 'Depends: %s\n' "$depends" | tap_diag
fi
case ", $depends" in
*", libdebuginfod1"*) tap_ok "it depends on libdebuginfod1" ;;
*) tap_not_ok "it depends on libdebuginfod1" && printf 'Depends: %s\n' "$depends" | tap_diag ;;
esac

# 3. Its perf is the one the suites test, stripped, for /usr.
p=$w/root/usr/bin/perf
buildid() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: *//p'; }
if [ -x "$p" ] && [ -n "$(buildid "$p")" ] && [ "$(buildid "$p")" = "$(buildid "$PERF")" ]; then
	tap_ok "usr/bin/perf has the build-id of $PERF"
else
	tap_not_ok "usr/bin/perf has the build-id of $PERF"
	printf 'package: %s\n%s: %s\n' "$(buildid "$p")" "$PERF" "$(buildid "$PERF")" | tap_diag
fi
if "$p" version --build-options 2>&1 | grep -Eq 'debuginfod: \[ on'; then
	tap_ok "its perf fetches debuginfo from debuginfod (debuginfod: [ on ])"
else
	tap_not_ok "its perf fetches debuginfo from debuginfod (debuginfod: [ on ])"
	"$p" version --build-options 2>&1 | tap_diag
fi
if [ "$("$p" --exec-path 2>&1)" = /usr/lib/perf-core ] && [ -x "$w/root/usr/lib/perf-core/perf-archive" ]; then
	tap_ok "its perf looks for its helpers in /usr/lib/perf-core, where the package puts them"
else
	tap_not_ok "its perf looks for its helpers in /usr/lib/perf-core, where the package puts them"
	{ "$p" --exec-path 2>&1; ls -l "$w/root/usr/lib/perf-core" 2>&1; } | tap_diag
fi
if readelf -S "$p" 2>/dev/null | grep -q '\.debug_info'; then
	tap_not_ok "usr/bin/perf is stripped"
else
	tap_ok "usr/bin/perf is stripped"
fi

# 4. lintian: no error (its warnings, if any, are shown).
lintian --fail-on error --tag-display-limit 0 "$deb" >"$w/lintian.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then
	tap_ok "lintian finds no error"
else
	tap_not_ok "lintian finds no error (exit $rc)"
fi
[ ! -s "$w/lintian.out" ] || tap_diag <"$w/lintian.out"
tap_done
