# SPDX-License-Identifier: GPL-2.0
# The probe-spec fuzzer's harness (spec-harness.c), compiled with the
# flags of a perf build and linked with its objects and libraries, as
# tools/perf/Makefile.perf's own $(OUTPUT)perf rule links perf: the same
# variables, read from that Makefile.perf, for perf 6.1 and 6.12 alike.
# Read after it, with FIXDEP=1 (fixdep is built; this must not recurse
# into perf's build) and perf's options, as scripts/perf-specfuzz.sh
# does:
#
#   make -C TREE/tools/perf -f Makefile.perf -f .../spec-harness.mk \
#       FIXDEP=1 O=PERF_BUILD (perf's options) SPEC_HARNESS=OUT spec-harness
#
# It never rebuilds perf: the objects are whatever the build holds (make
# perf-asan made them).  perf's main() is in perf-in.o; --wrap=main makes
# the harness's __wrap_main() the program's.

SPEC_HARNESS_SRC := $(dir $(lastword $(MAKEFILE_LIST)))spec-harness.c

.PHONY: spec-harness
spec-harness:
	$(CC) $(CFLAGS) -c $(SPEC_HARNESS_SRC) -o $(SPEC_HARNESS).o
	$(CC) $(CFLAGS) $(LDFLAGS) $(LIBTRACEEVENT_DYNAMIC_LIST_LDFLAGS) -Wl,--wrap=main \
		$(SPEC_HARNESS).o $(PERF_IN) $(PMU_EVENTS_IN) $(LIBS) -o $(SPEC_HARNESS)
