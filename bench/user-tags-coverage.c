// SPDX-License-Identifier: GPL-2.0
/*
 * user-tags-coverage: how much of a kernel without __user tags in its DWARF
 * perf probe can decide from a tagged build of the same source (the perf
 * series' "perf probe: Take __user from a tagged build of the same kernel
 * source"), and whether those decisions agree with clang's own tags.
 *
 *   user-tags-coverage [-v] [-m LIST] TARGET TAGS [CLANG]
 *
 *   -v      print each parameter or member without an answer, and why
 *   -m LIST the kernel's modules too: LIST has a line "MODULE TAGS" for
 *           each, its debug .ko and its tagged build; their figures
 *           are summed, apart from the image's
 *   TARGET  the kernel's debug vmlinux (Debian's -dbg package)
 *   TAGS    its tagged build (scripts/user-tags.sh -o TAGS, every unit)
 *   CLANG   optional: a vmlinux of the same source built by clang with
 *           btf_type_tag, for the agreement (a module's unit is
 *           compared where CLANG has the unit built in)
 *
 * The decisions are perf's: this program is linked with perf's own
 * util/probe-user-tags.o and util/dwarf-aux.o, and asks them what perf
 * probe asks them when an argument goes through a pointer.  Counted in
 * every C compilation unit of TARGET:
 *   parameters: the pointer parameters of every function defined there
 *               (an abstract instance counts once, not per inlined copy);
 *   members:    the pointer members of every named structure and union
 *               defined there, once per unit that defines it.
 * A known answer is a parameter or member that perf maps to the tagged
 * build (user_tags__find_variable, user_tags__step_member); the answer is
 * whether the tagged build's type is __user (die_type_is_user_pointer).
 * For the agreement, the same parameter (unit, function, name) or member
 * (unit, type, member, at the same offset) in CLANG, where both are
 * pointers, gives clang's answer.
 *
 * The rest of perf that those objects call is given here, as perf does it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/param.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <linux/err.h>

#include "build-id.h"
#include "debug.h"
#include "dwarf-aux.h"
#include "probe-finder.h"
#include "probe-user-tags.h"

/* What perf's util/config.c, util/debug.c and util/build-id.c provide */
char buildid_dir[MAXPATHLEN];
int verbose;

