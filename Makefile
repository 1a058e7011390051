# SPDX-License-Identifier: GPL-2.0
# uaccess-probe: this Makefile only wires the steps together; each step is
# a script in scripts/, qemu-image/ or dwarf-tests/.  See README.md.
#
#   make demo     build what is missing, boot the patched kernel, trace
#   make check    every test, host and VM; ends with "N passed, N failed, ..."

SHELL := /bin/sh
STEP := sh scripts/step.sh

.PHONY: help deps tree kernel kernel-gcc perf rootfs demo check check-host \
	check-vm check-gcc export-series timings bench bench-gcc-plugin clean

help:
	@sed -n '/^    make deps/,/^$$/p' README.md

deps:
	@$(STEP) deps sh scripts/deps.sh

tree: deps
	@$(STEP) tree sh scripts/tree.sh

kernel: tree
	@$(STEP) kernel sh scripts/kernel.sh

kernel-gcc: tree
	@KCC=gcc $(STEP) kernel-gcc sh scripts/kernel.sh

perf: tree
	@$(STEP) perf sh scripts/perf.sh

rootfs: deps
	@$(STEP) rootfs sh qemu-image/rootfs.sh >/dev/null

begin-%:
	@sh scripts/timings.sh --begin $*

# The demo's session is shown as it runs; its TAP is kept in build/demo.tap.
demo: begin-demo kernel perf
	@sh qemu-image/run.sh demo >build/demo.tap

GCC_SUITES := gcc-codegen gcc-clang gcc-notags gcc-dwarf gcc-stock
# The proof suite runs on every architecture whose descriptor
# (qemu-image/arch/ARCH.conf) lists it.
PROOF_SUITES := $(patsubst qemu-image/arch/%.conf,proof-%,\
	$(shell grep -l '^ARCH_SUITES=.*proof' qemu-image/arch/*.conf))

check: begin-check kernel kernel-gcc perf
	@sh scripts/check.sh lint targets parsers patches series dwarf \
		dwarf-stock kernel-dwarf $(GCC_SUITES) vm vm-gcc runner $(PROOF_SUITES)

check-host: tree perf
	@sh scripts/check.sh lint targets parsers patches series dwarf dwarf-stock

check-vm: kernel kernel-gcc perf
	@sh scripts/check.sh kernel-dwarf vm vm-gcc runner $(PROOF_SUITES)

check-gcc: tree perf
	@sh scripts/check.sh $(GCC_SUITES)

export-series:
	@sh scripts/export-series.sh

timings:
	@sh scripts/timings.sh

bench: kernel perf
	@sh bench/perf-probe-definitions.sh

bench-gcc-plugin: tree
	@sh user-dwarf/compare.sh cost

clean:
	rm -rf build
