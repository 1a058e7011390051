#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The patched perf of a kernel generation as a Debian package: a drop-in
# for Debian's linux-perf of the same upstream version, which installs
# /usr/bin/perf itself (bookworm's 6.1.192-3 does), so that on a Debian 12
# host 'apt install ./linux-perf_VERSION_ARCH.deb' replaces it.
#
#   deb.sh           build $BUILD/deb$GEN_TAG/linux-perf_VERSION_ARCH.deb
#                    from $PERF_OUT (make perf) and print its path
#   deb.sh --path    print its path; fail if it is not built
#
# Its version is the Debian version of the kernel source the tree was
# extracted from, plus "+uaccessprobe.vN" (N: the perf series' version):
# it sorts above Debian's own package of that source and says what it
# carries.  Its binaries are the ones the suites test (scripts/perf.sh
# builds perf for /usr and Debian's /usr/lib/perf-core), stripped; its
# dependencies are dpkg-shlibdeps'.
set -eu
. "$(dirname -- "$0")/lib.sh"

out=$BUILD/deb$GEN_TAG
path_file=$out/deb-path

if [ "${1:-}" = --path ]; then
	if [ ! -f "$path_file" ] || [ ! -f "$(cat "$path_file")" ]; then
		die "no perf package in $out: run 'make deb'"
	fi
	cat "$path_file"
	exit 0
fi

[ -x "$PERF" ] || die "no perf at $PERF: run 'make perf'"
for t in dpkg-deb:dpkg dpkg-shlibdeps:dpkg-dev strip:binutils file:file; do
	command -v "${t%%:*}" >/dev/null ||
		die "${t%%:*} not found: apt-get install ${t#*:}, or run 'make deps'"
done
# The package is what makes perf fetch from debuginfod on a production
# host: a perf built without libdebuginfod is not packaged.
"$PERF" version --build-options | grep -Eq 'debuginfod: \[ on' ||
	die "$PERF was built without libdebuginfod: apt-get install libdebuginfod-dev (make deps), then make perf"

base=$(dpkg-query -W -f '${Version}' "$SRC_PKG" 2>/dev/null) || base=
[ -n "$base" ] || die "$SRC_PKG is not installed: run 'make deps'"
# The version of perf's series: one for all of them (the fixes' first
# patch tells it, and the others must agree).
sv=
for d in $(perf_series_dirs); do
	first=$(series_patches "$d" | head -n 1)
	v=$(basename "$first" | sed -n 's/^v\([0-9][0-9]*\)-.*/\1/p')
	[ -n "$v" ] || die "cannot tell the version of the series in $d from ${first:-its first patch}"
	[ -z "$sv" ] || [ "$v" = "$sv" ] || die "perf's series have versions $sv and $v: one package carries one version"
	sv=$v
done
version=$base+uaccessprobe.v$sv
upstream=${base%%-*}
series=$(printf '%s\n' "$upstream" | cut -d. -f1,2)
arch=$(dpkg --print-architecture)
deb=$out/linux-perf_${version}_$arch.deb

# Built again only when what goes into it changed.
key=$({
	sha256sum "$PERF"
	cat "$0"
	printf '%s %s\n' "$version" "$arch"
} | inputs_key)
if [ -f "$deb" ] && stamp_matches "$out/.stamp" "$key"; then
	printf '%s\n' "$deb" >"$path_file"
	printf '%s\n' "$deb"
	exit 0
fi

rm -rf "$out"
mkdir -p "$out"
# Staged where dpkg-shlibdeps expects a package's files.
stage=$out/src/debian/linux-perf
log=$out/build.log
info DEB "${deb#"$TOP"/} (log: ${log#"$TOP"/})" >&2
# perf's own install, with the options that built it.
PERF_LOG=$log sh "$TOP/scripts/perf.sh" "$TREE" "$PERF_OUT" install-tools DESTDIR="$stage" >&2 ||
	die "perf's install-tools failed (log: $log)"
[ -x "$stage/usr/bin/perf" ] || die "perf's install-tools put no usr/bin/perf in $stage"
# The install must not have built anything: the package carries the
# perf that the suites test.
cmp -s "$PERF" "$stage/usr/bin/perf" || die "the installed perf is not $PERF (log: $log)"

# perf installs its bash completion as a configuration file under
# /etc: Debian's place for it is /usr/share/bash-completion.
if [ -f "$stage/etc/bash_completion.d/perf" ]; then
	mkdir -p "$stage/usr/share/bash-completion/completions"
	mv "$stage/etc/bash_completion.d/perf" "$stage/usr/share/bash-completion/completions/perf"
	rmdir "$stage/etc/bash_completion.d" "$stage/etc"
