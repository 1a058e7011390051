#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test on the built guest kernel (make kernel): its configuration is
# DWARF-only, and __user still reaches its DWARF as clang's
# DW_TAG_LLVM_annotation btf_type_tag "user" (kernel/ patch 1,
# CONFIG_DEBUG_INFO_TYPE_TAGS), which is what the patched perf reads.
# Checked with llvm-dwarfdump on fs/open.o and on vmlinux, and with
# perf probe -D on vmlinux.  TAP; ends with "N passed, N failed".
#
#   dwarf-tests/kernel-tags.sh     the kernel and perf of scripts/lib.sh:
#                                  ARCH, KGEN, KCC select them
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"
top=$TOP
DWARFDUMP=${DWARFDUMP:-llvm-dwarfdump-16}
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $*"; }
not_ok() { fail=$((fail + 1)); echo "not ok $((pass + fail)) - $*"; }
diag() { sed 's/^/#   /'; }
finish() { echo "1..$((pass + fail))"; echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

for f in "$KOBJ/.config" "$KOBJ/vmlinux" "$KOBJ/fs/open.o" "$PERF"; do
	[ -e "$f" ] || { not_ok "$f exists (run 'make kernel perf')"; finish; }
done
command -v "$DWARFDUMP" >/dev/null || { not_ok "$DWARFDUMP is installed (llvm-16)"; finish; }

# 1. The configuration has DWARF and type tags, and no BTF.
cfg=$KOBJ/.config
if grep -qx 'CONFIG_DEBUG_INFO_TYPE_TAGS=y' "$cfg" && grep -qx 'CONFIG_DEBUG_INFO_DWARF5=y' "$cfg" &&
	! grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$cfg"; then
	ok "the kernel is built with DWARF 5 and type tags, without BTF"
else
	not_ok "the kernel is built with DWARF 5 and type tags, without BTF"
	grep -E 'CONFIG_DEBUG_INFO_(TYPE_TAGS|DWARF5|BTF)' "$cfg" | diag
fi

# tags OBJ FUNC PARAM: the btf_type_tag values on PARAM's pointer type.
tags() {
	off=$("$DWARFDUMP" --name="$2" --show-children "$1" 2>/dev/null | awk -v p="$3" '
		/DW_TAG_formal_parameter/ { inparam = 1; name = ""; next }
		/^0x[0-9a-f]+:/ { inparam = 0 }
		inparam && /DW_AT_name/ { name = $0 }
		inparam && /DW_AT_type/ && name ~ "\\(\"" p "\"\\)" {
			match($0, /0x[0-9a-f]+/); print substr($0, RSTART, RLENGTH); exit
		}')
	[ -n "$off" ] || { echo "no parameter $3 of $2"; return 1; }
	"$DWARFDUMP" --debug-info="$off" --show-children "$1" | awk '
		/DW_TAG_LLVM_annotation/ { ann = 1; next }
		/^0x[0-9a-f]+:/ { ann = 0 }
		ann && /DW_AT_name/ { n = $0 }
		ann && /DW_AT_const_value/ && n ~ /"btf_type_tag"/ {
			sub(/.*DW_AT_const_value[ \t]*\("/, ""); sub(/"\).*/, ""); print }'
}

# 2-3. A __user parameter is tagged, a kernel pointer parameter is not.
t=$(tags "$KOBJ/fs/open.o" do_sys_openat2 filename)
if [ "$t" = user ]; then
	ok "fs/open.o: do_sys_openat2's 'const char __user *filename' is tagged \"user\""
else
	not_ok "fs/open.o: do_sys_openat2's 'const char __user *filename' is tagged \"user\""
	echo "got: '$t'" | diag
fi
t=$(tags "$KOBJ/fs/open.o" do_sys_openat2 how)
if [ -z "$t" ]; then
	ok "fs/open.o: do_sys_openat2's 'struct open_how *how' has no tag"
else
	not_ok "fs/open.o: do_sys_openat2's 'struct open_how *how' has no tag"
	echo "got: '$t'" | diag
fi

# 4. vmlinux as a whole carries the tags.
n=$("$DWARFDUMP" --debug-info "$KOBJ/vmlinux" | grep -c 'DW_TAG_LLVM_annotation')
if [ "$n" -gt 1000 ]; then
	ok "vmlinux has $n DW_TAG_LLVM_annotation DIEs"
else
	not_ok "vmlinux has more than 1000 DW_TAG_LLVM_annotation DIEs (it has $n)"
fi

# 5. perf reads them from this vmlinux: -V shows __user, -D reads user memory.
export TRACEFS_PATH="$top/${TRACEFS_README%/README}" DEBUGFS_PATH=/nonexistent PERF_CONFIG=/dev/null
if "$PERF" probe -k "$KOBJ/vmlinux" -V do_sys_openat2 >/tmp/kernel-tags.$$ 2>&1 &&
	grep -Eq 'char __user ?\*[[:space:]]*filename' /tmp/kernel-tags.$$; then
	ok "perf probe -V do_sys_openat2 shows 'char __user*' filename"
else
	not_ok "perf probe -V do_sys_openat2 shows 'char __user*' filename"
	diag </tmp/kernel-tags.$$
fi
if "$PERF" probe -k "$KOBJ/vmlinux" -D 'do_sys_openat2 filename:string' >/tmp/kernel-tags.$$ 2>&1 &&
	grep -Eq 'filename_string=\+u0\(%[a-z0-9]+\):string' /tmp/kernel-tags.$$; then
	ok "perf probe -D 'do_sys_openat2 filename:string' reads user memory"
else
	not_ok "perf probe -D 'do_sys_openat2 filename:string' reads user memory"
	diag </tmp/kernel-tags.$$
fi
rm -f /tmp/kernel-tags.$$
finish
