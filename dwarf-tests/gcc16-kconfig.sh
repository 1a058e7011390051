#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# GCC 16 emits btf_type_tag (as DW_TAG_GNU_annotation) and pahole 1.32
# encodes it; the kernel series lets such a kernel with BTF have the
# __user tags (PAHOLE_HAS_BTF_TAG, then DEBUG_INFO_TYPE_TAGS).  This
# machine has no GCC 16, so the test is Kconfig's: a configuration with
# BTF and DEBUG_INFO_TYPE_TAGS, resolved by 'make allnoconfig' for a
# compiler and a pahole that report the versions of each case (wrappers
# around gcc-12 and the real pahole), in the patched tree and in the
# stock one.  TAP.
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"
tap_begin
stock_tree=$STOCK_TREE
for d in "$TREE" "$stock_tree"; do
	[ -f "$d/lib/Kconfig.debug" ] || tap_bail "no tree at $d (make tree perf-stock)"
done
command -v gcc-12 >/dev/null || tap_bail "gcc-12 is not installed (make deps)"
command -v pahole >/dev/null || tap_bail "pahole is not installed (make deps)"
tmp=$BUILD/gcc16-kconfig
rm -rf "$tmp"
mkdir -p "$tmp/bin"

# gcc-16: gcc-12 that says it is GCC 16.1.0 to the kernel's version probe
cat >"$tmp/bin/gcc-16" <<'EOF_CC'
#!/bin/sh
case " $* " in
*" --version "*) echo "gcc-16 (uaccess-probe test wrapper) 16.1.0"; exit 0 ;;
*" -dumpversion "* | *" -dumpfullversion "*) echo 16.1.0; exit 0 ;;
esac
exec gcc-12 -U__GNUC__ -D__GNUC__=16 -U__GNUC_MINOR__ -D__GNUC_MINOR__=1 \
	-U__GNUC_PATCHLEVEL__ -D__GNUC_PATCHLEVEL__=0 "$@"
EOF_CC
# pahole-1.32: the real pahole, which says it is v1.32
cat >"$tmp/bin/pahole-1.32" <<'EOF_PAHOLE'
#!/bin/sh
case " $* " in *" --version "*) echo v1.32; exit 0 ;; esac
exec pahole "$@"
EOF_PAHOLE
chmod +x "$tmp/bin/gcc-16" "$tmp/bin/pahole-1.32"

# kconfig_to NAME TREE CC PAHOLE: resolve the configuration in $tmp/NAME;
# NAME/result gets the values of the options that matter, NAME/ok is made
# when make succeeded.  In a file of its own, for xargs -P.
cat >"$tmp/lib.sh" <<EOF_LIB
kconfig_to() {
	_o=$tmp/\$1
	mkdir -p "\$_o"
	# allnoconfig with these options on, in one run of Kconfig
	printf 'CONFIG_%s=y\\n' DEBUG_KERNEL BPF_SYSCALL DEBUG_INFO_DWARF5 \\
		DEBUG_INFO_BTF DEBUG_INFO_TYPE_TAGS >"\$_o/wanted.config"
	make -s -C "\$2" O="\$_o" CC="\$3" HOSTCC=gcc PAHOLE="\$4" \\
		KCONFIG_ALLCONFIG="\$_o/wanted.config" allnoconfig \\
		>"\$_o/log" 2>&1 || return 0
	grep -E '^(# )?CONFIG_(GCC_VERSION|PAHOLE_VERSION|DEBUG_INFO_BTF|PAHOLE_HAS_BTF_TAG|DEBUG_INFO_TYPE_TAGS)[= ]' \\
		"\$_o/.config" >"\$_o/result"
	: >"\$_o/ok"
}
EOF_LIB

# The cases, NAME|TREE|CC|PAHOLE|TAGS (y or n)|WHAT, resolved two at a time
PATH=$tmp/bin:$PATH
cat >"$tmp/cases" <<EOF_CASES
gcc16-pahole132|$TREE|gcc-16|pahole-1.32|y|GCC 16 and pahole 1.32: BTF with the __user type tags
gcc16-pahole124|$TREE|gcc-16|pahole|n|GCC 16 and pahole $(pahole --version): no type tags with BTF (pahole cannot encode GCC's)
gcc12-pahole132|$TREE|gcc-12|pahole-1.32|n|GCC 12 and pahole 1.32: no type tags with BTF (GCC 12 has no btf_type_tag)
clang16|$TREE|clang-16|pahole|y|clang 16 and pahole $(pahole --version): type tags with BTF, as before
stock-gcc16-pahole132|$stock_tree|gcc-16|pahole-1.32|n|stock tree, GCC 16 and pahole 1.32: no type tags with BTF (the kernel series is needed)
EOF_CASES
# shellcheck disable=SC2016 # expanded by the inner shell
cut -d'|' -f1-4 "$tmp/cases" | tr '|' ' ' |
	xargs -P "$(ncpus)" -L 1 sh -c '. "$0"; kconfig_to "$@"' "$tmp/lib.sh"
while IFS='|' read -r name tree _ _ want what; do
	out=$(cat "$tmp/$name/result" 2>/dev/null)
	# Tags with BTF: PAHOLE_HAS_BTF_TAG, and where the tree has it (the
	# dwarf-tags series' "compiler_types: Emit __user type tags in DWARF-only
	# builds"), DEBUG_INFO_TYPE_TAGS
	got=n
	if printf '%s\n' "$out" | grep -qx 'CONFIG_PAHOLE_HAS_BTF_TAG=y' &&
		printf '%s\n' "$out" | grep -qx 'CONFIG_DEBUG_INFO_BTF=y'; then
		got=y
		if grep -q '^config DEBUG_INFO_TYPE_TAGS' "$tree/lib/Kconfig.debug" &&
			! printf '%s\n' "$out" | grep -qx 'CONFIG_DEBUG_INFO_TYPE_TAGS=y'; then
			got=n
		fi
	fi
	# Every case must have BTF, or its "no tags" would prove nothing
	if [ -f "$tmp/$name/ok" ] && [ "$got" = "$want" ] &&
		printf '%s\n' "$out" | grep -qx 'CONFIG_DEBUG_INFO_BTF=y'; then
		tap_ok "$name: $what"
	else
		tap_not_ok "$name: $what"
		{ printf '%s\n' "$out"; tail -n 5 "$tmp/$name/log" 2>/dev/null; } | tap_diag
	fi
done <"$tmp/cases"
tap_done
