#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: Debian's own GCC-built kernel (KCC=debian: make check-debian),
# whose DWARF has no __user tags: perf probe -a with plain variable names
# takes __user from the tagged build of its units in ~/.debug/.user-tags
# (the perf series' "Take __user from a tagged build"), and perf record and perf script show the real
# values, for functions of the image and of a module (fat's ioctl on a
# vfat image, with Debian's modules), where stock perf's definition of
# the same probe records something else (a DW_OP_stack_value pointer
# loaded as memory) or reads a user address as kernel memory (right on
# x86 only by the kernel's fallback); and the fleet workflow:
# definitions made on the host, written as they are.
# requires: kprobe_events /payload/user-tags /payload/bin/perf-stock /payload/vfat.img
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1
# The tagged build, where perf probe looks for it: by the kernel's build-id
user_tags_on

# 1. A user string: the path of openat(2)
reset_probes
marker=/tmp/uaccess-probe-debian-marker
: >"$marker"
probe 'do_sys_openat2 filename:string' 'filename_string=\+u0\(%[a-z0-9]+\):string' \
	"the path as a user string"
record 'probe:do_sys_openat2*' cat "$marker"
check "perf script shows the path" "filename_string=\"$marker\""

# 2. A member read through a user pointer: sched_setscheduler(2)'s param
reset_probes
probe 'do_sched_setscheduler param->sched_priority' \
	'sched_priority=\+u0\(%[a-z0-9]+\):s32' "the priority from user memory"
record 'probe:do_sched_setscheduler*' chrt -f 7 true
check "perf script shows the priority chrt asked for" 'sched_priority=7( |$)'

# 3. put_timespec64(), inlined twice into put_itimerspec64() by GCC: its
# uts is the register %bp plus an offset (DW_OP_stack_value).  The user
# buffer of timerfd_gettime(2) holds a known tv_nsec before the call.
cat >/tmp/gettime.pl <<'EOF_PERL'
my $fd = syscall(283, 1, 0);			# timerfd_create(CLOCK_MONOTONIC)
die "timerfd_create: $!\n" if $fd < 0;
my $buf = pack("q4", 0, 111, 0, 987654321);	# it_interval, it_value
syscall(287, $fd, $buf) == 0 or die "timerfd_gettime: $!\n";
EOF_PERL
spec='put_timespec64 uts->tv_nsec'
reset_probes
if perf-stock probe -q -D "$spec" >/tmp/stock.def 2>&1 &&
	grep -Eq 'tv_nsec=\+[0-9]+\(\+[0-9]+\(%bp\)\)' /tmp/stock.def; then
	pass "stock perf -D '$spec' loads the value of uts from memory first"
else
	fail "stock perf -D '$spec' loads the value of uts from memory first"
	diag </tmp/stock.def
fi
# Stock perf cannot add the event at all (its "\deade12d" for the instance
# where uts is optimized out is not an immediate the kernel accepts, the
# perf series' "Write the magic number of a missing variable as an
# immediate"): write its definition of the other inlined instance by
# hand, as a user of stock perf would.
grep -E 'tv_nsec=\+[0-9]+\(\+[0-9]+\(%bp\)\)' /tmp/stock.def | head -n 1 |
	sed 's|^p:probe/[^ ]*|p:probe/stock_tv_nsec|' >/tmp/stock.line
if run_cmd /tmp/add.out sh -c 'cat /tmp/stock.line >>/sys/kernel/tracing/kprobe_events'; then
	record 'probe:stock_tv_nsec' perl /tmp/gettime.pl
	if grep -q 'stock_tv_nsec:' /tmp/script.out &&
		! grep -q 'tv_nsec=987654321' /tmp/script.out; then
		pass "stock perf's definition records something else than tv_nsec"
	else
		fail "stock perf's definition records something else than tv_nsec"
	fi
else
	fail "stock perf's definition can be written to kprobe_events"
	diag </tmp/stock.line
fi
echo '-:probe/stock_tv_nsec' >>/sys/kernel/tracing/kprobe_events 2>/dev/null
reset_probes
if perf probe -q -D "$spec" >/tmp/def.out 2>&1 &&
	grep -Eq 'tv_nsec=\+u[0-9]+\(%bp\):s64' /tmp/def.out; then
	pass "perf probe -D '$spec' reads tv_nsec at an offset from %bp, in user memory"
else
	fail "perf probe -D '$spec' reads tv_nsec at an offset from %bp, in user memory"
	diag </tmp/def.out
fi
run_cmd /tmp/add.out perf probe -a "$spec" || fail "perf probe -a '$spec'"
record 'probe:put_timespec64*' perl /tmp/gettime.pl
check "perf script shows the tv_nsec of the user buffer" 'tv_nsec=987654321( |$)'

# 4. A module's function: fat's FAT_IOCTL_SET_ATTRIBUTES on a vfat file
# system, whose u32 __user *user_attr perf probe reads from user memory
# with the module's own tagged build (by the module's build-id), from the
# module of the -dbg package where that package puts it.
rel=$(uname -r)
mkdir -p /usr/lib/debug/lib/modules /mnt/vfat
ln -sfn "/payload/debug/usr/lib/debug/lib/modules/$rel" "/usr/lib/debug/lib/modules/$rel"
fatko=$(find "/usr/lib/debug/lib/modules/$rel/" -name fat.ko | head -n 1)
cp /payload/vfat.img /tmp/vfat.img
if [ -n "$fatko" ] && run_cmd /tmp/mod.out modprobe -a vfat loop &&
	run_cmd /tmp/mount.out mount -t vfat -o loop /tmp/vfat.img /mnt/vfat &&
	: >/mnt/vfat/file; then
	pass "Debian's fat module, loaded, mounts a vfat file system"