int eprintf(int level, int var, const char *fmt, ...)
{
	va_list ap;
	int ret = 0;

	if (var >= level) {
		va_start(ap, fmt);
		ret = vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	return ret;
}

void build_id__init(struct build_id *bid, const u8 *data, size_t size)
{
	size = size < BUILD_ID_SIZE ? size : BUILD_ID_SIZE;
	memcpy(bid->data, data, size);
	bid->size = size;
}

int build_id__sprintf(const struct build_id *build_id, char *bf)
{
	size_t i;

	for (i = 0; i < build_id->size; i++)
		sprintf(bf + 2 * i, "%02x", build_id->data[i]);
	bf[2 * i] = '\0';
	return 2 * i;
}

/* As perf's debuginfo__new() opens a file it is given by path */
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct debuginfo *debuginfo__new(const char *path)
{
	struct debuginfo *dbg = calloc(1, sizeof(*dbg));
	GElf_Addr vaddr;
	int fd;

	if (!dbg)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		goto out;
	dbg->dwfl = dwfl_begin(&offline_callbacks);
	if (!dbg->dwfl) {
		close(fd);
		goto out;
	}
	dwfl_report_begin(dbg->dwfl);
	dbg->mod = dwfl_report_offline(dbg->dwfl, "", "", fd);
	if (dbg->mod)
		dbg->dbg = dwfl_module_getdwarf(dbg->mod, &dbg->bias);
	if (!dbg->dbg) {
		dwfl_end(dbg->dwfl);
		goto out;
	}
	dwfl_module_build_id(dbg->mod, &dbg->build_id, &vaddr);
	dwfl_report_end(dbg->dwfl, NULL, NULL);
	return dbg;
out:
	free(dbg);
	return NULL;
}

void debuginfo__delete(struct debuginfo *dbg)
{
	if (!dbg)
		return;
	if (dbg->dwfl)
		dwfl_end(dbg->dwfl);
	free(dbg);
}

/* The counts */
struct tally {
	unsigned long total, known, user;
	unsigned long compared, agree;
};

#define MAX_REASONS	16

static struct tally params, members;
static unsigned long units_object, c_units, generated_units;
static unsigned long reasons[2][MAX_REASONS];
static const char *const reason_names[MAX_REASONS] = {
	"no object of the unit in the tagged build",
	"the object is another unit or by another compiler",
	"the function differs (line, parameters, definitions)",
	"the variable is not found once in the function",
	"the variable has another type",
	"the type has no such member there",
	"the member differs (name, bit size, offset or type)",
	"the unit has no variable that matched, to check its object by",
	"nothing in the tagged unit has the type",
	"other",
};

/* Which of the reasons above perf's text says */
static int reason_index(const char *why)
{
	static const struct { const char *s; int i; } map[] = {
		{ "there is no ", 0 }, { "has no readable DWARF", 0 },
		{ "its compilation unit is", 1 }, { "it was compiled by", 1 },
		{ "it has no compilation unit", 1 },
		{ "definitions of", 2 }, { "() is on line", 2 },
		{ "other parameters", 2 }, { "its function has no name", 2 },
		{ "declared on line", 3 }, { "no name or declaration", 3 },
		{ "its scope is not found", 3 },
		{ "has another type in the tagged", 4 },
		{ "has no member", 5 },
		{ "member ", 6 },
		{ "no variable of the unit matched", 7 },
		{ "nothing in the tagged unit has", 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strstr(why, map[i].s))
			return map[i].i;
	return 9;
}

static int nr_differ;

static void report_difference(const char *what, const char *unit,
			      const char *scope, const char *name, bool gcc)
{
	if (nr_differ++ < 20)
		printf("differs: %s %s in %s of %s: tagged build %s, clang %s\n",
		       what, name, scope, unit, gcc ? "__user" : "not __user",
		       gcc ? "not __user" : "__user");
}

/* Count one comparison of the tagged build's answer with clang's */
static void compared(struct tally *t, bool gcc, bool clang, const char *what,
		     const char *unit, const char *scope, const char *name)
{
	t->compared++;
	if (clang == gcc)
		t->agree++;
	else
		report_difference(what, unit, scope, name, gcc);
}

/* A pointer, through typedefs and qualifiers, that is not to a function */
static bool die_is_data_pointer(Dwarf_Die *dw_die)
{
	Dwarf_Die type;

	if (!die_get_real_type(dw_die, &type) ||
	    dwarf_tag(&type) != DW_TAG_pointer_type)
		return false;
	return !die_get_real_type(&type, &type) ||
	       dwarf_tag(&type) != DW_TAG_subroutine_type;
}

/* The CUs of the clang build, by name relative to the source tree */
struct unit {
	char *name;
	Dwarf_Die die;
};

static struct unit *clang_units;
static size_t nr_clang_units;

static const char *relative_name(const char *name)
{
	const char *p;

	/* The source tree's top: where "arch/", "fs/", ... begins */
	if (name[0] != '/')
		return name;
	for (p = name + strlen(name); p > name; p--)
		if (p[-1] == '/' && (!strncmp(p, "linux/", 6) ||
				     !strncmp(p, "linux-", 6))) {
			p = strchr(p, '/');
			return p ? p + 1 : name;
		}
	return name;
}

static int unit_cmp(const void *a, const void *b)
{
	return strcmp(((const struct unit *)a)->name,
		      ((const struct unit *)b)->name);
}

static int load_units(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0;
	Dwarf_Die cu;

	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_diename(&cu)) {
			clang_units = realloc(clang_units,
					      (n + 1) * sizeof(*clang_units));
			if (!clang_units)
				return -ENOMEM;
			clang_units[n].name = strdup(relative_name(dwarf_diename(&cu)));
			clang_units[n].die = cu;
			n++;
		}
		off = next;
	}
	qsort(clang_units, n, sizeof(*clang_units), unit_cmp);
	nr_clang_units = n;
	return 0;
}

