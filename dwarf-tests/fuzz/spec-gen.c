// SPDX-License-Identifier: GPL-2.0
/*
 * spec-gen: random perf probe specs against a real vmlinux, for the
 * probe-spec fuzzer (dwarf-tests/fuzz-specs.sh), which runs them through
 * perf's own probe code (fuzz/spec-harness.c).
 *
 *   spec-gen -x VMLINUX
 *	write the vocabulary of VMLINUX's DWARF on stdout: every function
 *	with code (name and declaration file, as func@file finds it), its
 *	parameters and local variables, every structure and union that
 *	their types reach (members, with anonymous members flattened as
 *	perf looks them up), and the global variables.  Types are shapes:
 *	"*" a pointer, "^" a __user pointer (clang's btf_type_tag "user"),
 *	"[N]" an array, then "s:KEY" a structure or union, "i4"/"u8" an
 *	integer of that many bytes, "c1" a char, "b1" a bool, "e4" an
 *	enum, "f8" a float, "F" a function, "v" void, "?" anything else.
 *
 *   spec-gen [-s SEED] [-f FIRST] [-n COUNT] [-c CLASS] VOCAB
 *	write specs FIRST to FIRST+COUNT-1, one a line: "CLASS<TAB>-D SPEC"
 *	or "CLASS<TAB>-V POINT", as perf probe takes them.  Spec I is drawn
 *	from a generator seeded by SEED and I alone, so any one is made
 *	again with -f I -n 1; -c CLASS keeps the specs of one class.
 *
 * The classes (each spec is built by one, its arguments may mix in
 * others): valid (chains that follow the types: a->b.c[2]->d), mutated
 * (a valid chain with a member that does not exist, "." and "->"
 * swapped, an index on a scalar, huge and negative indexes...), cast
 * (every :TYPE, bit fields, arrays, types that do not exist), user
 * (@user and @kernel at the end, in the middle, twice, on raw fetch
 * arguments, $retval, $params and %return probes), special ($vars,
 * $params, $retval, %REG, @SYMBOL, $stack, $comm, raw fetch arguments,
 * immediates), name (NAME= and GROUP:EVENT= prefixes), escape (quotes,
 * backslashes, control and non-ASCII bytes), long (long chains and
 * names, many arguments, deep raw dereferences) and point (+OFF,
 * %return, :LINE, ;PATTERN, FILE:LINE, bare names, -V).  Specs hold no
 * tab and no newline: they are lines.
 *
 * Exit status: 0 written, 1 usage or I/O error, 2 no DWARF in VMLINUX.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation	0x6000
#endif

#define MAX_SHAPE	256	/* a shape's text; deeper types end in "?" */
#define MAX_SPEC	(1 << 16)	/* longer ones only take longer */

/* ------------------------------------------------------------------ */
/* Strings, sets */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "spec-gen: out of memory\n");
		exit(1);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "spec-gen: out of memory\n");
		exit(1);
	}
	return p;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* A set of strings (open addressing), mapping each to an int. */
struct set {
	char **keys;
	int *vals;
	size_t cap, n;
};

static int *set_find(struct set *s, const char *key, int add)
{
	size_t i;

	if (add && (s->n + 1) * 2 > s->cap) {
		struct set old = *s;

		s->cap = s->cap ? s->cap * 2 : 1024;
		s->keys = calloc(s->cap, sizeof(*s->keys));
		s->vals = calloc(s->cap, sizeof(*s->vals));
		if (!s->keys || !s->vals) {
			fprintf(stderr, "spec-gen: out of memory\n");
			exit(1);
		}
		s->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.keys[i])
				*set_find(s, old.keys[i], 1) = old.vals[i];
		for (i = 0; i < old.cap; i++)
			free(old.keys[i]);
		free(old.keys);
		free(old.vals);
	}
	if (!s->cap)
		return NULL;
	for (i = hash_str(key) & (s->cap - 1); s->keys[i]; i = (i + 1) & (s->cap - 1))
		if (!strcmp(s->keys[i], key))
			return &s->vals[i];
	if (!add)
		return NULL;
	s->keys[i] = strdup(key);
	if (!s->keys[i]) {
		fprintf(stderr, "spec-gen: out of memory\n");
		exit(1);
	}
	s->n++;
	return &s->vals[i];
}

/* ------------------------------------------------------------------ */
/* spec-gen -x: the vocabulary */

static struct set struct_keys;	/* structures whose members are written */
static Dwarf_Die *pending;	/* structures to write, of this unit */
static char **pending_key;
static size_t npending, cap_pending;
static unsigned long nfuncs, nstructs, nglobals;

static const char *attr_string(Dwarf_Die *die, int name)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, name, &a));
}

static int type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute a;

	return dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &a), type) ? 0 : -1;
}

