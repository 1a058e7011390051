// SPDX-License-Identifier: GPL-2.0
/*
 * probe-fuzz: random probe event definitions against the running kernel,
 * in the guest (never on the host: it writes tracefs).
 *
 * Each round writes one random definition to dynamic_events: a kprobe,
 * kretprobe, fprobe (entry or %return), tracepoint probe or event probe,
 * whichever this kernel's tracing README lists, on a function of
 * available_filter_functions (or of the probe-target module), with up to
 * MAX_ARGS arguments whose fetch arguments nest dereferences (+, -, +u,
 * -u, with small, huge and negative offsets) around registers, $argN,
 * $stackN, $stack, $retval, $comm, @symbols, immediates, BTF argument
 * names and event fields, cast to every type the README names.  An
 * accepted definition is enabled while worker threads run system calls
 * that hit it (openat and symlinkat of strings in pages that are mapped
 * and unmapped under them, execve, clone3, sched_setscheduler,
 * nanosleep, the test module's trigger); its removal while enabled must
 * fail, its removal after must succeed.  An event on a function that the
 * workload calls, and every event and tracepoint probe, stays enabled
 * over the rounds of the next RESIDENTS such events.  A thread switches the strict
 * mode (kernel.trace_probe_strict_uaccess) at random, and the test module
 * is unloaded and loaded again under its probes now and then.
 *
 * After every round the kernel log is read: a line of a splat (BUG:,
 * WARNING:, KASAN, lockdep's reports, RCU stalls, soft lockups, Oops)
 * is counted, and printed with the definitions in flight.  So is every
 * operation on an accepted event that fails where it must not.
 *
 * Output: "probe-fuzz: seed N" first (run it again with -s N: the same
 * definitions in the same order), then one line per finding, then the
 * figures: definitions tried, accepted, rejected (by the reason the
 * kernel's error_log gives), probe hits (entries the events wrote to the
 * trace buffer, those it lost included), splats.  Exit status 0 when
 * nothing was found, 1 when something was, 3 when the targets were not
 * reached (and nothing was found).
 *
 * A campaign runs for -t SECONDS, or -n ROUNDS.  With targets (-a
 * ACCEPTED definitions, -H HITS), it goes on after -t SECONDS until it
 * has reached both, for at most -T SECONDS in all: the figures of a seed
 * then depend on the definitions it drew, not on how fast the machine
 * ran them.  Every PROGRESS seconds it says how far it is on the console
 * (/dev/console: the serial log on the host), for long campaigns.
 *
 *   probe-fuzz [-s SEED] [-t SECONDS] [-T SECONDS] [-a ACCEPTED] [-H HITS]
 *              [-n ROUNDS] [-v]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing"
#define STRICT		"/proc/sys/kernel/trace_probe_strict_uaccess"
#define MODULE		"test_probe_user"
#define MODULE_RUN	"/sys/kernel/debug/" MODULE "/run"
#define MAX_ARGS	6
#define MAX_DEPTH	8	/* nested dereferences, the kernel takes fewer */
#define MAX_FUNCS	4096
#define MAX_EVENTS	512
#define MAX_REASONS	64
#define DEF_LEN		4096
#define RESIDENTS	8	/* events left enabled across rounds */
#define PROGRESS	300	/* seconds between two progress lines */

/*
 * xorshift64*: small, and the same sequence for the same seed everywhere.
 * The rounds (main thread) draw from rng_state alone, so that a seed
 * gives the same definitions in the same order; the strict-mode thread
 * has a sequence of its own.
 */
static uint64_t rng_state, strict_rng_state;

