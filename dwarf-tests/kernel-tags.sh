#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test on the built guest kernel (make kernel): its configuration is
# DWARF (and BTF where the generation's guest has it), and __user reaches
# its DWARF as clang's DW_TAG_LLVM_annotation btf_type_tag "user"
# (CONFIG_DEBUG_INFO_TYPE_TAGS: the dwarf-tags series without BTF, the
# kernel itself with it), which is what the patched perf reads.
# Checked with llvm-dwarfdump on fs/open.o and on vmlinux, and with
# perf probe -D on vmlinux (offline, scripts/offline-perf.sh).  TAP.
#
#   dwarf-tests/kernel-tags.sh     the kernel and perf of scripts/lib.sh:
#                                  ARCH, KGEN, KCC select them
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"
DWARFDUMP=${DWARFDUMP:-llvm-dwarfdump-16}
tap_begin
for f in "$KOBJ/.config" "$KOBJ/vmlinux" "$KOBJ/fs/open.o" "$PERF"; do
	[ -e "$f" ] || tap_bail "$f does not exist (run 'make kernel perf')"
done
command -v "$DWARFDUMP" >/dev/null || tap_bail "$DWARFDUMP is not installed (llvm-16)"

# 1. The configuration has DWARF and type tags, and BTF if the
# generation's guest has it (GUEST_BTF in its descriptor).
cfg=$KOBJ/.config
has_btf=no
grep -qx 'CONFIG_DEBUG_INFO_BTF=y' "$cfg" && has_btf=yes
case $GUEST_BTF in
yes) what="with BTF" ;;
*) what="without BTF" ;;
esac
if grep -qx 'CONFIG_DEBUG_INFO_TYPE_TAGS=y' "$cfg" && grep -qx 'CONFIG_DEBUG_INFO_DWARF5=y' "$cfg" &&
	[ "$has_btf" = "${GUEST_BTF:-no}" ]; then
	tap_ok "the kernel is built with DWARF 5 and type tags, $what"
else
	tap_not_ok "the kernel is built with DWARF 5 and type tags, $what"
	grep -E 'CONFIG_DEBUG_INFO_(TYPE_TAGS|DWARF5|BTF)' "$cfg" | tap_diag
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
	tap_ok "fs/open.o: do_sys_openat2's 'const char __user *filename' is tagged \"user\""
else
	tap_not_ok "fs/open.o: do_sys_openat2's 'const char __user *filename' is tagged \"user\""
	echo "got: '$t'" | tap_diag
fi
t=$(tags "$KOBJ/fs/open.o" do_sys_openat2 how)
if [ -z "$t" ]; then
	tap_ok "fs/open.o: do_sys_openat2's 'struct open_how *how' has no tag"
else
	tap_not_ok "fs/open.o: do_sys_openat2's 'struct open_how *how' has no tag"
	echo "got: '$t'" | tap_diag
fi

# 4. vmlinux as a whole carries the tags.
n=$("$DWARFDUMP" --debug-info "$KOBJ/vmlinux" | grep -c 'DW_TAG_LLVM_annotation')
if [ "$n" -gt 1000 ]; then
	tap_ok "vmlinux has $n DW_TAG_LLVM_annotation DIEs"
else
	tap_not_ok "vmlinux has more than 1000 DW_TAG_LLVM_annotation DIEs (it has $n)"
fi

# 5. perf reads them from this vmlinux: -V shows __user, -D reads user memory.
env=$BUILD/kernel-tags
offline_perf_env "$env" "$TOP/$TRACEFS_README" || tap_bail "cannot make $env"
if offline_perf "$env" "$PERF" probe -k "$KOBJ/vmlinux" -V do_sys_openat2 >/tmp/kernel-tags.$$ 2>&1 &&
	grep -Eq 'char __user ?\*[[:space:]]*filename' /tmp/kernel-tags.$$; then
	tap_ok "perf probe -V do_sys_openat2 shows 'char __user*' filename"
else
	tap_not_ok "perf probe -V do_sys_openat2 shows 'char __user*' filename"
	tap_diag </tmp/kernel-tags.$$
fi
if offline_perf "$env" "$PERF" probe -k "$KOBJ/vmlinux" -D 'do_sys_openat2 filename:string' >/tmp/kernel-tags.$$ 2>&1 &&
	grep -Eq 'filename_string=\+u0\(%[a-z0-9]+\):string' /tmp/kernel-tags.$$; then
	tap_ok "perf probe -D 'do_sys_openat2 filename:string' reads user memory"
else
	tap_not_ok "perf probe -D 'do_sys_openat2 filename:string' reads user memory"
	tap_diag </tmp/kernel-tags.$$
fi

# 6. Cases of the perf series on this real kernel, each with what the stock
# perf prints (the bug) and what the patched perf must print, and how many
# lines of its stderr must match a pattern; the generation's
# KERNEL_DWARF_CASES file has them, and says their format.  "gcc:" ids
# are for the GCC kernel (make kernel-gcc).
GCC_KOBJ=$(kobj gcc)
while IFS='|' read -r id spec stock want errpat count; do
	case $id in '' | '#'*) continue ;; esac
	vmlinux=$KOBJ/vmlinux
	case $id in
	gcc:*)
		vmlinux=$GCC_KOBJ/vmlinux
		if [ ! -f "$vmlinux" ]; then
			tap_not_ok "$id"
			echo "no GCC kernel at $GCC_KOBJ: run 'make kernel-gcc' (make check builds it)" | tap_diag
			continue
		fi
		;;
	esac
	offline_perf "$env" "$PERF" probe -k "$vmlinux" -D "$spec" \
		>/tmp/kernel-tags.$$ 2>/tmp/kernel-tags-err.$$
	rc=$?
	n=$(grep -Ec -- "$errpat" /tmp/kernel-tags-err.$$)
	if [ "$rc" -eq 0 ] && grep -Eq -- "$want" /tmp/kernel-tags.$$ && [ "$n" -eq "$count" ]; then
		tap_ok "$id: perf probe -D '$spec'"
	else
		tap_not_ok "$id: perf probe -D '$spec'"
		{ echo "want: $want, $count stderr line(s) matching '$errpat'; exit $rc, $n"
			head -n 3 /tmp/kernel-tags.$$; head -n 6 /tmp/kernel-tags-err.$$; } | tap_diag
	fi
	if [ ! -x "$STOCK_PERF" ]; then
		tap_not_ok "$id: stock perf"
		echo "no stock perf at $STOCK_PERF: run 'make perf-stock' (make check builds it)" | tap_diag
		continue
	fi
	offline_perf "$env" "$STOCK_PERF" probe -k "$vmlinux" -D "$spec" >/tmp/kernel-tags.$$ 2>&1
	rc=$?
	if { [ "$stock" = error ] && [ "$rc" -ne 0 ]; } ||
		{ [ "$stock" != error ] && [ "$rc" -eq 0 ] && grep -Eq -- "$stock" /tmp/kernel-tags.$$; }; then
		tap_ok "$id: stock perf prints what the case says"
	else
		tap_not_ok "$id: stock perf prints what the case says"
		{ echo "stock: $stock; exit $rc"; head -n 3 /tmp/kernel-tags.$$; } | tap_diag
	fi
done <"$TOP/$KERNEL_DWARF_CASES"
rm -f /tmp/kernel-tags.$$ /tmp/kernel-tags-err.$$
tap_done