static Dwarf_Die *clang_unit(const char *name)
{
	struct unit key = { .name = (char *)relative_name(name) }, *u;

	u = bsearch(&key, clang_units, nr_clang_units, sizeof(key), unit_cmp);
	return u ? &u->die : NULL;
}

/* The one child of @parent with @tag and @name (that is not a declaration) */
static bool find_child(Dwarf_Die *parent, int tag, const char *name,
		       Dwarf_Die *die_mem)
{
	Dwarf_Die child;
	int found = 0;

	if (dwarf_child(parent, &child))
		return false;
	do {
		if (dwarf_tag(&child) == tag && dwarf_diename(&child) &&
		    !strcmp(dwarf_diename(&child), name) &&
		    !dwarf_hasattr(&child, DW_AT_declaration) &&
		    !dwarf_hasattr(&child, DW_AT_abstract_origin) &&
		    !found++)
			*die_mem = child;
	} while (!dwarf_siblingof(&child, &child));
	return found == 1;
}

static void compare_param(Dwarf_Die *ccu, const char *unit, Dwarf_Die *func,
			  Dwarf_Die *param, bool gcc)
{
	const char *fname = dwarf_diename(func), *pname = dwarf_diename(param);
	Dwarf_Die cfunc, cparam;

	if (!ccu || !find_child(ccu, DW_TAG_subprogram, fname, &cfunc) ||
	    !find_child(&cfunc, DW_TAG_formal_parameter, pname, &cparam) ||
	    !die_is_data_pointer(&cparam))
		return;
	compared(&params, gcc, die_type_is_user_pointer(&cparam), "parameter",
		 unit, fname, pname);
}

static void compare_member(Dwarf_Die *ccu, const char *unit, Dwarf_Die *type,
			   Dwarf_Die *member, bool gcc)
{
	const char *tname = dwarf_diename(type), *mname = dwarf_diename(member);
	Dwarf_Word size, csize, off, coff;
	Dwarf_Die ctype, cmember;

	if (!ccu || !find_child(ccu, dwarf_tag(type), tname, &ctype) ||
	    !find_child(&ctype, DW_TAG_member, mname, &cmember) ||
	    !die_is_data_pointer(&cmember) ||
	    dwarf_aggregate_size(type, &size) ||
	    dwarf_aggregate_size(&ctype, &csize) || size != csize)
		return;
	if (dwarf_tag(type) == DW_TAG_structure_type &&
	    (die_get_data_member_location(member, &off) ||
	     die_get_data_member_location(&cmember, &coff) || off != coff))
		return;
	compared(&members, gcc, die_type_is_user_pointer(&cmember), "member",
		 unit, tname, mname);
}

static bool show_unknown;	/* -v: print every unknown one, and why */

static void count(struct tally *t, int kind, struct user_tags_die *ud)
{
	t->total++;
	if (show_unknown && !ud->valid)
		printf("unknown %s: %s\n", kind ? "member" : "parameter",
		       user_tags_die__why(ud));
	if (ud->valid) {
		t->known++;
		t->user += die_type_is_user_pointer(&ud->die);
	} else {
		reasons[kind][reason_index(user_tags_die__why(ud))]++;
	}
}

/*
 * What perf found out about the unit's object, from any of its variables;
 * the reason names the object's path, whole.
 */
struct unit_state {
	int		object;		/* 1: it matches, 0: it does not, -1: ? */
	char		why[PATH_MAX + 128];
};

static void learn_object(struct unit_state *us, struct user_tags_die *ud)
{
	int i;

	if (us->object >= 0)
		return;
	if (ud->valid) {
		us->object = 1;
		return;
	}
	i = reason_index(user_tags_die__why(ud));
	if (i == 0 || i == 1) {
		us->object = 0;
		snprintf(us->why, sizeof(us->why), "%s", user_tags_die__why(ud));
	}
}