static uint64_t xorshift(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

static uint64_t rnd(void)
{
	return xorshift(&rng_state);
}

static unsigned int pick(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int percent)
{
	return pick(100) < percent;
}

static char *funcs[MAX_FUNCS];
static unsigned int nfuncs;
static char *mod_funcs[32];
static unsigned int nmod_funcs;
/*
 * Functions the workload calls: half of the probes go there, so that
 * enabled events are hit, not only defined.
 */
static const char *const hot_names[] = {
	"do_sys_openat2", "do_filp_open", "getname_flags", "getname",
	"strncpy_from_user", "path_openat", "vfs_open", "do_symlinkat",
	"do_sched_setscheduler", "__sched_setscheduler", "get_timespec64",
	"hrtimer_nanosleep", "do_nanosleep", "kernel_clone", "copy_process",
	"do_exit", "do_mmap", "__vm_munmap", "do_vmi_munmap", "vfs_write",
	"ksys_write", "do_execveat_common", "bprm_execve", "filp_close",
	"do_unlinkat", "getname_kernel", "putname", "wake_up_new_task",
};
static char *hot[sizeof(hot_names) / sizeof(*hot_names)];
static unsigned int nhot;
static char *events[MAX_EVENTS];	/* "group.event" for e: and t: */
static unsigned int nevents;
static int has_kind[128];
static int has_btf_args, has_ustring, has_symstr, has_strict, has_module;

static struct {
	char reason[160];
	unsigned long count;
} reasons[MAX_REASONS];
static unsigned int nreasons;

static unsigned long tried, accepted, rejected, hits, splats, findings;
static unsigned long busy_refused, made_resident;
/*
 * Accepted events on functions the workload calls (and event and
 * tracepoint probes) stay enabled for the rounds of the next RESIDENTS
 * such events, so that they are hit for seconds, not for one round's
 * 20 ms; the oldest is disabled and removed when a new one comes.
 */
static long residents[RESIDENTS];
static char *resident_defs[RESIDENTS];
static unsigned int nresidents;
static int def_hot;	/* the last definition's target is hot */
static unsigned long hits_base;	/* the trace buffer's count at its reset */
static atomic_int stop;
static int verbose;
static int kmsg_fd = -1;
static char in_flight[DEF_LEN];

static void finding(const char *fmt, ...)
{
	va_list ap;

	findings++;
	printf("probe-fuzz: FINDING: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\nprobe-fuzz:   definition: %s\n", in_flight);
	fflush(stdout);
}

/* write_file PATH TEXT FLAGS: 0, or -errno */
static int write_file(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static char *read_file(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* The functions that may be probed: a random sample, and the module's. */
static void load_funcs(void)
{
	char *buf = read_file(TRACEFS "/available_filter_functions", NULL);
	char *line, *save;
	unsigned long seen = 0;

	if (!buf)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mod = strchr(line, '[');
		char *sp = strchr(line, ' ');

		if (sp)
			*sp = '\0';
		if (mod && strstr(mod, MODULE)) {
			if (nmod_funcs < 32)
				mod_funcs[nmod_funcs++] = strdup(line);
			continue;
		}
		for (unsigned int i = 0; i < sizeof(hot_names) / sizeof(*hot_names); i++)
			if (!strcmp(line, hot_names[i]) && nhot < sizeof(hot) / sizeof(*hot))
				hot[nhot++] = strdup(line);
		/* reservoir sampling keeps the sample uniform */
		seen++;
		if (nfuncs < MAX_FUNCS) {
			funcs[nfuncs++] = strdup(line);
		} else {
			unsigned long j = rnd() % seen;

			if (j < MAX_FUNCS) {
				free(funcs[j]);
				funcs[j] = strdup(line);
			}
		}
	}
	free(buf);
}

static void load_events(void)
{
	DIR *sys = opendir(TRACEFS "/events");
	struct dirent *s, *e;
	char path[512];

	if (!sys)
		return;
	while ((s = readdir(sys)) && nevents < MAX_EVENTS) {
		DIR *ev;

		if (s->d_name[0] == '.' || !strcmp(s->d_name, "fuzz") ||
		    !strcmp(s->d_name, "ftrace"))
			continue;
		snprintf(path, sizeof(path), TRACEFS "/events/%s", s->d_name);
		ev = opendir(path);
		if (!ev)
			continue;
		while ((e = readdir(ev)) && nevents < MAX_EVENTS) {
			char *name;

			if (e->d_type != DT_DIR || e->d_name[0] == '.')
				continue;
			if (asprintf(&name, "%s.%s", s->d_name, e->d_name) > 0)
				events[nevents++] = name;
		}
		closedir(ev);
	}
	closedir(sys);
}

static void load_readme(void)
{
	char *readme = read_file(TRACEFS "/README", NULL);

	if (!readme)
		return;
	has_kind['p'] = !!strstr(readme, "p[:[<group>/][<event>]]") ||
			!!strstr(readme, "p[:[<group>/]<event>]");
	has_kind['r'] = !!strstr(readme, "r[maxactive]");
	has_kind['f'] = !!strstr(readme, "f[:[<group>/][<event>]]");
	has_kind['t'] = !!strstr(readme, "t[:[<group>/][<event>]]");
	has_kind['e'] = !!strstr(readme, "e[:[<group>/][<event>]]");
	has_btf_args = !!strstr(readme, "<argname>");
	has_ustring = !!strstr(readme, "ustring");
	has_symstr = !!strstr(readme, "symstr");
	free(readme);
	has_strict = access(STRICT, W_OK) == 0;
}

#ifdef __s390x__
static const char *const regs[] = {
	"%r0", "%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7", "%r8",
	"%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%pswaddr",
	"%nosuchreg",
};
#else
static const char *const regs[] = {
	"%ax", "%bx", "%cx", "%dx", "%si", "%di", "%bp", "%sp", "%r8",
	"%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15", "%ip",
	"%flags", "%cs", "%ss", "%nosuchreg",
};
#endif

/* BTF argument names: real ones of the probed functions and nonsense. */
static const char *const argnames[] = {
	"filename", "pathname", "from", "to", "param", "uts", "ts", "path",
	"file", "task", "p", "mm", "vma", "buf", "count", "pos", "flags",
	"mode", "dfd", "nosuchname", "pt", "argv", "kb", "name", "span",
	"header", "link", "len",
};

static const char *const fields[] = {
	"name", "uptr", "refcnt", "sched_priority", "tv_nsec", "tv_sec",
	"f_flags", "f_mode", "f_pos", "pid", "comm", "mm", "next", "x",
	"y", "z", "mode", "kname", "uname", "buf", "version", "nosuch",
	"f_path", "dentry", "d_name",
};

static const char *const types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8", "x16",
	"x32", "x64", "char", "string", "ustring", "symbol", "symstr",
	"%pd", "%pD", "b1@0/8", "b3@5/8", "b64@0/64", "b0@0/8", "b9@0/8",
	"u32[4]", "string[2]", "x8[128]", "u64[0]", "nosuchtype",
};

static const int64_t offsets[] = {
	0, 1, 4, 8, 16, 24, 56, 4095, 4096, -1, -8, -4096,
	0x7fffffff, -0x80000000LL, INT64_MAX, INT64_MIN,
};

static void add(char *buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= DEF_LEN - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, DEF_LEN - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + n < DEF_LEN ? *len + n : DEF_LEN - 1;
}

/* A base fetch argument for a probe of kind KIND. */
static void base(char *buf, size_t *len, char kind, int ret)
{
	unsigned int nregs = sizeof(regs) / sizeof(*regs);

	switch (pick(kind == 'e' || kind == 't' ? 12 : 10)) {
	case 0:
		add(buf, len, "%s", regs[pick(nregs)]);
		break;
	case 1:
		add(buf, len, "$arg%u", pick(10));
		break;
	case 2:
		add(buf, len, "$stack%u", pick(chance(90) ? 8 : 100000));
		break;
	case 3:
		add(buf, len, chance(50) ? "$stack" : "$comm");
		break;
	case 4:
		add(buf, len, ret || chance(10) ? "$retval" : "$arg1");
		break;
	case 5:
		if (nfuncs)
			add(buf, len, "@%s%+" PRId64, funcs[pick(nfuncs)],
			    chance(50) ? 0 : offsets[pick(16)]);
		else
			add(buf, len, "@jiffies");
		break;
	case 6:
		add(buf, len, "\\%" PRId64, offsets[pick(16)]);
		break;
	case 7:
		add(buf, len, chance(50) ? "\\\"imm\"" : "\\\"\"");
		break;
	case 8:
	case 9:
		if (has_btf_args) {
			unsigned int n = pick(4);

			add(buf, len, "%s", argnames[pick(sizeof(argnames) / sizeof(*argnames))]);
			while (n--)
				add(buf, len, "%s%s", chance(70) ? "->" : ".",
				    fields[pick(sizeof(fields) / sizeof(*fields))]);
		} else {
			add(buf, len, "$arg%u", 1 + pick(6));
		}
		break;
	default:
		/* event probes and tracepoint probes: an event field */
		add(buf, len, "$%s", chance(70) ? fields[pick(sizeof(fields) / sizeof(*fields))] :
		    "common_pid");
		break;
	}
}

static void fetcharg(char *buf, size_t *len, char kind, int ret, int depth)
{
	if (depth < MAX_DEPTH && chance(depth ? 45 : 70)) {
		int user = has_ustring && chance(50);
		int64_t off = offsets[pick(16)];

		add(buf, len, "%c%s%" PRIu64 "(", off < 0 ? '-' : '+', user ? "u" : "",
		    off < 0 ? -(uint64_t)off : (uint64_t)off);
		fetcharg(buf, len, kind, ret, depth + 1);
		add(buf, len, ")");
		return;
	}
	base(buf, len, kind, ret);
}

/* A function to probe: the module's, one the workload calls, or any. */
static const char *function(int *mod)
{
	*mod = nmod_funcs && chance(20);
	def_hot = 1;
	if (*mod)
		return mod_funcs[pick(nmod_funcs)];
	if (nhot && chance(60))
		return hot[pick(nhot)];
	def_hot = 0;
	return funcs[pick(nfuncs)];
}

/* One random definition of event fuzz/eN into DEF; 0 if none could be made. */
static int definition(char *def, unsigned long n)
{
	const char kinds[] = "prfte";
	size_t len = 0;
	char kind;
	int ret = 0, tries = 0;
	unsigned int i, nargs;

	do {
		kind = kinds[pick(5)];
		if (++tries > 100)
			return 0;
	} while (!has_kind[(int)kind] ||
		 ((kind == 'e' || kind == 't') && !nevents) ||
		 ((kind == 'p' || kind == 'r' || kind == 'f') && !nfuncs));

	def_hot = kind == 't' || kind == 'e';
	switch (kind) {
	case 'p':
	case 'r': {
		int mod;
		const char *fn = function(&mod);

		ret = kind == 'r';
		add(def, &len, "%c%s:fuzz/e%lu %s%s", kind,
		    ret && chance(10) ? "4" : "", n, mod ? MODULE ":" : "", fn);
		if (!ret && chance(10))
			add(def, &len, "+%u", pick(chance(50) ? 16 : 100000));
		break;
	}
	case 'f': {
		int mod;
		const char *fn = function(&mod);

		ret = chance(40);
		add(def, &len, "f:fuzz/e%lu %s%s", n, fn, ret ? "%return" : "");
		break;
	}
	case 't':
		/* tracepoint probes name a tracepoint, not an event: try it */
		add(def, &len, "t:fuzz/e%lu %s", n, strchr(events[pick(nevents)], '.') + 1);
		break;
	case 'e':
		add(def, &len, "e:fuzz/e%lu %s", n, events[pick(nevents)]);
		break;
	}
	nargs = pick(MAX_ARGS + 1);
	for (i = 0; i < nargs; i++) {
		add(def, &len, " a%u=", i);
		fetcharg(def, &len, kind, ret, 0);
		if (chance(70)) {
			const char *t = types[pick(sizeof(types) / sizeof(*types))];

			if ((!strcmp(t, "ustring") && !has_ustring) ||
			    (!strcmp(t, "symstr") && !has_symstr))
				t = "u64";
			add(def, &len, ":%s", t);
		}
	}
	if (kind == 'e' && chance(20))
		add(def, &len, " if common_pid != 0");
	return 1;
}

/* The last error the kernel logged for a definition, counted. */
static void count_rejection(int err)
{
	char *log = read_file(TRACEFS "/error_log", NULL);
	char reason[160] = "";
	char *p, *last = NULL;
	unsigned int i;

	if (log) {
		for (p = log; (p = strstr(p, "error: ")); p += 7)
			last = p + 7;
		if (last) {
			size_t n = strcspn(last, "\n");

			snprintf(reason, sizeof(reason), "%.*s", (int)n, last);
		}
		free(log);
	}
	if (!reason[0])
		snprintf(reason, sizeof(reason), "(no error_log entry: %s)", strerror(-err));
	write_file(TRACEFS "/error_log", "", O_TRUNC);
	for (i = 0; i < nreasons; i++)
		if (!strcmp(reasons[i].reason, reason))
			break;
	if (i == nreasons && nreasons < MAX_REASONS)
		snprintf(reasons[nreasons++].reason, sizeof(reasons[0].reason), "%s", reason);
	if (i < MAX_REASONS)
		reasons[i].count++;
}

/* Entries written to the trace buffer since its last reset, all CPUs. */
static unsigned long buffer_entries(void)
{
	unsigned long total = 0;
	char path[128];
	int cpu;

	for (cpu = 0; cpu < 1024; cpu++) {
		char *stats, *p;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
		stats = read_file(path, NULL);
		if (!stats)
			break;
		p = strstr(stats, "entries: ");
		if (p)
			total += strtoul(p + 9, NULL, 10);
		p = strstr(stats, "overrun: ");
		if (p)
			total += strtoul(p + 9, NULL, 10);
		free(stats);
	}
	return total;
}

static const char *const splat_marks[] = {
	"BUG:", "WARNING:", "KASAN", "UBSAN", "KFENCE", "kmemleak",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage",
	"rcu_sched self-detected stall", "rcu: INFO:", "soft lockup",
	"hard LOCKUP", "Oops", "general protection fault",
};

/* Read what the kernel logged since the last call; count splats. */
static void check_kmsg(void)
{
	char rec[8192];
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) != 0) {
		char *msg;
		unsigned int i;

		if (n < 0) {
			if (errno == EPIPE)	/* overwritten records: go on */
				continue;
			break;
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		for (i = 0; i < sizeof(splat_marks) / sizeof(*splat_marks); i++) {
			if (strstr(msg, splat_marks[i])) {
				splats++;
				printf("probe-fuzz: SPLAT: %s", msg);
				printf("probe-fuzz:   definition in flight: %s\n", in_flight);
				for (unsigned int r = 0; r < nresidents; r++)
					printf("probe-fuzz:   enabled since an earlier round: %s\n",
					       resident_defs[r]);
				fflush(stdout);
				break;
			}
		}
	}
}

