#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The payload disk: everything of ours that the guest runs, rebuilt for
# every boot from the build outputs (ext4 made with 'mke2fs -d'):
#   bin/perf            the patched perf
#   vmlinux             the kernel's DWARF, for perf probe
#   bin/perf-stock, user-tags/, fleet/   with Debian's kernel (KCC=debian):
#                       the stock perf, the tagged build of its units (a
#                       module's in user-tags/.modules/NAME), and
#                       definitions made with it on the host
#   debug/, vfat.img    with Debian's kernel: the -dbg package's modules
#                       that the tests probe, at their place under
#                       /usr/lib/debug, and a vfat image for fat's ioctls
#   artifacts/          with Debian's kernel: the user tags of the image
#                       and of each module as one artifact per build-id
#                       (scripts/user-tags-artifact.sh), and room on the
#                       disk for a debuginfod cache of the vmlinux
#   modules/            modules_install of the kernel (Debian's: all of
#                       its image package's modules)
#   ftrace/             the tree's tools/testing/selftests/ftrace
#   perf-core/tests/    perf's shell tests, for 'perf test' (PERF_EXEC_PATH)
#   src/, src-root      the sources 'perf probe -L' of perf's tests reads,
#                       and the tree's path, where the DWARF says they are
#   guest/, tests/      stage 2, the demo and the tests; guest/tap.sh is
#                       the test library, scripts/tap.sh
#   bench/, bin/events-loop   the guest half of make bench-events
#                       (bench/guest/)
#   fuzz/, bin/probe-fuzz     the probe-event fuzzer (make fuzz)
#   known-failures.txt  the generation's KNOWN_FAILURES
#   tracefs-README, perf-readme-patterns   the generation's TRACEFS_README,
#                       and what perf looks for in a README, from the
#                       tree's tools/perf/util/probe-file.c
#   ftrace-required.txt the ftracetest cases that must pass: the seed
#                       series' kprobe_args_user.tc (unless KNOWN_FAILURES
#                       lists it) and every case that the kernel series
#                       add
#
#   payload.sh      build $BUILD/payload-$KVARIANT.ext4 (make payload); the
#                   root file system must be built (make rootfs)
set -eu
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
# shellcheck source=../scripts/lib.sh
. "$here/../scripts/lib.sh"

rootfs=$(sh "$here/rootfs.sh" --path)
rootfs_dir=${rootfs%.ext4}
dir=$BUILD/payload-$KVARIANT
img=$dir.ext4

[ -x "$PERF" ] || die "no perf at $PERF: run 'make perf'"
# The stock kernel's modules and ftracetest come from the stock tree.
[ -z "$KCC_STOCK" ] || TREE=$STOCK_TREE
[ -f "$KOBJ/vmlinux" ] || die "no kernel at $KOBJ: run 'make kernel'"

# perf must find its libraries in the guest: check before booting.
for lib in $(objdump -p "$PERF" | awk '$1 == "NEEDED" { print $2 }'); do
	found=$(find "$rootfs_dir/lib" "$rootfs_dir/usr/lib" -name "$lib" 2>/dev/null | head -n 1)
	[ -n "$found" ] ||
		die "perf needs $lib, which the guest root file system lacks: add its package to qemu-image/packages.list"
done

