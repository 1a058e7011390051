#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run test suites, keep each one's TAP in $BUILD/check/SUITE.tap, check
# that it is complete (its plan), and end with the line "N passed,
# N failed, N skipped" over all of them (scripts/tap.sh counts).
#
#   check.sh SUITE...      host suites: lint, targets, parsers, verdicts
#                          (check.sh's own replay key and expected skips),
#                          drift (a backport generation's series against
#                          its primary's),
#                          patches, send,
#                          series,
#                          dwarf, dwarf-stock, dwarf-asan (perf with the
#                          sanitizers), perf-tests (the series' own perf
#                          test cases, by the sanitized perf), deb (the
#                          patched perf's Debian package), dwarf-fuzz
#                          (mutated DWARF),
#                          spec-fuzz (random perf probe specs),
#                          kernel-dwarf, debian-tags (perf
#                          on Debian's own kernel); GCC user_dwarf plugin
#                          (dwarf-tests/gcc-plugin/): gcc-codegen, gcc-clang,
#                          gcc-notags, gcc-dwarf, gcc-stock; gcc16-kconfig
#                          (GCC 16 kernels with BTF get type tags);
#                          VM: vm, vm-gcc (the GCC kernel), vm-debian
#                          (Debian's own kernel, its tests), fuzz (the
#                          probe-event fuzzer's smoke), runner,
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
	dwarf-asan)
		# The same fixtures and expectations, with the perf built with
		# the sanitizers: any report of theirs fails.
		PERF=$(sh "$TOP/scripts/perf-asan.sh" --path) SANITIZERS=1 \
			BUILD=$BUILD/dwarf-tests$GEN_TAG-asan sh "$TOP/dwarf-tests/run.sh"
		;;
	perf-tests) sh "$TOP/scripts/perf-tests.sh" ;;
	deb) sh "$TOP/scripts/deb-test.sh" ;;
	dwarf-fuzz)
		# The DWARF mutation fuzzer's smoke (make fuzz runs the
		# campaign), seed 1: a failure repeats with the same INPUTS.
		INPUTS=${FUZZ_SMOKE_INPUTS:-200} SEED=${FUZZ_SMOKE_SEED:-1} \
			sh "$TOP/dwarf-tests/fuzz-dwarf.sh"
		;;
	spec-fuzz)
		# The probe-spec fuzzer's smoke (make fuzz runs the campaign),
		# seed 1: a failure repeats with the same SPECS.
		SPECS=${FUZZ_SMOKE_SPECS:-400} SEED=${FUZZ_SMOKE_SEED:-1} \
			sh "$TOP/dwarf-tests/fuzz-specs.sh"
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
	vm-debian) KCC=debian TESTS=debian-kernel,deb-install,debuginfod sh "$TOP/qemu-image/run.sh" check ;;
	fuzz)
		# The fuzzer's smoke on the debug kernel (make fuzz runs the
		# campaign): a fixed seed, so that a failure here repeats with
		# make fuzz FUZZ_SEED=1 FUZZ_SECONDS=90.
		KCC=debug FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-90} FUZZ_SEED=${FUZZ_SMOKE_SEED:-1} \
			sh "$TOP/qemu-image/run.sh" fuzz
		;;
	runner) sh "$TOP/qemu-image/selftest.sh" ;;
	parsers) sh "$TOP/qemu-image/parsers.sh" ;;
	verdicts) sh "$TOP/scripts/verdicts.sh" ;;
	drift) sh "$TOP/scripts/series-drift.sh" ;;
	proof-*)
		# The proof suite on another architecture (make builds its
		# kernel, its /init and the stock perf first).
		a=${1#proof-}
		missing=$(load_arch "$a" && arch_missing_tools proof) || return 1
		if [ -n "$missing" ]; then
			(TAP_STATE='' && tap_not_ok "$a proof suite: its tools are installed" &&
				echo "not installed (command:package): $missing: 'make deps' installs them" | tap_diag &&
				tap_done)
			return 1
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
key_only=
if [ "${1:-}" = --key ]; then
	key_only=$2
	shift
fi

# Suites run side by side, up to $CHECK_JOBS at a time (default: one per
# CPU): most of them use one CPU (a QEMU guest under TCG, perf on the
# fixtures), so on a machine of two a cold run would otherwise leave one
# idle.  A suite's twin on another generation (vm, vm@6.12) and the GCC
# plugin's suites share build folders: each such group is one chain, run
# in order.  Each suite's output is kept and shown, in the order given,
# once it and every suite before it have ended.
#
# Every suite must end with its plan: a suite that stopped early, bailed
# out or miscounted fails here, as does one that exited non-zero without
# saying which test failed.  These verdicts go to SUITE.check.
suites=$*
jobs=${CHECK_JOBS:-$(ncpus)}
case $jobs in '' | *[!0-9]* | 0) die "CHECK_JOBS=$jobs: a number of suites, 1 or more" ;; esac

