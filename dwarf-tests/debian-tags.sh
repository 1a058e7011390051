#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test of perf probe on a kernel that we did not build: Debian's own
# GCC-built kernel of the generation (make debian-kernel), whose DWARF has
# no __user tags, with the tagged build of its units that dwarf-tests/debian-tags/GEN.txt
# lists (make debian-tags, scripts/user-tags.sh).  Offline perf probe -D
# (scripts/offline-perf.sh).  TAP.
#   1. each definition of dwarf-tests/debian-tags/GEN.txt chooses, argument by argument and
#      dereference by dereference, what that file writes down (the
#      types of the kernel's source say it), which is also what it
#      chooses on the clang-built kernel of the same source (make
#      kernel); stock perf prints what the file writes down for it;
#   2. found without asking, in ~/.debug/.user-tags/BUILD-ID, a module's
#      by the module's own build-id; -v names the object;
#   3. bad input: a tagged build of another kernel, an object of another
#      unit, a corrupt object, a unit without an object, the kernel's
#      tags for a module; user-tags.sh with a configuration of another
#      compiler, a unit that is not C, does not exist or is not the
#      module's, a module that is not one or has no build-id: a clear
#      error, or kernel reads with a warning;
#   4. the same tags as one artifact per build-id (scripts/user-tags-artifact.sh),
#      fetched from a real debuginfod: every case of the file, -v, no
#      shadowing of the real debuginfo, and bad input (a server down,
#      one that does not answer, a 404, a file of another build-id, cut
#      short, spoiled).  The servers listen on every address of their
#      network namespace: the test runs in one of its own, whose only
#      interface is the loopback.
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"
own_netns "$0"
tap_begin
netns_up || tap_bail "cannot bring up the loopback of the test's network namespace"
debian_kernel_files 2>/dev/null ||
	tap_bail "Debian's kernel $DEBIAN_KERNEL is not fetched (make debian-kernel)"
vmlinux=$DEB_VMLINUX
config=$DEB_CONFIG
tags=$BUILD/debian-tags-$KGEN_NAME
for f in "$tags/.stamp" "$KOBJ/vmlinux" "$PERF" "$STOCK_PERF"; do
	[ -e "$f" ] || tap_bail "$f does not exist (make debian-tags kernel perf perf-stock)"
done
bid=$(readelf -n "$vmlinux" | awk '/Build ID:/ { print $3; exit }')
tmp=$BUILD/debian-tags-test
env=$tmp/env
rm -rf "$tmp"
mkdir -p "$tmp"
offline_perf_env "$env" "$TOP/$TRACEFS_README" || tap_bail "cannot make $env"
# A home whose ~/.debug has the tagged build, where perf finds it alone:
# the kernel's, and each module's by the module's own build-id.
mkdir -p "$tmp/home/.debug/.user-tags"
ln -s "$tags" "$tmp/home/.debug/.user-tags/$bid"
for d in "$tags"/.modules/*; do
	[ -f "$d/build-id" ] || continue
	ln -s "$d" "$tmp/home/.debug/.user-tags/$(cat "$d/build-id")"
done

# choices FILE: each argument of each definition as NAME=CHOICES, CHOICES
# one letter per dereference, u (user) or k (kernel), outermost last, and
# :string or :ustring; registers, offsets and other types left out, as
# they differ between compilers.  An instance where the variable is
# optimized out (perf's magic number, "\\...") says nothing.
choices() {
	sed -n 's/^p:[^ ]* [^ ]* //p' "$1" | tr ' ' '\n' | awk -F= '
	NF == 2 && substr($2, 1, 1) != "\\" {
		c = ""; s = $2
		while (match(s, /[-+]u?[0-9]+\(/)) {
			c = (substr(s, RSTART + 1, 1) == "u" ? "u" : "k") c
			s = substr(s, RSTART + RLENGTH)
		}
		t = $2; sub(/.*:/, "", t)
		print $1 "=" c (t ~ /^u?string$/ ? ":" t : "")
	}' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# stock_as_written: $stock (in $tmp/stock) is what $stock_want says.
stock_as_written() {
	# The names, once each: an argument of several instances can be read
	# through more loads in one of them.
	_names=$(printf '%s\n' "$want" | tr ' ' '\n' | sed 's/=.*//' | sort -u | tr '\n' ' ')
	_snames=$(printf '%s\n' "$stock" | tr ' ' '\n' | sed 's/=.*//' | sort -u | tr '\n' ' ')
	case $stock_want in
	kernel)
		[ -s "$tmp/stock" ] && [ "$_snames" = "$_names" ] &&
			! printf '%s\n' "$stock" | tr ' ' '\n' | grep -q '=[ku]*u'
		;;
	error) [ ! -s "$tmp/stock" ] ;;
	*) false ;;
	esac
}