/* The pointer parameters of function @func of the target's unit @cu */
static void do_function(struct user_tags *ut, struct unit_state *us,
			Dwarf_Die *cu, Dwarf_Die *ccu, Dwarf_Die *func)
{
	struct user_tags_die ud = { .why = NULL };
	Dwarf_Die param;

	if (dwarf_child(func, &param))
		return;
	do {
		if (dwarf_tag(&param) != DW_TAG_formal_parameter ||
		    !dwarf_diename(&param) || !die_is_data_pointer(&param))
			continue;
		user_tags__find_variable(ut, cu, &param, &ud);
		learn_object(us, &ud);
		count(&params, 0, &ud);
		if (ud.valid)
			compare_param(ccu, dwarf_diename(cu), func, &param,
				      die_type_is_user_pointer(&ud.die));
		user_tags_die__exit(&ud);
	} while (!dwarf_siblingof(&param, &param));
}

/*
 * For each structure and union of the tagged unit, a DIE whose type is it
 * or a pointer to it (a variable, member, typedef or pointer type): what
 * perf's argument walk stands on when it looks up one of its members.
 */
struct type_user {
	Dwarf_Off	type;
	Dwarf_Die	die;
};

static struct type_user *type_users;
static size_t nr_type_users, type_users_size;

static void add_type_users(Dwarf_Die *parent)
{
	Dwarf_Die child, real;
	int tag;

	if (dwarf_child(parent, &child))
		return;
	do {
		if (dwarf_hasattr(&child, DW_AT_type) &&
		    die_get_real_type(&child, &real)) {
			tag = dwarf_tag(&real);
			if (tag == DW_TAG_pointer_type &&
			    die_get_real_type(&real, &real))
				tag = dwarf_tag(&real);
			if (tag == DW_TAG_structure_type ||
			    tag == DW_TAG_union_type) {
				if (nr_type_users == type_users_size) {
					type_users_size = 2 * type_users_size + 1024;
					type_users = realloc(type_users,
							     type_users_size * sizeof(*type_users));
					if (!type_users) {
						perror("user-tags-coverage");
						exit(1);
					}
				}
				type_users[nr_type_users].type = dwarf_dieoffset(&real);
				type_users[nr_type_users++].die = child;
			}
		}
		add_type_users(&child);
	} while (!dwarf_siblingof(&child, &child));
}

static int type_user_cmp(const void *a, const void *b)
{
	Dwarf_Off x = ((const struct type_user *)a)->type;
	Dwarf_Off y = ((const struct type_user *)b)->type;

	return x < y ? -1 : x > y;
}

static bool find_type_user(Dwarf_Die *type, Dwarf_Die *die_mem)
{
	struct type_user key = { .type = dwarf_dieoffset(type) }, *u;

	u = bsearch(&key, type_users, nr_type_users, sizeof(key), type_user_cmp);
	if (u)
		*die_mem = u->die;
	return u;
}

/* The pointer members of structure or union @type of the target's unit */
static void do_type(struct unit_state *us, Dwarf_Die *tcu, Dwarf_Die *cu,
		    Dwarf_Die *ccu, Dwarf_Die *type)
{
	const char *name = dwarf_diename(type);
	struct user_tags_die start = { .valid = false, .why = NULL }, ud;
	Dwarf_Die member, other;
	int ret = 0;

	if (us->object != 1)
		ret = asprintf(&start.why, "%s", us->why);
	else if (!find_child(tcu, dwarf_tag(type), name, &other))
		ret = asprintf(&start.why,
			       "the tagged build has no member of a type %s there", name);
	else if (!find_type_user(&other, &start.die))
		ret = asprintf(&start.why,
			       "nothing in the tagged unit has the type %s", name);
	else
		start.valid = true;
	if (ret < 0)
		start.why = NULL;

	if (dwarf_child(type, &member)) {
		user_tags_die__exit(&start);
		return;
	}
	do {
		if (dwarf_tag(&member) != DW_TAG_member ||
		    !dwarf_diename(&member) || !die_is_data_pointer(&member))
			continue;
		ud = start;
		ud.why = start.why ? strdup(start.why) : NULL;
		user_tags__step_member(&ud, dwarf_diename(&member), &member);
		count(&members, 1, &ud);
		if (ud.valid)
			compare_member(ccu, dwarf_diename(cu), type, &member,
				       die_type_is_user_pointer(&ud.die));
		user_tags_die__exit(&ud);
	} while (!dwarf_siblingof(&member, &member));
	user_tags_die__exit(&start);
}