/* Does a pointer DIE carry clang's btf_type_tag("user")? */
static int user_pointer(Dwarf_Die *ptr)
{
	Dwarf_Die child;
	const char *n, *v;

	if (dwarf_child(ptr, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_LLVM_annotation)
			continue;
		n = attr_string(&child, DW_AT_name);
		v = attr_string(&child, DW_AT_const_value);
		if (n && v && !strcmp(n, "btf_type_tag") && !strcmp(v, "user"))
			return 1;
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

static void members_signature(Dwarf_Die *st, char *buf, size_t len);

/*
 * The key of a structure or union: "struct NAME", the typedef that names
 * an anonymous one, or the list of its member names (anonymous types are
 * repeated in every unit that includes their header: this merges them).
 */
static void struct_key(Dwarf_Die *st, const char *tdef, char *buf, size_t len)
{
	const char *kind = dwarf_tag(st) == DW_TAG_union_type ? "union" : "struct";
	const char *name = dwarf_diename(st);

	if (name)
		snprintf(buf, len, "%s %s", kind, name);
	else if (tdef)
		snprintf(buf, len, "%s %s", kind, tdef);
	else
		members_signature(st, buf, len);
}

static void members_signature(Dwarf_Die *st, char *buf, size_t len)
{
	Dwarf_Die m;
	size_t o;

	o = snprintf(buf, len, "%s {", dwarf_tag(st) == DW_TAG_union_type ? "union" : "struct");
	if (!dwarf_child(st, &m)) {
		do {
			const char *n = dwarf_diename(&m);

			if (dwarf_tag(&m) == DW_TAG_member && o < len)
				o += snprintf(buf + o, len - o, " %s", n ? n : "?");
		} while (!dwarf_siblingof(&m, &m));
	}
	if (o < len)
		snprintf(buf + o, len - o, " }");
	if (len > 64 && strlen(buf) > 60)
		snprintf(buf + 48, len - 48, "#%016llx", (unsigned long long)hash_str(buf));
}

/* Write TYPE's shape into buf; queue the structures it reaches. */
static void shape(Dwarf_Die *die, char *buf, size_t len)
{
	Dwarf_Die t, sub;
	const char *tdef = NULL;
	size_t o = 0;
	int hops = 0;

	buf[0] = '\0';
	if (type_of(die, &t)) {
		snprintf(buf, len, "v");
		return;
	}
	while (o + 40 < len && hops++ < 64) {
		Dwarf_Attribute a;
		Dwarf_Word size = 0;

		switch (dwarf_tag(&t)) {
		case DW_TAG_typedef:
			tdef = dwarf_diename(&t);
			/* fall through */
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (type_of(&t, &t)) {
				snprintf(buf + o, len - o, "v");
				return;
			}
			continue;
		case DW_TAG_pointer_type:
			buf[o++] = user_pointer(&t) ? '^' : '*';
			tdef = NULL;
			if (type_of(&t, &t)) {
				snprintf(buf + o, len - o, "v");
				return;
			}
			continue;
		case DW_TAG_array_type:
			if (!dwarf_child(&t, &sub)) {
				do {
					Dwarf_Word n = 0, ub;

					if (dwarf_tag(&sub) != DW_TAG_subrange_type)
						continue;
					if (dwarf_formudata(dwarf_attr(&sub, DW_AT_count, &a), &n) &&
					    !dwarf_formudata(dwarf_attr(&sub, DW_AT_upper_bound, &a), &ub))
						n = ub + 1;
					o += snprintf(buf + o, len - o, "[%llu]", (unsigned long long)n);
				} while (o + 40 < len && !dwarf_siblingof(&sub, &sub));
			}
			tdef = NULL;
			if (type_of(&t, &t)) {
				snprintf(buf + o, len - o, "?");
				return;
			}
			continue;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_class_type: {
			char key[MAX_SHAPE];
			int *seen;

			struct_key(&t, tdef, key, sizeof(key));
			snprintf(buf + o, len - o, "s:%s", key);
			if (dwarf_hasattr(&t, DW_AT_declaration))
				return;
			seen = set_find(&struct_keys, key, 1);
			if (!*seen) {
				*seen = 1;
				if (npending == cap_pending) {
					cap_pending = cap_pending ? cap_pending * 2 : 256;
					pending = xrealloc(pending, cap_pending * sizeof(*pending));
					pending_key = xrealloc(pending_key,
							       cap_pending * sizeof(*pending_key));
				}
				pending[npending] = t;
				pending_key[npending++] = strdup(key);
			}
			return;
		}
		case DW_TAG_base_type: {
			Dwarf_Word enc = 0;
			char c = '?';

			dwarf_formudata(dwarf_attr(&t, DW_AT_encoding, &a), &enc);
			dwarf_formudata(dwarf_attr(&t, DW_AT_byte_size, &a), &size);
			switch (enc) {
			case DW_ATE_signed: c = 'i'; break;
			case DW_ATE_unsigned: c = 'u'; break;
			case DW_ATE_signed_char: case DW_ATE_unsigned_char: c = 'c'; break;
			case DW_ATE_boolean: c = 'b'; break;
			case DW_ATE_float: c = 'f'; break;
			}
			snprintf(buf + o, len - o, "%c%llu", c, (unsigned long long)size);
			return;
		}
		case DW_TAG_enumeration_type:
			dwarf_formudata(dwarf_attr(&t, DW_AT_byte_size, &a), &size);
			snprintf(buf + o, len - o, "e%llu", (unsigned long long)size);
			return;
		case DW_TAG_subroutine_type:
			snprintf(buf + o, len - o, "F");
			return;
		default:
			snprintf(buf + o, len - o, "?");
			return;
		}
	}
	snprintf(buf + o, len - o, "?");
}

/* The members of a structure, anonymous ones' members in their place. */
static void write_members(Dwarf_Die *st, int depth)
{
	Dwarf_Die m, t;
	char sh[MAX_SHAPE];

	if (depth > 8 || dwarf_child(st, &m))
		return;
	do {
		const char *name;
		int bits;

		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		name = dwarf_diename(&m);
		if (!name) {
			if (!type_of(&m, &t)) {
				while ((dwarf_tag(&t) == DW_TAG_typedef ||
					dwarf_tag(&t) == DW_TAG_const_type ||
					dwarf_tag(&t) == DW_TAG_volatile_type) && !type_of(&t, &t))
					;
				if (dwarf_tag(&t) == DW_TAG_structure_type ||
				    dwarf_tag(&t) == DW_TAG_union_type)
					write_members(&t, depth + 1);
			}
			continue;
		}
		shape(&m, sh, sizeof(sh));
		bits = dwarf_hasattr(&m, DW_AT_bit_size) ? dwarf_bitsize(&m) : 0;
		printf("M\t%s\t%s\t%d\n", name, sh, bits > 0 ? bits : 0);
	} while (!dwarf_siblingof(&m, &m));
}

static void flush_structs(void)
{
	size_t i;

	/* write_members() may queue more: npending grows under us */
	for (i = 0; i < npending; i++) {
		printf("S\t%s\n", pending_key[i]);
		write_members(&pending[i], 0);
		free(pending_key[i]);
		nstructs++;
	}
	npending = 0;
}

/* The variables of a function: its parameters, then its locals. */
static void write_vars(Dwarf_Die *scope, int want, int depth)
{
	Dwarf_Die c;
	char sh[MAX_SHAPE];

	if (depth > 16 || dwarf_child(scope, &c))
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *name;

		if (tag == DW_TAG_lexical_block && want == DW_TAG_variable) {
			write_vars(&c, want, depth + 1);
			continue;
		}
		if (tag != want)
			continue;
		name = attr_string(&c, DW_AT_name);
		if (!name)
			continue;
		shape(&c, sh, sizeof(sh));
		printf("%c\t%s\t%s\n", want == DW_TAG_formal_parameter ? 'P' : 'L', name, sh);
	} while (!dwarf_siblingof(&c, &c));
}

static struct set func_keys;

/*
 * The kernel's source tree, as its DWARF names it (an O= build names
 * every source file by its absolute path): what comes before the
 * "init/main.c" of the unit that compiled it.  func@file matches the
 * end of a path, so the vocabulary keeps the part below the tree.
 */
static char *src_root;
static size_t src_root_len;

static void find_src_root(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		const char *name;
		size_t n;

		if (dwarf_offdie(dw, off + hsize, &cu)) {
			name = dwarf_diename(&cu);
			n = name ? strlen(name) : 0;
			if (n > 11 && !strcmp(name + n - 11, "init/main.c")) {
				src_root = strndup(name, n - 11);
				src_root_len = n - 11;
				return;
			}
		}
		off = next;
	}
}

