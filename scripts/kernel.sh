#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build the patched kernel of generation $KGEN for $ARCH
# with $KCC (clang by default; gcc: GCC 12 and the user_dwarf plugin):
# tinyconfig + the generation's KCONFIGS + the architecture's ARCH_CONFIGS
# (+ KCONFIGS_GCC with gcc), from kernel/generations/$KGEN.conf and
# qemu-image/arch/$ARCH.conf.  Every option in the fragments must survive
# into the final .config.
#
# KCC=debug builds the patched kernel with clang and the generation's
# KCONFIGS_DEBUG last (KASAN, lockdep: the fuzzer's smoke boots it).
#
# KCC=stock builds the stock kernel: the same configuration, with clang,
# from the tree without the series ($STOCK_TREE, a worktree at tag
# "base"); the fragments' options that only the series adds, which its
# Kconfig does not know, are left out of the check.  KCC=stock-debug
# builds it with KCONFIGS_DEBUG last, as KCC=debug does the patched one:
# the control of the probe-event fuzzer's campaign.
#
#   kernel.sh              configure and build the kernel image
#   KTARGETS=... kernel.sh configure, then build only these targets
#   KTARGETS=config ...    configure only
set -eu
. "$(dirname -- "$0")/lib.sh"

[ -f "$TREE/Makefile" ] || die "no kernel tree at $TREE: run 'make tree'"
if [ -n "$KCC_STOCK" ]; then
	base_worktree "$STOCK_TREE"
	TREE=$STOCK_TREE
fi

