// SPDX-License-Identifier: GPL-2.0
/*
 * isa-debug-exit PORT BYTE: leave QEMU through its isa-debug-exit device
 * (QEMU exits with status (BYTE << 1) | 1), for a guest kernel without
 * /dev/port (Debian's: CONFIG_DEVPORT is not set).  guest/run uses it
 * when /dev/port is missing; payload.sh builds it, static, where the
 * architecture's descriptor says GUEST_EXIT=isa-debug-exit:PORT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>

int main(int argc, char *argv[])
{
	unsigned long port;

	if (argc != 3) {
		fprintf(stderr, "usage: isa-debug-exit PORT BYTE\n");
		return 2;
	}
	port = strtoul(argv[1], NULL, 0);
	if (ioperm(port, 1, 1) < 0) {
		perror("isa-debug-exit: ioperm");
		return 1;
	}
	outb((unsigned char)strtoul(argv[2], NULL, 0), port);
	return 1;	/* Still here: no exit device at PORT */
}