static void write_function(Dwarf_Die *fn, const char *comp_dir)
{
	const char *name = attr_string(fn, DW_AT_name);
	const char *file = dwarf_decl_file(fn);
	size_t cl = comp_dir ? strlen(comp_dir) : 0;
	char key[1024];
	int *seen;

	if (!name || !file || dwarf_hasattr(fn, DW_AT_declaration))
		return;
	if (!dwarf_hasattr(fn, DW_AT_low_pc) && !dwarf_hasattr(fn, DW_AT_ranges))
		return;
	if (src_root && !strncmp(file, src_root, src_root_len))
		file += src_root_len;
	else if (cl && !strncmp(file, comp_dir, cl) && file[cl] == '/')
		file += cl + 1;
	if (strchr(name, '\t') || strchr(file, '\t') || strchr(file, ' '))
		return;
	snprintf(key, sizeof(key), "%s@%s", name, file);
	seen = set_find(&func_keys, key, 1);
	if (*seen)
		return;
	*seen = 1;
	printf("F\t%s\t%s\n", name, file);
	write_vars(fn, DW_TAG_formal_parameter, 0);
	write_vars(fn, DW_TAG_variable, 0);
	nfuncs++;
}

static int extract(const char *path)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf *dw;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "spec-gen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		fprintf(stderr, "spec-gen: %s: no DWARF (%s)\n", path, dwarf_errmsg(-1));
		return 2;
	}
	find_src_root(dw);
	printf("# spec-gen vocabulary of %s, source tree %s\n", path,
	       src_root ? src_root : "(not found)");
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu, c;
		const char *comp_dir;
		char sh[MAX_SHAPE];

		if (!dwarf_offdie(dw, off + hsize, &cu) || dwarf_child(&cu, &c))
			goto next_cu;
		comp_dir = attr_string(&cu, DW_AT_comp_dir);
		do {
			const char *name;

			switch (dwarf_tag(&c)) {
			case DW_TAG_subprogram:
				write_function(&c, comp_dir);
				break;
			case DW_TAG_variable:
				name = dwarf_diename(&c);
				if (!name || !dwarf_hasattr(&c, DW_AT_location) ||
				    !dwarf_hasattr(&c, DW_AT_external))
					break;
				shape(&c, sh, sizeof(sh));
				printf("G\t%s\t%s\n", name, sh);
				nglobals++;
				break;
			}
		} while (!dwarf_siblingof(&c, &c));
		flush_structs();
next_cu:
		off = next;
	}
	printf("# %lu functions, %lu structures and unions, %lu global variables\n",
	       nfuncs, nstructs, nglobals);
	dwarf_end(dw);
	close(fd);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "spec-gen: cannot write the vocabulary\n");
		return 1;
	}
	return nfuncs ? 0 : 2;
}

/* ------------------------------------------------------------------ */
/* spec-gen VOCAB: the specs */

struct var {
	const char *name, *shape;
};

struct func {
	const char *name, *file;
	struct var *vars;	/* its parameters, then its locals */
	int nparams, nvars;
};

struct member {
	const char *name, *shape;
	int bits;
};

struct type {
	const char *key;
	struct member *m;
	int n;
};

static struct func *funcs;
static size_t nfunc;
static struct type *types;
static size_t ntype;
static struct set type_index;
static struct var *globals;
static size_t nglobal;
static struct member *all_members;	/* every member, for wrong ones */
static size_t nall_members;