# The series suites build in folders of their generation alone
# (build/each/, build/kernel-each-GEN-*): each is a chain of its own.
chain_of() {
	case ${1%@*} in
	gcc-* | gcc16-*) echo gcc ;;
	series) echo "$1" ;;
	*) echo "${1%@*}" ;;
	esac
}

# The chains, in the order of their first suite; the longest first, as
# long as a chain of one CPU ends the run: the series suites (16 min
# each in a cold run on 2 CPUs, every other chain under 8 min).
chains=
for s in $suites; do
	c=$(chain_of "$s")
	case " $chains " in *" $c "*) ;; *) chains="$chains $c" ;; esac
done
first=
rest=
for c in $chains; do
	case $c in series | series@*) first="$first $c" ;; *) rest="$rest $c" ;; esac
done
chains="$first$rest"
for s in $suites; do rm -f "$out/$s.rc" "$out/$s.replayed"; done

# installed_packages PACKAGES: the name and version of each of PACKAGES
# and of every installed package that they depend on, directly or not.
installed_packages() {
	dpkg-query -W -f '${Package} ${Version} ${Depends}, ${Pre-Depends}\n' 2>/dev/null |
		awk -v want="$1" '
		{
			ver[$1] = $2
			d = $0
			sub(/^[^ ]+ [^ ]+ /, "", d)
			dep[$1] = d
		}
		END {
			n = split(want, q, /[ \n]+/)
			for (i = 1; i <= n; i++) if (q[i] != "") seen[q[i]] = 1
			while (n > 0) {
				p = q[n--]
				if (!(p in dep)) continue
				m = split(dep[p], alt, /[,|]/)
				for (j = 1; j <= m; j++) {
					a = alt[j]
					gsub(/\([^)]*\)|:[a-z0-9]+/, "", a)
					gsub(/[ \t]/, "", a)
					if (a != "" && (a in ver) && !(a in seen)) {
						seen[a] = 1
						q[++n] = a
					}
				}
			}
			for (p in seen) printf "%s %s\n", p, (p in ver) ? ver[p] : "not-installed"
		}' | sort
}
# Verdicts: a suite that passed is not run again while nothing it
# tests or depends on has changed: every file that git sees in this
# clone, committed or not, but the documentation (*.md, which no suite
# reads), the Debian packages that make deps installs and everything
# they depend on (the compilers, QEMU, the libraries), the guest's root
# file systems (built from Debian's archive), what make check's builds
# made for the suite (every build it needs, directly or through
# another: make check-needs lists them, scripts/lib.sh's build_identity
# says what identifies each: perf by its content, a kernel by its
# objects...), and the environment variables that the scripts read.
# Not the clone's path: another clone of the same commit, CI's among
# them, replays what this one ran (suite verdicts tests both).  Its TAP
# is replayed, each result marked "(unchanged since it passed)".
# CHECK_FRESH=1 runs every suite.
verdicts=$CACHE/verdicts
world=
world_key() {
	# Every file as it is in the work tree, committed, changed or new.
	(cd "$TOP" && git ls-files -z -co --exclude-standard -- ':!*.md' |
		xargs -0 -r sha256sum 2>/dev/null)
	installed_packages "$(sh "$TOP/scripts/deps.sh" --list)"
	for a in $(list_descriptors "$ARCH_DIR"); do
		r=$(ARCH=$a sh "$TOP/qemu-image/rootfs.sh" --path 2>/dev/null) &&
			stat -c "${r##*/} %s %Y" "$r"
	done
	# The settings a suite can be run with: every ${NAME} that a script
	# reads, but the test library's own and check.sh's scheduling.
	for v in $(cd "$TOP" && git ls-files -co --exclude-standard -- '*.sh' qemu-image/guest/run |
		xargs grep -ohE '[$][{][A-Z][A-Z0-9_]*' | cut -c3- | sort -u); do
		case $v in TAP_STATE | TAP_OWN_STATE | TAP_PREFIX | CHECK_JOBS | CHECK_FRESH | TMPDIR) continue ;; esac
		_val=
		eval "_set=\${$v+set} _val=\${$v-}"
		[ -n "$_set" ] || continue
		printf '%s=%s\n' "$v" "$_val"
	done | without_paths	# what lib.sh makes of $BUILD and $TOP (KOBJ...)
}
# suite_builds SUITE: the builds that make check-needs lists for it.
suite_builds() {
	sed -n "s/^$1: *//p" "$out/check-needs"
}
# identity BUILD[@GEN]: build_identity's lines for it, once per run.
identity() {
	_id=$out/identity/$1
	if [ ! -f "$_id" ]; then
		mkdir -p "$out/identity"
		case $1 in
		*@*) KGEN=${1#*@} sh -c '. "$0"; build_identity "$1"' "$TOP/scripts/lib.sh" "${1%@*}" ;;
		*) build_identity "$1" ;;
		esac >"$_id.tmp" || return 1
		mv "$_id.tmp" "$_id"
	fi
	cat "$_id"
}
if { [ -n "$key_only" ] || [ -z "${CHECK_FRESH:-}" ]; } && git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	world=$(world_key | inputs_key)
	rm -rf "$out/identity"
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$TOP" check-needs \
		>"$out/check-needs" || die "make check-needs failed"
	for s in $suites; do
		printf '%s %s\n' "$s" "$world" >"$out/$s.key.in"
		for b in $(suite_builds "$s"); do
			printf '%s\n' "$b" >>"$out/$s.key.in"
			identity "$b" >>"$out/$s.key.in" || die "no identity for $b, which suite $s tests"
		done
		inputs_key <"$out/$s.key.in" >"$out/$s.key"
	done
