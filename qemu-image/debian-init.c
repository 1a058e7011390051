// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the initramfs that boots Debian's own kernel with this
 * project's root file system (qemu-image/debian-boot.sh).  Debian's cloud
 * kernel has virtio as modules: load the modules listed in /modules.order
 * (one file name per line, dependencies first), mount the root disk
 * /dev/vda (ext4, built in), and hand over to the root file system's
 * /sbin/uaccess-probe-init, as the project's own kernels do.  On any
 * failure it says what failed on the console and powers the guest off, so
 * that the host sees a guest that never reached its end marker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void fail(const char *what)
{
	fprintf(stderr, "debian-init: %s: %s\n", what, strerror(errno));
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

static void load_modules(void)
{
	char name[256], path[300];
	FILE *order = fopen("/modules.order", "r");
	int fd;

	if (!order)
		fail("/modules.order");
	while (fgets(name, sizeof(name), order)) {
		name[strcspn(name, "\n")] = '\0';
		if (!name[0])
			continue;
		snprintf(path, sizeof(path), "/modules/%s", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fail(path);
		if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)
			fail(path);
		close(fd);
	}
	fclose(order);
}

int main(int argc, char *argv[])
{
	struct stat st;
	int i;

	(void)argc;
	mkdir("/dev", 0755);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) < 0 && errno != EBUSY)
		fail("mount /dev");
	load_modules();
	/* The disk appears once virtio_blk has probed it */
	for (i = 0; i < 500 && stat("/dev/vda", &st) < 0; i++)
		usleep(10000);
	mkdir("/root", 0755);
	if (mount("/dev/vda", "/root", "ext4", 0, NULL) < 0)
		fail("mount /dev/vda");
	if (umount2("/dev", MNT_DETACH) < 0)
		fail("umount /dev");
	if (chdir("/root") < 0)
		fail("chdir /root");
	if (mount(".", "/", NULL, MS_MOVE, NULL) < 0)
		fail("move the root");
	if (chroot(".") < 0 || chdir("/") < 0)
		fail("chroot");
	argv[0] = "/sbin/uaccess-probe-init";
	execv(argv[0], argv);
	fail("exec /sbin/uaccess-probe-init");
	return 1;
}