/*
 * xorshift64*, as the guest's probe-fuzz: one state per spec, seeded
 * from the run's seed and the spec's number by splitmix64, so that a
 * spec does not depend on the ones before it.
 */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static void seed_spec(uint64_t seed, uint64_t i)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + i + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	rng_state = (z ^ (z >> 31)) | 1;
}

static unsigned long pick(unsigned long n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int percent)
{
	return pick(100) < percent;
}

#define ONE_OF(a)	((a)[pick(sizeof(a) / sizeof(*(a)))])

/* The spec being written; it ends in a NUL, and never grows past MAX_SPEC. */
static char spec[MAX_SPEC + 1];
static size_t slen;

static void put(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (slen >= MAX_SPEC)
		return;
	va_start(ap, fmt);
	n = vsnprintf(spec + slen, MAX_SPEC + 1 - slen, fmt, ap);
	va_end(ap);
	slen = n < 0 ? slen : slen + n > MAX_SPEC ? MAX_SPEC : slen + n;
}

static void putc_spec(char c)
{
	if (slen < MAX_SPEC) {
		spec[slen++] = c;
		spec[slen] = '\0';
	}
}

/* Insert what put_fn() writes at AT of the spec, before what follows. */
static void insert_at(size_t at, void (*put_fn)(void))
{
	size_t tl;
	char *tail;

	if (at > slen)
		at = slen;
	tl = slen - at;
	tail = xmalloc(tl + 1);

	memcpy(tail, spec + at, tl + 1);
	slen = at;
	spec[slen] = '\0';
	put_fn();
	put("%s", tail);
	free(tail);
}

static int load(const char *path)
{
	struct func *f = NULL;
	struct type *t = NULL;
	size_t cap_f = 0, cap_t = 0, cap_g = 0, cap_m = 0, len;
	char *buf, *line, *next;
	FILE *in = fopen(path, "rb");

	if (!in || fseek(in, 0, SEEK_END) || (long)(len = ftell(in)) < 0 ||
	    fseek(in, 0, SEEK_SET)) {
		fprintf(stderr, "spec-gen: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = xmalloc(len + 1);
	if (fread(buf, 1, len, in) != len) {
		fprintf(stderr, "spec-gen: cannot read %s\n", path);
		return -1;
	}
	fclose(in);
	buf[len] = '\0';
	/* The strings stay in buf: fields are cut in place. */
	for (line = buf; line; line = next) {
		char *field[4] = { NULL };
		int nf = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!line[0] || line[1] != '\t')
			continue;	/* a comment, or not a record */
		for (field[0] = line + 2, nf = 1; nf < 4; nf++) {
			char *tab = strchr(field[nf - 1], '\t');

			if (!tab)
				break;
			*tab = '\0';
			field[nf] = tab + 1;
		}
		switch (line[0]) {
		case 'F':
			if (nf < 2)
				break;
			if (nfunc == cap_f) {
				cap_f = cap_f ? cap_f * 2 : 4096;
				funcs = xrealloc(funcs, cap_f * sizeof(*funcs));
			}
			f = &funcs[nfunc++];
			memset(f, 0, sizeof(*f));
			f->name = field[0];
			f->file = field[1];
			break;
		case 'P':
		case 'L':
			if (!f || nf < 2)
				break;
			/* a few: the arrays of a function stay small */
			if (!(f->nvars & 7))
				f->vars = xrealloc(f->vars, (f->nvars + 8) * sizeof(*f->vars));
			f->vars[f->nvars].name = field[0];
			f->vars[f->nvars].shape = field[1];
			f->nvars++;
			if (line[0] == 'P')
				f->nparams = f->nvars;
			break;
		case 'S':
			if (ntype == cap_t) {
				cap_t = cap_t ? cap_t * 2 : 4096;
				types = xrealloc(types, cap_t * sizeof(*types));
			}
			t = &types[ntype];
			memset(t, 0, sizeof(*t));
			t->key = field[0];
			*set_find(&type_index, t->key, 1) = ntype++;
			break;
		case 'M':
			if (!t || nf < 3)
				break;
			if (!(t->n & 7))
				t->m = xrealloc(t->m, (t->n + 8) * sizeof(*t->m));
			t->m[t->n].name = field[0];
			t->m[t->n].shape = field[1];
			t->m[t->n].bits = atoi(field[2]);
			if (nall_members == cap_m) {
				cap_m = cap_m ? cap_m * 2 : 65536;
				all_members = xrealloc(all_members, cap_m * sizeof(*all_members));
			}
			all_members[nall_members++] = t->m[t->n++];
			break;
		case 'G':
			if (nf < 2)
				break;
			if (nglobal == cap_g) {
				cap_g = cap_g ? cap_g * 2 : 4096;
				globals = xrealloc(globals, cap_g * sizeof(*globals));
			}
			globals[nglobal].name = field[0];
			globals[nglobal++].shape = field[1];
			break;
		}
	}
	if (!nfunc || !ntype || !nglobal || !nall_members) {
		fprintf(stderr, "spec-gen: %s: not a vocabulary (spec-gen -x VMLINUX)\n", path);
		return -1;
	}
	return 0;
}

static const struct type *find_type(const char *shape)
{
	int *i;

	if (strncmp(shape, "s:", 2))
		return NULL;
	i = set_find(&type_index, shape + 2, 0);
	return i ? &types[*i] : NULL;
}

/* A function with variables, most of the time. */
static const struct func *pick_func(void)
{
	const struct func *f = &funcs[pick(nfunc)];
	int tries = 8;

	while (!f->nvars && tries-- && chance(90))
		f = &funcs[pick(nfunc)];
	return f;
}

static const struct var *pick_var(const struct func *f)
{
	/* parameters are where the probe is: they are found, locals may not be */
	if (f->nparams && chance(75))
		return &f->vars[pick(f->nparams)];
	return f->nvars ? &f->vars[pick(f->nvars)] : NULL;
}

/* Identifiers that no kernel type has, and odd ones. */
static void put_ident(void)
{
	static const char *const words[] = {
		"nope", "x", "_", "__", "a1", "flags", "next", "prev", "name",
		"len", "data", "private", "f_op", "d_name", "__user", "user",
		"kernel", "retval", "vars", "params", "self", "int", "struct",
	};

	put("%s", ONE_OF(words));
	if (chance(30))
		put("%lu", pick(100));
}

static const char *const regs[] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "r8", "r9", "r10",
	"r11", "r12", "r13", "r14", "r15", "ip", "flags", "cs", "ss",
};

