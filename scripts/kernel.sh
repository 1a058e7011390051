#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the patched kernel for $ARCH with clang-16 (KCC=gcc:
# with GCC 12 and the user_dwarf plugin, x86_64 only):
# tinyconfig + kernel/configs/uaccess-probe.config + kernel/configs/$ARCH.config.
# Every option in the fragments must survive into the final .config.
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE: run 'make tree'"

frags="$TOP/kernel/configs/uaccess-probe.config $TOP/kernel/configs/$ARCH.config"
case $KCC in
clang) ;;
gcc)
	[ "$ARCH" = x86_64 ] || die "KCC=gcc: only ARCH=x86_64"
	[ -f "$TREE/scripts/gcc-plugins/user_dwarf_plugin.c" ] ||
		die "KCC=gcc: $TREE has no user_dwarf plugin (scripts/gcc-plugins/user_dwarf_plugin.c)"
	frags="$frags $TOP/kernel/configs/gcc.config"
	;;
*) die "unsupported KCC=$KCC (clang, gcc)" ;;
esac
for f in $frags; do
	[ -f "$f" ] || die "missing config fragment $f (unsupported ARCH=$ARCH?)"
done

case $ARCH in
x86_64) image=arch/x86/boot/bzImage ;;
s390x)
	command -v s390x-linux-gnu-ld >/dev/null ||
		die "s390x-linux-gnu-ld not found: apt-get install binutils-s390x-linux-gnu"
	image=arch/s390/boot/bzImage
	;;
*) die "unsupported ARCH=$ARCH (x86_64, s390x)" ;;
esac

mkdir -p "$KOBJ" "$CACHE/ccache"
export CCACHE_DIR="$CACHE/ccache"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
log=$LOGS/${KOBJ##*/}.log
mkdir -p "$LOGS"
: >"$log"

# Regenerate the configuration only when its inputs changed, so that an
# unchanged tree rebuilds nothing.
# Inputs: the fragments, this script and the kernel series (perf patches
# do not touch Kconfig).
# shellcheck disable=SC2086 # $frags is a list of paths without blanks
stamp=$( { cat $frags "$0"; series_files | grep "/kernel/" | xargs -r cat; } |
	sha256sum | cut -d' ' -f1)
if [ ! -f "$KOBJ/.config" ] || [ "$(cat "$KOBJ/.uaccess-probe-config" 2>/dev/null)" != "$stamp" ]; then
	info CONFIG "tinyconfig + $(for f in $frags; do printf '%s ' "${f#"$TOP"/}"; done)"
	kmake tinyconfig >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "tinyconfig failed (log: $log)"; }
	# shellcheck disable=SC2086
	(cd "$KOBJ" && "$TREE/scripts/kconfig/merge_config.sh" -m -O "$KOBJ" \
		"$KOBJ/.config" $frags) >>"$log" 2>&1 ||
		die "merge_config.sh failed (log: $log)"
	kmake olddefconfig >>"$log" 2>&1 ||
		{ tail -n 20 "$log" >&2; die "olddefconfig failed (log: $log)"; }

	# later_sets N OPT: does a fragment after the Nth one set OPT?
	later_sets() {
		_n=0
		for _g in $frags; do
			_n=$((_n + 1))
			[ "$_n" -gt "$1" ] && grep -qE "^(# )?$2[= ]" "$_g" && return 0
		done
		return 1
	}

	# merge_config.sh silently drops options whose dependencies are unmet.
	# A later fragment overrides an earlier one, as in merge_config.sh.
	missing=0
	nfrag=0
	for f in $frags; do
		nfrag=$((nfrag + 1))
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*) want=$line ;;
			"# CONFIG_"*" is not set") want=$line ;;
			*) continue ;;
			esac
			opt=${want#\# }
			opt=${opt%%[= ]*}
			later_sets "$nfrag" "$opt" && continue
			got=$(grep -E "^(# )?${opt}[= ]" "$KOBJ/.config" || true)
			if [ "$want" != "$got" ] &&
				! { [ -z "$got" ] && [ "${want#\# }" != "$want" ]; }; then
				printf 'error: %s: wanted "%s", .config has "%s"\n' \
					"${f#"$TOP"/}" "$want" "${got:-nothing}" >&2
				missing=$((missing + 1))
			fi
		done <"$f"
	done
	[ "$missing" -eq 0 ] || die "$missing fragment option(s) did not reach $KOBJ/.config: fix their dependencies"
	printf '%s\n' "$stamp" >"$KOBJ/.uaccess-probe-config"
fi

if [ -n "${KTARGETS:-}" ]; then
	# Only these targets (objects for the user_dwarf tests), no image.
	info KERNEL "building $KTARGETS with $KCC (log: ${log#"$TOP"/})"
	# shellcheck disable=SC2086 # a list of targets
	run_logged "$log.build" kmake -j"$(ncpus)" $KTARGETS
	cat "$log.build" >>"$log" && rm -f "$log.build"
	exit 0
fi
if [ "$KCC" = gcc ]; then
	# Kbuild does not recompile objects when a plugin changes: do it
	# here, so that every object of the GCC kernel has the same plugin.
	plugin=$(cat "$TREE"/scripts/gcc-plugins/user_dwarf_plugin.c \
		"$TREE"/scripts/gcc-plugins/gcc12-dwarf2out.h | sha256sum)
	if [ "$plugin" != "$(cat "$KOBJ/.user-dwarf-plugin" 2>/dev/null)" ]; then
		info KERNEL "user_dwarf plugin changed: recompiling every object"
		find "$KOBJ" -name '*.o' ! -path '*/tools/*' ! -path '*/scripts/*' -delete
	fi
fi
info KERNEL "building $ARCH with $KCC (log: ${log#"$TOP"/})"
run_logged "$log.build" kmake -j"$(ncpus)" all
[ "$KCC" = gcc ] && printf '%s\n' "$plugin" >"$KOBJ/.user-dwarf-plugin"
cat "$log.build" >>"$log" && rm -f "$log.build"
[ -f "$KOBJ/$image" ] || die "kernel build produced no $KOBJ/$image"
ln -sf "$image" "$KOBJ/kernel-image"
info KERNEL "$KOBJ/$image, $KOBJ/vmlinux"
