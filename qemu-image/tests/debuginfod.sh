#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the production host with nothing of the kernel's on it:
# Debian's own kernel, the patched perf from its Debian package (make
# deb), no vmlinux, no -dbg package, no tagged build; a real debuginfod
# on the guest's 127.0.0.1 serves the -dbg package's vmlinux and fat.ko
# and the user tags artifacts of both (scripts/user-tags-artifact.sh).
# With DEBUGINFOD_URLS only, perf probe -a with plain variable names on
# an image function and on fat's ioctl (the module by its name) reads
# user memory where the types are __user, and perf script shows the
# values; stock perf makes no definition on the image (KASLR).
# requires: kprobe_events /payload/artifacts /payload/deb /payload/vfat.img /usr/bin/debuginfod /usr/bin/debuginfod-find /usr/bin/ip
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1
rel=$(uname -r)
PATH=/usr/sbin:/usr/bin:/sbin:/bin:/payload/bin
HOME=/tmp/sre
export PATH HOME
mkdir -p "$HOME"
# Nothing where perf probe looks for debuginfo: guest/run links the
# payload's vmlinux as /boot/vmlinux-RELEASE, debian-kernel.sh the -dbg
# modules under /usr/lib/debug
rm -f "/boot/vmlinux-$rel" "/usr/lib/debug/lib/modules/$rel"

# 1. The package's perf, and nothing local of the kernel's
deb=$(find /payload/deb -name 'linux-perf_*.deb' | head -n 1)
want=$(basename "$deb" | sed 's/^linux-perf_\(.*\)_[^_]*\.deb$/\1/')
[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; } 2>/dev/null
[ "$(dpkg-query -W -f '${Version}' linux-perf 2>/dev/null)" = "$want" ] ||
	run_cmd /tmp/apt.out apt-get install -y -q "$deb" >/dev/null
if [ "$(dpkg-query -W -f '${Version}' linux-perf 2>/dev/null)" = "$want" ] &&
	[ "$(command -v perf)" = /usr/bin/perf ]; then
	pass "perf is /usr/bin/perf of linux-perf $want"
else
	fail "perf is /usr/bin/perf of linux-perf $want"
fi
local_files=$(ls -d "/usr/lib/debug/boot/vmlinux-$rel" "/boot/vmlinux-$rel" \
	"/lib/modules/$rel/build/vmlinux" "/usr/lib/debug/lib/modules/$rel" \
	"$HOME/.debug" 2>/dev/null)
if [ -z "$local_files" ] && ! dpkg-query -W 'linux-image-*-dbg' >/dev/null 2>&1; then
	pass "no vmlinux, no -dbg package or module, no tagged build on the machine"
else
	fail "no vmlinux, no -dbg package or module, no tagged build on the machine"
	echo "found: $local_files" | diag
fi

# fat, loaded for section 4: its build-id is the running module's
cp /payload/vfat.img /tmp/vfat.img
mkdir -p /mnt/vfat
if run_cmd /tmp/mod.out modprobe -a vfat loop &&
	run_cmd /tmp/mount.out mount -t vfat -o loop /tmp/vfat.img /mnt/vfat &&
	: >/mnt/vfat/file; then
	pass "Debian's fat module, loaded, mounts a vfat file system"
else
	fail "Debian's fat module, loaded, mounts a vfat file system"
fi

# 2. The server: debuginfod on 127.0.0.1 (the guest has no other
# network), serving the payload's files; its cache and perf's on the
# payload disk, which has room for the vmlinux.
ip link set lo up || fail "the loopback is up"
mount -o remount,rw /payload || fail "the payload disk can be written"
srv=/payload/debuginfod
rm -rf "$srv"
mkdir -p "$srv/files" "$srv/cache"
fatdbg=$(find "/payload/debug/usr/lib/debug/lib/modules/$rel/" -name fat.ko | head -n 1)
ln -s /payload/vmlinux "$srv/files/vmlinux-$rel"
ln -s "$fatdbg" "$srv/files/fat.ko"
for f in /payload/artifacts/*.debug; do
	ln -s "$f" "$srv/files/${f##*/}"
done
debuginfod -F -L --disable-source-scan -p 8002 -d "$srv/db.sqlite" "$srv/files" \
	>/tmp/debuginfod.log 2>&1 &