static const char *const odd_regs[] = {
	"eax", "rax", "xmm0", "r16", "", "%", "di%", "si(", "x", "r-1",
};

static void put_number(void)
{
	switch (pick(8)) {
	case 0: put("%lu", pick(4)); break;
	case 1: put("%lu", pick(4096)); break;
	case 2: put("-%lu", 1 + pick(64)); break;
	case 3: put("4294967296"); break;
	case 4: put("18446744073709551615"); break;
	case 5: put("99999999999999999999999"); break;
	case 6: put("0x%lx", pick(1 << 20)); break;
	default: put("%lu", pick(1UL << 62)); break;
	}
}

/* An index: in range most of the time, else out of it or not a number. */
static void put_index(unsigned long n, int valid)
{
	static const char *const odd[] = {
		"[]", "[-1]", "[x]", "[1", "[[0]]", "[0][", "[ 1]", "[0x10]",
		"[+1]", "[1-]", "[1e3]", "[-0]", "[2147483648]", "[-2147483649]",
	};

	if (valid) {
		put("[%lu]", n ? pick(n) : pick(4));
		return;
	}
	if (chance(40)) {
		put("%s", ONE_OF(odd));
		return;
	}
	putc_spec('[');
	put_number();
	putc_spec(']');
}

/* A cast for a value of SHAPE (one that fits, or any). */
static void put_cast(const char *shape, int fitting)
{
	static const char *const ints[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8",
		"x16", "x32", "x64",
	};
	static const char *const odd[] = {
		"", "u", "u7", "u128", "x0", "s", "int", "char", "string[",
		"strin", "ustring:string", "symbol:u8", "u8[", "u8[]", "u8[-1]",
		"u8[0]", "u8[65536]", "b", "b0@0/8", "b65@0/64", "b8@60/64",
		"b4@2/", "b4@/32", "b@2/32", "b4@2/33", "b4@-1/32", "b-4@2/32",
		"float", "double", "u32@user", "ustring@kernel", "symstr",
		"%di", "+0(%di)", "@user", "string:string",
	};

	putc_spec(':');
	if (!fitting || chance(10)) {
		switch (pick(5)) {
		case 0:
			put("%s", ONE_OF(odd));
			return;
		case 1:
			put("b%lu@%lu/%lu", pick(70), pick(70), 8UL << pick(4));
			return;
		case 2:
			put("%s[%lu]", ONE_OF(ints), pick(3) ? pick(17) : pick(1 << 20));
			return;
		case 3:
			put("%s", ONE_OF(((const char *const[]){ "string", "ustring", "symbol", "symstr" })));
			return;
		}
		put("%s", ONE_OF(ints));
		return;
	}
	/* char pointers and arrays read as strings; the rest as numbers */
	if ((shape[0] == '*' || shape[0] == '^' || shape[0] == '[') && chance(70)) {
		const char *s = shape + 1;

		if (shape[0] == '[')
			s = strchr(shape, ']') ? strchr(shape, ']') + 1 : shape;
		if (!strcmp(s, "c1")) {
			put("%s", shape[0] == '^' && chance(50) ? "ustring" : "string");
			return;
		}
	}
	if (chance(10)) {
		put("symbol");
		return;
	}
	if (chance(10)) {
		unsigned long size = 8UL << pick(4);

		put("b%lu@%lu/%lu", 1 + pick(size), pick(size), size);
		return;
	}
	if (chance(10)) {
		put("%s[%lu]", ONE_OF(ints), 1 + pick(8));
		return;
	}
	put("%s", ONE_OF(ints));
}

static void put_attr(void)
{
	static const char *const odd[] = {
		"@User", "@USER", "@userx", "@use", "@", "@kern", "@kernel ",
		"@user@", "@@user", "@0", "@user.", "@kernel->x",
	};

	if (chance(90))
		put("%s", chance(60) ? "@user" : "@kernel");
	else
		put("%s", ONE_OF(odd));
}

/*
 * A chain from variable V along its type: "->m" through a pointer to a
 * structure, ".m" in one, "[k]" in an array or through a pointer, for
 * up to DEPTH steps.  With BREAK, one step (at random) goes wrong.
 * *shape_out is the shape where it ends (NULL: not known).
 */