rm -rf "$dir"
mkdir -p "$dir/bin"
cp "$PERF" "$dir/bin/perf"
vmlinux=$(readlink -f "$KOBJ/vmlinux")
ln "$vmlinux" "$dir/vmlinux" 2>/dev/null || cp "$vmlinux" "$dir/vmlinux"
if [ "$KCC" = debian ]; then
	# Debian's kernel: its modules are Debian's (the initrd has those it
	# boots with); the stock perf and the tagged build of its units
	# (make debian-tags) for the tests on it.
	tags=$BUILD/debian-tags-$KGEN_NAME
	[ -f "$tags/.stamp" ] || die "no tagged build at $tags: run 'make debian-tags'"
	[ -x "$STOCK_PERF" ] || die "no stock perf at $STOCK_PERF: run 'make perf-stock'"
	cp "$STOCK_PERF" "$dir/bin/perf-stock"
	# The patched perf as its Debian package, for the guest to install.
	pkg=$(sh "$TOP/scripts/deb.sh" --path) || die "no perf package: run 'make deb'"
	mkdir -p "$dir/deb"
	cp "$pkg" "$dir/deb/"
	# Its modules, all of them, as its image package installs them (the
	# initrd has only those it boots with); the debug modules of the
	# functions that the tests probe, where the -dbg package puts them;
	# a vfat file system for fat's attribute ioctls.
	debian_kernel_files
	mkdir -p "$dir/modules/lib/modules"
	cp -R "$DEB_DIR/root/lib/modules/$DEBIAN_KERNEL" "$dir/modules/lib/modules/"
	for d in "$tags"/.modules/*; do
		[ -d "$d" ] || continue
		ko=$(debian_module "${d##*/}") || die "Debian's kernel has no module ${d##*/}"
		rel=${ko#"$DEB_DIR/root"}
		mkdir -p "$dir/debug${rel%/*}"
		cp "$ko" "$dir/debug$rel"
	done
	command -v mkfs.vfat >/dev/null || die "no mkfs.vfat: apt-get install dosfstools, or run 'make deps'"
	mkfs.vfat -C -n UACCESS "$dir/vfat.img" 4096 >/dev/null || die "mkfs.vfat failed"
	(cd "$tags" && find . -name '*.o' ! -path './.build/*' -o -name build-id) |
		while read -r f; do
			mkdir -p "$dir/user-tags/$(dirname "$f")"
			cp "$tags/$f" "$dir/user-tags/$f"
		done
	# The same as one artifact per build-id, which the guest's
	# debuginfod serves (tests/debuginfod.sh)
	mkdir -p "$dir/artifacts"
	for d in "$tags" "$tags"/.modules/*; do
		[ -f "$d/build-id" ] || continue
		sh "$TOP/scripts/user-tags-artifact.sh" -o "$dir/artifacts/$(cat "$d/build-id").debug" \
			"$d" >/dev/null || die "cannot pack the user tags of $d"
	done
	# The fleet workflow: definitions made here, offline, once per
	# kernel build, and written as they are on machines that have
	# neither the debuginfo nor the tagged build.
	mkdir -p "$dir/fleet"
	offline_perf_env "$BUILD/payload-fleet-env-$KVARIANT" "$TOP/$TRACEFS_README" ||
		die "cannot make $BUILD/payload-fleet-env-$KVARIANT"
	offline_perf "$BUILD/payload-fleet-env-$KVARIANT" "$PERF" probe -q -k "$vmlinux" \
		--user-tags "$tags" -D 'fleet:openat=do_sys_openat2 filename:string' \
		-D 'fleet:tv_nsec=put_timespec64 uts->tv_nsec' \
		>"$dir/fleet/kprobe_events" 2>"$LOGS/payload-fleet-$KVARIANT.log" ||
		{ cat "$LOGS/payload-fleet-$KVARIANT.log" >&2; die "perf probe -D of the fleet definitions failed"; }
else
	kmake -s INSTALL_MOD_PATH="$dir/modules" modules_install \
		>"$LOGS/modules_install-$KVARIANT.log" 2>&1 ||
		die "modules_install failed (log: $LOGS/modules_install-$KVARIANT.log)"
fi
cp -R "$TREE/tools/testing/selftests/ftrace" "$dir/ftrace"
mkdir -p "$dir/perf-core/tests" "$dir/src/fs"
cp -R "$TREE/tools/perf/tests/shell" "$dir/perf-core/tests/shell"
# perf's vfs_getname tests find their probe line with perf probe -L
cp "$TREE/fs/namei.c" "$dir/src/fs/namei.c"
debug_path "$TREE" >"$dir/src-root"
cp -R "$here/guest" "$here/tests" "$dir/"
mkdir -p "$dir/bench" "$dir/fuzz"
cp "$TOP/bench/guest/"*.sh "$dir/bench/"
cp "$here/fuzz/"*.sh "$dir/fuzz/"
cp "$TOP/$KNOWN_FAILURES" "$dir/known-failures.txt"
cp "$TOP/$TRACEFS_README" "$dir/tracefs-README"
sed -n 's/.*DEFINE_TYPE([A-Z_]*, "\(.*\)"),$/\1/p' "$TREE/tools/perf/util/probe-file.c" |
	sed 's/\\\\/\\/g' >"$dir/perf-readme-patterns"
[ -s "$dir/perf-readme-patterns" ] ||
	die "no ftrace_readme_table patterns in $TREE/tools/perf/util/probe-file.c"
{
	# The seed series' case, unless this generation cannot pass it.
	grep -q '^kprobe/kprobe_args_user\.tc ' "$TOP/$KNOWN_FAILURES" ||
		echo kprobe/kprobe_args_user.tc
	git -C "$TREE" diff --name-only --diff-filter=A base HEAD -- \
		tools/testing/selftests/ftrace/test.d | sed 's|.*/test\.d/||'
} >"$dir/ftrace-required.txt"
rm -f "$dir/guest/"*.c
case $GUEST_EXIT in
isa-debug-exit:*)
	gcc -static -O2 -Wall -Wextra -Werror -o "$dir/bin/isa-debug-exit" \
		"$here/guest/isa-debug-exit.c" || die "cannot build guest/isa-debug-exit.c (libc6-dev)"
	;;
esac
# The guest's C helpers are built for the host, which the guest shares.
gcc -static -O2 -Wall -Wextra -Werror -o "$dir/bin/events-loop" \
	"$TOP/bench/guest/events-loop.c" || die "cannot build bench/guest/events-loop.c (libc6-dev)"
gcc -static -O2 -Wall -Wextra -Werror -pthread -o "$dir/bin/probe-fuzz" \
	"$here/fuzz/probe-fuzz.c" || die "cannot build fuzz/probe-fuzz.c (libc6-dev)"
cp "$TOP/scripts/tap.sh" "$dir/guest/tap.sh"

size=$(( $(du -sm "$dir" | cut -f1) * 5 / 4 + 32 ))
# Debian's kernel: room for the guest's debuginfod to serve the vmlinux
# into a cache on this disk (tests/debuginfod.sh)
if [ "$KCC" = debian ]; then
	size=$((size + $(du -sm "$dir/vmlinux" | cut -f1) + 64))
fi
rm -f "$img"
mke2fs -q -t ext4 -L uaccess-payload -d "$dir" "$img" "${size}M" \
	>"$LOGS/mke2fs-payload-$KVARIANT.log" 2>&1 ||
	{ cat "$LOGS/mke2fs-payload-$KVARIANT.log" >&2; die "mke2fs -d failed for $img"; }
info PAYLOAD "$img"
