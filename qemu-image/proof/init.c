// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the proof suite's initramfs: a freestanding static program,
 * no libc, raw system calls only (see syscall.h).
 *
 * It mounts devtmpfs, proc, tracefs, debugfs and a tmpfs, writes the kprobe
 * definitions that the host made (/probes, one kprobe_events line each,
 * all in the group "uaccess") to kprobe_events, and runs the workload
 * with these events enabled:
 *
 *   openat() of $uaccess_open, a file that exists in the initramfs
 *   sched_setscheduler(0, SCHED_FIFO, { $uaccess_prio })
 *   nanosleep({ 0, $uaccess_nsec }, NULL)
 *   symlinkat($uaccess_symlink, AT_FDCWD, "/tmp/link")
 *   if /test_probe_user.ko exists (it is loaded before the probes are
 *   added): write $uaccess_trigger to /debug/test_probe_user/run
 *
 * The values come from the kernel command line: the kernel hands
 * "name=value" parameters it does not know to init as its environment.
 * Then it prints the trace between marker lines on the console and
 * powers the machine off.  Every step says on the console what it did;
 * anything that goes wrong is an "error:" line, and the host fails the
 * run.  The host, not this program, decides what the trace must show.
 */
#include <linux/fcntl.h>
#include <linux/reboot.h>
#include <linux/sched.h>
#include <asm/unistd.h>

#include "syscall.h"

#define MARK		"uaccess-probe-init: "
#define TRACING		"/tracing"
#define DEBUGFS		"/debug"
#define GROUP		"uaccess"
#define MODULE		"/test_probe_user.ko"
#define TRIGGER		DEBUGFS "/test_probe_user/run"

static int console = -1;
static int errors;

static unsigned long str_len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(const char *s)
{
	sys_call3(__NR_write, console, (long)s, str_len(s));
}

static void put_long(long v)
{
	char buf[24];
	char *p = buf + sizeof(buf) - 1;
	int neg = v < 0;
	unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;

	*p = '\0';
	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (neg)
		*--p = '-';
	put(p);
}

/* One console line: MARK, what was done, and its result. */
static void report(const char *what, const char *arg, long ret)
{
	put(MARK);
	if (ret < 0) {
		put("error: ");
		errors++;
	}
	put(what);
	if (arg) {
		put(" ");
		put(arg);
	}
	put(" = ");
	put_long(ret);
	put("\n");
}

static long open_file(const char *path, int flags)
{
	return sys_call4(__NR_openat, AT_FDCWD, (long)path, flags, 0);
}

static void close_fd(long fd)
{
	if (fd >= 0)
		sys_call1(__NR_close, fd);
}

/* Write the string @s to the file @path, as "echo -n s > path" would. */
static long write_file(const char *path, const char *s)
{
	long fd = open_file(path, O_WRONLY);
	long ret;

	if (fd < 0)
		return fd;
	ret = sys_call3(__NR_write, fd, (long)s, str_len(s));
	close_fd(fd);
	return ret;
}

static void do_mount(const char *type, const char *dir)
{
	report("mount", dir,
	       sys_call5(__NR_mount, (long)type, (long)dir, (long)type, 0, 0));
}

/* The value of "name=value" in @envp, or "" when there is none. */
static const char *getenv(char **envp, const char *name)
{
	unsigned long n = str_len(name);
	unsigned long i;

	for (; *envp; envp++) {
		for (i = 0; i < n && (*envp)[i] == name[i]; i++)
			;
		if (i == n && (*envp)[n] == '=')
			return *envp + n + 1;
	}
	return "";
}

static long to_long(const char *s)
{
	long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + *s++ - '0';
	return v;
}

/*
 * Hand the probe definitions to kprobe_events one line at a time, so that
 * a line the kernel rejects is named on the console.
 */
static void add_probes(void)
{
	static char defs[16384];
	long fd, len = 0, ret;
	char *line, *end;

	fd = open_file("/probes", O_RDONLY);
	if (fd < 0) {
		report("open", "/probes", fd);
		return;
	}
	while (len < (long)sizeof(defs) - 1) {
		ret = sys_call3(__NR_read, fd, (long)defs + len,
				sizeof(defs) - 1 - len);
		if (ret <= 0)
			break;
		len += ret;
	}
	close_fd(fd);
	defs[len] = '\0';

	for (line = defs; *line; line = end) {
		for (end = line; *end && *end != '\n'; end++)
			;
		if (*end)
			*end++ = '\0';
		if (!*line || *line == '#')
			continue;
		fd = open_file(TRACING "/kprobe_events", O_WRONLY | O_APPEND);
		ret = fd < 0 ? fd : sys_call3(__NR_write, fd, (long)line,
					      str_len(line));
		close_fd(fd);
		report("kprobe_events <", line, ret);
	}
}