static void put_chain(const struct var *v, int depth, int brk, const char **shape_out)
{
	const char *sh = v->shape;
	int bad_at = brk ? (int)pick(depth + 1) : -1;
	int i;

	put("%s", v->name);
	for (i = 0; i < depth && sh; i++) {
		const struct type *t = NULL;
		const struct member *m = NULL;
		const char *next = NULL;
		int ptr = sh[0] == '*' || sh[0] == '^';

		if (ptr)
			t = find_type(sh + 1);
		else if (sh[0] == 's')
			t = find_type(sh);
		if (t && t->n)
			m = &t->m[pick(t->n)];
		if (i == bad_at) {
			switch (pick(9)) {
			case 0:		/* a member that this type does not have */
				put("%s", ptr ? "->" : ".");
				put_ident();
				break;
			case 1:		/* one of another type */
				put("%s%s", ptr ? "->" : ".",
				    all_members[pick(nall_members)].name);
				break;
			case 2:		/* "." and "->" swapped */
				put("%s%s", ptr ? "." : "->", m ? m->name : "x");
				next = m ? m->shape : NULL;
				break;
			case 3:		/* an index where there is no array */
				put_index(4, 1);
				break;
			case 4:		/* an index out of range */
				put_index(0, 0);
				next = sh[0] == '[' ? strchr(sh, ']') + 1 : ptr ? sh + 1 : NULL;
				break;
			case 5:		/* nothing after the operator */
				put("%s", ONE_OF(((const char *const[]){ "->", ".", "-", "->->", "..", "-.", "->." })));
				break;
			case 6:		/* a deref of a scalar, or of void */
				put("->%s", m ? m->name : "x");
				put("->%s", all_members[pick(nall_members)].name);
				break;
			case 7:		/* an operator this parser does not know */
				put("%s%s", ONE_OF(((const char *const[]){ "::", "=>", "<-", "->*", ".*", "&", "*", "(" })),
				    m ? m->name : "x");
				break;
			default:	/* a member of a bit field */
				put(".%s.%s", m ? m->name : "x", all_members[pick(nall_members)].name);
				break;
			}
			sh = next;
			continue;
		}
		if (sh[0] == '[') {
			unsigned long n = strtoul(sh + 1, NULL, 10);

			put_index(n, 1);
			sh = strchr(sh, ']') + 1;
		} else if (ptr && m && chance(85)) {
			put("->%s", m->name);
			sh = m->bits ? NULL : m->shape;
		} else if (ptr && sh[1] != 'v' && sh[1] != 'F') {
			put_index(4, 1);
			sh = sh + 1;
		} else if (!ptr && m) {
			put(".%s", m->name);
			sh = m->bits ? NULL : m->shape;
		} else {
			break;
		}
	}
	if (shape_out)
		*shape_out = sh;
}

/* A raw fetch argument, nested up to DEPTH dereferences. */
static void put_raw(int depth)
{
	if (depth > 0 && chance(60)) {
		put("%s%s", chance(80) ? "+" : "-", chance(30) ? "u" : "");
		put("%lu(", chance(80) ? pick(256) : pick(1UL << 40));
		put_raw(depth - 1);
		putc_spec(')');
		return;
	}
	switch (pick(8)) {
	case 0: case 1: case 2:
		put("%%%s", chance(95) ? ONE_OF(regs) : ONE_OF(odd_regs));
		break;
	case 3:
		put("$stack%s", chance(50) ? "" : chance(80) ? "0" : "9999");
		break;
	case 4:
		put("@%s", globals[pick(nglobal)].name);
		if (chance(30))
			put("%s%lu", chance(50) ? "+" : "-", pick(64));
		break;
	case 5:
		put("\\%ld", chance(50) ? (long)pick(1000) : -(long)pick(1000));
		break;
	case 6:
		put("$comm");
		break;
	default:
		put("$arg%lu", pick(8));
		break;
	}
}

static void put_valid(const struct func *f)
{
	const struct var *v = pick_var(f);
	const char *end = NULL;

	if (!v) {
		put("%%%s", ONE_OF(regs));
		return;
	}
	put_chain(v, pick(7), 0, &end);
	if (end && chance(40))
		put_cast(end, 1);
}

static void put_mutated(const struct func *f)
{
	const struct var *v = pick_var(f);

	if (!v || chance(5)) {
		put_ident();
		return;
	}
	put_chain(v, 1 + pick(6), 1, NULL);
	if (chance(15))
		put_cast("?", chance(50));
}

static void put_casted(const struct func *f)
{
	const struct var *v = pick_var(f);
	const char *end = NULL;

	if (!v || chance(20)) {
		put_raw(pick(3));
		put_cast("?", 0);
		return;
	}
	put_chain(v, pick(4), 0, &end);
	put_cast(end ? end : "?", chance(60));
	if (chance(5))
		put_cast("?", 0);	/* two casts */
}

static void put_user(const struct func *f, int retprobe)
{
	const struct var *v = pick_var(f);
	const char *end = NULL;
	size_t start;

	switch (pick(10)) {
	case 0: case 1: case 2:		/* at the end, where it belongs */
		if (!v)
			break;
		put_chain(v, pick(5), 0, &end);
		if (end && chance(40))
			put_cast(end, 1);
		put_attr();
		return;
	case 3:				/* before the cast */
		if (!v)
			break;
		put_chain(v, pick(4), 0, &end);
		put_attr();
		put_cast(end ? end : "?", 1);
		return;
	case 4:				/* in the middle of the chain */
		if (!v)
			break;
		start = slen + strlen(v->name);
		put_chain(v, 1 + pick(3), 0, NULL);
		insert_at(start + pick(slen > start ? slen - start + 1 : 1), put_attr);
		return;
	case 5:				/* twice */
		if (!v)
			break;
		put_chain(v, pick(4), 0, NULL);
		put_attr();
		put_attr();
		return;
	case 6:				/* on a raw fetch argument */
		put_raw(pick(3));
		if (chance(30))
			put_cast("?", 0);
		put_attr();
		return;
	case 7:				/* on $retval, $params, $vars */
		put("%s", retprobe || chance(30) ? "$retval" :
		    chance(50) ? "$params" : "$vars");
		if (chance(30))
			put_cast("?", chance(50));
		put_attr();
		return;
	case 8:				/* alone, or at the start */
		put_attr();
		if (chance(50) && v)
			put_chain(v, pick(3), 0, NULL);
		return;
	}
	/* with a name in front */
	put("%s=", chance(80) ? "x" : "user");
	if (v)
		put_chain(v, pick(4), 0, NULL);
	else
		put_raw(1);
	put_attr();
}

