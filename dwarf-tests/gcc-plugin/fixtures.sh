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
#                        stock perf prints, for every case, but for
#                        the ones in stock-differences.txt
#
# Output is TAP (scripts/tap.sh).
set -u
# shellcheck source=../../scripts/lib.sh
. "$(dirname -- "$0")/../../scripts/lib.sh"

HERE=$TOP/dwarf-tests/gcc-plugin
OUT=$BUILD/gcc-plugin
PLUGIN=$(kobj gcc)/scripts/gcc-plugins/user_dwarf_plugin.so

bail() {
	tap_bail "$@"
}

case ${1:-} in
plugin)
	# The plugin as Kbuild builds it for the GCC kernel.
	[ -f "$PLUGIN" ] || bail "no plugin at $PLUGIN: run 'make gcc-objects'"
	mkdir -p "$OUT/bin"
	printf '#!/bin/sh\nexec gcc -fplugin=%s "$@"\n' "$PLUGIN" >"$OUT/bin/gcc-user-dwarf"
	chmod +x "$OUT/bin/gcc-user-dwarf"
	# GCC's registers, stack slots and type names are not clang's:
	# compare the memory of every dereference (ABSTRACT=1).
	PATH=$OUT/bin:$PATH COMPILERS=gcc-user-dwarf ABSTRACT=1 \
		BUILD=$BUILD/dwarf-tests-gcc sh "$TOP/dwarf-tests/run.sh"
	;;
stock)
	[ -x "$STOCK_PERF" ] || bail "no stock perf at $STOCK_PERF: run 'make perf-stock'"
	mkdir -p "$OUT"
	for p in patched stock; do
		perf=$PERF
		[ $p = stock ] && perf=$STOCK_PERF
		# The expectations do not matter here, only what perf prints:
		# run.sh's "G" records, "DESC<TAB>OUTPUT<TAB>EXIT" per case.
		NO_TAGS=1 COMPILERS=gcc PERF=$perf \
			BUILD=$BUILD/dwarf-tests-gcc-$p \
			sh "$TOP/dwarf-tests/run.sh" >"$OUT/stock-$p.tap" 2>&1
		sed -n 's/^G //p' "$BUILD/dwarf-tests-gcc-$p/results.gcc" |
			sort >"$OUT/stock-$p.cases"
	done
	# The fixtures' builds, as the patched run recorded them.
	grep -E '^R (ok|notok) gcc: build ' \
		"$BUILD/dwarf-tests-gcc-patched/results.gcc" >"$OUT/stock.verdicts"
	# One record per case (stock-verdicts.awk), after the builds'.
	awk -F '\t' -v known="$HERE/stock-differences.txt" -f "$HERE/stock-verdicts.awk" \
		"$OUT/stock-patched.cases" "$OUT/stock-stock.cases" >>"$OUT/stock.verdicts"
	tap_header
	tap_begin
	[ -s "$OUT/stock-stock.cases" ] || tap_bail "no case ran with stock perf (see $OUT/stock-stock.tap)"
	tap_records <"$OUT/stock.verdicts"
	tap_done
	;;
*)
	bail "usage: fixtures.sh plugin|stock"
	;;
esac