fi
verdict_file() { printf '%s/suite-%s.tap\n' "$verdicts" "$(cat "$out/$1.key")"; }

# check.sh --key SUITE: only print the key of SUITE's kept verdict.
if [ "${key_only:-}" ]; then
	cat "$out/$key_only.key"
	exit
fi

# run_chain CHAIN: its suites, one after the other; SUITE.rc last.
run_chain() {
	for _s in $suites; do
		[ "$(chain_of "$_s")" = "$1" ] || continue
		_v=
		[ -z "$world" ] || _v=$(verdict_file "$_s")
		if [ -n "$_v" ] && [ -f "$_v" ]; then
			timed "check-$_s" tap_replay "$_v" >"$out/$_s.tap"
			printf '# suite %s: not run, nothing it depends on changed since it passed (CHECK_FRESH=1 runs it)\n' \
				"$_s" >"$out/$_s.replayed"
			: >"$out/$_s.err"
			echo 0 >"$out/$_s.rc"
			continue
		fi
		_rc=0
		timed "check-$_s" run_suite "$_s" >"$out/$_s.tap" 2>"$out/$_s.err" || _rc=$?
		# Keep the verdict of a suite that ran to its end and passed.
		if [ -n "$_v" ] && [ "$_rc" -eq 0 ] && [ -z "$(tap_plan_error "$out/$_s.tap")" ] &&
			[ "$(tap_count "$out/$_s.tap" | cut -d' ' -f2)" -eq 0 ]; then
			mkdir -p "$verdicts"
			cp "$out/$_s.tap" "$_v.tmp.$$" && mv "$_v.tmp.$$" "$_v"
		fi
		echo "$_rc" >"$out/$_s.rc"
	done
}