/* --- the workload ------------------------------------------------------ */

static void *page_worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		/* strings in a page that goes away right after the call */
		char *pg = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int fd;

		if (pg == MAP_FAILED)
			continue;
		strcpy(pg, "/tmp/probe-fuzz-file");
		fd = openat(AT_FDCWD, pg, O_RDONLY | O_CREAT, 0600);
		if (fd >= 0)
			close(fd);
		strcpy(pg + 2048, "probe-fuzz-target");
		unlink("/tmp/probe-fuzz-link");
		symlinkat(pg + 2048, AT_FDCWD, "/tmp/probe-fuzz-link");
		munmap(pg, 4096);
		/* a path in a page that is no longer there */
		fd = openat(AT_FDCWD, pg, O_RDONLY);
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

static void *proc_worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		pid_t pid = fork();

		if (pid == 0) {
			char *argv[] = { "/bin/true", NULL };

			execv(argv[0], argv);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
#ifdef SYS_clone3
		{
			struct {
				uint64_t flags, pidfd, child_tid, parent_tid;
				uint64_t exit_signal, stack, stack_size, tls;
			} ca = { .exit_signal = SIGCHLD };
			long c = syscall(SYS_clone3, &ca, sizeof(ca));

			if (c == 0)
				_exit(0);
			if (c > 0)
				waitpid((pid_t)c, NULL, 0);
		}
#endif
	}
	return NULL;
}

