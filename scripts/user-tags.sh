#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# user-tags.sh: give perf probe the __user tags of a kernel that has none
# in its DWARF (GCC before 16: Debian's kernels), by compiling the probed
# compilation units again from the same source, with the same .config,
# by the same compiler plus the user_dwarf GCC plugin of the kernel series.
# perf probe finds the objects by the kernel's build-id, or by --user-tags
# DIR, and checks every fact it takes from them against the kernel's own
# DWARF (perf-probe(1), "USER AND KERNEL MEMORY").
#
#   user-tags.sh [-o DIR] [-b BUILD] -s SRC -c CONFIG [-m MODULE] VMLINUX [CU...]
#   user-tags.sh [-o DIR] [-b BUILD] -s SRC -c CONFIG -k MODDIR VMLINUX
#
#   VMLINUX  the kernel's debug vmlinux (Debian: linux-image-RELEASE-dbg)
#   CU       a compilation unit, as its DW_AT_name says: fs/open.c
#            (none: only prepare the build folder; with -m, every unit
#            of the module)
#   -m MODULE the units are those of MODULE, a module of that kernel with
#            its debug information (Debian: the .ko under
#            /usr/lib/debug/lib/modules/RELEASE/ of the same -dbg
#            package): the tags go by the module's own build-id
#   -s SRC   the kernel's source with the kernel series' user_dwarf
#            plugin (make tree); its version must be the kernel's
#   -c CONFIG the kernel's .config (Debian: linux-headers-RELEASE/.config)
#   -o DIR   where the objects go; default: perf's build-id cache,
#            ${PERF_BUILDID_DIR:-~/.debug}/.user-tags/BUILD-ID, the
#            build-id of MODULE, or else of VMLINUX
#   -k MODDIR the whole kernel build, in one make: every C unit of VMLINUX
#            whose source is in SRC (not those that its build generates),
#            and every unit of every module under MODDIR (Debian:
#            /usr/lib/debug/lib/modules/RELEASE of the -dbg package);
#            the tags of each go to DIR/BUILD-ID, its own build-id (DIR
#            default: ${PERF_BUILDID_DIR:-~/.debug}/.user-tags)
#   -b BUILD the configured build folder, one per kernel for the kernel
#            and all of its modules; default: .build in the directory of
#            VMLINUX's tags (-o DIR without -m or -k; with -k,
#            DIR/BUILD-ID/.build for VMLINUX's BUILD-ID)
#
# DIR gets DIR/build-id and DIR/CU.o per CU (fs/open.o; a unit that kbuild
# names through "..", as kvm's arch/x86/kvm/../../../virt/kvm/kvm_main.c,
# under its name without them: virt/kvm/kvm_main.o); a configured and
# prepared build folder stays in BUILD for the next CUs.  A CU that
# does not compile leaves no object.  Environment: CC (default: the
# compiler that CONFIG names), JOBS.
set -eu

die() { printf 'user-tags.sh: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '/^#   user-tags.sh/,/^# compiler/p' "$0" | cut -c3- >&2; exit 2; }

dir='' src='' config='' module='' obj='' moddir=''
while getopts o:b:s:c:m:k: opt; do
	case $opt in
	o) dir=$OPTARG ;;
	b) obj=$OPTARG ;;
	m) module=$OPTARG ;;
	k) moddir=$OPTARG ;;
	s) src=$OPTARG ;;
	c) config=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ -z "$src" ] || [ -z "$config" ]; then usage; fi
