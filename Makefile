# SPDX-License-Identifier: GPL-2.0
# uaccess-probe: the Makefile owns every build; each recipe is one step in
# scripts/ or qemu-image/ (see README.md, HACKING.md).  The test suites
# (scripts/check.sh) only test what these targets built.
#
#   make demo     build what is missing, boot the patched kernel, trace
#   make check    every test, host and VM; ends with "N passed, N failed, ..."
#
# Folders: kernel/ (kernel series, config fragments, kernel generation
# descriptors), tools-perf-patches/ (perf series), dwarf-tests/ (DWARF
# fixtures, the GCC plugin's suites, the kernel's tags), qemu-image/ (the
# guest, the VM and proof suites, architecture descriptors), scripts/
# (build steps, the test library), bench/.

SHELL := /bin/sh
STEP := sh scripts/step.sh
BUILD := build

.PHONY: help deps tree tags-tree kernel kernel-gcc kernel-debug perf perf-stock deb rootfs payload \
	debian-kernel debian-tags debian-boot payload-debian \
	payload-gcc payload-debug kernel-stock-debug payload-stock-debug gcc-objects clang-objects dwarf-marks proof-init demo shell \
	check check-host check-vm check-gcc check-plan check-needs export-series perf-asan perf-specfuzz send-check timings bench \
	user-tags-kernel bench-gcc-plugin bench-user-tags bench-user-tags-coverage bench-ccache bench-ccache-clones \
	bench-events payload-stock fuzz clean

help:
	@printf '%s\n' \
		'make demo          build what is missing, boot the patched kernel in QEMU, trace' \
		'make check         every build, then every suite, host and VM, of both generations;' \
		'                   ends with "N passed, N failed, N skipped"' \
		'make shell         a root shell in the guest on this terminal (KCC=gcc: the GCC' \
		'                   kernel, KCC=debian: the Debian kernel)' \
		'make deps          install the Debian packages (root); make demo and make check run it' \
		'make deb           the patched perf as a Debian package, per generation (build/deb*/)' \
		'make check-host    only the host suites (check-vm: the VM ones, check-gcc: the GCC' \
		'                   plugin ones); make check-plan lists the suites and their builds' \
		'make timings       how long each step of the last check or demo took (RECORD=1: and' \
		'                   add it to bench/measured.md)' \
		'make export-series write build/linux commits back to the series folders, as mail' \
		'make send-check    each series as it would be mailed' \
		'make bench         what the __user detection costs perf probe -D; bench-gcc-plugin,' \
		'                   bench-user-tags, bench-user-tags-coverage, bench-ccache,' \
		'                   bench-ccache-clones, bench-events: the other costs' \
		'                   (bench/README.md)' \
		'make user-tags-kernel  the __user tags of all of Debian'"'"'s kernel, one artifact per' \
		'                   build-id, to serve with debuginfod -F (hours; not in check)' \
		'make fuzz          the three fuzzers to their targets, every generation (hours)' \
		'make clean         remove build/' \
		'' \
		'Every build and suite: scripts/README.md.  The rest: README.md.'

