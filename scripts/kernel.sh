#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the patched kernel for $ARCH with clang-16:
# tinyconfig + kernel/configs/uaccess-probe.config + kernel/configs/$ARCH.config.
# Every option in the fragments must survive into the final .config.
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE: run 'make tree'"

frags="$TOP/kernel/configs/uaccess-probe.config $TOP/kernel/configs/$ARCH.config"
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
log=$LOGS/kernel-$ARCH.log
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

	# merge_config.sh silently drops options whose dependencies are unmet.
	missing=0
	for f in $frags; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*) want=$line ;;
			"# CONFIG_"*" is not set") want=$line ;;
			*) continue ;;
			esac
			opt=${want#\# }
			opt=${opt%%[= ]*}
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

info KERNEL "building $ARCH with clang-16 (log: ${log#"$TOP"/})"
run_logged "$log.build" kmake -j"$(ncpus)" all
cat "$log.build" >>"$log" && rm -f "$log.build"
[ -f "$KOBJ/$image" ] || die "kernel build produced no $KOBJ/$image"
ln -sf "$image" "$KOBJ/kernel-image"
info KERNEL "$KOBJ/$image, $KOBJ/vmlinux"