static void *misc_worker(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		struct sched_param sp = { .sched_priority = 0 };
		struct timespec ts = { 0, 4242 };

		sched_setscheduler(0, SCHED_OTHER, &sp);
		nanosleep(&ts, NULL);
		if (has_module)
			write_file(MODULE_RUN, "probe-fuzz", 0);
	}
	return NULL;
}

static void *strict_worker(void *arg)
{
	char *initial = read_file(STRICT, NULL);

	(void)arg;
	while (!atomic_load(&stop)) {
		uint64_t r = xorshift(&strict_rng_state);
		struct timespec ts = { 0, 1000000 * (1 + r % 50) };

		write_file(STRICT, (r >> 32) & 1 ? "1" : "0", 0);
		nanosleep(&ts, NULL);
	}
	/* leave the mode as the guest had it (run.sh boots it strict) */
	write_file(STRICT, initial ? initial : "0", 0);
	free(initial);
	return NULL;
}

/* --- the rounds -------------------------------------------------------- */

/*
 * Write the removal DEL ("-:fuzz/eN").  Every removal command, refused or
 * not, resets the trace buffer (trace_dynevent.c: the records could name
 * the event): count what the events wrote up to it first.
 */
static int remove_event(const char *del)
{
	int err;

	hits += buffer_entries() - hits_base;
	err = write_file(TRACEFS "/dynamic_events", del, O_APPEND);
	hits_base = buffer_entries();
	return err;
}