static void put_special(void)
{
	switch (pick(9)) {
	case 0: put("$vars"); break;
	case 1: put("$params"); break;
	case 2: put("$retval"); break;
	case 3: put("%%%s", chance(90) ? ONE_OF(regs) : ONE_OF(odd_regs)); break;
	case 4: put("@%s", globals[pick(nglobal)].name); break;
	case 5: put_raw(1 + pick(4)); break;
	case 6: put("%s", ONE_OF(((const char *const[]){ "$stack", "$stack0", "$stack3", "$comm", "$argN", "$", "$1", "$$", "$retval0", "$varsx" }))); break;
	case 7:		/* a global variable by name, as a C variable */
		put("%s", globals[pick(nglobal)].name);
		break;
	default:	/* an immediate */
		put("%s", ONE_OF(((const char *const[]){ "\\1", "\\-1", "\\0x10", "\\\"str\"", "\\\"", "\\", "\\x" })));
		break;
	}
	if (chance(25))
		put_cast("?", 0);
}

static void put_name(void)
{
	static const char *const names[] = {
		"x", "_a", "A1", "1x", "", "a.b", "a-b", "a:b", "a@b", "a$b",
		"a%b", "a[0]", "user", "kernel", "retval", "__probe_ip",
		"common_pid", "$x", "x=y", "comm",
	};

	if (chance(15)) {
		unsigned long n = 60 + pick(200), i;

		for (i = 0; i < n; i++)
			putc_spec('a' + pick(26));
	} else {
		put("%s", ONE_OF(names));
	}
	putc_spec('=');
}

/* A byte that the parser may not expect; never a blank, tab or newline. */
static void put_odd_char(void)
{
	static const char odd[] = "\"'\\`~!#$%^&*()+={}|;:,<>?/@.[]-";

	switch (pick(4)) {
	case 0: putc_spec(1 + pick(8)); break;			/* control */
	case 1: putc_spec(0x80 + pick(128)); break;		/* not ASCII */
	case 2: putc_spec(0x7f); break;
	default: putc_spec(odd[pick(sizeof(odd) - 1)]); break;
	}
}

static void put_odd(void)
{
	static const char *const seqs[] = {
		"\\n", "\\t", "\\x41", "\\0", "\\\\", "\\\"", "%s", "%n", "%%",
		"\\u00e9", "\xc3\xa9", "\xe2\x80\x8b", "\xff\xfe",
	};

	if (chance(30))
		put("%s", ONE_OF(seqs));
	else
		put_odd_char();
}

static void put_escaped(const struct func *f)
{
	size_t start = slen, n, i;

	put_valid(f);
	n = 1 + pick(4);
	for (i = 0; i < n; i++)
		insert_at(start + pick(slen - start + 1), put_odd);
}

static void put_long(const struct func *f)
{
	const struct var *v = pick_var(f);
	unsigned long n, i;

	switch (pick(5)) {
	case 0:		/* a long chain along the types */
		if (v) {
			put_chain(v, 16 + pick(200), 0, NULL);
			break;
		}
		/* fall through */
	case 1:		/* a long chain of any members */
		put("%s", v ? v->name : "x");
		n = 50 + pick(chance(90) ? 500 : 4000);
		for (i = 0; i < n; i++) {
			if (chance(10))
				put_index(8, 1);
			else
				put("%s%s", chance(70) ? "->" : ".",
				    all_members[pick(nall_members)].name);
		}
		break;
	case 2:		/* a long name */
		n = 64 + pick(chance(80) ? 4096 : 60000);
		if (chance(50))
			put("%s->", v ? v->name : "x");
		for (i = 0; i < n; i++)
			putc_spec('a' + pick(26));
		break;
	case 3:		/* deep raw dereferences */
		n = 8 + pick(chance(80) ? 64 : 4000);
		for (i = 0; i < n; i++)
			put("+%lu(", pick(64));
		put("%%%s", ONE_OF(regs));
		for (i = 0; i < n; i++)
			putc_spec(')');
		break;
	default:	/* a long cast */
		put_valid(f);
		putc_spec(':');
		n = 64 + pick(8192);
		for (i = 0; i < n; i++)
			putc_spec(chance(50) ? 'u' : '8');
		break;
	}
}

static const char *const classes[] = {
	"valid", "mutated", "cast", "user", "special", "name", "escape",
	"long", "point",
};

/* How often each class is drawn, in percent. */
static const unsigned int weights[] = { 18, 15, 12, 16, 10, 6, 7, 5, 11 };

/* One argument of CLASS for a probe in F (RETPROBE: at its return). */
static void put_arg(const char *class, const struct func *f, int retprobe)
{
	if (!strcmp(class, "valid"))
		put_valid(f);
	else if (!strcmp(class, "mutated"))
		put_mutated(f);
	else if (!strcmp(class, "cast"))
		put_casted(f);
	else if (!strcmp(class, "user"))
		put_user(f, retprobe);
	else if (!strcmp(class, "special"))
		put_special();
	else if (!strcmp(class, "escape"))
		put_escaped(f);
	else if (!strcmp(class, "long"))
		put_long(f);
	else
		put_valid(f);
}

