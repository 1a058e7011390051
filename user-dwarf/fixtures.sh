#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dwarf-tests/ with GCC 12 instead of clang.
#
#   fixtures.sh plugin   the fixtures built by GCC with the user_dwarf
#                        plugin must give the same target results as
#                        with clang (every case of cases.txt for "*"),
#                        as far as __user goes (run.sh's ABSTRACT=1)
#   fixtures.sh stock    GCC without the plugin: the fixtures have no
#                        annotation, and the patched perf prints what
#                        unpatched perf prints, for every case, but for
#                        the ones in stock-differences.txt
#
# Output is TAP.
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"

HERE=$TOP/user-dwarf
OUT=$BUILD/user-dwarf
PLUGIN=$(kobj gcc)/scripts/gcc-plugins/user_dwarf_plugin.so

bail() {
	printf 'Bail out! %s\n' "$*"
	exit 1
}

case ${1:-} in
plugin)
	# The plugin as Kbuild builds it for the GCC kernel (PREBUILT=1: as
	# it is, while a build runs in the same folder).
	if [ "${PREBUILT:-0}" != 1 ]; then
		KCC=gcc KTARGETS=scripts sh "$TOP/scripts/kernel.sh" >&2 ||
			bail "building the plugin failed"
	fi
	[ -f "$PLUGIN" ] || bail "no plugin at $PLUGIN"
	mkdir -p "$OUT/bin"
	printf '#!/bin/sh\nexec gcc -fplugin=%s "$@"\n' "$PLUGIN" >"$OUT/bin/gcc-user-dwarf"
	chmod +x "$OUT/bin/gcc-user-dwarf"
	# GCC's registers, stack slots and type names are not clang's:
	# compare the memory of every dereference (ABSTRACT=1).
	PATH=$OUT/bin:$PATH COMPILERS=gcc-user-dwarf ABSTRACT=1 \
		BUILD=$BUILD/dwarf-tests-gcc sh "$TOP/dwarf-tests/run.sh"
	;;
stock)
	sh "$TOP/scripts/perf-base.sh" >&2 || bail "building unpatched perf failed"
	for p in patched stock; do
		perf=$PERF
		[ $p = stock ] && perf=$STOCK_PERF
		# The expectations do not matter here, only what perf prints.
		NO_TAGS=1 VERBOSE=1 COMPILERS=gcc PERF=$perf \
			BUILD=$BUILD/dwarf-tests-gcc-$p \
			sh "$TOP/dwarf-tests/run.sh" >"$OUT/stock-$p.tap" 2>&1
	done
	# "DESC<TAB>got<TAB>exit" for every case; "B<TAB>DESC" for builds
	for p in patched stock; do
		awk '
			function flush() { if (d != "") print d "\t" got "\t" ex; d = "" }
			/^(not )?ok [0-9]+ - / {
				flush()
				desc = $0
				sub(/^(not )?ok [0-9]+ - /, "", desc)
				if (desc ~ /^gcc: build /) { print "B\t" $1 " " desc; next }
				if (desc ~ /# SKIP/) next
				d = desc; got = ""; ex = ""
				next
			}
			/^# got: *|^# got:  */ { g = $0; sub(/^# got: */, "", g); got = g; next }
			/^# exit: */ { e = $0; sub(/^# exit: */, "", e); ex = e; next }
			END { flush() }' "$OUT/stock-$p.tap" | sort >"$OUT/stock-$p.cases"
	done
	awk -F '\t' -v known="$HERE/stock-differences.txt" '
		BEGIN {
			while ((getline l < known) > 0) {
				if (l ~ /^#/ || l !~ /[^ \t]/) continue
				split(l, f, "|")
				gsub(/^[ \t]+|[ \t]+$/, "", f[1])
				kd[f[1]] = 1
			}
			print "TAP version 13"
		}
		FNR == 1 { file++ }
		$1 == "B" {
			if (file == 1) {
				n++
				if ($2 ~ /^ok /) printf "ok %d - %s\n", n, substr($2, 4)
				else { printf "not ok %d - %s\n", n, substr($2, 8); bad++ }
			}
			next
		}
		file == 1 { got[$1] = $2; ex[$1] = $3; next }
		{
			id = $1
			sub(/ .*/, "", id)
			n++
			if (!($1 in got)) {
				printf "not ok %d - %s: no result with patched perf\n", n, $1
				bad++
			} else if (got[$1] == $2 && ex[$1] == $3) {
				printf "ok %d - %s: as unpatched perf\n", n, $1
			} else if (id in kd) {
				printf "ok %d - %s: differs from unpatched perf, as documented\n", n, $1
			} else {
				printf "not ok %d - %s: differs from unpatched perf\n", n, $1
				printf "# patched: %s (exit %s)\n# stock:   %s (exit %s)\n", got[$1], ex[$1], $2, $3
				bad++
			}
		}
		END { printf "1..%d\n", n; exit bad > 0 }' \
		"$OUT/stock-patched.cases" "$OUT/stock-stock.cases"
	;;
*)
	bail "usage: fixtures.sh plugin|stock"
	;;
esac