# Fragment paths are relative to the repository, or absolute.
frags=
for f in $KCONFIGS $ARCH_CONFIGS; do
	case $f in /*) frags="$frags $f" ;; *) frags="$frags $TOP/$f" ;; esac
done
if [ "$KCC" = gcc ]; then
	[ -n "$KCC_GCC" ] ||
		die "KCC=gcc: ARCH=$ARCH has no GCC kernel (KCC_GCC is empty in ${ARCH_CONF#"$TOP"/})"
	[ -f "$TREE/scripts/gcc-plugins/user_dwarf_plugin.c" ] ||
		die "KCC=gcc: $TREE has no user_dwarf plugin (scripts/gcc-plugins/user_dwarf_plugin.c)"
	for f in $KCONFIGS_GCC; do
		case $f in /*) frags="$frags $f" ;; *) frags="$frags $TOP/$f" ;; esac
	done
fi
if [ -n "$KCC_DEBUG" ]; then
	[ -n "$KCONFIGS_DEBUG" ] ||
		die "KCC=$KCC: ${GEN_CONF#"$TOP"/} names no KCONFIGS_DEBUG"
	for f in $KCONFIGS_DEBUG; do
		case $f in /*) frags="$frags $f" ;; *) frags="$frags $TOP/$f" ;; esac
	done
fi
for f in $frags; do
	[ -f "$f" ] || die "missing config fragment ${f#"$TOP"/} (named by ${GEN_CONF#"$TOP"/} or ${ARCH_CONF#"$TOP"/})"
done
missing=$(arch_missing_tools build)
for t in $missing; do
	case $t in "$QEMU":*) continue ;; esac
	die "ARCH=$ARCH: the kernel build needs ${t%%:*}: apt-get install ${t#*:} (KTOOLS in ${ARCH_CONF#"$TOP"/}), or run 'make deps'"
done
image=$KIMAGE

# plugin_key: the user_dwarf plugin's sources.
plugin_key() {
	cat "$TREE"/scripts/gcc-plugins/user_dwarf_plugin.c \
		"$TREE"/scripts/gcc-plugins/gcc12-dwarf2out.h 2>/dev/null | inputs_key
}

# built_key: what this folder's objects are built from: the tree but
# what no kernel build reads (perf and the selftests, tools/perf and
# tools/testing: a change to the perf series or to a selftest keeps every
# kernel), this script and the way lib.sh runs make with the architecture's settings,
# the configuration, the tools (compiler, pahole, linker), the plugin.
# Not the rest of the descriptors (suites, cases), which build nothing.
built_key() {
	case $KCC in gcc) _cc=$KCC_GCC _fl=$KFLAGS_GCC ;; *) _cc=$KCC_CLANG _fl=$KFLAGS_CLANG ;; esac
	# shellcheck disable=SC2086 # a list of assignments
	_cross=$(printf '%s\n' $_fl | sed -n 's/^CROSS_COMPILE=//p')
	{
		tree_key "$TREE" . ':!tools/perf' ':!tools/testing'
		cat "$0" "$KOBJ/.config"
		printf '%s\n' "$KBUILD_ARCH" "$KIMAGE" "$_cc" "$_fl"
		sed -n '/^kmake_in() {/,/^}/p' "$TOP/scripts/lib.sh"
		"$_cc" --version
		pahole --version 2>/dev/null || echo no pahole
		"${_cross}ld" --version 2>/dev/null | head -n 1
		[ "$KCC" != gcc ] || plugin_key
	} | inputs_key
}

# The kernels built before, in the cache shared by every clone: a
# folder's objects, images and modules under the key they were built
# from (built_key), so that another clone of the same sources, or this
# one after a change is undone, takes them instead of building them
# again (a kernel takes 10 to 30 minutes on 2 CPUs, a copy seconds).
# The newest KERNEL_CACHE_KEEP entries of each kernel are kept.
KCACHE=$CACHE/kernels
KERNEL_CACHE_KEEP=${KERNEL_CACHE_KEEP:-2}

# kcache_restore KEY: replace $KOBJ with the cached build of KEY.
kcache_restore() {
	_e=$KCACHE/$KVARIANT-$1
	[ -f "$_e/.uaccess-probe-built" ] || return 1
	rm -rf "$KOBJ.restore"
	cp -a "$_e" "$KOBJ.restore" || { rm -rf "$KOBJ.restore"; return 1; }
	rm -rf "$KOBJ"
	mv "$KOBJ.restore" "$KOBJ"
	touch "$_e"
	# Kbuild's Makefile in the folder names the tree that built it.
	kmake outputmakefile >>"$log" 2>&1 ||
		die "make outputmakefile failed in the restored $KOBJ (log: ${log#"$TOP"/})"
}

# kcache_store KEY: keep $KOBJ, just built from KEY; drop older entries.
kcache_store() {
	_e=$KCACHE/$KVARIANT-$1
	[ -d "$_e" ] && return 0
	mkdir -p "$KCACHE"
	rm -rf "$_e.tmp"
	if cp -a "$KOBJ" "$_e.tmp" && mv "$_e.tmp" "$_e"; then
		info KERNEL "kept in ${_e#"$CACHE"/} (cache $CACHE)"
	else
		rm -rf "$_e.tmp"
		msg "warning: could not keep $KOBJ in $KCACHE" >&2
	fi
	# This kernel's entries only: x86_64's name starts x86_64-debug's.
	# shellcheck disable=SC2010,SC2012 # names made here, without blanks
	ls -dt "$KCACHE/$KVARIANT"-* 2>/dev/null | grep -E "/$KVARIANT-[0-9a-f]{64}\$" |
		sed "1,${KERNEL_CACHE_KEEP}d" | xargs -r rm -rf
}

# piggy_stale: true when a piggy.o that the compiler made through ccache
# (x86: it assembles piggy.S, whose .incbin takes the compressed vmlinux)
# does not hold, in the section of its .incbin, exactly the file that
# the .incbin names; or when that cannot be checked.  A piggy.o made
# without ccache (s390: objcopy) is what make made of the file itself.
piggy_stale() {
	# shellcheck disable=SC2044 # paths of our build folder, without blanks
	for _o in $(find "$KOBJ/arch" -name piggy.o); do
		grep -q ccache "${_o%/piggy.o}/.piggy.o.cmd" 2>/dev/null || continue
		_s=${_o%.o}.S
		_inc=$(sed -n 's/^\.incbin "\(.*\)"$/\1/p' "$_s" 2>/dev/null)
		_sec=$(sed -n 's/^\.section "\([^"]*\)".*/\1/p' "$_s" 2>/dev/null | head -n 1)
		[ -n "$_inc" ] && [ -n "$_sec" ] && [ -f "$KOBJ/$_inc" ] || return 0
		# shellcheck disable=SC2046 # offset and size, two hexadecimal words
		set -- $(readelf -S -W "$_o" | sed 's/^ *\[ *[0-9]*\] *//' |
			awk -v s="$_sec" '$1 == s { print $4, $5 }')
		[ $# -eq 2 ] && [ "$((0x$2))" -eq "$(wc -c <"$KOBJ/$_inc")" ] || return 0
		tail -c +"$((0x$1 + 1))" "$_o" | head -c "$((0x$2))" |
			cmp -s - "$KOBJ/$_inc" || return 0
	done
	return 1
}

