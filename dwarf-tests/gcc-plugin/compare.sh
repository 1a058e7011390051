#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of the GCC user_dwarf plugin on real kernel objects (objects.txt).
#
#   compare.sh codegen   every object compiled by GCC 12 with and without
#                        the plugin: the same code and data (the objects
#                        without their .debug_* sections are identical)
#   compare.sh clang     every parameter, variable and member with pointer
#                        levels, with each level's btf_type_tag marks
#                        (dwarf-marks.c), in the GCC+plugin objects and in
#                        the clang-16 objects: the same, except for the
#                        cases in known-differences.txt
#   compare.sh notags    GCC without the plugin: no annotation at all
#   compare.sh cost      not a test: what the plugin costs, in compile CPU
#                        time (ROUNDS=3 compilations of every object with
#                        and without it) and in .debug_* section bytes
#                        (RECORD=1: and adds it to bench/measured.md)
#
# The objects are compiled again from the GCC kernel's .cmd files (the
# command Kbuild used, without the dependency file and objtool), so the
# plugin is always the one in the tree.  The Makefile builds what this
# needs: both kernels' objects and the plugin (make gcc-objects
# clang-objects) and the DWARF dumper (make dwarf-marks).  Output is TAP.
set -u
# shellcheck source=../../scripts/lib.sh
. "$(dirname -- "$0")/../../scripts/lib.sh"

mode=${1:-}
HERE=$TOP/dwarf-tests/gcc-plugin
OUT=$BUILD/gcc-plugin
GCC_KOBJ=$(kobj gcc)
CLANG_KOBJ=$(kobj clang)
PLUGIN_OPT=-fplugin=./scripts/gcc-plugins/user_dwarf_plugin.so

[ "$mode" = cost ] || tap_begin
bail() {
	[ "$mode" = cost ] && die "$*"
	tap_bail "$@"
}

case $mode in
codegen | clang | notags | cost) ;;
*) bail "usage: compare.sh codegen|clang|notags|cost" ;;
esac

objs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$HERE/objects.txt")
# shellcheck disable=SC2086 # the list of objects
set -- $objs
[ $# -gt 0 ] || bail "no objects in objects.txt"

mkdir -p "$OUT/on" "$OUT/off" "$LOGS"

[ -f "$GCC_KOBJ/scripts/gcc-plugins/user_dwarf_plugin.so" ] ||
	bail "no user_dwarf plugin in $GCC_KOBJ: run 'make gcc-objects'"

# compile OBJ VARIANT: OBJ compiled again into $OUT/VARIANT/OBJ, with the
# plugin (on) or without it (off)
compile() {
	_cmdfile=$GCC_KOBJ/$(dirname "$1")/.$(basename "$1").cmd
	[ -f "$_cmdfile" ] || { echo "no $_cmdfile" >&2; return 1; }
	_cmd=$(sed -n "s|^cmd_$1 := ||p" "$_cmdfile" | sed 's/ ; .*//')
	case $_cmd in
	*"$PLUGIN_OPT"*) ;;
	*) echo "$1 was not compiled with $PLUGIN_OPT" >&2; return 1 ;;
	esac
	# A kernel folder from the cache was built by another clone: its
	# commands name that clone's tree, which may be gone.
	_built_in=$(printf '%s\n' "$_cmd" |
		sed -n 's|.* -include \([^ ]*\)/include/linux/kconfig\.h .*|\1|p')
	[ -n "$_built_in" ] || { echo "$1: no tree in its command (-include .../kconfig.h)" >&2; return 1; }
	[ "$_built_in" = "$TREE" ] ||
		_cmd=$(printf '%s\n' "$_cmd" | sed "s|$_built_in/|$TREE/|g")
	_out=$OUT/$2/$1
	mkdir -p "$(dirname "$_out")"
	# No ccache: it does not know when the plugin changed.
	_cmd=$(printf '%s\n' "$_cmd" | sed -e 's/^ccache //' \
		-e 's/ -Wp,-MMD,[^ ]*//' -e "s| -o $1 | -o $_out |")
	[ "$2" = off ] && _cmd=$(printf '%s\n' "$_cmd" | sed "s| $PLUGIN_OPT||")
	(cd "$GCC_KOBJ" && eval "$_cmd") >"$_out.log" 2>&1
}

# annotations OBJ: the number of DW_TAG_LLVM_annotation DIEs
annotations() {
	llvm-dwarfdump-16 --debug-info "$1" | grep -c 'DW_TAG_LLVM_annotation'
}

# marks OBJ: dwarf-marks output, sorted, one line per entry
marks() {
	"$OUT/dwarf-marks" "$1" | sort -u
}

if [ "$mode" = clang ] && [ ! -x "$OUT/dwarf-marks" ]; then
	bail "no DWARF dumper at $OUT/dwarf-marks: run 'make dwarf-marks'"
fi

# cpu: the user+system CPU seconds of this shell's children so far
# ('times' must run in this shell, not in a command substitution)
cpu() {
	times >"$OUT/times"
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2]
		}
		printf "%.3f\n", t
	}' "$OUT/times"
}

# debug_bytes OBJ: the size of its .debug_* sections
debug_bytes() {
	size -A "$1" | awk '$1 ~ /^\.debug_/ { n += $2 } END { print n + 0 }'
}