else
	fail "Debian's fat module, loaded, mounts a vfat file system"
fi
cat >/tmp/setattr.pl <<'EOF_PERL'
open(my $f, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
my $attr = pack('L', 0x21);		# ATTR_RO | ATTR_ARCH
# FAT_IOCTL_SET_ATTRIBUTES, _IOW('r', 0x11, __u32)
ioctl($f, 0x40047211, $attr) or die "FAT_IOCTL_SET_ATTRIBUTES: $!\n";
EOF_PERL
spec='fat_ioctl_set_attributes user_attr[0]'
# The module as the -dbg package's .ko, and by its name, as it is typed
# with that package installed: perf finds the package's fat.ko where
# Debian puts it, also where the module is installed compressed (6.12's
# fat.ko.xz), which stock perf looks for under the compressed file's
# name ("perf probe: Find a compressed module's debuginfo where
# distributions put it").
for m in "$fatko" fat; do
	reset_probes
	PROBE_OPTS="-m $m"
	probe "$spec" 'user_attr=\+u0\(%[a-z0-9]+\):x32' "the attributes from user memory (-m ${m##*/})"
	record 'probe:fat_ioctl_set_attributes*' perl /tmp/setattr.pl /mnt/vfat/file
	check "perf script shows the attributes the ioctl was given (-m ${m##*/})" 'user_attr=0x21( |$)'
done
# Stock perf's definition reads kernel memory at the user address; on
# x86 the kernel reads an address below TASK_SIZE as user memory anyway
# (probe_mem_read(), CONFIG_ARCH_HAS_NON_OVERLAPPING_ADDRESS_SPACE), so
# that it records the same value here by that fallback, which s390 has
# not (the proof suite) and which the series' strict mode turns off.
reset_probes
if perf-stock probe -q -m "$fatko" -D "$spec" >/tmp/stock.def 2>&1 &&
	grep -Eq 'user_attr=\+0\(%[a-z0-9]+\):x32' /tmp/stock.def; then
	pass "stock perf -D '$spec' reads kernel memory at the user address"
else
	fail "stock perf -D '$spec' reads kernel memory at the user address"
	diag </tmp/stock.def
fi
sed 's|^p:probe/[^ ]*|p:probe/stock_attr|' /tmp/stock.def >/tmp/stock.line
if run_cmd /tmp/add.out sh -c 'cat /tmp/stock.line >>/sys/kernel/tracing/kprobe_events'; then
	record 'probe:stock_attr' perl /tmp/setattr.pl /mnt/vfat/file
	check "x86 reads it as user memory anyway: the same value, by the fallback" 'stock_attr:.*user_attr=0x21( |$)'
else
	fail "stock perf's definition can be written to kprobe_events"
fi
echo '-:probe/stock_attr' >>/sys/kernel/tracing/kprobe_events 2>/dev/null
reset_probes
installed=$(modinfo -n fat 2>/dev/null)
perf-stock probe -m fat -D "$spec" >/tmp/stock.def 2>&1
rc=$?
echo "exit status $rc" >>/tmp/stock.def
case $installed in
*.ko)
	if [ "$rc" -eq 0 ]; then
		pass "stock perf -m fat finds the -dbg package's module ($installed installed)"
	else
		fail "stock perf -m fat finds the -dbg package's module ($installed installed)"
		diag </tmp/stock.def
	fi ;;
*)
	if [ "$rc" -ne 0 ] && grep -q "has no debug information" /tmp/stock.def; then
		pass "stock perf -m fat finds no debug information for $installed"
	else
		fail "stock perf -m fat finds no debug information for $installed"
		diag </tmp/stock.def
	fi ;;
esac
PROBE_OPTS=
umount /mnt/vfat 2>/dev/null

# 5. The fleet workflow: definitions made once on the host (payload.sh:
# perf probe -D with the debuginfo and the tagged build), written as they
# are to kprobe_events on a machine that has neither, recorded by stock
# perf.
reset_probes
user_tags_off
diag </payload/fleet/kprobe_events
if run_cmd /tmp/add.out sh -c 'cat /payload/fleet/kprobe_events >>/sys/kernel/tracing/kprobe_events'; then
	pass "the host's definitions are accepted by this kernel as they are"
else
	fail "the host's definitions are accepted by this kernel as they are"
fi
cat >/tmp/fleet.sh <<EOF_FLEET
cat $marker
perl /tmp/gettime.pl
EOF_FLEET
run_cmd /tmp/record.out perf-stock record -q -e 'fleet:*' -o /tmp/perf.data -- sh /tmp/fleet.sh ||
	fail "perf-stock record -e 'fleet:*'"
perf-stock script -i /tmp/perf.data >/tmp/script.out 2>&1
diag </tmp/script.out
check "stock perf records the path through the host's definition" "fleet:openat.*filename_string=\"$marker\""
check "stock perf records tv_nsec through the host's definition" 'fleet:tv_nsec.*tv_nsec=987654321( |$)'
for e in fleet/openat fleet/tv_nsec; do
	echo "-:$e" >>/sys/kernel/tracing/kprobe_events 2>/dev/null
done

reset_probes
exit 0