while IFS='|' read -r id cu spec want stock_want; do
	case $id in '' | '#'*) continue ;; esac
	# A module's unit (MODULE:UNIT): perf probe -m, on Debian's module
	# with its debug information.  The clang kernel has none of Debian's
	# modules: the answer written down is the only one.
	case $cu in
	*:*)
		ko=$(debian_module "${cu%%:*}") ||
			{ tap_not_ok "$id: Debian's kernel has no module ${cu%%:*}"; continue; }
		set -- -m "$ko"
		;;
	*) set -- -k "$vmlinux" ;;
	esac
	PERF_HOME=$tmp/home offline_perf "$env" "$PERF" probe "$@" \
		-D "$spec" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	offline_perf "$env" "$STOCK_PERF" probe "$@" -D "$spec" \
		>"$tmp/stock" 2>/dev/null
	clang=none on=" (module ${cu%%:*})"
	if [ "$1" != -m ]; then
		offline_perf "$env" "$PERF" probe -k "$KOBJ/vmlinux" -D "$spec" \
			>"$tmp/clang" 2>/dev/null
		clang=$(choices "$tmp/clang") on=", as on the clang kernel"
	fi
	got=$(choices "$tmp/out")
	stock=$(choices "$tmp/stock")
	if [ -z "$want" ] || [ -z "$stock_want" ]; then
		tap_not_ok "$id: ${DEBIAN_TAGS_CASES}: the patched and the stock answers are written down"
		continue
	fi
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ] && { [ "$clang" = none ] || [ "$clang" = "$want" ]; } &&
		! grep -q -i warning "$tmp/err"; then
		tap_ok "$id: $spec ($cu): $got$on"
	else
		tap_not_ok "$id: $spec ($cu): $want$on"
		{ echo "exit $rc; Debian: '$got', clang: '$clang', written down: '$want'"; cat "$tmp/err"; } | tap_diag
	fi
	# Stock perf, on Debian's kernel, as written down: a definition of
	# its own, every argument there, every dereference a kernel read
	# ("kernel"; the number of loads may differ, as stock perf misreads
	# DW_OP_stack_value locations), or none at all ("error").
	if stock_as_written; then
		tap_ok "$id: stock perf: ${stock:-no definition} ($stock_want)"
	else
		tap_not_ok "$id: stock perf: $stock_want"
		echo "stock: '${stock:-no definition}'" | tap_diag
	fi
done <"$TOP/$DEBIAN_TAGS_CASES"

spec='do_sys_openat2 filename:string'
# 2. -v names the object; without a tagged build: stock, with a hint.
PERF_HOME=$tmp/home offline_perf "$env" "$PERF" probe -v -k "$vmlinux" \
	-D "$spec" >"$tmp/out" 2>&1
if grep -q "filename: user memory (its type is __user in $tmp/home/.debug/.user-tags/$bid/fs/open.o)" "$tmp/out"; then
	tap_ok "found in ~/.debug/.user-tags/BUILD-ID; -v names the object of each choice"
else
	tap_not_ok "found in ~/.debug/.user-tags/BUILD-ID; -v names the object of each choice"
	grep memory "$tmp/out" | tap_diag
fi
# A module's, by the module's own build-id
fat=$(debian_module fat) && fatbid=$(readelf -n "$fat" | awk '/Build ID:/ { print $3; exit }')
PERF_HOME=$tmp/home offline_perf "$env" "$PERF" probe -v -m "$fat" \
	-D 'fat_ioctl_set_attributes user_attr[0]' >"$tmp/out" 2>&1