static bool is_c_unit(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len > 2 && !strcmp(name + len - 2, ".c");
}

/* A module's generated .mod.c: data only, never compiled for the tags */
static bool is_generated_unit(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len > 6 && !strcmp(name + len - 6, ".mod.c");
}

/*
 * @name without its "dir/.." steps, into @out, as perf names the object
 * of a unit that kbuild names through ".." (kvm's virt/kvm units); false
 * for a name that leaves the tree.
 */
static bool normal_name(const char *name, char *out, size_t size)
{
	size_t n = 0, len;
	const char *step, *end;

	for (step = name; *step; step = *end ? end + 1 : end) {
		end = strchrnul(step, '/');
		len = end - step;
		if (len == 2 && !strncmp(step, "..", 2)) {
			if (!n)
				return false;
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
			continue;
		}
		if (n + len + 2 > size)
			return false;
		if (n)
			out[n++] = '/';
		memcpy(out + n, step, len);
		n += len;
	}
	out[n] = '\0';
	return n > 0;
}

/* The tagged build's object of unit @name, as perf names it */
static struct debuginfo *open_object(const char *dir, const char *name,
				     Dwarf_Die *tcu)
{
	struct debuginfo *dbg;
	Dwarf_Off off = 0, next;
	char path[PATH_MAX], normal[PATH_MAX];
	size_t hsize;

	while (*name == '/')
		name++;
	if (!normal_name(name, normal, sizeof(normal)))
		return NULL;
	snprintf(path, sizeof(path), "%s/%.*s.o", dir, (int)strlen(normal) - 2, normal);
	dbg = debuginfo__new(path);
	if (dbg && (dwarf_nextcu(dbg->dbg, off, &next, &hsize, NULL, NULL, NULL) ||
		    !dwarf_offdie(dbg->dbg, off + hsize, tcu))) {
		debuginfo__delete(dbg);
		dbg = NULL;
	}
	return dbg;
}

static void do_unit(const char *dir, const unsigned char *build_id,
		    Dwarf_Die *cu)
{
	struct unit_state us = { .object = -1 };
	struct debuginfo *tagged = NULL;
	struct user_tags_die ud = { .why = NULL };
	struct user_tags *ut;
	Dwarf_Die child, tcu, *ccu;

	ut = user_tags__open(dir, build_id);
	if (IS_ERR_OR_NULL(ut)) {
		fprintf(stderr, "user-tags-coverage: %s is not a tagged build of the target\n",
			dir);
		exit(1);
	}
	ccu = clang_units ? clang_unit(dwarf_diename(cu)) : NULL;
	if (dwarf_child(cu, &child))
		goto out;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram &&
		    dwarf_diename(&child) &&
		    !dwarf_hasattr(&child, DW_AT_declaration) &&
		    !dwarf_hasattr(&child, DW_AT_abstract_origin))
			do_function(ut, &us, cu, ccu, &child);
		else if (us.object < 0 && dwarf_tag(&child) == DW_TAG_variable &&
			 dwarf_diename(&child)) {
			user_tags__find_variable(ut, cu, &child, &ud);
			learn_object(&us, &ud);
			user_tags_die__exit(&ud);
		}
	} while (!dwarf_siblingof(&child, &child));

	if (us.object < 0)
		snprintf(us.why, sizeof(us.why),
			 "no variable of the unit matched, to check its object by");
	if (us.object == 1) {
		units_object++;
		tagged = open_object(dir, dwarf_diename(cu), &tcu);
		if (!tagged) {
			us.object = 0;
			snprintf(us.why, sizeof(us.why), "other: cannot open the object");
		} else {
			nr_type_users = 0;
			add_type_users(&tcu);
			qsort(type_users, nr_type_users, sizeof(*type_users),
			      type_user_cmp);
		}
	}
	dwarf_child(cu, &child);
	do {
		if ((dwarf_tag(&child) == DW_TAG_structure_type ||
		     dwarf_tag(&child) == DW_TAG_union_type) &&
		    dwarf_diename(&child) &&
		    !dwarf_hasattr(&child, DW_AT_declaration))
			do_type(&us, &tcu, cu, ccu, &child);
	} while (!dwarf_siblingof(&child, &child));