server=$!
DEBUGINFOD_URLS=http://127.0.0.1:8002
DEBUGINFOD_CACHE_PATH=$srv/cache
export DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH
# indexed BUILD-ID: the server has it (DEBUGINFOD_MAXSIZE=1: a file too
# large rather than a download; a 404 would be cached by the client)
indexed() {
	rm -rf /tmp/probe-cache
	DEBUGINFOD_MAXSIZE=1 DEBUGINFOD_CACHE_PATH=/tmp/probe-cache \
		debuginfod-find debuginfo "$1" 2>&1 | grep -q 'too large'
}
# The running kernel's build-id, and fat's (its note: a 16-byte header,
# then the 20 bytes of the id)
kbid=$(perf buildid-list -k 2>/dev/null)
fbid=$(od -An -tx1 /sys/module/fat/notes/.note.gnu.build-id 2>/dev/null | tr -d ' \n' | cut -c33-72)
prefix=$(printf perf-user-tags-1 | od -An -tx1 | tr -d ' \n')
ids="$kbid $fbid $prefix$kbid $prefix$fbid"
i=0
for id in $ids; do
	while ! indexed "$id" && [ $i -lt 120 ]; do
		sleep 1
		i=$((i + 1))
	done
done
if [ $i -lt 120 ]; then
	pass "debuginfod on 127.0.0.1 has the vmlinux, fat.ko and their user tags"
else
	fail "debuginfod on 127.0.0.1 has the vmlinux, fat.ko and their user tags"
	echo "build-ids: $ids" | diag
	for id in $ids; do
		rm -rf /tmp/probe-cache
		DEBUGINFOD_MAXSIZE=1 DEBUGINFOD_CACHE_PATH=/tmp/probe-cache \
			debuginfod-find -v debuginfo "$id" 2>&1 | tail -n 3 | diag
	done
	find "$srv/files" -exec ls -ld {} + | diag
	diag </tmp/debuginfod.log
fi

# 3. An image function: everything fetched by build-id
reset_probes
perf probe -v -D 'do_sys_openat2 filename:string' >/tmp/v.out 2>&1
expect_grep "perf probe -v: the vmlinux from debuginfod" \
	'Load debuginfo from debuginfod' /tmp/v.out
expect_grep "perf probe -v: the user tags fetched from debuginfod" \
	'filename: user memory \(its type is __user in .*/debuginfo\(fs/open.o\)\)' /tmp/v.out
marker=/tmp/uaccess-probe-debuginfod-marker
: >"$marker"
probe 'do_sys_openat2 filename:string' 'filename_string=\+u0\(%[a-z0-9]+\):string' \
	"the path as a user string"
record 'probe:do_sys_openat2*' cat "$marker"
check "perf script shows the path" "filename_string=\"$marker\""
# Stock perf, from the same server, makes no definition at all: it reads
# the fetched vmlinux's DWARF but keeps kallsyms' symbols, relocated by
# KASLR where the DWARF is not (the perf series' "perf probe: Take the
# kernel's symbols from the vmlinux that debuginfod gives")
if ! perf-stock probe -D 'do_sys_openat2 filename:string' >/tmp/stock.def 2>&1 &&
	grep -q 'do_sys_openat2 is out of .text' /tmp/stock.def; then
	pass "stock perf, its vmlinux from debuginfod too, finds every probe point out of .text"
else
	fail "stock perf, its vmlinux from debuginfod too, finds every probe point out of .text"
	diag </tmp/stock.def
fi

# 4. A module's function, the module by its name: fat.ko's debuginfo and
# its user tags, each by fat's own build-id
cat >/tmp/setattr.pl <<'EOF_PERL'
open(my $f, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
my $attr = pack('L', 0x21);		# ATTR_RO | ATTR_ARCH
# FAT_IOCTL_SET_ATTRIBUTES, _IOW('r', 0x11, __u32)
ioctl($f, 0x40047211, $attr) or die "FAT_IOCTL_SET_ATTRIBUTES: $!\n";
EOF_PERL
reset_probes
PROBE_OPTS="-m fat"
probe 'fat_ioctl_set_attributes user_attr[0]' 'user_attr=\+u0\(%[a-z0-9]+\):x32' \
	"the attributes from user memory"
record 'probe:fat_ioctl_set_attributes*' perl /tmp/setattr.pl /mnt/vfat/file
check "perf script shows the attributes the ioctl was given" 'user_attr=0x21( |$)'
PROBE_OPTS=
reset_probes
umount /mnt/vfat 2>/dev/null
kill "$server" 2>/dev/null
rm -rf "$srv"
mount -o remount,ro /payload 2>/dev/null
exit 0