/* The probe point: func@file, with what the point class adds. */
static int put_point(const struct func *f, const char *class, int *vars)
{
	int retprobe = 0;

	*vars = 1;
	if (strcmp(class, "point")) {
		if (!strcmp(class, "user") && chance(15)) {
			put("%s@%s%%return", f->name, f->file);
			return 1;
		}
		if (!strcmp(class, "special") && chance(20)) {
			put("%s@%s%%return", f->name, f->file);
			return 1;
		}
		put("%s@%s", f->name, f->file);
		return 0;
	}
	switch (pick(10)) {
	case 0:
		put("%s@%s+%lu", f->name, f->file, chance(80) ? pick(64) : pick(1UL << 33));
		break;
	case 1:
		put("%s@%s%%return", f->name, f->file);
		retprobe = 1;
		break;
	case 2:
		put("%s@%s:%lu", f->name, f->file, chance(90) ? pick(40) : pick(1UL << 32));
		break;
	case 3:
		put("%s@%s;%s", f->name, f->file,
		    ONE_OF(((const char *const[]){ "*", "*if*", "return*", "*= *", "", ";", "[", "*\\*" })));
		break;
	case 4:
		put("%s:%lu", f->file, pick(3000));
		break;
	case 5:
		put("%s;*%s*", f->file, chance(50) ? "return" : f->name);
		break;
	case 6:		/* the slow lookup by name: seldom */
		put("%s", f->name);
		if (chance(30))
			put("%%return");
		retprobe = strstr(spec, "%return") != NULL;
		break;
	case 7:		/* a file or function that is not there */
		put("%s@%s", chance(50) ? f->name : "no_such_function",
		    ONE_OF(((const char *const[]){ "no/such.c", "open.c", "", "/", "@", "fs/", ".c" })));
		break;
	case 8:		/* odd characters where the point is */
		put("%s@%s", f->name, f->file);
		put("%s", ONE_OF(((const char *const[]){ "+", "%", "%retur", "+-1", "+0x", ":", ":-1", "@x", "+1%return", "%return%return", ";", "::1" })));
		break;
	default:
		put("%s@%s", f->name, f->file);
		*vars = chance(50);
		break;
	}
	return retprobe;
}

static void make_spec(const char *class)
{
	const struct func *f = pick_func();
	int retprobe, vars, nargs, i;
	int viewing = !strcmp(class, "point") && chance(25);

	slen = 0;
	spec[0] = '\0';
	if (viewing) {
		put("-V ");
		put_point(f, class, &vars);
		if (chance(5))
			put(" x");	/* -V takes no arguments */
		return;
	}
	put("-D ");
	if (!strcmp(class, "name") && chance(50)) {
		static const char *const events[] = {
			"ev", "g:ev", ":ev", "g:", "1ev", "ev-1", "g/ev", "g:e:v",
			"probe:ev", "a.b", "ev%", "__ev", "",
		};

		put("%s=", ONE_OF(events));
	}
	retprobe = put_point(f, class, &vars);
	/* perf takes up to 128 arguments (MAX_PROBE_ARGS) */
	if (!vars || chance(3))
		nargs = 0;
	else if (!strcmp(class, "long") && chance(20))
		nargs = 100 + pick(60);
	else
		nargs = 1 + pick(4);
	for (i = 0; i < nargs; i++) {
		const char *c = class;

		putc_spec(' ');
		/*
		 * The first argument is the class's; the others mix (a long
		 * spec with many arguments has one long argument).
		 */
		if (i && (chance(40) || (!strcmp(class, "long") && nargs > 8)))
			c = classes[pick(5)];
		if (!strcmp(class, "name"))
			put_name();
		else if (chance(5))
			put_name();
		if (!strcmp(c, "name") || !strcmp(c, "point"))
			c = retprobe && chance(50) ? "special" : "valid";
		if (retprobe && !strcmp(c, "valid") && chance(70))
			put("$retval");
		else
			put_arg(c, f, retprobe);
	}
}

static const char *pick_class(void)
{
	unsigned int r = pick(100), i;

	for (i = 0; i < sizeof(weights) / sizeof(*weights); i++) {
		if (r < weights[i])
			return classes[i];
		r -= weights[i];
	}
	return classes[0];
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1, first = 0, count = 1000, i;
	const char *only = NULL;
	int c;

	while ((c = getopt(argc, argv, "x:s:f:n:c:")) != -1) {
		switch (c) {
		case 'x': return extract(optarg);
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'f': first = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 'c': only = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 1)
		goto usage;
	if (only) {
		for (i = 0; i < sizeof(classes) / sizeof(*classes); i++)
			if (!strcmp(only, classes[i]))
				break;
		if (i == sizeof(classes) / sizeof(*classes)) {
			fprintf(stderr, "spec-gen: no class %s\n", only);
			return 1;
		}
	}
	if (load(argv[optind]))
		return 1;
	for (i = first; i < first + count; i++) {
		const char *class;
		size_t j;

		seed_spec(seed, i);
		class = only ? only : pick_class();
		make_spec(class);
		/* a spec is a line: no tab (it ends the class) and no newline */
		for (j = 0; j < slen; j++)
			if (spec[j] == '\t' || spec[j] == '\n' || spec[j] == '\r' || !spec[j])
				spec[j] = ' ';
		printf("%s\t%.*s\n", class, (int)slen, spec);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "spec-gen: cannot write the specs\n");
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: spec-gen -x VMLINUX\n"
		"       spec-gen [-s SEED] [-f FIRST] [-n COUNT] [-c CLASS] VOCAB\n");
	return 1;
}
