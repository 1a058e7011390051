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
# the harness's __wrap_main() the program's.  The functions of
# SPEC_HARNESS_KEEP are the harness's too (what perf does again for every
# spec, the harness does once: spec-harness.c): weaken.sh makes a copy of
# the object of perf's util/ where perf's are weak and named
# __real_FUNCTION as well, and the harness is linked with the copy.  That
# object is perf-in.o in perf 6.1, perf-util-in.o (libperf-util.a's one
# member) in 6.12.

SPEC_HARNESS_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
SPEC_HARNESS_KEEP := debuginfo__new debuginfo__delete dso__load_vmlinux dso__new_map
SPEC_HARNESS_UTIL := $(SPEC_HARNESS)-util.o
ifdef LIBPERF_UTIL
SPEC_HARNESS_UTIL_IN := $(LIBPERF_UTIL_IN)
SPEC_HARNESS_LINK := $(PERF_IN) $(PMU_EVENTS_IN) $(subst $(LIBPERF_UTIL),$(SPEC_HARNESS_UTIL),$(LIBS))
else
SPEC_HARNESS_UTIL_IN := $(PERF_IN)
SPEC_HARNESS_LINK := $(SPEC_HARNESS_UTIL) $(PMU_EVENTS_IN) $(LIBS)
endif

.PHONY: spec-harness
spec-harness:
	$(CC) $(CFLAGS) -c $(SPEC_HARNESS_DIR)spec-harness.c -o $(SPEC_HARNESS).o
	sh $(SPEC_HARNESS_DIR)weaken.sh $(SPEC_HARNESS_UTIL_IN) $(SPEC_HARNESS_UTIL) $(SPEC_HARNESS_KEEP)
	$(CC) $(CFLAGS) $(LDFLAGS) $(LIBTRACEEVENT_DYNAMIC_LIST_LDFLAGS) -Wl,--wrap=main \
		$(SPEC_HARNESS).o $(SPEC_HARNESS_LINK) -o $(SPEC_HARNESS)
	rm -f $(SPEC_HARNESS_UTIL)
