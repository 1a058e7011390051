#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: the production host, with the patched perf from its Debian
# package (make deb, scripts/deb.sh): Debian's own kernel, a root file
# system with no compiler, no kernel source and no -dbg package, where
# apt installs the package as an SRE would, offline;
# then /usr/bin/perf is the package's, with debuginfod, and perf probe -a
# with a plain variable name on a __user parameter records the user
# string (the tagged build in ~/.debug/.user-tags, by the kernel's
# build-id).
# requires: kprobe_events /payload/user-tags /payload/deb
# shellcheck source=../guest/lib.sh
. /payload/guest/lib.sh

cd /tmp || exit 1
# 1. What a production host has: none of what a build needs.
found=
for c in cc gcc clang make; do
	command -v "$c" >/dev/null 2>&1 && found="$found $c"
done
dbg=$(dpkg-query -W -f '${Package}\n' 'linux-image-*-dbg' 'linux-source-*' 'linux-headers-*' 2>/dev/null)
if [ -z "$found$dbg" ]; then
	pass "no compiler, no kernel source, headers or -dbg package"
else
	fail "no compiler, no kernel source, headers or -dbg package:$found $dbg"
fi

# 2. apt installs the package offline (the guest has no network but
# loopback): every dependency is in the root file system already.
nets=$(ls /sys/class/net)
if [ "$nets" = lo ]; then
	pass "the guest has no network but loopback"
else
	fail "the guest has no network but loopback (it has: $(echo "$nets" | tr '\n' ' '))"
fi
# apt's terminal log wants a pseudo-terminal.
[ -e /dev/pts/ptmx ] || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; } 2>/dev/null
deb=$(find /payload/deb -name 'linux-perf_*.deb' | head -n 1)
want=$(basename "$deb" | sed 's/^linux-perf_\(.*\)_[^_]*\.deb$/\1/')
if run_cmd /tmp/apt.out apt-get install -y -q "$deb"; then
	pass "apt-get install ./$(basename "$deb"), offline"
else
	fail "apt-get install ./$(basename "$deb"), offline"
fi
got=$(dpkg-query -W -f '${Version}' linux-perf 2>/dev/null)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	pass "dpkg has linux-perf $got"
else
	fail "dpkg has linux-perf $want (it has: ${got:-none})"
fi

# 3. From here on, perf is the package's.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
if [ "$(command -v perf)" = /usr/bin/perf ] && [ "$(dpkg -S /usr/bin/perf 2>/dev/null)" = "linux-perf: /usr/bin/perf" ]; then
	pass "perf is /usr/bin/perf, of the package"
else
	fail "perf is /usr/bin/perf, of the package"
	{ command -v perf; dpkg -S /usr/bin/perf; } 2>&1 | diag
fi
perf version --build-options >/tmp/options.out 2>&1
expect_grep "the package's perf has debuginfod" 'debuginfod: \[ on' /tmp/options.out

# 4. A plain variable name, the right memory: the tagged build of
# Debian's kernel where perf probe looks for it.
user_tags_on
reset_probes
marker=/tmp/uaccess-probe-deb-marker
: >"$marker"
probe 'do_sys_openat2 filename:string' 'filename_string=\+u0\(%[a-z0-9]+\):string' \
	"the path as a user string"
record 'probe:do_sys_openat2*' cat "$marker"
check "perf script shows the path" "filename_string=\"$marker\""
user_tags_off
reset_probes
exit 0
