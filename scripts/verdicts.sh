#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host test of scripts/check.sh's own verdicts (suite "verdicts"): a kept
# verdict is replayed only for what was tested (the key of a suite changes
# with the builds it tests and the settings it reads, and only with
# those), and a skip that scripts/known-skips.txt does not list is found
# (scripts/skips.sh); and a kernel build checks that its compressed
# image holds its own vmlinux (scripts/kernel.sh, piggy_stale).  Works in
# a throwaway build folder with stand-in builds (one assembled piggy.o);
# nothing of the project is built.  TAP on stdout.
set -u
. "$(dirname -- "$0")/lib.sh"
tap_begin
t=$BUILD/verdicts-test
[ -n "${VERDICTS_KEEP:-}" ] || rm -rf "$t"
mkdir -p "$t"

# key SUITE [VAR=VALUE...]: the key of SUITE's kept verdict with the
# stand-in builds of $t/build.
key() {
	_s=$1
	shift
	env "$@" BUILD="$t/build" sh "$TOP/scripts/check.sh" --key "$_s" 2>&1
}
# differs WHAT K1 K2 / same WHAT K1 K2
differs() {
	if [ -n "$2" ] && [ -n "$3" ] && [ "$2" != "$3" ]; then tap_ok "$1"; else
		tap_not_ok "$1" && printf 'keys: %s, %s\n' "$2" "$3" | tap_diag
	fi
}
same() {
	if [ -n "$2" ] && [ "$2" = "$3" ]; then tap_ok "$1"; else
		tap_not_ok "$1" && printf 'keys: %s, %s\n' "$2" "$3" | tap_diag
	fi
}

# Stand-ins for the builds: perf, and an object of the kernel's folder.
b=$t/build
kobj_rel=${KOBJ#"$BUILD"/}
perf_rel=${PERF#"$BUILD"/}
mkdir -p "$b/${perf_rel%/*}" "$b/$kobj_rel/fs"
# perf is identified by the key it was built from (scripts/perf.sh).
printf 'perf, first build\n' >"$b/$perf_rel"
chmod +x "$b/$perf_rel"
printf 'built from key 1\n' >"$b/${perf_rel%/*}/.uaccess-probe-built"
printf 'open.o\n' >"$b/$kobj_rel/fs/open.o"
printf 'built from key 1\n' >"$b/$kobj_rel/.uaccess-probe-built"

k1=$(key dwarf)
k2=$(key dwarf)
same "the key of a suite is the same while nothing changed" "$k1" "$k2"
case $k1 in *[!0-9a-f]* | '') tap_not_ok "the key is a hash" && printf '%s\n' "$k1" | tap_diag ;;
*) tap_ok "the key is a hash" ;; esac
l1=$(key lint)
kd1=$(key kernel-dwarf)
printf 'perf, rebuilt\n' >"$b/$perf_rel"
same "perf of other bytes from the same sources (another clone's path in them) keeps the key" "$k1" "$(key dwarf)"
printf 'built from key 2\n' >"$b/${perf_rel%/*}/.uaccess-probe-built"
differs "a rebuilt perf is not replayed: the dwarf suite's key changes" "$k1" "$(key dwarf)"
same "a rebuilt perf does not change the key of a suite that does not test it (lint)" "$l1" "$(key lint)"
kd2=$(key kernel-dwarf)
printf 'open.o, another clone\n' >"$b/$kobj_rel/fs/open.o"
same "a kernel folder built from the same sources (another clone's) keeps the key" "$kd2" "$(key kernel-dwarf)"
printf 'built from key 2\n' >"$b/$kobj_rel/.uaccess-probe-built"
differs "a kernel built from other sources changes the key of the suite that tests it" "$kd2" "$(key kernel-dwarf)"
kd2=$(key kernel-dwarf)
printf 'targets of key 2\n' >"$b/$kobj_rel/.uaccess-probe-targets"
differs "objects built alone (KTARGETS) change the key too" "$kd2" "$(key kernel-dwarf)"
differs "kernel-dwarf tests perf too: its key changed with perf" "$kd1" "$kd2"

# Another clone of the same commit, with the same changes, at another
# path with its own build folder (the same stand-ins): CI's clone
# replays what this one ran.  Documentation changes no key; a script
# does.
o=$t/another/clone/at/a/deeper/path
git clone -q --shared "$TOP" "$o"
git -C "$TOP" diff --binary HEAD >"$t/changes.diff"
[ ! -s "$t/changes.diff" ] || git -C "$o" apply "$t/changes.diff"
(cd "$TOP" && git ls-files -z -o --exclude-standard) >"$t/new-files"
[ ! -s "$t/new-files" ] || (cd "$TOP" && tar --null -T "$t/new-files" -cf -) | tar -C "$o" -xf -
mkdir -p "$t/another/build"
cp -a "$b/." "$t/another/build"
okey() {
	BUILD="$t/another/build" sh "$o/scripts/check.sh" --key "$1" 2>&1
}
kd3=$(key kernel-dwarf)
same "another clone at another path has the same key (kernel-dwarf)" "$kd3" "$(okey kernel-dwarf)"
same "another clone at another path has the same key (lint)" "$l1" "$(okey lint)"
printf '\nA line more.\n' >>"$o/README.md"
same "a change to the documentation (README.md) changes no key" "$kd3" "$(okey kernel-dwarf)"
printf '# A comment more.\n' >>"$o/dwarf-tests/kernel-tags.sh"
differs "a change to a script changes the key" "$kd3" "$(okey kernel-dwarf)"
[ -n "${VERDICTS_KEEP:-}" ] || rm -rf "$t/another"
f1=$(key dwarf-fuzz)
differs "a setting that a suite reads changes its key (FUZZ_SMOKE_SEED)" "$f1" "$(key dwarf-fuzz FUZZ_SMOKE_SEED=2)"
differs "a setting that a suite reads changes its key (COMPILERS)" "$k1" "$(key dwarf COMPILERS=clang-16)"
same "check.sh's scheduling does not change a key (CHECK_JOBS)" "$f1" "$(key dwarf-fuzz CHECK_JOBS=1)"