vmlinux=$1
shift
if [ -n "$moddir" ]; then
	[ -z "$module" ] || die "-k takes every module; -m takes one: not both"
	[ $# -eq 0 ] || die "-k takes every unit; no CU arguments with it"
	[ -d "$moddir" ] || die "$moddir is not a folder"
fi

[ -r "$vmlinux" ] || die "cannot read $vmlinux"
[ -r "$config" ] || die "cannot read $config"
[ -f "$src/scripts/gcc-plugins/user_dwarf_plugin.c" ] ||
	die "$src is not a kernel source with the user_dwarf plugin (the kernel series)"
bid=$(readelf -n "$vmlinux" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
[ -n "$bid" ] || die "$vmlinux has no build-id"
banner=$(strings -n 20 "$vmlinux" | grep -m 1 '^Linux version ') ||
	die "$vmlinux has no Linux version banner: is it a kernel?"

# The same source: the upstream version, and Debian's version where the
# tree says which package it was extracted from (make tree's base commit).
kver=$(printf '%s\n' "$banner" | sed -n 's/.* Debian \([^ ]*\) .*/\1/p')
sver=$(make -s -C "$src" kernelversion 2>/dev/null) || die "$src: make kernelversion failed"
case ${kver:-$sver} in
"$sver"|"$sver"-*) ;;
*) die "the source in $src is Linux $sver, but $vmlinux is Debian $kver" ;;
esac
if [ -n "$kver" ] && git -C "$src" rev-parse -q --verify base >/dev/null 2>&1; then
	from=$(git -C "$src" log --max-parents=0 --format=%s base)
	case $from in
	*" $kver") ;;
	*) die "the source in $src is '$from', but $vmlinux is Debian $kver" ;;
	esac
fi

# The same compiler as the kernel's
ccver=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$config")
[ -n "$ccver" ] || die "$config names no compiler (CONFIG_CC_VERSION_TEXT): is it a kernel's .config?"
case $banner in
*"($ccver,"*) ;;
*) die "$config is for a kernel built by '$ccver', not $vmlinux ($banner)" ;;
esac
cc=${CC:-${ccver%% *}}
[ "$($cc --version 2>/dev/null | head -n 1)" = "$ccver" ] ||
	die "the kernel was built by '$ccver'; $cc is '$($cc --version 2>/dev/null | head -n 1)'"

tagdir=${PERF_BUILDID_DIR:-$HOME/.debug}/.user-tags
release=$(printf '%s\n' "$banner" | awk '{ print $3 }')

# c_units FILE: the C units that FILE's DWARF names, one per line: not a
# module's generated .mod.c, not assembly, whose names are absolute.
c_units() {
	readelf --debug-dump=info --dwarf-depth=1 "$1" 2>/dev/null | awk '
		/\(DW_TAG_compile_unit\)/ { cu = 1; next }
		cu && /DW_AT_name/ { sub(/.*: /, ""); print; cu = 0 }' |
		grep '\.c$' | grep -v -e '\.mod\.c$' -e '^/' || true
}

# normal_unit CU: CU without its "dir/.." steps, as kbuild names the
# units that a Makefile takes from another folder (kvm's
# arch/x86/kvm/../../../virt/kvm/kvm_main.c is virt/kvm/kvm_main.c);
# fails for a name that leaves the tree, or has an empty or "." step.
normal_unit() {
	printf '%s\n' "$1" | awk -F/ '{
		n = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "..") { if (n == 0) exit 1; n--; continue }
			if ($i == "" || $i == ".") exit 1
			p[++n] = $i
		}
		if (n == 0) exit 1
		s = p[1]
		for (i = 2; i <= n; i++) s = s "/" p[i]
		print s
	}'
}