/* The test module, when the host put it into the initramfs. */
static long load_module(void)
{
	long fd = open_file(MODULE, O_RDONLY);
	long ret;

	if (fd < 0)
		return fd;
	ret = sys_call3(__NR_finit_module, fd, (long)"", 0);
	close_fd(fd);
	report("finit_module", MODULE, ret);
	return ret;
}

/*
 * @trigger_fd is the module's trigger, opened before tracing starts so that
 * the workload's openat() is the only one the probes see; or -1.
 */
static void workload(char **envp, long trigger_fd)
{
	struct { int sched_priority; } param;
	struct { long tv_sec; long tv_nsec; } ts;
	const char *trigger = getenv(envp, "uaccess_trigger");
	long tracing_on, fd;

	/* Stop with a write, not an open that the probes would see. */
	tracing_on = open_file(TRACING "/tracing_on", O_WRONLY);
	report("open", TRACING "/tracing_on", tracing_on);
	report("enable", GROUP,
	       write_file(TRACING "/events/" GROUP "/enable", "1"));

	fd = open_file(getenv(envp, "uaccess_open"), O_RDONLY);
	report("openat", getenv(envp, "uaccess_open"), fd);
	close_fd(fd);

	param.sched_priority = to_long(getenv(envp, "uaccess_prio"));
	report("sched_setscheduler SCHED_FIFO", getenv(envp, "uaccess_prio"),
	       sys_call3(__NR_sched_setscheduler, 0, SCHED_FIFO,
			 (long)&param));

	/* A user structure that an out-of-line function reads */
	ts.tv_sec = 0;
	ts.tv_nsec = to_long(getenv(envp, "uaccess_nsec"));
	report("nanosleep", getenv(envp, "uaccess_nsec"),
	       sys_call3(__NR_nanosleep, (long)&ts, 0, 0));

	report("symlinkat", getenv(envp, "uaccess_symlink"),
	       sys_call3(__NR_symlinkat, (long)getenv(envp, "uaccess_symlink"),
			 AT_FDCWD, (long)"/tmp/link"));

	if (trigger_fd >= 0) {
		report("write " TRIGGER " <", trigger,
		       sys_call3(__NR_write, trigger_fd, (long)trigger,
				 str_len(trigger)));
		close_fd(trigger_fd);
	}

	report("write " TRACING "/tracing_on <", "0",
	       sys_call3(__NR_write, tracing_on, (long)"0", 1));
	close_fd(tracing_on);
}

/* Copy the file @path to the console between marker lines. */
static void print_file(const char *what, const char *path)
{
	static char buf[4096];
	long fd = open_file(path, O_RDONLY);
	long n;

	if (fd < 0) {
		report("open", path, fd);
		return;
	}
	put(MARK);
	put(what);
	put(" begin\n");
	while ((n = sys_call3(__NR_read, fd, (long)buf, sizeof(buf))) > 0)
		sys_call3(__NR_write, console, (long)buf, n);
	put(MARK);
	put(what);
	put(" end\n");
	close_fd(fd);
}

void start_c(long *sp)
{
	long argc = sp[0];
	char **envp = (char **)(sp + 1 + argc + 1);
	long trigger_fd = -1;

	/* Without /dev/console in the initramfs, init has no stdout. */
	sys_call5(__NR_mount, (long)"devtmpfs", (long)"/dev",
		  (long)"devtmpfs", 0, 0);
	console = open_file("/dev/console", O_WRONLY);

	put(MARK "start\n");
	do_mount("proc", "/proc");
	do_mount("tracefs", TRACING);
	do_mount("debugfs", DEBUGFS);
	do_mount("tmpfs", "/tmp");

	/* The module first: the probes may be in it. */
	if (load_module() == 0) {
		trigger_fd = open_file(TRIGGER, O_WRONLY);
		report("open", TRIGGER, trigger_fd);
	}
	add_probes();
	workload(envp, trigger_fd);
	print_file("trace", TRACING "/trace");
	if (errors)
		print_file("error_log", TRACING "/error_log");

	put(MARK "end, ");
	put_long(errors);
	put(" errors\n");
	sys_call4(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		  LINUX_REBOOT_CMD_POWER_OFF, 0);
	for (;;)
		sys_call1(__NR_exit, 1);
}