# Every build that a suite of make check tests has an identity.
bad=
for b in $(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$TOP" check-needs |
	cut -d: -f2 | tr ' ' '\n' | sed -e 's/@.*//' -e '/^$/d' | sort -u); do
	(build_identity "$b" >/dev/null 2>"$t/identity.err") || bad="$bad $b"
done
if [ -z "$bad" ]; then
	tap_ok "every build of make check has an identity (build_identity in scripts/lib.sh)"
else
	tap_not_ok "every build of make check has an identity (build_identity in scripts/lib.sh)"
	echo "none for:$bad" | tap_diag
fi
(build_identity no-such-build >/dev/null 2>"$t/identity.err")
rc=$?
if [ "$rc" -ne 0 ] && grep -q "no identity for the build 'no-such-build'" "$t/identity.err"; then
	tap_ok "a build without an identity is an error, naming it"
else
	tap_not_ok "a build without an identity is an error, naming it"
	tap_diag <"$t/identity.err"
fi

# Expected skips.  A recorded stream with four skips, one of them
# replayed, against a list that expects two of them; the third has a
# listed description but another reason.
cat >"$t/suite.tap" <<'EOF'
TAP version 13
ok 1 - a test
ok 2 - ftracetest: kprobe/kprobe_eventname.tc # SKIP known failure (UNRESOLVED): no .isra. clones (unchanged since it passed)
ok 3 - perf builds after: selftests/ftrace: a test # SKIP no object of the guest kernel changes (selftests)
ok 4 - perf builds after: perf probe: a fix # SKIP no kernel configuration yet
ok 5 - clang-14: build fixtures # SKIP clang-14 is not installed
not ok 6 - a failure
1..6
EOF
cat >"$t/skips.txt" <<'EOF'
# suite | test | reason | why
vm* | ftracetest: * | known failure (*): * | listed with its reason in KNOWN_FAILURES
series* | perf builds after: * | no object of the guest kernel changes* | documentation and selftests
EOF
# unlisted SUITE WANT: skips.sh finds exactly WANT (lines "DESC<TAB>REASON")
unlisted() {
	_got=$(sh "$TOP/scripts/skips.sh" "$t/skips.txt" "$1" "$t/suite.tap" 2>&1)
	if [ "$_got" = "$2" ]; then
		tap_ok "unlisted skips of suite $1: $(printf '%s\n' "$2" | grep -c .) found"
	else
		tap_not_ok "unlisted skips of suite $1"
		printf 'expected:\n%s\ngot:\n%s\n' "$2" "$_got" | tap_diag
	fi
}
tab=$(printf '\t')
# vm@next: the known failure is listed (a replayed one too), the rest not
unlisted vm@next "perf builds after: selftests/ftrace: a test${tab}no object of the guest kernel changes (selftests)
perf builds after: perf probe: a fix${tab}no kernel configuration yet
clang-14: build fixtures${tab}clang-14 is not installed"
# series: its patch without objects is listed; the one without a kernel
# configuration has a listed description but another reason
unlisted series "ftracetest: kprobe/kprobe_eventname.tc${tab}known failure (UNRESOLVED): no .isra. clones
perf builds after: perf probe: a fix${tab}no kernel configuration yet
clang-14: build fixtures${tab}clang-14 is not installed"
# A guest's line, through its serial port: a carriage return ends it,
# before or after the replay mark.
printf 'ok 1 - ftracetest: a.tc # SKIP UNSUPPORTED\r\nok 2 - ftracetest: b.tc # SKIP UNSUPPORTED\r (unchanged since it passed)\n' >"$t/serial.tap"
printf 'vm | ftracetest: * | UNSUPPORTED | the guest lacks it\n' >"$t/serial.txt"
out=$(sh "$TOP/scripts/skips.sh" "$t/serial.txt" vm "$t/serial.tap" 2>&1)
if [ -z "$out" ]; then
	tap_ok "a skip from the guest's serial port (CR LF) is matched by its reason"
else
	tap_not_ok "a skip from the guest's serial port (CR LF) is matched by its reason"
	printf '%s\n' "$out" | od -c | tap_diag