# module_units KO: KO's build-id (mbid), and its C units (units; none for
# a module of assembly only), after checking that it is a module of this
# very kernel (its vermagic names the banner's release).
module_units() {
	[ -r "$1" ] || die "cannot read $1"
	mbid=$(readelf -n "$1" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
	[ -n "$mbid" ] || die "$1 has no build-id"
	vermagic=$(readelf -p .modinfo "$1" 2>/dev/null | sed -n 's/.*vermagic=\([^ ]*\).*/\1/p')
	[ -n "$vermagic" ] || die "$1 has no vermagic: is it a kernel module?"
	[ "$vermagic" = "$release" ] ||
		die "$1 is a module of Linux $vermagic, but $vmlinux is Linux $release"
	units=$(c_units "$1")
}

# The plan: one line "UNIT BUILD-ID" for each unit to compile, whose
# object goes to the tags of that build-id.
plan=$(mktemp)
trap 'rm -f "$plan"' EXIT INT TERM
if [ -n "$module" ]; then
	module_units "$module"
	[ -n "$units" ] ||
		die "$module has no C compilation units in its DWARF: is it the module of the -dbg package?"
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2086 # one unit per word
		set -- $units
	fi
	for cu; do
		printf '%s\n' "$units" | grep -qxF -- "$cu" ||
			die "$cu is not a unit of $module (its units: $(printf '%s\n' "$units" | tr '\n' ' '))"
		printf '%s %s\n' "$cu" "$mbid" >>"$plan"
	done
	obj=${obj:-$tagdir/$bid/.build}
	bid=$mbid
elif [ -n "$moddir" ]; then
	# Every C unit of the image that is not generated by the build (its
	# source is in the tree: not *.asn1.c, capflags.c, the vDSO images).
	c_units "$vmlinux" | while read -r cu; do
		if [ -f "$src/$cu" ]; then printf '%s %s\n' "$cu" "$bid"; fi
	done >>"$plan"
	[ -s "$plan" ] || die "$vmlinux has no C units whose source is in $src"
	nmod=0
	for ko in $(find "$moddir" -name '*.ko' | LC_ALL=C sort); do
		module_units "$ko"
		for cu in $units; do
			if [ -f "$src/$cu" ]; then printf '%s %s\n' "$cu" "$mbid"; fi
		done >>"$plan"
		nmod=$((nmod + 1))
	done
	[ "$nmod" -gt 0 ] || die "$moddir has no modules (*.ko)"
else
	for cu; do
		printf '%s %s\n' "$cu" "$bid" >>"$plan"
	done
fi
# tagsdir BUILD-ID: where the tags of that build-id go, made and
# checked: a folder of the tags of another build-id is never reused.
if [ -n "$moddir" ]; then
	base=${dir:-$tagdir}
	mkdir -p "$base"
	base=$(cd "$base" && pwd)
	dir=$base/$bid
else
	dir=${dir:-$tagdir/$bid}
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
src=$(cd "$src" && pwd)
tagsdir() {
	if [ -n "$moddir" ]; then _d=$base/$1; else _d=$dir; fi
	mkdir -p "$_d"
	if [ -f "$_d/build-id" ]; then
		[ "$(cat "$_d/build-id")" = "$1" ] ||
			die "$_d holds the tags of build-id $(cat "$_d/build-id"), not of build-id $1"
	fi
	printf '%s\n' "$_d"
}
for b in $(cut -d' ' -f2 "$plan" | LC_ALL=C sort -u) $bid; do
	tagsdir "$b" >/dev/null
done
obj=${obj:-$dir/.build}
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)
# The folder's key: what its objects depend on beyond what kbuild tracks
# (the configuration that the block below makes, the plugin, the
# compiler), so that a change elsewhere in this script does not throw a
# whole kernel's objects away.
key=$( { cat "$config" "$src/scripts/gcc-plugins/user_dwarf_plugin.c";
	sed -n '/^# configure: begin/,/^# configure: end/p' "$0";
	printf '%s\n' "$cc" "$src"; } | sha256sum | cut -d' ' -f1)

kmake() { make -C "$src" O="$obj" CC="$cc" HOSTCC="${HOSTCC:-gcc}" "$@"; }

# configure: begin
if [ "$(cat "$obj/.user-tags-key" 2>/dev/null)" != "$key" ]; then
	# Only a build folder of ours, or an empty one, is made anew.
	[ -f "$obj/.user-tags-key" ] || [ -z "$(ls -A "$obj")" ] ||
		die "$obj is neither empty nor a build folder of user-tags.sh"
	rm -rf "$obj"
	mkdir -p "$obj"
	cp "$config" "$obj/.config"
	# The plugin's tags need DEBUG_INFO_TYPE_TAGS, which BTF allows only
	# with clang; BTF does not change the DWARF.  Module signing needs
	# keys that a build of single objects does not.
	"$src/scripts/config" --file "$obj/.config" -d DEBUG_INFO_BTF \
		-e GCC_PLUGINS -e DEBUG_INFO_TYPE_TAGS -e GCC_PLUGIN_USER_DWARF \
		-d MODULE_SIG_ALL --set-str MODULE_SIG_KEY "" \
		--set-str SYSTEM_TRUSTED_KEYS ""
	kmake -s olddefconfig >"$obj/prepare.log" 2>&1 ||
		{ tail -n 20 "$obj/prepare.log" >&2; die "olddefconfig failed"; }
	# Only the expected options may differ from the kernel's own: those
	# set above and what follows from them (BTF probe arguments), and
	# what Kconfig reads from the host's tools (compiler banner, rustc).
	grep '^CONFIG_' "$config" | sort >"$obj/config.kernel"
	grep '^CONFIG_' "$obj/.config" | sort >"$obj/config.tags"
	diff=$(diff "$obj/config.kernel" "$obj/config.tags" |
		grep '^[<>]' | grep -v -E '^[<>] CONFIG_(DEBUG_INFO_BTF|DEBUG_INFO_BTF_MODULES|MODULE_ALLOW_BTF_MISMATCH|PROBE_EVENTS_BTF_ARGS|DEBUG_INFO_TYPE_TAGS|GCC_PLUGINS|GCC_PLUGIN_USER_DWARF|MODULE_SIG_ALL|MODULE_SIG_KEY|SYSTEM_TRUSTED_KEYS|BUILD_SALT|CC_VERSION_TEXT|RUSTC_[A-Z_]*)=' || true)
	[ -z "$diff" ] || die "the configuration does not carry over to this source and compiler:
