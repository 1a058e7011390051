#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run test suites, keep each one's TAP in $BUILD/check/SUITE.tap, check
# that it is complete (its plan), and end with the line "N passed,
# N failed, N skipped" over all of them (scripts/tap.sh counts).
#
#   check.sh SUITE...      host suites: lint, targets, parsers, patches, send,
#                          series,
#                          dwarf, dwarf-stock, kernel-dwarf, debian-tags (perf
#                          on Debian's own kernel); GCC user_dwarf plugin
#                          (dwarf-tests/gcc-plugin/): gcc-codegen, gcc-clang,
#                          gcc-notags, gcc-dwarf, gcc-stock; gcc16-kconfig
#                          (GCC 16 kernels with BTF get type tags);
#                          VM: vm, vm-gcc (the GCC kernel), vm-debian
#                          (Debian's own kernel, its tests), runner,
#                          proof-ARCH (the proof suite on ARCH, e.g.
#                          proof-s390x)
#   SUITE@GEN              SUITE on kernel generation GEN (KGEN=GEN), e.g.
#                          vm@6.12; without @GEN: the default generation
# Exit status: 0 only if no test failed and every suite ran to its end.
set -u
. "$(dirname -- "$0")/lib.sh"

out=$BUILD/check
mkdir -p "$out"

# run_suite SUITE[@GEN]: SUITE, on generation GEN if it names one (with
# the settings scripts/lib.sh derives from it: tree, kernel, perf...).
run_suite() {
	case $1 in
	*@*) KGEN=${1#*@} sh "$0" --one "${1%@*}" ;;
	*) suite_cmd "$1" ;;
	esac
}

suite_cmd() {
	case $1 in
	lint) sh "$TOP/scripts/lint.sh" ;;
	targets) sh "$TOP/scripts/targets.sh" ;;
	patches) sh "$TOP/scripts/checkpatch-series.sh" ;;
	send) sh "$TOP/scripts/send-check.sh" ;;
	series) sh "$TOP/scripts/build-each-patch.sh" ;;
	dwarf) BUILD=$BUILD/dwarf-tests$GEN_TAG sh "$TOP/dwarf-tests/run.sh" ;;
	dwarf-stock)
		# The stock column must be what stock perf really prints,
		# or "=" in the target column would prove nothing.
		PERF=$STOCK_PERF EXPECT=stock BUILD=$BUILD/dwarf-tests$GEN_TAG-stock \
			sh "$TOP/dwarf-tests/run.sh"
		;;
	kernel-dwarf) sh "$TOP/dwarf-tests/kernel-tags.sh" ;;
	debian-tags) sh "$TOP/dwarf-tests/debian-tags.sh" ;;
	gcc-codegen) sh "$TOP/dwarf-tests/gcc-plugin/compare.sh" codegen ;;
	gcc-clang) sh "$TOP/dwarf-tests/gcc-plugin/compare.sh" clang ;;
	gcc-notags) sh "$TOP/dwarf-tests/gcc-plugin/compare.sh" notags ;;
	gcc-dwarf) sh "$TOP/dwarf-tests/gcc-plugin/fixtures.sh" plugin ;;
	gcc-stock) sh "$TOP/dwarf-tests/gcc-plugin/fixtures.sh" stock ;;
	gcc16-kconfig) sh "$TOP/dwarf-tests/gcc16-kconfig.sh" ;;
	vm) sh "$TOP/qemu-image/run.sh" check ;;
	vm-gcc) KCC=gcc sh "$TOP/qemu-image/run.sh" check ;;
	vm-debian) KCC=debian TESTS=debian-kernel sh "$TOP/qemu-image/run.sh" check ;;
	runner) sh "$TOP/qemu-image/selftest.sh" ;;
	parsers) sh "$TOP/qemu-image/parsers.sh" ;;
	proof-*)
		# The proof suite on another architecture (make builds its
		# kernel, its /init and the stock perf first).
		a=${1#proof-}
		missing=$(load_arch "$a" && arch_missing_tools proof) || return 1
		if [ -n "$missing" ]; then
			(TAP_STATE='' && tap_skip "$a proof suite" \
				"not installed (command:package): $missing(make deps)" && tap_done)
			return 0
		fi
		ARCH=$a sh "$TOP/qemu-image/proof.sh"
		;;
	*) (TAP_STATE='' && tap_not_ok "unknown test suite '$1'" && tap_done) ;;
	esac
}

# check.sh --one SUITE: only run SUITE's command (run_suite, with KGEN set).
if [ "${1:-}" = --one ]; then
	suite_cmd "$2"
	exit
fi

# Every suite must end with its plan: a suite that stopped early, bailed
# out or miscounted fails here, as does one that exited non-zero without
# saying which test failed.  These verdicts go to SUITE.check.
suites=$*
for s in $suites; do
	msg "# === suite $s"
	rc=0
	case ${s%@*} in
	vm | vm-gcc | vm-debian)
		# The VM runner shows the guest's TAP on stderr as it comes.
		timed "check-$s" run_suite "$s" >"$out/$s.tap" || rc=$?
		: >"$out/$s.err"
		;;
	*)
		timed "check-$s" run_suite "$s" >"$out/$s.tap" 2>"$out/$s.err" || rc=$?
		cat "$out/$s.tap"
		;;
	esac
	tap_stream_verdict "$s" "$out/$s.tap" "$rc" >"$out/$s.check"
	cat "$out/$s.check"
	if [ -s "$out/$s.check" ] || [ -s "$out/$s.err" ]; then
		tail -n 20 "$out/$s.err" >&2
	fi
done

# Only result lines count: plans, diagnostics and the "N passed, ..."
# lines that some suites print for their own runs are not results.
files=
for s in $suites; do files="$files $out/$s.tap $out/$s.check"; done
# shellcheck disable=SC2046,SC2086 # three numbers; paths without blanks
set -- $(tap_count $files)
tap_summary "$1" "$2" "$3"
[ "$2" -eq 0 ] && [ "$1" -gt 0 ]