fi
printf 'vm | a test without a reason\n' >>"$t/skips.txt"
out=$(sh "$TOP/scripts/skips.sh" "$t/skips.txt" vm "$t/suite.tap" 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && printf '%s\n' "$out" | grep -q 'skips.txt:4: not "suite | test | reason | why"'; then
	tap_ok "a list entry without its reason is an error, naming its line"
else
	tap_not_ok "a list entry without its reason is an error, naming its line"
	printf 'exit %s: %s\n' "$rc" "$out" | tap_diag
fi
out=$(sh "$TOP/scripts/skips.sh" "$TOP/scripts/known-skips.txt" lint "$t/suite.tap" 2>&1)
rc=$?
if [ "$rc" -eq 0 ]; then
	tap_ok "scripts/known-skips.txt can be read"
else
	tap_not_ok "scripts/known-skips.txt can be read"
	printf '%s\n' "$out" | tap_diag
fi

# The kernel's build key leaves out what no kernel build reads (kernel.sh:
# tree_key with the pathspecs of built_key): a change to perf or to a
# selftest keeps it, committed or not; a change to the kernel does not.
g=$t/kernel-tree
mkdir -p "$g/tools/perf" "$g/tools/testing" "$g/tools/objtool" "$g/kernel"
for f in tools/perf/probe.c tools/testing/a.tc tools/objtool/check.c kernel/fork.c; do
	echo one >"$g/$f"
done
git -C "$g" init -q && git -C "$g" add -A &&
	git -C "$g" -c user.name=t -c user.email=t@t commit -q -m base
spec=$(sed -n "s/^[[:space:]]*tree_key \"\$TREE\" //p" "$TOP/scripts/kernel.sh")
kkey() { eval "tree_key \"\$g\" $spec" | inputs_key; }
k0=$(kkey)
echo two >"$g/tools/perf/probe.c"
echo two >"$g/tools/testing/a.tc"
echo new >"$g/tools/perf/new.c"
same "a change to perf or a selftest, in the work tree, keeps the kernel's key" "$k0" "$(kkey)"
git -C "$g" add -A && git -C "$g" -c user.name=t -c user.email=t@t commit -q -m perf
same "the same change committed keeps it too" "$k0" "$(kkey)"
echo two >"$g/tools/objtool/check.c"
differs "a change to a tool that the kernel build runs (objtool) changes it" "$k0" "$(kkey)"
k1=$(kkey)
git -C "$g" add -A && git -C "$g" -c user.name=t -c user.email=t@t commit -q -m objtool
echo two >"$g/kernel/fork.c"
differs "a change to the kernel changes it" "$k1" "$(kkey)"
[ -n "$spec" ] || echo "scripts/kernel.sh has no tree_key line with pathspecs" | tap_diag

# A kernel build takes the compressed image's piggy.o, which ccache can
# return with another vmlinux inside (kernel.sh, piggy_stale), only where
# it holds the very file that its .incbin names.
eval "$(sed -n '/^piggy_stale() {/,/^}/p' "$TOP/scripts/kernel.sh")"
KOBJ=$t/piggy
c=$KOBJ/arch/x86/boot/compressed
mkdir -p "$c"
head -c 4096 /dev/urandom >"$c/vmlinux.bin.gz"
printf '%s\n' '.section ".rodata..compressed","a",@progbits' 'input_data:' \
	'.incbin "arch/x86/boot/compressed/vmlinux.bin.gz"' 'input_data_end:' \
	'.section ".rodata","a",@progbits' '.long 4096' >"$c/piggy.S"
echo 'cmd_arch/x86/boot/compressed/piggy.o := ccache clang -c -o piggy.o piggy.S' >"$c/.piggy.o.cmd"
piggy_is() {
	if piggy_stale; then _got=stale; else _got=fresh; fi
	if [ "$_got" = "$1" ]; then tap_ok "piggy.o: $2: $1"; else
		tap_not_ok "piggy.o: $2: $1" && echo "got: $_got" | tap_diag
	fi
}
if (cd "$KOBJ" && as -o "$c/piggy.o" "$c/piggy.S"); then
	piggy_is fresh "it holds the compressed vmlinux"
	head -c 4096 /dev/urandom >"$c/vmlinux.bin.gz"
	piggy_is stale "the compressed vmlinux changed, its size did not"
	(cd "$KOBJ" && as -o "$c/piggy.o" "$c/piggy.S")
	printf x >>"$c/vmlinux.bin.gz"
	piggy_is stale "the compressed vmlinux grew"
	echo 'cmd_arch/x86/boot/compressed/piggy.o := objcopy -I binary ...' >"$c/.piggy.o.cmd"
	piggy_is fresh "made without ccache (objcopy), by make from the file itself"
	echo 'cmd_arch/x86/boot/compressed/piggy.o := ccache clang -c' >"$c/.piggy.o.cmd"
	rm "$c/piggy.S"
	piggy_is stale "its piggy.S is gone, so nothing can be checked"
else
	tap_not_ok "piggy.o: the host's assembler (binutils) makes a stand-in"
fi

[ -n "${VERDICTS_KEEP:-}" ] || rm -rf "$t"
tap_done