/* Disable and remove event fuzz/eN, which is enabled. */
static void retire(long n)
{
	char path[256], del[64];
	int err;

	snprintf(path, sizeof(path), TRACEFS "/events/fuzz/e%ld/enable", n);
	snprintf(del, sizeof(del), "-:fuzz/e%ld", n);
	err = write_file(path, "0", 0);
	if (err)
		finding("disabling the event fuzz/e%ld failed: %s", n, strerror(-err));
	err = remove_event(del);
	if (err && err != -ENOENT)
		finding("removing the disabled event fuzz/e%ld failed: %s", n, strerror(-err));
}

/* Keep event fuzz/eN (DEF) enabled; retire the oldest one if need be. */
static void make_resident(long n, const char *def)
{
	if (nresidents == RESIDENTS) {
		retire(residents[0]);
		free(resident_defs[0]);
		nresidents--;
		memmove(residents, residents + 1, sizeof(*residents) * nresidents);
		memmove(resident_defs, resident_defs + 1, sizeof(*resident_defs) * nresidents);
	}
	residents[nresidents] = n;
	resident_defs[nresidents++] = strdup(def);
	made_resident++;
}

static void round_once(unsigned long n)
{
	char def[DEF_LEN] = "", path[256], del[64];
	int err;
	struct timespec ts = { 0, 20000000 };

	if (!definition(def, n))
		return;
	snprintf(in_flight, sizeof(in_flight), "%s", def);
	tried++;
	if (verbose)
		printf("probe-fuzz: try %s\n", def);
	err = write_file(TRACEFS "/dynamic_events", def, O_APPEND);
	if (err) {
		rejected++;
		count_rejection(err);
		check_kmsg();
		return;
	}
	accepted++;
	snprintf(path, sizeof(path), TRACEFS "/events/fuzz/e%lu/enable", n);
	snprintf(del, sizeof(del), "-:fuzz/e%lu", n);
	err = write_file(path, "1", 0);
	if (err && err != -ENOENT && err != -EINVAL && err != -ENODEV) {
		/* an event on an unloaded module, or one ftrace refuses */
		finding("enabling an accepted event failed: %s", strerror(-err));
	}
	if (!err) {
		nanosleep(&ts, NULL);
		/* removing an enabled event must be refused */
		if (chance(20)) {
			int e = remove_event(del);

			if (!e)
				finding("an enabled event was removed");
			else
				busy_refused++;
		}
		if (has_module && chance(3)) {
			/* the module goes and comes back under its probes */
			hits += buffer_entries() - hits_base;	/* it resets the buffer */
			if (system("rmmod " MODULE " 2>/dev/null; modprobe " MODULE) != 0)
				has_module = access(MODULE_RUN, W_OK) == 0;
			hits_base = buffer_entries();
		}
		if (def_hot)
			make_resident((long)n, def);
		else
			retire((long)n);
	} else {
		err = remove_event(del);
		if (err && err != -ENOENT)
			finding("removing the event fuzz/e%lu, never enabled, failed: %s",
				n, strerror(-err));
	}
	check_kmsg();
}