if [ "$mode" = cost ]; then
	rounds=${ROUNDS:-3}
	t_on=0 t_off=0 b_on=0 b_off=0 r=0
	while [ "$r" -lt "$rounds" ]; do
		r=$((r + 1))
		for v in off on; do
			cpu >"$OUT/t0"
			for o in "$@"; do
				compile "$o" $v || bail "compiling $o failed"
			done
			cpu >"$OUT/t1"
			t0=$(cat "$OUT/t0")
			t1=$(cat "$OUT/t1")
			eval "t_$v=\$(echo \"\$t_$v $t0 $t1\" | awk '{ print \$1 + \$3 - \$2 }')"
		done
	done
	for o in "$@"; do
		b_on=$((b_on + $(debug_bytes "$OUT/on/$o")))
		b_off=$((b_off + $(debug_bytes "$OUT/off/$o")))
	done
	echo "$t_on $t_off $b_on $b_off $# $rounds" | awk '{
		printf "objects: %d (dwarf-tests/gcc-plugin/objects.txt), %d rounds\n", $5, $6
		printf "compile CPU time: %.2f s with the plugin, %.2f s without: %+.2f%%\n", $1, $2, ($1 / $2 - 1) * 100
		printf ".debug_* bytes: %d with the plugin, %d without: %+.2f%%\n", $3, $4, ($3 / $4 - 1) * 100
	}' | record "make bench-gcc-plugin: what the GCC plugin costs"
	exit 0
fi

total=0
for o in "$@"; do
	case $mode in
	codegen)
		if ! compile "$o" on || ! compile "$o" off; then
			tap_not_ok "codegen $o: compiling failed"
			cat "$OUT/on/$o.log" "$OUT/off/$o.log" 2>/dev/null | tail -n 5 | tap_diag
			continue
		fi
		for v in on off; do
			objcopy --remove-section='.debug*' --remove-section='.rela.debug*' \
				"$OUT/$v/$o" "$OUT/$v/$o.nodebug"
			objdump -dr "$OUT/$v/$o" | sed 1,3d >"$OUT/$v/$o.dis"
		done
		if [ "$(annotations "$OUT/on/$o")" -eq 0 ]; then
			tap_not_ok "codegen $o: the plugin added no annotation, nothing was tested"
		elif cmp -s "$OUT/on/$o.nodebug" "$OUT/off/$o.nodebug"; then
			tap_ok "codegen $o: identical without .debug_* ($(wc -l <"$OUT/on/$o.dis") lines of objdump -dr)"
		else
			tap_not_ok "codegen $o: the objects differ outside .debug_*"
			diff "$OUT/off/$o.dis" "$OUT/on/$o.dis" | head -n 20 | tap_diag
		fi
		;;
	notags)
		if ! compile "$o" off; then
			tap_not_ok "notags $o: compiling failed"
			tail -n 5 "$OUT/off/$o.log" | tap_diag
			continue
		fi
		a=$(annotations "$OUT/off/$o")
		if [ "$a" -eq 0 ] && ! grep -q btf_type_tag "$OUT/off/$o"; then
			tap_ok "notags $o: GCC without the plugin: no annotation"
		else
			tap_not_ok "notags $o: GCC without the plugin: $a annotations"
		fi
		;;
	clang)
		if ! compile "$o" on; then
			tap_not_ok "clang $o: compiling failed"
			tail -n 5 "$OUT/on/$o.log" | tap_diag
			continue
		fi
		marks "$OUT/on/$o" >"$OUT/on/$o.marks"
		marks "$CLANG_KOBJ/$o" >"$OUT/on/$o.clang-marks"
		# KEY MARKS lines; compare the keys that both compilers emit
		# (their inlining and optimisations differ), with the set of
		# marks each one has for a key.
		awk -v obj="$o" -v known="$HERE/known-differences.txt" '
			function key(l) { return $1 " " $2 " " $3 }
			BEGIN {
				while ((getline l < known) > 0) {
					if (l ~ /^#/ || l !~ /[^ \t]/) continue
					split(l, f, "|")
					gsub(/^[ \t]+|[ \t]+$/, "", f[1])
					gsub(/^[ \t]+|[ \t]+$/, "", f[2])
					if (f[1] != obj && f[1] != "*") continue
					split(f[2], w, " ")
					# "KIND * NAME": in every scope
					if (w[2] == "*") kd_any[w[1] " " w[3]] = 1
					else kd[f[2]] = 1
				}
			}
			FNR == 1 { file++ }
			{ k = key($0); m[file, k] = m[file, k] " " $4; seen[file, k] = 1 }
			END {
				for (fk in seen) {
					split(fk, p, SUBSEP)
					if (p[1] != 1 || !((2, p[2]) in seen)) continue
					common++
					if (m[1, p[2]] == m[2, p[2]]) continue
					split(p[2], w, " ")
					if ((p[2] in kd) || ((w[1] " " w[3]) in kd_any)) {
						known_n++
						continue
					}
					print "differs: " p[2] ": gcc" m[1, p[2]] ", clang" m[2, p[2]]
					bad++
				}
				printf "%d %d %d\n", common + 0, bad + 0, known_n + 0
			}' "$OUT/on/$o.marks" "$OUT/on/$o.clang-marks" >"$OUT/on/$o.cmp"
		# shellcheck disable=SC2046 # three numbers
		set -- $(tail -n 1 "$OUT/on/$o.cmp")
		total=$((total + $1))
		if [ "$1" -eq 0 ]; then
			tap_not_ok "clang $o: no entry in common"
		elif [ "$2" -eq 0 ]; then
			tap_ok "clang $o: $1 entries in both, the same marks but $3 known differences"
		else
			tap_not_ok "clang $o: $2 of $1 entries differ"
			sed '$d' "$OUT/on/$o.cmp" | head -n 20 | tap_diag
		fi
		;;
	esac
done
[ "$mode" = clang ] && echo "$total entries compared in all" | tap_diag
tap_done
