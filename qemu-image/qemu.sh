# SPDX-License-Identifier: GPL-2.0
# Booting a guest and judging the run: the one QEMU helper of the VM
# suite (run.sh), its self-test and the proof suite (proof.sh).  Sourced
# after scripts/lib.sh, which has loaded the architecture's descriptor.
#
#   qemu_boot OUT ACCEL TIMEOUT KERNEL APPEND [QEMU-ARGS...]
#       Boot KERNEL with APPEND under $QEMU (the descriptor's machine,
#       serial ports, disks and exit device; @CONSOLE_LOG@, @RESULTS_LOG@,
#       @ROOTFS@ and @PAYLOAD@ become $OUT/console.log, $OUT/results.tap,
#       $QEMU_ROOTFS and $QEMU_PAYLOAD) with -no-reboot, under a hard
#       TIMEOUT.  The exact command line is printed on stderr and kept in
#       $OUT/qemu.cmd; QEMU's own output goes to $OUT/qemu.log.  Sets
#       QEMU_RC and QEMU_ELAPSED, and records the time in $LOGS/timings.
#       QEMU_STDIO=1: the console is this terminal (make shell) instead
#       of $OUT/console.log.
#   qemu_fail VERDICT OUT
#       The failure report: VERDICT, the logs' paths and the console's
#       last lines on stderr; "Bail out! VERDICT" on stdout, so that the
#       TAP stream shows why it ended.
#
# The verdicts are functions of what the run left behind, so that
# tests/parsers.sh can feed them recorded runs:
#   vm_verdict RC RESULTS TIMEOUT      the VM suite: "pass", "fail" (the
#                                      guest finished, tests failed), or
#                                      why the guest did not finish
#   proof_verdict RC CONSOLE TRACE TIMEOUT
#                                      the proof suite: nothing if the guest
#                                      ran the workload, or why not
# shellcheck shell=sh

# The marker lines that end a guest's run.
VM_END_MARKER='# uaccess-probe-guest: end '
PROOF_MARK='uaccess-probe-init: '

qemu_subst() {
	printf '%s\n' "$1" | sed -e "s|@CONSOLE_LOG@|$_q_out/console.log|g" \
		-e "s|@RESULTS_LOG@|$_q_out/results.tap|g" \
		-e "s|@ROOTFS@|${QEMU_ROOTFS:-}|g" -e "s|@PAYLOAD@|${QEMU_PAYLOAD:-}|g"
}

qemu_boot() {
	_q_out=$1 _q_accel=$2 _q_timeout=$3 _q_kernel=$4 _q_append=$5
	shift 5
	_q_serial=$QEMU_SERIAL
	_q_fg=
	if [ "${QEMU_STDIO:-0}" = 1 ]; then
		_q_serial=$(printf '%s\n' "$_q_serial" | sed 's|file:@CONSOLE_LOG@|mon:stdio|')
		_q_fg=--foreground
	fi
	# shellcheck disable=SC2046,SC2086 # the settings are word lists
	set -- timeout $_q_fg -k 10 "$_q_timeout" "$QEMU" $QEMU_MACHINE \
		-accel "$_q_accel" -nodefaults -display none -no-reboot $(qemu_subst "$_q_serial") \
		$(qemu_subst "${QEMU_DISKS:-}") ${QEMU_EXIT:-} -kernel "$_q_kernel" \
		"$@" -append "$_q_append"
	# The exact command, quoted for a shell: kept and shown.
	for _q_a in "$@"; do
		printf "'%s' " "$(printf '%s' "$_q_a" | sed "s/'/'\\\\''/g")"
	done | sed 's/ $/\n/' >"$_q_out/qemu.cmd"
	printf '  %-8s %s\n' QEMU "$(cat "$_q_out/qemu.cmd")" >&2
	_q_t0=$(date +%s)
	QEMU_RC=0
	if [ "${QEMU_STDIO:-0}" = 1 ]; then
		"$@" 2>"$_q_out/qemu.log" || QEMU_RC=$?
	else
		"$@" </dev/null >"$_q_out/qemu.log" 2>&1 || QEMU_RC=$?
	fi
	QEMU_ELAPSED=$(($(date +%s) - _q_t0))
	mkdir -p "$LOGS"
	printf '%s vm-%s-%s-%s %s %s\n' "$(date -u +%FT%TZ)" "$KVARIANT" \
		"${QEMU_WHAT:-boot}" "$_q_accel" "$QEMU_ELAPSED" "$QEMU_RC" >>"$LOGS/timings"
	printf '  %-8s %s\n' QEMU "QEMU ran for ${QEMU_ELAPSED}s, exit status $QEMU_RC" >&2
}