out:
	debuginfo__delete(tagged);
	user_tags__delete(ut);
}

static void print_tally(const char *what, struct tally *t, int kind)
{
	int i;

	printf("%s: %lu pointers, %lu known (%.1f%%), %lu of them __user\n",
	       what, t->total, t->known,
	       t->total ? 100.0 * t->known / t->total : 0.0, t->user);
	for (i = 0; i < MAX_REASONS; i++)
		if (reasons[kind][i])
			printf("  unknown, %s: %lu\n", reason_names[i],
			       reasons[kind][i]);
	if (clang_units)
		printf("  agreement with clang: %lu of %lu compared (%.2f%%)\n",
		       t->agree, t->compared,
		       t->compared ? 100.0 * t->agree / t->compared : 100.0);
}

/* Every C unit of TARGET against its tagged build TAGS */
static int do_target(const char *path, const char *tags)
{
	struct debuginfo *target = debuginfo__new(path);
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;

	if (!target || !target->build_id) {
		fprintf(stderr, "user-tags-coverage: %s: no DWARF or no build-id\n",
			path);
		debuginfo__delete(target);
		return -1;
	}
	for (; !dwarf_nextcu(target->dbg, off, &next, &hsize, NULL, NULL, NULL);
	     off = next) {
		if (!dwarf_offdie(target->dbg, off + hsize, &cu))
			continue;
		if (is_generated_unit(dwarf_diename(&cu))) {
			generated_units++;
		} else if (is_c_unit(dwarf_diename(&cu))) {
			c_units++;
			do_unit(tags, target->build_id, &cu);
		}
	}
	debuginfo__delete(target);
	return 0;
}

static void print_figures(void)
{
	printf("units: %lu C units, %lu with an object of the tagged build that matched\n",
	       c_units, units_object);
	if (generated_units)
		printf("  not counted: %lu generated module units (.mod.c: data only)\n",
		       generated_units);
	print_tally("parameters", &params, 0);
	print_tally("members", &members, 1);
	if (nr_differ > 20)
		printf("(%d differences, the first 20 shown)\n", nr_differ);
}

static void reset_figures(void)
{
	memset(&params, 0, sizeof(params));
	memset(&members, 0, sizeof(members));
	memset(reasons, 0, sizeof(reasons));
	c_units = units_object = generated_units = 0;
	nr_differ = 0;
}

/* The modules of LIST, summed */
static int do_modules(const char *list)
{
	char path[PATH_MAX], tags[PATH_MAX], line[2 * PATH_MAX + 2];
	unsigned long nr = 0;
	FILE *f = fopen(list, "r");

	if (!f) {
		fprintf(stderr, "user-tags-coverage: %s: %s\n", list, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s %4095s", path, tags) != 2) {
			fprintf(stderr, "user-tags-coverage: %s: not \"MODULE TAGS\": %s",
				list, line);
			fclose(f);
			return -1;
		}
		if (do_target(path, tags)) {
			fclose(f);
			return -1;
		}
		nr++;
	}
	fclose(f);
	printf("modules: %lu\n", nr);
	return 0;
}

int main(int argc, char **argv)
{
	struct debuginfo *clang = NULL;
	const char *list = NULL;
	int ret = 0;

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-v")) {
			show_unknown = true;
		} else if (!strcmp(argv[1], "-m") && argc > 2) {
			list = argv[2];
			argv++;
			argc--;
		} else {
			break;
		}
		argv++;
		argc--;
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: user-tags-coverage [-v] [-m LIST] TARGET TAGS [CLANG]\n");
		return 2;
	}
	if (argc == 4) {
		clang = debuginfo__new(argv[3]);
		if (!clang || load_units(clang->dbg)) {
			fprintf(stderr, "user-tags-coverage: %s: no DWARF\n",
				argv[3]);
			return 1;
		}
	}
	if (do_target(argv[1], argv[2]))
		return 1;
	if (list)
		printf("image:\n");
	print_figures();
	if (list) {
		reset_figures();
		if (do_modules(list))
			ret = 1;
		else
			print_figures();
	}
	debuginfo__delete(clang);
	return ret;
}