if grep -q "user_attr: user memory (its type is __user in $tmp/home/.debug/.user-tags/$fatbid/fs/fat/file.o)" "$tmp/out" &&
	grep -q 'user_attr=+u0(' "$tmp/out"; then
	tap_ok "a module's, found in ~/.debug/.user-tags/MODULE-BUILD-ID; -v names its object"
else
	tap_not_ok "a module's, found in ~/.debug/.user-tags/MODULE-BUILD-ID; -v names its object"
	grep 'memory\|^p:' "$tmp/out" | tap_diag
fi

offline_perf "$env" "$PERF" probe -k "$vmlinux" -D "$spec" >"$tmp/out" 2>"$tmp/err"
if grep -q 'filename_string=+0(%[a-z0-9]*):string' "$tmp/out" &&
	[ "$(grep -c 'no __user annotations' "$tmp/err")" -eq 1 ] &&
	grep -q -- --user-tags "$tmp/err"; then
	tap_ok "without a tagged build: kernel memory, and one hint that names --user-tags"
else
	tap_not_ok "without a tagged build: kernel memory, and one hint that names --user-tags"
	cat "$tmp/out" "$tmp/err" | tap_diag
fi

# 3. Bad input.  bad_tags NAME: a copy of the tagged build to spoil.
bad_tags() {
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1/fs"
	cp "$tags/build-id" "$tmp/$1/"
	printf '%s\n' "$tmp/$1"
}
# refused WHAT MADE-FOR TARGET PERF-ARGS...: perf probe PERF-ARGS fails
# with no definition and names the build-id the tags were made for and
# the target's.
refused() {
	_what=$1 _made=$2 _target=$3
	shift 3
	offline_perf "$env" "$PERF" probe "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ ! -s "$tmp/out" ] &&
		grep -q "build-id $_made, but the target's build-id is $_target" "$tmp/err"; then
		tap_ok "$_what is refused, naming both build-ids"
	else
		tap_not_ok "$_what is refused, naming both build-ids"
		cat "$tmp/out" "$tmp/err" | tap_diag
	fi
}
d=$(bad_tags other-kernel)
echo 0123456789abcdef0123456789abcdef01234567 >"$d/build-id"
cp "$tags/fs/open.o" "$d/fs/"
refused "a tagged build of another kernel" 0123456789abcdef0123456789abcdef01234567 "$bid" \
	-k "$vmlinux" --user-tags "$d" -D "$spec"
refused "a module's probe with the kernel's tagged build" "$bid" "$fatbid" \
	-m "$fat" --user-tags "$tags" -D 'fat_ioctl_set_attributes user_attr[0]'