# report SUITE: its output and verdict, once.
reported=
report() {
	msg "# === suite $1"
	_shown=tap
	case ${1%@*} in vm | vm-gcc | vm-debian | fuzz) _shown=err ;; esac
	if [ -f "$out/$1.replayed" ]; then
		cat "$out/$1.replayed"
		_shown=tap
	fi
	case $_shown in
	err)
		# The VM runner's stderr is the guest's TAP as it came, with
		# QEMU's messages: that is what to show.
		cat "$out/$1.err"
		: >"$out/$1.err"
		;;
	*) cat "$out/$1.tap" ;;
	esac
	tap_stream_verdict "$1" "$out/$1.tap" "$(cat "$out/$1.rc")" >"$out/$1.check"
	cat "$out/$1.check"
	if [ -s "$out/$1.check" ] || [ -s "$out/$1.err" ]; then
		tail -n 20 "$out/$1.err" >&2
	fi
	reported="$reported $1"
}

# report_done: every suite not reported yet whose predecessors all are.
report_done() {
	for _s in $suites; do
		case " $reported " in *" $_s "*) continue ;; esac
		[ -f "$out/$_s.rc" ] || return 0
		report "$_s"
	done
}

pending=$chains
running=0
pids=
while [ -n "$pending" ] || [ -n "$pids" ]; do
	# Start chains while there is room.
	while [ -n "$pending" ] && [ "$running" -lt "$jobs" ]; do
		# shellcheck disable=SC2086 # chain names, without blanks
		set -- $pending
		run_chain "$1" &
		pids="$pids $!"
		running=$((running + 1))
		shift
		pending=$*
	done
	sleep 1
	still=
	running=0
	for p in $pids; do
		if kill -0 "$p" 2>/dev/null; then
			still="$still $p"
			running=$((running + 1))
		else
			wait "$p" || true
		fi
	done
	pids=$still
	report_done
done
report_done

# Every skip must be expected: scripts/known-skips.txt lists each one
# with its reason.  A skip it does not list (a package or a build that
# went missing, a test that stopped running) fails the run.
known=$TOP/scripts/known-skips.txt
(
	TAP_STATE=''
	tap_begin
	n=0
	for s in $suites; do
		_u=$(sh "$TOP/scripts/skips.sh" "$known" "$s" "$out/$s.tap" 2>&1) ||
			{ tap_not_ok "${known#"$TOP"/} can be read: $_u" && n=1 && continue; }
		[ -n "$_u" ] || continue
		printf '%s\n' "$_u" | while IFS= read -r u; do
			tap_not_ok "suite $s: an unexpected skip, not in ${known#"$TOP"/}: $(printf '%s' "$u" | sed 's/	/ # SKIP /')"
		done
		n=1
	done
	[ "$n" -eq 1 ] || tap_ok "every skip of this run is listed in ${known#"$TOP"/}, with its reason"
	tap_done
) >"$out/skips.tap"
msg "# === every skip expected"
cat "$out/skips.tap"

# Only result lines count: plans, diagnostics and the "N passed, ..."
# lines that some suites print for their own runs are not results.
files=$out/skips.tap
for s in $suites; do files="$files $out/$s.tap $out/$s.check"; done
# shellcheck disable=SC2046,SC2086 # three numbers; paths without blanks
set -- $(tap_count $files)
tap_summary "$1" "$2" "$3"
[ "$2" -eq 0 ] && [ "$1" -gt 0 ]