mkdir -p "$KOBJ" "$CACHE/ccache"
export CCACHE_DIR="$CACHE/ccache"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
log=$LOGS/${KOBJ##*/}.log
mkdir -p "$LOGS"
: >"$log"

# Regenerate the configuration only when its inputs changed, so that an
# unchanged tree rebuilds nothing.
# Inputs: the fragments, this script, the descriptors and the kernel
# series (perf patches do not touch Kconfig).
# shellcheck disable=SC2086 # $frags is a list of paths without blanks
stamp=$( { cat $frags "$0" "$GEN_CONF" "$ARCH_CONF"; series_files | grep -v "^$TOP/$PSERIES/" | xargs -r cat; } |
	inputs_key)
if [ ! -f "$KOBJ/.config" ] || ! stamp_matches "$KOBJ/.uaccess-probe-config" "$stamp"; then
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

	# The stock tree's Kconfig symbols: an option it does not have is
	# one that the series adds.
	known=
	if [ -n "$KCC_STOCK" ]; then
		known=$KOBJ/.uaccess-probe-stock-symbols
		find "$TREE" -name 'Kconfig*' -type f -exec sed -n \
			's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/CONFIG_\2/p' {} + |
			sort -u >"$known"
	fi

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
			if [ -n "$known" ] && [ "${want#\# }" = "$want" ] &&
				! grep -qx "$opt" "$known"; then
				echo "$want: not a Kconfig symbol of the stock tree" >>"$log"
				continue
			fi
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
	stamp_write "$KOBJ/.uaccess-probe-config" "$stamp"
fi

if [ "${KTARGETS:-}" = config ]; then
	info CONFIG "$KOBJ/.config"
	exit 0
fi
if [ -n "${KTARGETS:-}" ]; then
	# Only these targets (objects for the user_dwarf tests), no image.
	# Kbuild compiles an object named on its command line again every
	# time: skip them while the tree, the configuration and the compiler
	# are what they were built from.
	tstamp=$( { printf '%s\n' "$KTARGETS"; built_key; } | inputs_key)
	built=yes
	for t in $KTARGETS; do
		case $t in *.o) [ -f "$KOBJ/$t" ] || built= ;; esac
	done
	if [ -n "$built" ] && stamp_matches "$KOBJ/.uaccess-probe-targets" "$tstamp"; then
		info KERNEL "$KTARGETS with $KCC: up to date"
		exit 0
	fi
	# What the last full build of this folder made from the same tree,
	# configuration, compiler (and plugin) is up to date: its objects
	# and the scripts, plugins included.  Only the rest is built.
	todo=$KTARGETS
	if stamp_matches "$KOBJ/.uaccess-probe-built" "$(built_key)"; then
		members=$KOBJ/.uaccess-probe-members
		{
			(cd "$KOBJ" && ar t vmlinux.a 2>/dev/null) | sed "s|^$KOBJ/||"
			sed 's/\.ko$/.o/' "$KOBJ/modules.order" 2>/dev/null
		} >"$members"
		todo=
		for t in $KTARGETS; do
			case $t in
			scripts) ;;
			*.o) [ -f "$KOBJ/$t" ] && grep -qx "$t" "$members" || todo="$todo $t" ;;
			*) todo="$todo $t" ;;
			esac
		done
	fi
	if [ -z "$todo" ]; then
		info KERNEL "$KTARGETS with $KCC: built by the kernel's build, up to date"
		stamp_write "$KOBJ/.uaccess-probe-targets" "$tstamp"
		exit 0
	fi
	info KERNEL "building$todo with $KCC (log: ${log#"$TOP"/})"
	# shellcheck disable=SC2086 # a list of targets
	run_logged "$log.build" kmake -j"$(ncpus)" $todo
	cat "$log.build" >>"$log" && rm -f "$log.build"
	stamp_write "$KOBJ/.uaccess-probe-targets" "$tstamp"
	exit 0
fi
key=$(built_key)
if stamp_matches "$KOBJ/.uaccess-probe-built" "$key" && [ -f "$KOBJ/$image" ]; then
	info KERNEL "$KOBJ/$image: up to date"
	exit 0
fi
if kcache_restore "$key"; then
	ln -sf "$image" "$KOBJ/kernel-image"
	info KERNEL "$KOBJ/$image: built before from the same sources, taken from $KCACHE"
	exit 0
fi
if [ "$KCC" = gcc ]; then
	# Kbuild does not recompile objects when a plugin changes: do it
	# here, so that every object of the GCC kernel has the same plugin.
	if ! stamp_matches "$KOBJ/.user-dwarf-plugin" "$(plugin_key)"; then
		info KERNEL "user_dwarf plugin changed: recompiling every object"
		find "$KOBJ" -name '*.o' ! -path '*/tools/*' ! -path '*/scripts/*' -delete
	fi
fi
info KERNEL "building $ARCH with $KCC (log: ${log#"$TOP"/})"
rm -f "$KOBJ/.uaccess-probe-built"
run_logged "$log.build" kmake -j"$(ncpus)" all
[ "$KCC" = gcc ] && stamp_write "$KOBJ/.user-dwarf-plugin" "$(plugin_key)"
cat "$log.build" >>"$log" && rm -f "$log.build"
# The compressed image takes vmlinux in with .incbin, which ccache does
# not see: when vmlinux changed but its compressed size did not, piggy.o
# came back from the cache with the previous kernel inside, and the guest
# ran a kernel whose build ID was not vmlinux's (perf in it found no
# vmlinux).  Where that happened, or cannot be ruled out, assemble it
# again, without the cache (a second make all: a minute or more, as it
# links vmlinux again).
if piggy_stale; then
	find "$KOBJ/arch" -name piggy.o -exec rm -f {} +
	(
		CCACHE_DISABLE=1
		export CCACHE_DISABLE
		run_logged "$log.image" kmake -j"$(ncpus)" all
	) || die "building the image again failed (log: ${log#"$TOP"/})"
	cat "$log.image" >>"$log" && rm -f "$log.image"
	! piggy_stale || die "$KOBJ: piggy.o does not hold the compressed vmlinux, even without ccache"
fi
[ -f "$KOBJ/$image" ] || die "kernel build produced no $KOBJ/$image"
stamp_write "$KOBJ/.uaccess-probe-built" "$key"
ln -sf "$image" "$KOBJ/kernel-image"
info KERNEL "$KOBJ/$image, $KOBJ/vmlinux"
kcache_store "$key"