# _short NAME: NAME, with a long path in it said by its length
_short() {
	case $1 in
	deep/*) printf '%s, at a path near PATH_MAX' "${1##*/}" ;;
	*) printf '%s' "$1" ;;
	esac
}
# bad_object NAME WHY: the object is unusable: kernel memory, one warning
bad_object() {
	offline_perf "$env" "$PERF" probe -k "$vmlinux" --user-tags "$tmp/$1" \
		-D "$spec" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'filename_string=+0(%[a-z0-9]*):string' "$tmp/out" &&
		[ "$(grep -c 'is read as kernel memory' "$tmp/err")" -eq 1 ] &&
		grep -q -- "$2" "$tmp/err"; then
		tap_ok "$(_short "$1"): kernel memory, and one warning that says why"
	else
		tap_not_ok "$(_short "$1"): kernel memory, and one warning that says why"
		cat "$tmp/out" "$tmp/err" | tap_diag
	fi
}
d=$(bad_tags other-unit)
cp "$tags/kernel/time/time.o" "$d/fs/open.o"
bad_object other-unit "its compilation unit is .*kernel/time/time.c"
d=$(bad_tags corrupt-object)
head -c 4096 "$tags/fs/open.o" >"$d/fs/open.o"
bad_object corrupt-object "has no readable DWARF"
d=$(bad_tags no-object)
bad_object no-object "there is no $d/fs/open.o"
# The same at a path near PATH_MAX (4096 with its NUL): perf's messages
# carry the whole path, whatever its length.
deep=deep
while [ $((${#tmp} + ${#deep} + 240)) -lt 4060 ]; do
	deep=$deep/$(printf '%0200d' 0 | tr 0 d)
done
d=$(bad_tags "$deep/corrupt-object")
head -c 4096 "$tags/fs/open.o" >"$d/fs/open.o"
bad_object "$deep/corrupt-object" "$d/fs/open.o has no readable DWARF"
d=$(bad_tags "$deep/no-object")
bad_object "$deep/no-object" "there is no $d/fs/open.o"

# user_tags_error NAME PATTERN ARGS...: user-tags.sh fails and says so,
# and leaves no object behind.
user_tags_error() {
	_name=$1 _pat=$2
	shift 2
	rm -rf "$tmp/ut"
	sh "$TOP/scripts/user-tags.sh" -o "$tmp/ut" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] && grep -q -- "$_pat" "$tmp/out" &&
		[ -z "$(find "$tmp/ut" -name '*.o' ! -path '*/.build/*' 2>/dev/null)" ]; then
		tap_ok "user-tags.sh: $_name: an error, and no object"
	else
		tap_not_ok "user-tags.sh: $_name: an error, and no object"
		tap_diag <"$tmp/out"
	fi
}
sed 's/^CONFIG_CC_VERSION_TEXT=.*/CONFIG_CC_VERSION_TEXT="gcc-11 (Debian 11.3.0-12) 11.3.0"/' \
	"$config" >"$tmp/config-gcc11"
user_tags_error "a configuration of another compiler" "is for a kernel built by 'gcc-11" \
	-s "$TAGS_TREE" -c "$tmp/config-gcc11" "$vmlinux" fs/open.c
user_tags_error "a unit that is not C" "is not a C compilation unit" \
	-s "$TAGS_TREE" -c "$config" "$vmlinux" ../fs/open.c
user_tags_error "a unit whose name leaves the tree" "is not a C compilation unit" \
	-s "$TAGS_TREE" -c "$config" "$vmlinux" fs/../../fs/open.c
user_tags_error "a unit that does not exist" "has no fs/nosuch.c" \
	-s "$TAGS_TREE" -c "$config" "$vmlinux" fs/nosuch.c
user_tags_error "a vmlinux without a build-id" "has no build-id" \
	-s "$TAGS_TREE" -c "$config" "$config" fs/open.c
user_tags_error "a unit that is not the module's" "fs/open.c is not a unit of $fat" \
	-s "$TAGS_TREE" -c "$config" -m "$fat" "$vmlinux" fs/open.c
user_tags_error "a module that is not one" "$vmlinux has no vermagic" \
	-s "$TAGS_TREE" -c "$config" -m "$vmlinux" "$vmlinux" fs/open.c
objcopy --remove-section .note.gnu.build-id "$fat" "$tmp/nobid.ko"
user_tags_error "a module without a build-id" "nobid.ko has no build-id" \
	-s "$TAGS_TREE" -c "$config" -m "$tmp/nobid.ko" "$vmlinux"
# The whole kernel (-k MODDIR, make user-tags-kernel): every module is
# checked before anything is compiled.
mkdir -p "$tmp/mods/kernel/fs/fat" "$tmp/nomods"
ln -s "$fat" "$tmp/mods/kernel/fs/fat/fat.ko"
ln -s "$vmlinux" "$tmp/mods/kernel/fs/fat/notone.ko"
user_tags_error "-k: a module that is not one" "notone.ko has no vermagic" \
	-s "$TAGS_TREE" -c "$config" -k "$tmp/mods" "$vmlinux"
user_tags_error "-k: a folder without modules" "has no modules" \
	-s "$TAGS_TREE" -c "$config" -k "$tmp/nomods" "$vmlinux"
user_tags_error "-k with a unit" "no CU arguments with it" \
	-s "$TAGS_TREE" -c "$config" -k "$tmp/mods" "$vmlinux" fs/open.c
user_tags_error "-k with -m" "not both" \
	-s "$TAGS_TREE" -c "$config" -k "$tmp/mods" -m "$fat" "$vmlinux"

# 4. One artifact per build-id (scripts/user-tags-artifact.sh), fetched
# by perf from a real debuginfod on 127.0.0.1: this test's own network
# namespace has the loopback only, where debuginfod listens on every
# address.
srv=$tmp/srv
mkdir -p "$srv/ours" "$srv/none" "$srv/debian"
art_ok=true
sh "$TOP/scripts/user-tags-artifact.sh" -o "$srv/ours/vmlinux.debug" "$tags" >"$tmp/out" 2>&1 ||
	art_ok=false
for m in "$tags"/.modules/*; do
	sh "$TOP/scripts/user-tags-artifact.sh" -o "$srv/ours/${m##*/}.debug" "$m" >>"$tmp/out" 2>&1 ||
		art_ok=false
done
objects=$(find "$tags" -name '*.o' ! -path '*/.build/*' -exec cat {} + | wc -c)
size=$(cat "$srv/ours"/*.debug 2>/dev/null | wc -c)
if $art_ok && [ "$size" -gt 0 ] && [ "$size" -lt $((objects / 2)) ]; then
	tap_ok "user-tags-artifact.sh: the kernel's and its modules' artifacts, $size bytes for $objects bytes of objects"
else
	tap_not_ok "user-tags-artifact.sh: the kernel's and its modules' artifacts, less than half the objects' size"
	tap_diag <"$tmp/out"
fi
# -d FOLDER: the same artifacts, each named by its build-id (make
# user-tags-kernel); a DIR that is not a tagged build stops all before
# anything is written; one without objects stops no other.
mkdir -p "$tmp/arts" "$tmp/notags" "$tmp/noobjs"
cp "$tags/.modules/fat/build-id" "$tmp/noobjs/build-id"
if sh "$TOP/scripts/user-tags-artifact.sh" -d "$tmp/arts" "$tags" "$tags/.modules/fat" >"$tmp/out" 2>&1 &&
	cmp -s "$tmp/arts/$bid.debug" "$srv/ours/vmlinux.debug" &&
	cmp -s "$tmp/arts/$fatbid.debug" "$srv/ours/fat.debug"; then
	tap_ok "user-tags-artifact.sh -d: one artifact per build-id, the same bytes as -o's"
else
	tap_not_ok "user-tags-artifact.sh -d: one artifact per build-id, the same bytes as -o's"
	tap_diag <"$tmp/out"
fi
rm -f "$tmp/arts"/*
if ! sh "$TOP/scripts/user-tags-artifact.sh" -d "$tmp/arts" "$tags" "$tmp/notags" >"$tmp/out" 2>&1 &&
	grep -q "notags has no build-id file" "$tmp/out" && [ -z "$(ls "$tmp/arts")" ]; then
	tap_ok "user-tags-artifact.sh -d: a folder that is no tagged build: an error, nothing written"
else
	tap_not_ok "user-tags-artifact.sh -d: a folder that is no tagged build: an error, nothing written"
	tap_diag <"$tmp/out"
fi
if ! sh "$TOP/scripts/user-tags-artifact.sh" -d "$tmp/arts" "$tmp/noobjs" "$tags" >"$tmp/out" 2>&1 &&
	grep -q "noobjs has no objects" "$tmp/out" &&
	[ "$(ls "$tmp/arts")" = "$bid.debug" ]; then
	tap_ok "user-tags-artifact.sh -d: a tagged build without objects: an error that stops no other"
else
	tap_not_ok "user-tags-artifact.sh -d: a tagged build without objects: an error that stops no other"
	tap_diag <"$tmp/out"
fi
# artifact_id BUILD-ID: the artifact's own build-id, as perf asks for it
artifact_id() {
	printf '%s%s' "$(printf perf-user-tags-1 | od -An -tx1 | tr -d ' \n')" "$1"
}
# serve NAME PORT: debuginfod on $srv/NAME at PORT; its pid last in
# $DEBUGINFOD_PIDS.
serve() {
	debuginfod_serve "$srv/$1" "$2" 2>"$srv/$1.err" && return 0
	tap_diag <"$srv/$1.err"
	return 1
}
trap 'kill $DEBUGINFOD_PIDS 2>/dev/null' EXIT
ours=http://127.0.0.1:8002
serve ours 8002 || tap_bail "debuginfod did not start on $ours"

# Every case of the file, its tags fetched: the same answers
fhome=$tmp/fetch-home
mkdir -p "$fhome"
while IFS='|' read -r id cu cspec want stock_want; do
	case $id in '' | '#'*) continue ;; esac
	case $cu in
	*:*) set -- -m "$(debian_module "${cu%%:*}")" ;;
	*) set -- -k "$vmlinux" ;;
	esac
	DEBUGINFOD_URLS=$ours PERF_HOME=$fhome offline_perf "$env" "$PERF" probe "$@" \
		-D "$cspec" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(choices "$tmp/out")
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ] && ! grep -q -i warning "$tmp/err"; then
		tap_ok "$id: fetched from debuginfod: $got"
	else
		tap_not_ok "$id: fetched from debuginfod: $want"
		{ echo "exit $rc, got '$got'"; cat "$tmp/err"; } | tap_diag
	fi
done <"$TOP/$DEBIAN_TAGS_CASES"

kid=$(artifact_id "$bid") fid=$(artifact_id "$fatbid")
cache=$fhome/.cache/debuginfod_client
# fetched WHAT ID PATTERN PERF-ARGS...: -v says where the tags came from
fetched() {
	_what=$1 _id=$2 _pat=$3
	shift 3
	DEBUGINFOD_URLS=$ours PERF_HOME=$fhome offline_perf "$env" "$PERF" probe -v "$@" \
		>"$tmp/out" 2>&1
	if grep -q "in $cache/$_id/debuginfo, fetched from debuginfod" "$tmp/out" &&
		grep -q "$_pat (its type is __user in $cache/$_id/debuginfo(" "$tmp/out"; then
		tap_ok "$_what: -v names the artifact fetched into debuginfod's cache"
	else
		tap_not_ok "$_what: -v names the artifact fetched into debuginfod's cache"
		grep 'memory\|user tags' "$tmp/out" | tap_diag
	fi
}
fetched "the kernel's" "$kid" "filename: user memory" -k "$vmlinux" -D "$spec"
fetched "fat's" "$fid" "user_attr: user memory" -m "$fat" -D 'fat_ioctl_set_attributes user_attr[0]'
offline_perf "$env" "$PERF" probe -k "$vmlinux" --user-tags "$srv/ours/vmlinux.debug" \
	-D "$spec" >"$tmp/out" 2>"$tmp/err"
if grep -q 'filename_string=+u0(%[a-z0-9]*):string' "$tmp/out" && [ ! -s "$tmp/err" ]; then
	tap_ok "--user-tags FILE takes an artifact"
else
	tap_not_ok "--user-tags FILE takes an artifact"
	cat "$tmp/out" "$tmp/err" | tap_diag
fi

# The artifacts never shadow the real debuginfo: a DEBUGINFOD_URLS with
# ours and a server of Debian's -dbg files gives the real vmlinux and
# fat.ko for their build-ids, the artifacts for theirs.
ln -s "$vmlinux" "$srv/debian/vmlinux"
ln -s "$fat" "$srv/debian/fat.ko"
serve debian 8003 || tap_bail "debuginfod did not start on port 8003"
both="$ours http://127.0.0.1:8003"
shadow_ok=true
for pair in "$bid $vmlinux" "$fatbid $fat" "$kid $srv/ours/vmlinux.debug" "$fid $srv/ours/fat.debug"; do
	f=$(DEBUGINFOD_URLS=$both DEBUGINFOD_CACHE_PATH=$tmp/shadow-cache \
		debuginfod-find debuginfo "${pair%% *}" 2>"$tmp/err")
	if [ -z "$f" ] || ! cmp -s "$f" "${pair#* }"; then
		shadow_ok=false
		echo "${pair%% *}: '$f', want ${pair#* }" | cat - "$tmp/err" | tap_diag
	fi
done
rm -rf "$tmp/shadow-cache"
if $shadow_ok; then
	tap_ok "ours and Debian's server in one DEBUGINFOD_URLS: each build-id gets its own file"
else
	tap_not_ok "ours and Debian's server in one DEBUGINFOD_URLS: each build-id gets its own file"
fi

# Bad input: kernel memory, one warning that says why, no hang.
# unfetched NAME PATTERN VAR=VALUE...: perf probe with DEBUGINFOD_URLS
# and the other variables given, and a cache of its own.
unfetched() {
	_name=$1 _pat=$2
	shift 2
	rm -rf "$tmp/home-bad"
	mkdir -p "$tmp/home-bad"
	# shellcheck disable=SC2163 # VAR=VALUE arguments
	( export "$@"; PERF_HOME=$tmp/home-bad offline_perf "$env" timeout 60 "$PERF" \
		probe -k "$vmlinux" -D "$spec" ) >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q 'filename_string=+0(%[a-z0-9]*):string' "$tmp/out" &&
		[ "$(grep -c '^Warning' "$tmp/err")" -eq 1 ] && grep -q -- "$_pat" "$tmp/err"; then
		tap_ok "$_name: kernel memory, and one warning that says why"
	else
		tap_not_ok "$_name: kernel memory, and one warning that says why"
		{ echo "exit $rc"; cat "$tmp/out" "$tmp/err"; } | tap_diag
	fi
}
unfetched "a server that is down" "could not be fetched from" \
	DEBUGINFOD_URLS=http://127.0.0.1:8009
grep -q 'Connection refused' "$tmp/err" || echo "# (no 'Connection refused' said)"
# A server that takes the connection and never answers: debuginfod,
# stopped.  DEBUGINFOD_MAXTIME bounds the wait.
serve none 8004 || tap_bail "debuginfod did not start on port 8004"
kill -STOP "${DEBUGINFOD_PIDS##* }"
unfetched "a server that does not answer" "no answer in 2 s" \
	DEBUGINFOD_URLS=http://127.0.0.1:8004 DEBUGINFOD_MAXTIME=2
kill -CONT "${DEBUGINFOD_PIDS##* }"
# A 404: perf says that no server has it, and reads as without tags.
rm -rf "$tmp/home-bad"
mkdir -p "$tmp/home-bad"
DEBUGINFOD_URLS=http://127.0.0.1:8004 PERF_HOME=$tmp/home-bad offline_perf "$env" "$PERF" \
	probe -k "$vmlinux" -D "$spec" >"$tmp/out" 2>"$tmp/err"
if grep -q 'filename_string=+0(%[a-z0-9]*):string' "$tmp/out" &&
	grep -q "no server of DEBUGINFOD_URLS has the user tags of build-id" "$tmp/err" &&
	grep -q "$bid" "$tmp/err" && grep -q 'no __user annotations' "$tmp/err"; then
	tap_ok "a server without the artifact: kernel memory, saying that no server has it"
else
	tap_not_ok "a server without the artifact: kernel memory, saying that no server has it"
	cat "$tmp/out" "$tmp/err" | tap_diag
fi
# Files that are not the kernel's artifact, given for its build-id by a
# file:// URL (debuginfod serves only what it indexed): fat's, one cut
# short, one whose header is spoiled.
bad_file() { # NAME: $srv/NAME/buildid/KERNEL-ARTIFACT-ID/debuginfo
	mkdir -p "$srv/$1/buildid/$kid"
	printf '%s\n' "$srv/$1/buildid/$kid/debuginfo"
}
cp "$srv/ours/fat.debug" "$(bad_file other)"
unfetched "an artifact of another build-id" "made for build-id $fatbid, the target's is $bid" \
	DEBUGINFOD_URLS="file://$srv/other"
head -c 100000 "$srv/ours/vmlinux.debug" >"$(bad_file short)"
unfetched "an artifact cut short" "the file is cut short" DEBUGINFOD_URLS="file://$srv/short"
f=$(bad_file spoiled)
cp "$srv/ours/vmlinux.debug" "$f"
off=$(readelf -SW "$f" | sed -n 's/.* \.debug_user_tags *PROGBITS *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
printf 'XXXXXXXX' | dd of="$f" bs=1 seek=$((0x${off:-0})) conv=notrunc 2>/dev/null
unfetched "an artifact whose header is spoiled" "it has no header of user tags" \
	DEBUGINFOD_URLS="file://$srv/spoiled"
tap_done