qemu_fail() {
	{
		printf 'error: %s\n' "$1"
		printf 'console log: %s\nQEMU output: %s\nQEMU command: %s\nlast console lines:\n' \
			"$2/console.log" "$2/qemu.log" "$2/qemu.cmd"
		tail -n 30 "$2/console.log" 2>/dev/null | tr -d '\r'
		tail -n 5 "$2/qemu.log" 2>/dev/null
	} >&2
	tap_bail_line "$1"
}

# The guest leaves through the exit device with 16 (all passed) or 17
# (failures), which QEMU turns into 33 or 35, after the end marker.
vm_verdict() {
	_v_marker=
	grep -q "^$VM_END_MARKER" "$2" 2>/dev/null && _v_marker=1
	case $1 in
	33) [ -n "$_v_marker" ] && echo pass && return ;;
	35) [ -n "$_v_marker" ] && echo fail && return ;;
	124 | 137)
		echo "timed out after ${3}s"
		return
		;;
	esac
	if [ -n "$_v_marker" ]; then
		echo "guest finished but QEMU exited with status $1"
	else
		echo "guest ended without its end marker (QEMU status $1: panic, crash or no exit device)"
	fi
}

# /init powers off (QEMU exits 0) after "end, 0 errors"; the trace is
# what it printed between its marker lines.
proof_verdict() {
	case $1 in
	0) ;;
	124 | 137)
		echo "the guest timed out after ${4}s"
		return
		;;
	*)
		echo "QEMU exited with status $1"
		return
		;;
	esac
	if ! grep -q "^${PROOF_MARK}end, 0 errors\$" "$2"; then
		echo "the guest ended without its end marker, or with errors"
	elif [ ! -s "$3" ]; then
		echo "the guest printed no trace"
	fi
}

# proof_require_arch: die, naming what is missing, unless $ARCH can run
# the proof suite: "proof" in ARCH_SUITES, /init's settings, its system
# call entry in proof/syscall.h, the host tools.
proof_require_arch() {
	if ! arch_has proof; then
		_p_with=
		for _p_a in $(list_descriptors "$ARCH_DIR"); do
			(load_arch "$_p_a" && arch_has proof) && _p_with="$_p_with $_p_a"
		done
		die "ARCH=$ARCH has no proof suite (ARCH_SUITES=\"$ARCH_SUITES\" in ${ARCH_CONF#"$TOP"/}); architectures with one:${_p_with:- none}"
	fi
	need_vars "$ARCH_CONF" INIT_CFLAGS INIT_LD INIT_MACRO
	grep -q "^#if.* defined($INIT_MACRO)" "$TOP/qemu-image/proof/syscall.h" ||
		die "ARCH=$ARCH: qemu-image/proof/syscall.h has no system call entry for $INIT_MACRO (INIT_MACRO in ${ARCH_CONF#"$TOP"/}): add sys_call5() and _start for it"
	_p_missing=$(arch_missing_tools proof)
	[ -z "$_p_missing" ] ||
		die "ARCH=$ARCH: missing host tools (command:package): $_p_missing- run 'make deps' (KTOOLS, QEMU_PKG, INIT_LD in ${ARCH_CONF#"$TOP"/})"
}

# proof_trace CONSOLE: the trace between /init's marker lines.
proof_trace() {
	sed -n "/^${PROOF_MARK}trace begin\$/,/^${PROOF_MARK}trace end\$/p" "$1"
}
