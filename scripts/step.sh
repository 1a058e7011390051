#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# step.sh NAME COMMAND...: run one build step and record its duration in
# $LOGS/timings (see timings.sh).
set -eu
. "$(dirname -- "$0")/lib.sh"
# Another generation's steps are NAME@GEN, as its suites are.
name=$1${GEN_TAG:+@$KGEN}
shift
timed "$name" "$@"