# The architectures whose descriptor (qemu-image/arch/ARCH.conf) runs the
# proof suite, and the kernel objects of the GCC plugin's suites.
PROOF_ARCHES := $(patsubst qemu-image/arch/%.conf,%,\
	$(shell grep -l '^ARCH_SUITES=.*proof' qemu-image/arch/*.conf))
PROOF_SUITES := $(addprefix proof-,$(PROOF_ARCHES))
PLUGIN_OBJECTS := $(shell sed -e 's/\#.*//' -e '/^[[:space:]]*$$/d' \
	dwarf-tests/gcc-plugin/objects.txt)

# Each build's prerequisites, as data: the rules below use them, and so
# do those of another generation's builds (TARGET@GEN, further down),
# which make runs in parallel with the default generation's.  Builds
# that share a folder are ordered here (clang-objects builds in the clang
# kernel's folder, gcc-objects in the GCC kernel's).
ARCHES := $(patsubst qemu-image/arch/%.conf,%,$(wildcard qemu-image/arch/*.conf))
DEFAULT_ARCH := $(shell cat qemu-image/arch/default)
deps_deps :=
deps_tree := deps
deps_kernel := tree
deps_kernel-gcc := tree
deps_kernel-debug := tree
deps_kernel-stock-debug := tree
$(foreach a,$(ARCHES),$(eval deps_kernel-$(a) := tree))
$(foreach a,$(ARCHES),$(eval deps_kernel-stock-$(a) := tree))
$(foreach a,$(ARCHES),$(eval deps_proof-init-$(a) := kernel-$(a)))
deps_perf := tree
deps_perf-stock := tree
deps_perf-asan := tree
deps_perf-specfuzz := perf-asan
deps_gcc-objects := kernel-gcc
deps_clang-objects := kernel
deps_debian-kernel := deps
deps_tags-tree := tree
deps_debian-tags := tags-tree debian-kernel
deps_user-tags-kernel := tags-tree debian-kernel
deps_bench-user-tags-coverage := user-tags-kernel perf kernel
deps_debian-boot := debian-kernel
deps_payload-debian := debian-boot debian-tags perf perf-stock deb rootfs
deps_deb := perf
deps_rootfs := deps
deps_payload := kernel perf rootfs
deps_payload-gcc := kernel-gcc perf rootfs
deps_payload-debug := kernel-debug perf rootfs
deps_payload-stock := kernel-stock-$(DEFAULT_ARCH) perf rootfs
deps_payload-stock-debug := kernel-stock-debug perf rootfs
deps_export-series :=
# Builds that are the same for every generation.
GEN_FREE := deps rootfs dwarf-marks

deps:
	@$(STEP) deps sh scripts/deps.sh

tree: $(deps_tree)
	@$(STEP) tree sh scripts/tree.sh

kernel: $(deps_kernel)
	@$(STEP) kernel sh scripts/kernel.sh

kernel-gcc: $(deps_kernel-gcc)
	@KCC=gcc $(STEP) kernel-gcc sh scripts/kernel.sh

# The debug kernel (KCC=debug): the patched kernel with clang and the
# generation's KCONFIGS_DEBUG (KASAN, KFENCE, lockdep), for the fuzzer.
kernel-debug: $(deps_kernel-debug)
	@KCC=debug $(STEP) kernel-debug sh scripts/kernel.sh

# The stock kernel with the same debug options (KCC=stock-debug): the
# control of the probe-event fuzzer's campaign (make fuzz).
kernel-stock-debug: $(deps_kernel-stock-debug)
	@KCC=stock-debug $(STEP) kernel-stock-debug sh scripts/kernel.sh

# The kernel of another architecture: make kernel-s390x
$(foreach a,$(ARCHES),kernel-$(a)): kernel-%: tree
	@ARCH=$* $(STEP) kernel-$* sh scripts/kernel.sh

# The stock kernel of an architecture (KCC=stock: the tree without the
# series, same configuration), the control of the proof suite's "btf"
# cases: built for a generation whose PROOF_CASES has such cases, and
# for any with KSTOCK=1.
PROOF_BTF = . ./kernel/generations/$(or $(KGEN),$(DEFAULT_GEN)).conf && \
	grep -q '^btf[[:space:]]' "$$PROOF_CASES"
$(foreach a,$(ARCHES),kernel-stock-$(a)): kernel-stock-%: tree
	@if [ -n "$(KSTOCK)" ] || { $(PROOF_BTF); }; then \
		ARCH=$* KCC=stock $(STEP) kernel-stock-$* sh scripts/kernel.sh; \
	else \
		echo "  KERNEL   stock $*: not needed (no btf case in the PROOF_CASES of $(or $(KGEN),$(DEFAULT_GEN)))"; \
	fi

perf: $(deps_perf)
	@$(STEP) perf sh scripts/perf.sh

# The patched perf as a Debian package, a drop-in for Debian's linux-perf
# of the same source (build/deb/, scripts/deb.sh).
deb: $(deps_deb)
	@$(STEP) deb sh scripts/deb.sh >/dev/null

# The stock perf (the tree without the series): what the stock columns,
# the proof suite and the benchmark compare with.
perf-stock: $(deps_perf-stock)
	@$(STEP) perf-stock sh scripts/perf-stock.sh

# The objects of dwarf-tests/gcc-plugin/objects.txt and the plugin, by
# Kbuild: in the GCC kernel's folder, and in the clang kernel's.
gcc-objects: $(deps_gcc-objects)
	@KCC=gcc KTARGETS="scripts $(PLUGIN_OBJECTS)" $(STEP) gcc-objects \
		sh scripts/kernel.sh

clang-objects: $(deps_clang-objects)
	@KTARGETS="$(PLUGIN_OBJECTS)" $(STEP) clang-objects sh scripts/kernel.sh

# The patched perf with AddressSanitizer and UBSan (build/perf-asan),
# which the dwarf-asan suite runs the DWARF fixtures with.
perf-asan: $(deps_perf-asan)
	@$(STEP) perf-asan sh scripts/perf-asan.sh

# The probe-spec fuzzer's harness (build/perf-specfuzz): perf's probe
# code for spec after spec in one process, linked with the sanitized
# perf's objects by its own Makefile.perf (dwarf-tests/fuzz/).
perf-specfuzz: $(deps_perf-specfuzz)
	@$(STEP) perf-specfuzz sh scripts/perf-specfuzz.sh

# Debian's own kernel of the generation (image, -dbg vmlinux, headers),
# fetched into the cache; and the tagged build of the units that
# dwarf-tests/debian-tags/GEN.txt probes (scripts/user-tags.sh).
debian-kernel: $(deps_debian-kernel)
	@$(STEP) debian-kernel sh scripts/debian-kernel.sh >/dev/null

# build/linux-tags: base + the series a tagged build of Debian's kernel
# needs (TAGS_SERIES), for scripts/user-tags.sh.
tags-tree: $(deps_tags-tree)
	@$(STEP) tags-tree sh scripts/tags-tree.sh

debian-tags: $(deps_debian-tags)
	@$(STEP) debian-tags sh scripts/debian-tags.sh

# Debian's kernel, readied for the guest (an initrd with the modules that
# mount the root disk), and its payload disk (KCC=debian).
debian-boot: $(deps_debian-boot)
	@KCC=debian $(STEP) debian-boot sh qemu-image/debian-boot.sh

payload-debian: $(deps_payload-debian)
	@KCC=debian $(STEP) payload-debian sh qemu-image/payload.sh

# The DWARF dumper of the GCC plugin's suites.
dwarf-marks: $(BUILD)/gcc-plugin/dwarf-marks

$(BUILD)/gcc-plugin/dwarf-marks: dwarf-tests/gcc-plugin/dwarf-marks.c | deps
	@mkdir -p $(@D)
	@$(STEP) dwarf-marks cc -O2 -Wall -o $@ $< -ldw -lelf

rootfs: $(deps_rootfs)
	@$(STEP) rootfs sh qemu-image/rootfs.sh >/dev/null

# The guest's payload disk: perf, the kernel and its modules, the guest
# scripts and tests.
payload: $(deps_payload)
	@$(STEP) payload sh qemu-image/payload.sh

# The stock kernel's payload disk (KCC=stock), for make bench-events.
payload-stock: $(deps_payload-stock)
	@KCC=stock $(STEP) payload-stock sh qemu-image/payload.sh

payload-gcc: $(deps_payload-gcc)
	@KCC=gcc $(STEP) payload-gcc sh qemu-image/payload.sh

payload-debug: $(deps_payload-debug)
	@KCC=debug $(STEP) payload-debug sh qemu-image/payload.sh

payload-stock-debug: $(deps_payload-stock-debug)
	@KCC=stock-debug $(STEP) payload-stock-debug sh qemu-image/payload.sh

# The proof suite's /init for an architecture: make proof-init-s390x
proof-init: $(addprefix proof-init-,$(PROOF_ARCHES))

$(foreach a,$(ARCHES),proof-init-$(a)): proof-init-%: kernel-%
	@ARCH=$* $(STEP) proof-init-$* sh qemu-image/proof-init.sh

begin-%:
	@sh scripts/timings.sh --begin $*

# The demo's session is shown as it runs; its TAP is kept in build/demo.tap.
demo: begin-demo payload
	@sh qemu-image/run.sh demo >build/demo.tap

# A root shell in the guest, on this terminal (KCC=gcc: the GCC kernel,
# KCC=debian: Debian's own).
shell: payload$(if $(filter gcc debian,$(KCC)),-$(KCC))
	@sh qemu-image/run.sh shell

# The suites and the builds they need.  Each kernel generation names its
# suites (SUITES in kernel/generations/GEN.conf; "proof" stands for
# proof-ARCH on every architecture that runs it); the default
# generation's run under their own names, another's as SUITE@GEN, with
# their builds made as TARGET@GEN (make KGEN=GEN TARGET).  lint, targets,
# parsers, verdicts, drift and runner test no kernel generation.
DEFAULT_GEN := $(shell cat kernel/generations/default)
OTHER_GENS := $(filter-out $(DEFAULT_GEN),\
	$(patsubst kernel/generations/%.conf,%,$(wildcard kernel/generations/*.conf)))
gen_suites = $(patsubst proof,$(PROOF_SUITES),\
	$(shell . ./kernel/generations/$(1).conf && echo "$$SUITES"))

needs_lint :=
needs_targets :=
needs_parsers :=
needs_verdicts :=
needs_drift :=
needs_runner := payload
needs_patches := tree
needs_send := tree
needs_series := tree
needs_dwarf := perf
needs_dwarf-stock := perf-stock
needs_dwarf-asan := perf-asan
needs_perf-tests := perf-asan
needs_dwarf-fuzz := perf-asan perf-specfuzz
needs_spec-fuzz := kernel perf-specfuzz
needs_kernel-dwarf := kernel perf
needs_deb := deb
needs_debian-tags := debian-tags perf perf-stock
GCC_SUITES := gcc-codegen gcc-clang gcc-notags gcc-dwarf gcc-stock gcc16-kconfig
$(foreach s,$(GCC_SUITES),$(eval needs_$(s) := tree perf perf-stock gcc-objects \
	clang-objects dwarf-marks))
needs_vm := payload
needs_vm-gcc := payload-gcc
needs_vm-debian := payload-debian
needs_fuzz := kernel-debug payload-debug
$(foreach s,$(PROOF_SUITES),$(eval needs_$(s) := $(subst proof,kernel,$(s)) \
	$(subst proof,kernel-stock,$(s)) $(subst proof,proof-init,$(s)) perf perf-stock))

# gen_needs SUITE GEN: what SUITE needs built on generation GEN: its
# needs_SUITE, and what GEN's own data adds to them: kernel-dwarf's cases
# of the GCC kernel ("gcc:" ids in GEN's KERNEL_DWARF_CASES) need it.
gen_var = $(shell . ./kernel/generations/$(1).conf && echo "$$$(2)")
gen_needs = $(needs_$(1)) $(if $(filter kernel-dwarf,$(1)),$(if $(shell \
	grep -qs '^gcc:' '$(call gen_var,$(2),KERNEL_DWARF_CASES)' && echo y),kernel-gcc))

# suites_at GEN: that generation's suites, by the names check.sh runs them
# under.
suites_at = $(if $(filter $(DEFAULT_GEN),$(1)),$(call gen_suites,$(1)),\
	$(addsuffix @$(1),$(call gen_suites,$(1))))
ALL_SUITES := lint targets parsers verdicts drift $(call suites_at,$(DEFAULT_GEN)) runner \
	$(foreach g,$(OTHER_GENS),$(call suites_at,$(g)))
# The builds of SUITES (names with or without @GEN).
builds_of = $(sort $(foreach s,$(1),$(if $(findstring @,$(s)),\
	$(addsuffix @$(lastword $(subst @, ,$(s))),\
		$(call gen_needs,$(firstword $(subst @, ,$(s))),$(lastword $(subst @, ,$(s))))),\
	$(call gen_needs,$(s),$(DEFAULT_GEN)))))
VM_CLASS := vm vm-gcc vm-debian fuzz runner $(PROOF_SUITES)
class_of = $(foreach s,$(ALL_SUITES),$(if $(filter $(1),$(firstword $(subst @, ,$(s)))),$(s)))
VM_SUITES := $(call class_of,$(VM_CLASS))
GCC_ALL := $(call class_of,$(GCC_SUITES))
HOST_SUITES := $(filter-out $(VM_SUITES) $(GCC_ALL),$(ALL_SUITES))

# TARGET@GEN: make TARGET for kernel generation GEN, after its
# prerequisites at GEN (or, for GEN_FREE builds, the one of every
# generation), which that make then takes as done (-o), so that the
# builds of both generations can run at the same time.
GEN_TARGETS := $(sort $(foreach s,$(ALL_SUITES),$(needs_$(firstword $(subst @, ,$(s))))) \
	tree kernel kernel-debug kernel-stock-debug perf perf-stock payload payload-stock payload-debug \
	payload-stock-debug debian-kernel \
	tags-tree debian-boot user-tags-kernel bench-user-tags-coverage \
	export-series $(foreach a,$(ARCHES),kernel-stock-$(a)))
gen_dep = $(if $(filter $(GEN_FREE),$(1)),$(1),$(1)@$(2))
$(foreach g,$(OTHER_GENS),$(foreach t,$(GEN_TARGETS),$(eval $(t)@$(g): \
	$(foreach d,$(deps_$(t)),$(call gen_dep,$(d),$(g))) ; \
	@$$(MAKE) --no-print-directory KGEN=$(g) $(addprefix -o ,$(deps_$(t))) $(t))))

# The builds of make check run in parallel, one job per CPU (each kernel
# build is parallel too; the rest, such as the root file system, Debian's
# packages and the trees, are not).
BUILD_JOBS ?= $(shell getconf _NPROCESSORS_ONLN)

# make starts the goals it is given in their order, as many at a time as
# it has jobs: the longest go first, or the last kernel to start ends
# long after everything else (a cold make check, 2 CPUs: the kernels took
# 15 to 28 min each, every other build under 5 min; bench/measured.md).
# First the x86_64 guest kernels, the largest (the debug kernels with
# KASAN, then 6.12's, with BTF, then GCC's, which
# gcc-objects and payload-gcc need, then clang's, which clang-objects and
# payload need), then every other kernel, then perf.
BUILDS_FIRST := kernel-debug@% kernel-debug kernel-stock-debug% kernel@% gcc-objects clang-objects kernel \
	kernel-s390x% kernel-stock-% perf@% perf perf-asan% perf-stock%
uniq = $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
longest_first = $(call uniq,$(foreach p,$(BUILDS_FIRST),$(filter $(p),$(1))) $(1))
CHECK_BUILDS = $(call longest_first,$(call builds_of,$(ALL_SUITES)))

# Every build that make check or make demo can start has a path to deps
# (the suite "targets" checks it in make's database): on a fresh machine
# nothing compiles before the packages it needs are installed.
check: begin-check deps
	@$(MAKE) --no-print-directory -j$(BUILD_JOBS) $(CHECK_BUILDS)
	@sh scripts/check.sh $(ALL_SUITES)

check-host: $(call builds_of,$(HOST_SUITES))
	@sh scripts/check.sh $(HOST_SUITES)

check-vm: $(call builds_of,$(VM_SUITES))
	@sh scripts/check.sh $(VM_SUITES)

check-gcc: $(call builds_of,$(GCC_ALL))
	@sh scripts/check.sh $(GCC_ALL)

# Print the suites of make check, and the builds they need.
check-plan:
	@printf 'suites: %s\n' '$(strip $(ALL_SUITES))'
	@printf 'builds: %s\n' '$(strip $(CHECK_BUILDS))'

# Each suite and every build it tests, directly or through another build
# (a payload, its kernel and perf), one line each ("SUITE: BUILD..."):
# scripts/check.sh keys a suite's kept verdict on what these built.
deps_of = $(if $(findstring @,$(1)),$(foreach d,$(deps_$(firstword $(subst @, ,$(1)))),\
	$(call gen_dep,$(d),$(lastword $(subst @, ,$(1))))),$(deps_$(1)))
closure = $(foreach t,$(1),$(t) $(call closure,$(call deps_of,$(t))))
check-needs:
	@$(foreach s,$(ALL_SUITES),printf '%s:%s\n' '$(s)' \
		'$(foreach b,$(sort $(call closure,$(call builds_of,$(s)))), $(b))';)

export-series:
	@sh scripts/export-series.sh

# Each series as it would be mailed: checkpatch --strict, identity,
# subjects, maintainers, export reproduced (patches, send), applied to
# base on its own and built after every patch, diffstat (series).
send-check: tree kernel perf
	@sh scripts/check.sh patches send series

timings:
	@sh scripts/timings.sh

bench: kernel perf perf-stock
	@sh bench/perf-probe-definitions.sh

bench-user-tags: tags-tree perf perf-stock debian-kernel
	@sh bench/user-tags.sh

bench-user-tags-coverage: $(deps_bench-user-tags-coverage)
	@sh bench/user-tags-coverage.sh

# The tags of all of Debian's kernel of the generation, image and every
# module, one artifact per build-id to serve with debuginfod -F (an hour
# and more: not part of make check; bench-user-tags-coverage measures them).
user-tags-kernel: $(deps_user-tags-kernel)
	@sh scripts/user-tags-kernel.sh >/dev/null

# What a probe hit costs with the kernel series over the stock kernel
# (bench/events.sh), on generation BENCH_GEN: by default the last one
# whose kernel chooses by itself (its tracefs README says so).
BENCH_GEN ?= $(lastword $(foreach g,$(DEFAULT_GEN) $(OTHER_GENS),$(shell \
	. ./kernel/generations/$(g).conf && \
	grep -q 'reads user memory through __user pointers' "$$TRACEFS_README" && echo $(g))))
bench-events:
	@$(MAKE) --no-print-directory KSTOCK=1 payload@$(BENCH_GEN) payload-stock@$(BENCH_GEN)
	@KGEN=$(BENCH_GEN) sh bench/events.sh

# The probe-event fuzzer (qemu-image/fuzz/) in the guest of every
# generation's debug kernel (the series with KASAN, KFENCE and lockdep),
# and of its stock kernel with the same debug options as the control
# (KCC=stock-debug), in turn, for FUZZ_SECONDS of guest time each
# (FUZZ_SEED repeats a run) and on until it has FUZZ_ACCEPTED accepted
# definitions and FUZZ_HITS hits, for FUZZ_MAX_SECONDS at most (a run
# that does not reach them fails); its figures are in each run's TAP.
FUZZ_SEED ?= 1
FUZZ_SECONDS ?= 1800
FUZZ_ACCEPTED ?= 10000
FUZZ_HITS ?= 1000000
FUZZ_MAX_SECONDS ?= 14400
# A run of the series' kernel that fails stops make fuzz; the control's
# failures are stock's own (the bugs the series fixes among them), so
# they are reported and make fuzz goes on.
FUZZ_RUN = FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) FUZZ_ACCEPTED=$(FUZZ_ACCEPTED) \
	FUZZ_HITS=$(FUZZ_HITS) FUZZ_MAX_SECONDS=$(FUZZ_MAX_SECONDS) sh qemu-image/run.sh fuzz
# Then the DWARF mutation fuzzer (dwarf-tests/fuzz-dwarf.sh) with the
# sanitized perf's probe code of every generation (its harness, and perf
# itself to confirm a finding), FUZZ_DWARF_INPUTS inputs each.
FUZZ_DWARF_INPUTS ?= 100000
# Then the probe-spec fuzzer (dwarf-tests/fuzz-specs.sh) on the guest
# kernel of every generation, with its sanitized perf's probe code,
# FUZZ_SPECS specs each.
FUZZ_SPECS ?= 100000
fuzz:
	@$(MAKE) --no-print-directory payload-debug payload-stock-debug \
		$(foreach g,$(OTHER_GENS),payload-debug@$(g) payload-stock-debug@$(g))
	@for g in $(DEFAULT_GEN) $(OTHER_GENS); do \
		KGEN=$$g KCC=debug $(FUZZ_RUN) || exit 1; \
		KGEN=$$g KCC=stock-debug $(FUZZ_RUN) || \
			echo "  FUZZ     $$g: the stock kernel (the control) has splats or failures of its own: its TAP above says which"; \
	done
	@$(MAKE) --no-print-directory perf-specfuzz $(foreach g,$(OTHER_GENS),perf-specfuzz@$(g))
	@for g in $(DEFAULT_GEN) $(OTHER_GENS); do \
		KGEN=$$g INPUTS=$(FUZZ_DWARF_INPUTS) SEED=$(FUZZ_SEED) \
			sh dwarf-tests/fuzz-dwarf.sh || exit 1; \
	done
	@$(MAKE) --no-print-directory kernel perf-specfuzz \
		$(foreach g,$(OTHER_GENS),kernel@$(g) perf-specfuzz@$(g))
	@for g in $(DEFAULT_GEN) $(OTHER_GENS); do \
		KGEN=$$g SPECS=$(FUZZ_SPECS) SEED=$(FUZZ_SEED) \
			sh dwarf-tests/fuzz-specs.sh || exit 1; \
	done

bench-gcc-plugin: gcc-objects
	@sh dwarf-tests/gcc-plugin/compare.sh cost

# What ccache costs a kernel build on an empty cache, in each of its modes.
bench-ccache: kernel
	@sh bench/ccache-modes.sh

# What a second clone at another path gets from the first one's ccache.
bench-ccache-clones: $(if $(filter-out clang,$(or $(KCC),clang)),kernel-$(KCC),kernel)
	@sh bench/ccache-clones.sh

clean:
	rm -rf build
