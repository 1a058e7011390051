// SPDX-License-Identifier: GPL-2.0
/*
 * spec-harness: what "perf probe -k VMLINUX -D SPEC" (or "-V POINT")
 * does, for spec after spec in one process, for the probe-spec fuzzer
 * (dwarf-tests/fuzz-specs.sh) and the DWARF mutation fuzzer
 * (dwarf-tests/fuzz-dwarf.sh).  One perf process per spec costs a few
 * tenths of a second of startup each; here perf's setup is done once.
 *
 * It is linked with the objects and libraries of a perf build, by that
 * build's own Makefile.perf (fuzz/spec-harness.mk, make perf-specfuzz:
 * the sanitized perf's); -Wl,--wrap=main makes this file's __wrap_main
 * the program's main.  Each spec goes through the functions that
 * builtin-probe.c calls for it: parse_perf_probe_command(), then
 * convert_perf_probe_events() and show_probe_trace_events() (-D) or
 * show_available_vars() (-V), and the cleanup.  The environment is
 * perf's (scripts/offline-perf.sh: the fixture tracefs README...).
 *
 *   spec-harness [-t SECONDS] [-r N] [-i FIRST] [-l LOG] [VMLINUX] <SPECS >RECORDS
 *
 * SPECS: one a line, "-D SPEC" or "-V POINT" (or "-U": the self-test's
 * line, undefined behaviour that UBSan reports), after an optional label
 * ended by a tab (spec-gen writes its class there), and optionally
 * "-k PATH " before it (PATH without blanks): perf's kernel for that
 * line, instead of VMLINUX (which a line without -k needs).  Line L is
 * spec FIRST + L (-i, default 0).  RECORDS, one a line, written unbuffered so
 * that the last S line names the spec that was running if the process
 * dies (a signal, a sanitizer's report):
 *   S I SPEC          spec I starts
 *   O I TEXT          what perf printed for it (stdout and stderr, the
 *                     first lines)
 *   V I VERDICT MS    accepted or rejected (perf's answer), in MS
 *                     milliseconds of wall time
 *   T I               spec I ran for -t SECONDS (default 10): the
 *                     process ends (exit status 124)
 *   X I               perf called exit() during spec I
 *   R I               a sanitizer reported something during spec I and
 *                     let perf go on (UBSan): the report is in LOG.PID
 *                     (-l LOG: the log_path of the sanitizers' options;
 *                     UBSan's reports, which reach perf's stderr, are
 *                     copied there with perf's output of the spec); the
 *                     process ends (exit status 22)
 *   L I J             LeakSanitizer found a leak of specs I to J (its
 *                     report is in LOG.PID): the process ends (exit
 *                     status 23)
 *   F I TEXT          the harness cannot go on (perf's setup failed)
 *   K N KB            at the end: N calls of perf's were spared, what
 *                     the harness kept served them (see below); the
 *                     process's largest resident size was KB kilobytes
 *   E N               the end: N specs ran
 *
 * What perf does again for every spec, whatever the spec is, the
 * harness does once for as long as the kernel file stays the same: it
 * takes the place of four of perf's functions (spec-harness.mk makes
 * perf's definitions weak and names them __real_FUNCTION; the ones
 * below call those):
 *   debuginfo__new()     opens the kernel's DWARF; libdw decodes the
 *                        line table of every unit that a func@file spec
 *                        looks at, and forgets it at debuginfo__delete():
 *                        two thirds of a spec's time.  One is kept,
 *                        debuginfo__delete() spares it.
 *   dso__load_vmlinux()  kernel_get_module_dso() loads the kernel's
 *                        symbols into the same dso for every event, so
 *                        they pile up, a few megabytes per spec.  Once
 *                        the symbol maps' dso is loaded from the file,
 *                        a load into a loaded dso is spared.  (Not by
 *                        the dso's address: with AddressSanitizer,
 *                        perf 6.12 has REFCNT_CHECKING, where each
 *                        reference has an address of its own.)
 *   dso__new_map()       the offline post-processing reads the symbols
 *                        into a new map for every event.  One map per
 *                        file is kept and shared.
 * What they keep is the same file read again: no spec sees anything
 * that it would not have made itself (the records of the probe-spec
 * fuzzer's 400 specs of seed 1, verdicts and output, were the same with
 * and without them; it ran 11 to 13 times faster).  A debuginfo that perf
 * deleted is poisoned for AddressSanitizer until perf opens it again,
 * a second delete aborts, and one that a spec left undeleted is a
 * report (LOG.PID) as a leak would have been: perf's use of it after the
 * delete, and its error paths that forget it, are still found.  What is
 * not: a reference to the kept map that perf forgets to put
 * (LeakSanitizer sees the harness's own).
 *
 * The symbol maps are still made again every -r N specs (default 8), as
 * a new perf process would (the leak check waits for that), and after
 * a -V spec (show_available_vars() ends them itself); the dso that they
 * loaded goes with them, the debuginfo and the map stay.  What differs
 * from one process per spec: warnings that perf gives once per process
 * are given once per harness process.  One harness process of 3,000
 * specs stays under 640 MB resident (the K record's size; it grew by a
 * megabyte a spec until init_maps() below kept perf 6.1's symbol sizes
 * from growing).
 *
 * A line with -k (the DWARF fuzzer: one mutated file per line) gets
 * symbol maps of its own, made from PATH, as a new perf process would:
 * the maps of the line before, with their dsos (which point to the
 * file name they were read from) and whatever was loaded from them,
 * are deleted first, even when PATH is the same name (the file may be
 * another), and so is what the harness kept of the line before (its
 * debug information, its symbols).  Nor does perf read the host's
 * kernel for a -k line: its /proc/kallsyms and /proc/modules are hidden
 * from perf as kptr_restrict hides them from a user (they would say
 * where the host's kernel and modules are; with -k the kernel is PATH,
 * and reading the host's kallsyms three times took 0.1 s of the 0.12 s
 * that perf spent on a small input).  Without -k the harness is perf
 * as a user runs it: a %return probe's address is taken from the
 * host's _text (perf -D prints "Relocated base symbol is not found!"
 * where kptr_restrict hides it).  The tracefs README is
 * read once per process (probe-file.c's scan_ftrace_readme()): one
 * process serves one README.  The leak check still waits for -r N
 * lines, not one.
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/build-id.h"
#include "util/config.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/env.h"
#include "util/map.h"
#include "util/probe-event.h"
#include "util/probe-finder.h"
#include "util/strfilter.h"
#include "util/symbol.h"
#include "util/symbol_conf.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#define leaks_found()	__lsan_do_recoverable_leak_check()
#else
#define leaks_found()	0
#define ASAN_POISON_MEMORY_REGION(addr, size)	((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size)	((void)(addr), (void)(size))
#endif

/* builtin-probe.c's filter for -V */
#define DEFAULT_VAR_FILTER	"!__k???tab_* & !__crc_*"
#define MAX_OUTPUT_LINES	20
#define MAX_OUTPUT_LINE		300