$diff"
	printf '  %-8s %s\n' PREPARE "$obj (make prepare, about a minute)" >&2
	kmake -s -j"${JOBS:-$(nproc)}" prepare >>"$obj/prepare.log" 2>&1 ||
		{ tail -n 20 "$obj/prepare.log" >&2; die "make prepare failed (log: $obj/prepare.log)"; }
	printf '%s\n' "$key" >"$obj/.user-tags-key"
fi
# configure: end
for b in $(cut -d' ' -f2 "$plan" | LC_ALL=C sort -u) $bid; do
	d=$(tagsdir "$b")
	printf '%s\n' "$b" >"$d/build-id.tmp" && mv "$d/build-id.tmp" "$d/build-id"
done

# Every unit in one make, so that a whole kernel's units (make's own
# overhead is most of the time of one) build in parallel; -k: a unit that
# does not compile stops no other, and leaves no object (the compiler and
# make delete it), so what is in the build folder is up to date.
status=0
objs=
ok=$(mktemp)
trap 'rm -f "$plan" "$ok"' EXIT INT TERM
while read -r cu b; do
	n=$cu
	case $cu in
	*/../*|*/./*|*//*) n=$(normal_unit "$cu") || n=/ ;;
	esac
	case $n in
	/*|../*|./*|*[!A-Za-z0-9_./+-]*|*[!c]|*[!.]c)
		printf 'user-tags.sh: error: %s is not a C compilation unit of the kernel\n' "$cu" >&2
		status=1
		continue ;;
	esac
	if [ ! -f "$src/$cu" ]; then
		printf 'user-tags.sh: error: %s has no %s\n' "$src" "$cu" >&2
		status=1
		continue
	fi
	# Kbuild's target is the unit's name; its tags go by the name
	# without "..", as perf looks for them.
	rm -f "$(tagsdir "$b")/${n%.c}.o"
	printf '%s %s %s\n' "${cu%.c}.o" "$b" "${n%.c}.o" >>"$ok"
done <"$plan"
[ -s "$ok" ] || exit $status
objs=$(cut -d' ' -f1 "$ok" | LC_ALL=C sort -u)
# shellcheck disable=SC2086 # a list of objects
kmake -s -k -j"${JOBS:-$(nproc)}" $objs >"$obj/cu.log" 2>&1 || true
nobj=0
while read -r o b t; do
	d=$(tagsdir "$b")
	if [ ! -f "$obj/$o" ]; then
		grep -F -A 5 "${o%.o}.c" "$obj/cu.log" | sed -n '1,20p' >&2
		printf 'user-tags.sh: error: %s does not compile; no tags for it\n' "${o%.o}.c" >&2
		status=1
		continue
	fi
	mkdir -p "$(dirname "$d/$t")"
	cp "$obj/$o" "$d/$t.tmp" && mv "$d/$t.tmp" "$d/$t"
	nobj=$((nobj + 1))
	[ -n "$moddir" ] || printf '  %-8s %s\n' TAGS "$d/$t" >&2
done <"$ok"
if [ -n "$moddir" ]; then
	printf '  %-8s %s objects of the image and %s modules, in %s/BUILD-ID\n' \
		TAGS "$nobj" "$nmod" "$base" >&2
fi
exit $status