/* Hits so far: those counted at the resets, and the buffer's since. */
static unsigned long hits_now(void)
{
	return hits + buffer_entries() - hits_base;
}

/*
 * Go on with round N?  For -n ROUNDS, until that many; else for SECONDS
 * at least and, with targets, until they are reached, up to MAX_SECONDS.
 */
static int go_on(unsigned long n, long rounds, time_t start, long seconds,
		 long max_seconds, unsigned long want_accepted, unsigned long want_hits)
{
	time_t now;

	if (rounds >= 0)
		return (long)n < rounds;
	now = time(NULL);
	if (now < start + seconds)
		return 1;
	if (now >= start + max_seconds)
		return 0;
	if (accepted < want_accepted)
		return 1;
	if (!want_hits)
		return 0;
	/* the trace buffer's statistics are files: read every 16th round */
	return n % 16 || hits_now() < want_hits;
}

/* How far the campaign is, on the console, every PROGRESS seconds. */
static void progress(time_t start)
{
	static time_t last;
	static int fd = -2;
	time_t now = time(NULL);

	if (now - (last ? last : start) < PROGRESS)
		return;
	last = now;
	if (fd == -2)
		fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	if (fd >= 0)
		dprintf(fd, "probe-fuzz: %ld s: tried %lu, accepted %lu, hits %lu, splats %lu, findings %lu\n",
			(long)(now - start), tried, accepted, hits_now(), splats, findings);
}