/* -Wl,--wrap=main: perf's own main() stays, as __real_main() */
int __wrap_main(int argc, const char **argv);

static int rec_fd = -1;		/* the records: the harness's stdout */
static FILE *scratch;		/* perf's stdout and stderr, per spec */
static volatile sig_atomic_t in_spec;
static char timeout_rec[64];	/* "T I", ready for the signal handler */
static int timeout_rec_len;
static unsigned long long cur;	/* the spec running */
static const char *san_log;	/* -l LOG: the sanitizers' log_path */

/* One record: written at once, unbuffered. */
static void rec(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	for (char *p = s; n > 0; ) {
		ssize_t w = write(rec_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		p += w;
		n -= w;
	}
	free(s);
}

/*
 * A report of the harness's own, where the sanitizers write theirs
 * (LOG.PID, or stderr without -l), for the fuzzer to find as theirs.
 */
static const char *san_log_file(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s.%d", san_log, (int)getpid());
	return path;
}

static void report(const char *fmt, ...)
{
	va_list ap;
	FILE *f = NULL;

	if (san_log)
		f = fopen(san_log_file(), "a");
	va_start(ap, fmt);
	vfprintf(f ? f : stderr, fmt, ap);
	va_end(ap);
	if (f)
		fclose(f);
}

static void on_alarm(int sig __maybe_unused)
{
	if (write(rec_fd, timeout_rec, timeout_rec_len) < 0)
		_exit(125);
	_exit(124);
}

/* perf exits in the middle of a spec: say so before the process ends. */
static void on_exit_rec(void)
{
	if (in_spec)
		rec("X %llu\n", cur);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* What perf printed for the spec: its first lines, as O records. */
static void output_records(void)
{
	char line[MAX_OUTPUT_LINE + 1];
	int n = 0;

	fflush(stdout);
	fflush(stderr);
	rewind(scratch);
	while (n < MAX_OUTPUT_LINES && fgets(line, sizeof(line), scratch)) {
		size_t l = strcspn(line, "\n");
		bool cut = line[l] != '\n';

		line[l] = '\0';
		rec("O %llu %s%s\n", cur, line, cut ? " [...]" : "");
		/* the rest of a long line */
		while (cut && fgets(line, sizeof(line), scratch) && !strchr(line, '\n'))
			;
		n++;
	}
	/* empty it for the next spec: perf's fds 1 and 2 are this file */
	fflush(scratch);
	if (ftruncate(fileno(scratch), 0) < 0 || fseek(scratch, 0, SEEK_SET) < 0)
		rec("O %llu spec-harness: cannot empty the output file: %s\n",
		    cur, strerror(errno));
}

/*
 * UBSan's reports: in a program that has ASan too, GCC 12's UBSan writes
 * them to stderr whatever log_path says (GCC bug 94328), so they are in
 * perf's output of the spec.  Copy that output to the log when it has
 * one (the first line of a report: "FILE:LINE:COLUMN: runtime error: ";
 * scripts/offline-perf.sh's UBSAN_REPORT is the same pattern).
 */
#define UBSAN_REPORT	"(:[0-9]+:[0-9]+|<unknown>): runtime error: "
#define MAX_REPORT_LINES	200

static void ubsan_to_log(void)
{
	static regex_t re;
	static int compiled;
	char line[MAX_OUTPUT_LINE + 1];
	bool found = false;
	int n = 0;

	if (!san_log)
		return;
	if (!compiled) {
		if (regcomp(&re, UBSAN_REPORT, REG_EXTENDED | REG_NOSUB)) {
			report("spec-harness: cannot compile the pattern of UBSan's reports\n");
			return;
		}
		compiled = 1;
	}
	fflush(stdout);
	fflush(stderr);
	rewind(scratch);
	while (!found && fgets(line, sizeof(line), scratch))
		found = !regexec(&re, line, 0, NULL, 0);
	if (!found)
		return;
	report("=== UBSan's report, in perf's output of spec %llu\n", cur);
	rewind(scratch);
	while (n++ < MAX_REPORT_LINES && fgets(line, sizeof(line), scratch))
		report("%s", line);
}

/*
 * "-U", the self-test's line: a signed overflow, which UBSan reports
 * (the harness is built with perf's sanitizers) and lets go on.
 */
static noinline int ubsan_selftest(void)
{
	volatile long big = LONG_MAX;
	long sum = big + 1;

	return sum < 0 ? 0 : 1;
}

/*
 * Did a sanitizer report something since the last call (its log grew)?
 * UBSan goes on after a report: the next spec must not take the blame.
 * (With halt_on_error=1, GCC 12's UBSan loses the report it stops at.)
 */
static bool reported(void)
{
	static off_t size;
	struct stat st;

	if (!san_log)
		return false;
	if (stat(san_log_file(), &st) || st.st_size <= size)
		return false;
	size = st.st_size;
	return true;
}

/*
 * What the harness keeps between specs (see the top of the file): perf's
 * own functions, made weak by spec-harness.mk, under these names.
 */
struct debuginfo *__real_debuginfo__new(const char *path);
void __real_debuginfo__delete(struct debuginfo *dbg);
int __real_dso__load_vmlinux(struct dso *dso, struct map *map,
			     const char *vmlinux, bool vmlinux_allocated);
struct map *__real_dso__new_map(const char *name);

static struct {
	char *path;			/* the kernel file, as perf names it */
	struct debuginfo *dinfo;	/* its DWARF */
	int users;			/* perf's, not deleted yet */
	struct map *map;		/* dso__new_map(path), loaded or not */
	int loaded;			/* the symbols that the maps' dso has */
	unsigned long long hits;	/* the calls that it spared */
} kept;

static bool kept_for(const char *path)
{
	return kept.path && path && !strcmp(kept.path, path);
}

/*
 * perf's use of a debuginfo after it deleted it is still caught: the
 * kept one is poisoned for AddressSanitizer while perf holds none.
 */
struct debuginfo *debuginfo__new(const char *path)
{
	if (!kept_for(path))
		return __real_debuginfo__new(path);
	if (kept.dinfo) {
		kept.hits++;
	} else {
		kept.dinfo = __real_debuginfo__new(path);
		if (!kept.dinfo)
			return NULL;
	}
	if (!kept.users++)
		ASAN_UNPOISON_MEMORY_REGION(kept.dinfo, sizeof(*kept.dinfo));
	return kept.dinfo;
}

void debuginfo__delete(struct debuginfo *dbg)
{
	if (!dbg || dbg != kept.dinfo) {
		__real_debuginfo__delete(dbg);
	} else if (!kept.users) {
		/* what ASan says of a second free(), the harness says */
		report("spec-harness: spec %llu deleted the debuginfo %p twice\n",
		       cur, (void *)dbg);
		abort();
	} else if (!--kept.users) {
		ASAN_POISON_MEMORY_REGION(dbg, sizeof(*dbg));
	}
}

int dso__load_vmlinux(struct dso *dso, struct map *map, const char *vmlinux,
		      bool vmlinux_allocated)
{
	int ret;

	if (kept.loaded > 0 && kept_for(vmlinux) && dso__loaded(dso)) {
		kept.hits++;
		if (vmlinux_allocated)
			free((char *)vmlinux);
		return kept.loaded;
	}
	ret = __real_dso__load_vmlinux(dso, map, vmlinux, vmlinux_allocated);
	if (ret > 0 && kept_for(vmlinux))
		kept.loaded = ret;
	return ret;
}

struct map *dso__new_map(const char *name)
{
	if (!kept_for(name))
		return __real_dso__new_map(name);
	if (kept.map) {
		kept.hits++;
		return map__get(kept.map);
	}
	kept.map = __real_dso__new_map(name);
	return kept.map ? map__get(kept.map) : NULL;
}

/* The symbol maps end, and the dso that they loaded with them. */
static void kept_maps_end(void)
{
	kept.loaded = 0;
}

static void kept_dinfo_end(void)
{
	if (kept.dinfo) {
		ASAN_UNPOISON_MEMORY_REGION(kept.dinfo, sizeof(*kept.dinfo));
		__real_debuginfo__delete(kept.dinfo);
		kept.dinfo = NULL;
	}
	kept.users = 0;
}

/* A spec ended: perf's error paths, too, delete what they opened. */
static void kept_spec_end(void)
{
	if (kept.users) {
		report("spec-harness: spec %llu did not delete the debuginfo it opened (a leak)\n",
		       cur);
		kept.users = 0;
	}
}

/* Keep what perf reads from PATH from now on (NULL: nothing). */
static int keep(const char *path)
{
	kept_maps_end();
	kept_dinfo_end();
	map__zput(kept.map);
	free(kept.path);
	kept.path = NULL;
	if (path) {
		kept.path = strdup(path);
		if (!kept.path)
			return -ENOMEM;
	}
	return 0;
}

static void maps_end(void)
{
	kept_maps_end();
	exit_probe_symbol_maps();
}

/*
 * LeakSanitizer, between two makings of the symbol maps, when the heap
 * is small (the check scans it all): did the specs since the last check
 * leak?  A leak is reported again by every later check, so the process
 * ends after the first; the fuzzer runs each spec of the group alone to
 * find the one that leaks.
 */
static void leak_check(unsigned long long next)
{
	static unsigned long long group;	/* the first spec since the last check */
	static bool checked;
	bool leaked;

	if (checked && next > group) {
		/* LeakSanitizer does not look into poisoned memory */
		if (kept.dinfo && !kept.users)
			ASAN_UNPOISON_MEMORY_REGION(kept.dinfo, sizeof(*kept.dinfo));
		leaked = leaks_found();
		if (kept.dinfo && !kept.users)
			ASAN_POISON_MEMORY_REGION(kept.dinfo, sizeof(*kept.dinfo));
		if (leaked) {
			rec("L %llu %llu\n", group, next - 1);
			exit(23);
		}
	}
	checked = true;
	group = next;
}

/*
 * The symbol maps, for a -k line without the host's kernel: perf's
 * symbol__init() reads kptr_restrict; done first (user_only: no maps),
 * what it read can be overruled before the maps are made.
 *
 * perf makes them once per process, the harness again and again: perf
 * 6.1's symbol__init() adds the room of a name sort (sort_by_name) to
 * symbol_conf.priv_size each time, and symbol__exit() does not take it
 * back, so every symbol would be bigger than the one before (gigabytes
 * over 50,000 specs).  symbol__init() starts where the first one did;
 * priv_size stays as it left it, for the symbols of the kept map, which
 * symbol__delete() frees by it.
 */
static int init_maps(bool hide_host)
{
	static size_t priv_size;
	static bool first = true;
	int ret;

	if (first)
		priv_size = symbol_conf.priv_size;
	else
		symbol_conf.priv_size = priv_size;
	first = false;
	if (hide_host) {
		ret = init_probe_symbol_maps(true);
		if (ret < 0)
			return ret;
		symbol_conf.kptr_restrict = true;
	}
	return init_probe_symbol_maps(false);
}

/* -D SPEC, as builtin-probe.c's perf_add_probe_events() with -D. */
static int definition(const char *spec)
{
	struct perf_probe_event pev;
	int ret;

	memset(&pev, 0, sizeof(pev));
	probe_conf.definition = true;
	ret = parse_perf_probe_command(spec, &pev);
	if (ret >= 0)
		ret = convert_perf_probe_events(&pev, 1);
	if (ret >= 0)
		ret = show_probe_trace_events(&pev, 1);
	cleanup_perf_probe_events(&pev, 1);
	return ret;
}

/* -V POINT, as builtin-probe.c's opt_show_vars() and 'V' command. */
static int variables(const char *point)
{
	struct perf_probe_event pev;
	struct strfilter *filter;
	int ret;

	memset(&pev, 0, sizeof(pev));
	probe_conf.definition = false;
	ret = parse_perf_probe_command(point, &pev);
	if (!ret && pev.nargs != 0) {
		pr_err("  Error: '--vars' doesn't accept arguments.\n");
		ret = -EINVAL;
	}
	if (ret >= 0) {
		filter = strfilter__new(DEFAULT_VAR_FILTER, NULL);
		ret = filter ? show_available_vars(&pev, 1, filter) : -ENOMEM;
		strfilter__delete(filter);
	}
	clear_perf_probe_event(&pev);
	return ret;
}

int __wrap_main(int argc, const char **argv)
{
	unsigned long long first = 0, n = 0;
	unsigned int timeout = 10, renew = 8, since = 0, unchecked = 0;
	bool maps = false, check = true;
	char *line = NULL, *kpath = NULL;
	struct rusage ru;
	size_t cap = 0;
	ssize_t len;
	int c, fd;

	while ((c = getopt(argc, (char **)argv, "t:r:i:l:")) != -1) {
		switch (c) {
		case 'l': san_log = optarg; break;
		case 't': timeout = strtoul(optarg, NULL, 0); break;
		case 'r': renew = strtoul(optarg, NULL, 0); break;
		case 'i': first = strtoull(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (argc - optind > 1 || !renew)
		goto usage;

	/* The records keep stdout; perf's output goes to a scratch file. */
	rec_fd = dup(STDOUT_FILENO);
	scratch = tmpfile();
	if (rec_fd < 0 || !scratch) {
		fprintf(stderr, "spec-harness: %s\n", strerror(errno));
		return 1;
	}
	fd = fileno(scratch);
	if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0) {
		fprintf(stderr, "spec-harness: %s\n", strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	atexit(on_exit_rec);

	/* perf.c's main() and builtin-probe.c's options -k VMLINUX -D */
	perf_debug_setup();
	config_exclusive_filename = getenv("PERF_CONFIG");
	if (perf_config(perf_default_config, NULL) < 0)
		return 1;
	set_buildid_dir(NULL);
	perf_env__init(&perf_env);
	/* NULL without VMLINUX: perf would look for the host's kernel */
	symbol_conf.vmlinux_name = argv[optind];
	if (keep(symbol_conf.vmlinux_name) < 0) {
		fprintf(stderr, "spec-harness: %s\n", strerror(ENOMEM));
		return 1;
	}
	symbol_conf.try_vmlinux_path = false;
	symbol_conf.ignore_vmlinux_buildid = true;
	probe_conf.max_probes = MAX_PROBES;

	for (cur = first; (len = getline(&line, &cap, stdin)) >= 0; cur++) {
		char *spec = line, *tab, *what;
		bool kline;
		double t0, t1;
		int ret;

		line[strcspn(line, "\n")] = '\0';
		tab = strchr(line, '\t');
		if (tab)
			spec = tab + 1;
		timeout_rec_len = snprintf(timeout_rec, sizeof(timeout_rec), "T %llu\n", cur);
		kline = !strncmp(spec, "-k ", 3);
		if (kline) {
			size_t plen = strcspn(spec + 3, " ");

			/* the maps point to the old name: it goes after them */
			if (maps)
				maps_end();
			maps = false;
			free(kpath);
			kpath = strndup(spec + 3, plen);
			if (!kpath || keep(kpath) < 0) {
				rec("F %llu spec-harness: %s\n", cur, strerror(errno));
				return 1;
			}
			symbol_conf.vmlinux_name = kpath;
			what = spec + 3 + plen;
			what += strspn(what, " ");
		} else {
			what = spec;
		}
		/*
		 * before spec cur starts (the process may end there), when the
		 * heap is small: after the maps' renewal of -r N or -V, or
		 * every -r N lines with -k
		 */
		if (!maps && (check || unchecked >= renew)) {
			leak_check(cur);
			check = false;
			unchecked = 0;
		}
		alarm(timeout);
		in_spec = 1;
		rec("S %llu %s\n", cur, spec);
		if (!symbol_conf.vmlinux_name) {
			rec("F %llu spec-harness: no VMLINUX, and no -k PATH on the line\n", cur);
			in_spec = 0;
			return 1;
		}
		if (!maps) {
			ret = init_maps(kline);
			if (ret < 0) {
				output_records();
				rec("F %llu spec-harness: cannot make perf's symbol maps (%d)\n",
				    cur, ret);
				in_spec = 0;
				return 1;
			}
			maps = true;
			since = 0;
		}
		t0 = now();
		if (!strncmp(what, "-D ", 3)) {
			ret = definition(what + 3);
		} else if (!strcmp(what, "-U")) {
			ret = ubsan_selftest();
		} else if (!strncmp(what, "-V ", 3)) {
			ret = variables(what + 3);
			/*
			 * show_available_vars() ended the maps; a point that
			 * perf could not parse never reached it
			 */
			maps_end();
			maps = false;
			check = true;
		} else {
			pr_err("spec-harness: not \"[-k PATH] -D SPEC\" or \"[-k PATH] -V POINT\"\n");
			ret = -EINVAL;
		}
		t1 = now();
		ubsan_to_log();
		output_records();
		rec("V %llu %s %.0f\n", cur, ret < 0 ? "rejected" : "accepted",
		    (t1 - t0) * 1000);
		kept_spec_end();
		if (reported()) {
			rec("R %llu\n", cur);
			in_spec = 0;
			exit(22);
		}
		if (maps && ++since >= renew) {
			maps_end();
			maps = false;
			check = true;
		}
		unchecked++;
		in_spec = 0;
		alarm(0);
		n++;
	}
	free(line);
	if (maps)
		maps_end();
	getrusage(RUSAGE_SELF, &ru);
	rec("K %llu %ld\n", kept.hits, ru.ru_maxrss);
	keep(NULL);
	free(kpath);
	leak_check(cur);
	rec("E %llu\n", n);
	perf_config__exit();
	perf_env__exit(&perf_env);
	return 0;
usage:
	fprintf(stderr, "usage: spec-harness [-t SECONDS] [-r N] [-i FIRST] [-l LOG] [VMLINUX] <SPECS >RECORDS\n");
	return 1;
}