fi
extra=$(find "$stage" -mindepth 1 -maxdepth 1 ! -name usr)
[ -z "$extra" ] || die "perf's install-tools put more than usr/ in $stage: $extra"

# Stripped as Debian strips (dh_strip): the build-id stays, so the
# debug information of $PERF (and debuginfod) still matches it.
find "$stage" -type f | while read -r f; do
	case $(file -b "$f") in
	ELF*shared\ object*) strip --remove-section=.comment --remove-section=.note --strip-unneeded "$f" ;;
	ELF*executable*) strip --remove-section=.comment --remove-section=.note "$f" ;;
	esac
done

doc=$stage/usr/share/doc/linux-perf
mkdir -p "$doc"
cat >"$doc/copyright" <<EOF
This is perf, from the Linux kernel's tools/perf as Debian's source
package $SRC_PKG $base carries it, with the perf series of uaccess-probe
($PSERIES, version $sv) applied.

Copyright (C) the authors of the Linux kernel; see its git history.
License: GPL-2

On Debian systems, the complete text of the GNU General Public License
version 2 can be found in /usr/share/common-licenses/GPL-2.
EOF
# One entry, dated by the series' last change (the same package from the
# same commit).
when=$(git -C "$TOP" log -1 --format=%cD -- "$PSERIES")
[ -n "$when" ] || when=$(date -R)
subjects=$(for d in $(perf_series_dirs); do series_patches "$d"; done | wc -l)
nseries=$(perf_series_dirs | wc -l)
{
	printf 'linux-perf (%s) bookworm; urgency=medium\n\n' "$version"
	printf '  * perf of %s %s,\n' "$SRC_PKG" "$base"
	printf '    with the uaccess-probe perf series v%s (%s patches in %s series):\n' "$sv" "$subjects" "$nseries"
	printf '    perf probe fixes, and perf probe\n'
	printf '    reads __user from the kernel'"'"'s DWARF and chooses user or kernel\n'
	printf '    memory for each dereference; --user-tags takes __user from a\n'
	printf '    tagged build of the kernel.\n'
	printf '  * Built with libdebuginfod; without Python and Perl scripting,\n'
	printf '    the TUI, libunwind, libbpf and disassembly.\n\n'
	printf ' -- uaccess-probe maintainers <maintainers@users.noreply.a-seed-5af95b92.example>  %s\n' "$when"
} | gzip -9n >"$doc/changelog.Debian.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.Debian.gz"

# The dependencies, from the binaries' NEEDED libraries.
printf 'Source: uaccess-probe\n\nPackage: linux-perf\nArchitecture: any\n' >"$out/src/debian/control"
elfs=$(find "$stage" -type f -exec sh -c 'file -b "$1" | grep -q "^ELF" && echo "$1"' sh {} \;)
# shellcheck disable=SC2086 # a list of paths without blanks
depends=$(cd "$out/src" && dpkg-shlibdeps -O $elfs 2>>"$log" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies (log: $log)"

mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<EOF
Package: linux-perf
Source: uaccess-probe
Version: $version
Architecture: $arch
Maintainer: uaccess-probe maintainers <maintainers@users.noreply.a-seed-5af95b92.example>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Conflicts: linux-tools-$series
Replaces: linux-tools-$series
Provides: linux-tools-$series
Section: devel
Priority: optional
Homepage: https://www.kernel.org/
Description: Performance analysis tools for Linux, with __user from DWARF
 This package contains the 'perf' performance analysis tools for Linux,
 built from $SRC_PKG $base
 with the uaccess-probe perf series (v$sv) applied: perf probe reads the
 __user annotations of the kernel's DWARF and chooses user or kernel
 memory for each dereference of a probe argument, where stock perf reads
 user memory as kernel memory unless told.  --user-tags takes them from
 a tagged build of the kernel.
 .
 It replaces Debian's linux-perf of the same upstream version.  Built
 with libdebuginfod, without Python and Perl scripting, the TUI,
 libunwind, libbpf and disassembly.
EOF
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

# The same bytes from the same commit in every clone (dpkg-deb takes
# the archive members' times from SOURCE_DATE_EPOCH): its content is
# what keys the verdicts of the suites that install it.
SOURCE_DATE_EPOCH=$(date -d "$when" +%s)
export SOURCE_DATE_EPOCH
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb.tmp" >>"$log" 2>&1 ||
	die "dpkg-deb failed (log: $log)"
mv "$deb.tmp" "$deb"
rm -rf "$out/src"
stamp_write "$out/.stamp" "$key"
printf '%s\n' "$deb" >"$path_file"
printf '%s\n' "$deb"