static unsigned long parse_count(const char *arg, char opt)
{
	char *end;
	long v = strtol(arg, &end, 0);

	if (*arg == '\0' || *end != '\0' || v < 0) {
		fprintf(stderr, "probe-fuzz: -%c %s: a number, 0 or more\n", opt, arg);
		exit(2);
	}
	return (unsigned long)v;
}

int main(int argc, char **argv)
{
	uint64_t seed = 0;
	long seconds = 60, max_seconds = -1, rounds = -1;
	unsigned long want_accepted = 0, want_hits = 0, n;
	pthread_t th[4];
	unsigned int i, nth = 0;
	time_t start;
	int opt, reached;

	while ((opt = getopt(argc, argv, "s:t:T:a:H:n:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = (long)parse_count(optarg, 't');
			break;
		case 'T':
			max_seconds = (long)parse_count(optarg, 'T');
			break;
		case 'a':
			want_accepted = parse_count(optarg, 'a');
			break;
		case 'H':
			want_hits = parse_count(optarg, 'H');
			break;
		case 'n':
			rounds = (long)parse_count(optarg, 'n');
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-t SECONDS] [-T SECONDS] [-a ACCEPTED] [-H HITS] [-n ROUNDS] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	if (max_seconds < 0)
		max_seconds = seconds;
	if (max_seconds < seconds) {
		fprintf(stderr, "probe-fuzz: -T %ld is less than -t %ld\n", max_seconds, seconds);
		return 2;
	}
	if (!seed) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		seed = (uint64_t)now.tv_sec * 1000000007ULL ^ (uint64_t)now.tv_nsec ^ getpid();
	}
	rng_state = seed ? seed : 1;
	strict_rng_state = ~rng_state ? ~rng_state : 1;
	/* It writes tracefs: the uaccess-probe guest is the only place for it. */
	if (access("/payload/guest/run", R_OK)) {
		fprintf(stderr, "probe-fuzz: runs in the uaccess-probe guest only (make fuzz)\n");
		return 2;
	}
	printf("probe-fuzz: seed %" PRIu64 " (-s %" PRIu64 " repeats this run)\n", seed, seed);
	if (access(TRACEFS "/dynamic_events", W_OK)) {
		printf("probe-fuzz: no writable %s/dynamic_events\n", TRACEFS);
		return 2;
	}
	load_readme();
	load_funcs();
	load_events();
	has_module = access(MODULE_RUN, W_OK) == 0;
	printf("probe-fuzz: %u functions sampled, %u the workload calls, %u of the module, %u events; kinds%s%s%s%s%s; BTF names %s; strict mode %s\n",
	       nfuncs, nhot, nmod_funcs, nevents, has_kind['p'] ? " p" : "",
	       has_kind['r'] ? " r" : "", has_kind['f'] ? " f" : "",
	       has_kind['t'] ? " t" : "", has_kind['e'] ? " e" : "",
	       has_btf_args ? "yes" : "no", has_strict ? "switched" : "absent");
	fflush(stdout);
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	write_file(TRACEFS "/error_log", "", O_TRUNC);
	/* hits: what the events wrote from now on, lost entries included */
	write_file(TRACEFS "/trace", "", O_TRUNC);
	hits_base = buffer_entries();

	pthread_create(&th[nth++], NULL, page_worker, NULL);
	pthread_create(&th[nth++], NULL, proc_worker, NULL);
	pthread_create(&th[nth++], NULL, misc_worker, NULL);
	if (has_strict)
		pthread_create(&th[nth++], NULL, strict_worker, NULL);

	start = time(NULL);
	for (n = 0; go_on(n, rounds, start, seconds, max_seconds, want_accepted, want_hits); n++) {
		round_once(n);
		progress(start);
	}
	while (nresidents) {
		retire(residents[--nresidents]);
		free(resident_defs[nresidents]);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	in_flight[0] = '\0';
	check_kmsg();

	printf("probe-fuzz: tried %lu, accepted %lu, rejected %lu, hits %lu, splats %lu, findings %lu, removals of enabled events refused %lu, kept enabled across rounds %lu\n",
	       tried, accepted, rejected, hits, splats, findings, busy_refused, made_resident);
	for (i = 0; i < nreasons; i++)
		printf("probe-fuzz: rejected %lu: %s\n", reasons[i].count, reasons[i].reason);
	reached = accepted >= want_accepted && hits >= want_hits;
	if (want_accepted || want_hits)
		printf("probe-fuzz: targets %lu accepted and %lu hits: %s in %ld s (at most %ld)\n",
		       want_accepted, want_hits, reached ? "reached" : "not reached",
		       (long)(time(NULL) - start), max_seconds);
	if (splats || findings)
		return 1;
	return reached ? 0 : 3;
}
