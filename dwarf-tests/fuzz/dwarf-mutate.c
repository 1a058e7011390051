// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf-mutate: write a copy of an ELF file (a DWARF fixture of
 * dwarf-tests/, linked like a tiny vmlinux) whose debug information is
 * mutated, for the DWARF fuzzer (dwarf-tests/fuzz-dwarf.sh), which feeds
 * the result to perf probe -V and -D.
 *
 *   dwarf-mutate [-s SEED] [-n COUNT] IN OUT
 *   dwarf-mutate [-n COUNT] -b <LINES
 *
 * -b makes many files in one run, one per line "SEED IN OUT" of LINES:
 * each the same bytes that "-s SEED IN OUT" makes.
 * Mutations are chosen with a generator seeded by SEED (the same seed
 * gives the same file) and know the structure they break: .debug_abbrev
 * and .debug_info are parsed (DWARF 2 to 5 compile units), and most
 * mutations aim at what perf's __user code walks: DW_AT_type references
 * of pointer, typedef, qualifier, member and annotation DIEs (to the DIE
 * itself or one above it: loops; to no DIE; out of the unit), the
 * annotations' names and values (other strings, the middle of a string,
 * past the end), a DIE's abbreviation (another shape), an abbreviation's
 * tag or an attribute's form, and bytes, strings and section sizes
 * (truncation).  Each mutation is printed on stdout, one per line.
 *
 * Exit status: 0 written, 1 usage or I/O error, 2 IN is not an ELF
 * file this program can mutate (64-bit little-endian with .debug_info
 * and .debug_abbrev).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SECT	8
#define MAX_ATTRS	200000
#define MAX_DIES	50000
#define MAX_ABBREV	4096

enum { S_INFO, S_ABBREV, S_STR, S_STROFF, S_NUM };
static const char *const sect_name[S_NUM] = {
	".debug_info", ".debug_abbrev", ".debug_str", ".debug_str_offsets"
};

struct sect {
	uint64_t off;		/* of the data in the file */
	uint64_t size;
	uint64_t shdr;		/* of its section header in the file */
	int found;
};

/* An attribute value in .debug_info that a mutation can aim at. */
struct attr {
	uint64_t pos;		/* in .debug_info */
	uint64_t die;		/* its DIE, in .debug_info */
	uint64_t cu, cu_end;	/* its unit */
	uint32_t tag, name, form;
};

struct die {
	uint64_t pos, cu, cu_end;
	uint32_t code, tag;
	int depth;
};

/* An abbreviation: its shape, and where its tag and forms are. */
struct abbrev {
	uint32_t code, tag;
	int children;
	uint64_t tag_pos;	/* in .debug_abbrev */
	int tag_len;
	uint64_t attr_pos;	/* its attribute list, in .debug_abbrev */
	uint64_t form_pos[64];
	int nforms;
};

static unsigned char *buf;
static size_t len;
static struct sect sect[S_NUM];
static struct attr attrs[MAX_ATTRS];
static size_t nattrs;
static struct die dies[MAX_DIES];
static size_t ndies;
static struct abbrev abbrevs[MAX_ABBREV];
static size_t nabbrevs;
static uint64_t rng;

static uint64_t next(void)
{
	/* splitmix64 */
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? next() % n : 0;
}

static uint64_t rd(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static void wr(unsigned char *p, int n, uint64_t v)
{
	while (n--) {
		*p++ = v & 0xff;
		v >>= 8;
	}
}

/* ULEB128 at *pos below end; -1 if it runs past end. */
static int uleb(const unsigned char *base, uint64_t *pos, uint64_t end, uint64_t *val)
{
	uint64_t v = 0;
	int shift = 0;

	while (*pos < end) {
		unsigned char b = base[(*pos)++];

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			*val = v;
			return 0;
		}
	}
	return -1;
}

static int find_sections(void)
{
	uint64_t shoff, i, shnum, shentsize, shstrndx, stroff;

	if (len < 64 || memcmp(buf, "\177ELF", 4) || buf[4] != 2 || buf[5] != 1)
		return -1;
	shoff = rd(buf + 0x28, 8);
	shentsize = rd(buf + 0x3a, 2);
	shnum = rd(buf + 0x3c, 2);
	shstrndx = rd(buf + 0x3e, 2);
	if (shentsize != 64 || shstrndx >= shnum || shoff > len ||
	    shnum * 64 > len - shoff)
		return -1;
	stroff = rd(buf + shoff + shstrndx * 64 + 0x18, 8);
	for (i = 0; i < shnum; i++) {
		unsigned char *sh = buf + shoff + i * 64;
		uint64_t name = stroff + rd(sh, 4);
		int s;

		if (name >= len)
			continue;
		for (s = 0; s < S_NUM; s++) {
			if (strncmp((char *)buf + name, sect_name[s], len - name) ||
			    sect[s].found)
				continue;
			sect[s].off = rd(sh + 0x18, 8);
			sect[s].size = rd(sh + 0x20, 8);
			sect[s].shdr = shoff + i * 64;
			sect[s].found = sect[s].off <= len &&
					sect[s].size <= len - sect[s].off;
		}
	}
	return sect[S_INFO].found && sect[S_ABBREV].found ? 0 : -1;
}

/* A unit's abbreviation table: abbrevs[first] to abbrevs[first + n - 1]. */
struct table {
	size_t first, n;
};

/* Read the abbreviation table at off in .debug_abbrev into abbrevs[]. */
static int read_abbrevs(struct table *t, uint64_t off)
{
	const unsigned char *a = buf + sect[S_ABBREV].off;
	uint64_t end = sect[S_ABBREV].size, pos = off, code, tag, at, form, c;

	t->first = nabbrevs;
	t->n = 0;
	while (pos < end) {
		struct abbrev *ab;
		uint64_t tpos;

		if (uleb(a, &pos, end, &code) || !code)
			break;
		tpos = pos;
		if (uleb(a, &pos, end, &tag) || pos >= end)
			return -1;
		if (nabbrevs >= MAX_ABBREV)
			return -1;
		ab = &abbrevs[nabbrevs];
		ab->code = code;
		ab->tag = tag;
		ab->tag_pos = tpos;
		ab->tag_len = pos - tpos;
		ab->children = a[pos++];
		ab->attr_pos = pos;
		ab->nforms = 0;
		for (;;) {
			uint64_t fpos;

			if (uleb(a, &pos, end, &at))
				return -1;
			fpos = pos;
			if (uleb(a, &pos, end, &form))
				return -1;
			if (!at && !form)
				break;
			if (form == 0x21 && uleb(a, &pos, end, &c))	/* implicit_const */
				return -1;
			if (ab->nforms < 64 && pos - fpos == 1)
				ab->form_pos[ab->nforms++] = fpos;
		}
		nabbrevs++;
		t->n++;
	}
	return 0;
}

/* The abbreviation CODE of table t, or NULL. */
static const struct abbrev *find_abbrev(const struct table *t, uint64_t code)
{
	size_t i;

	for (i = t->first; i < t->first + t->n; i++)
		if (abbrevs[i].code == code)
			return &abbrevs[i];
	return NULL;
}

/* The size of a value of FORM at pos; -1 if unknown or past end. */
static int64_t form_size(uint64_t form, uint64_t pos, uint64_t end, int addr,
			 int off, int depth)
{
	const unsigned char *d = buf + sect[S_INFO].off;
	uint64_t p = pos, v;

	switch (form) {
	case 0x01: return addr;
	case 0x0b: case 0x0c: case 0x11: case 0x25: case 0x29: return 1;
	case 0x05: case 0x12: case 0x26: case 0x2a: return 2;
	case 0x27: case 0x2b: return 3;
	case 0x06: case 0x13: case 0x1c: case 0x28: case 0x2c: return 4;
	case 0x0e: case 0x10: case 0x17: case 0x1d: case 0x1f: return off;
	case 0x07: case 0x14: case 0x20: case 0x24: return 8;
	case 0x1e: return 16;
	case 0x19: case 0x21: return 0;
	case 0x08:
		while (p < end && d[p])
			p++;
		return p < end ? (int64_t)(p + 1 - pos) : -1;
	case 0x0d: case 0x0f: case 0x15: case 0x1a: case 0x1b: case 0x22: case 0x23:
		return uleb(d, &p, end, &v) ? -1 : (int64_t)(p - pos);
	case 0x09: case 0x18:
		if (uleb(d, &p, end, &v) || v > end - p)
			return -1;
		return p + v - pos;
	case 0x0a:
		return p < end && d[p] < end - p ? 1 + d[p] : -1;
	case 0x03:
		return p + 2 <= end && rd(d + p, 2) <= end - p - 2 ? (int64_t)(2 + rd(d + p, 2)) : -1;
	case 0x04:
		return p + 4 <= end && rd(d + p, 4) <= end - p - 4 ? (int64_t)(4 + rd(d + p, 4)) : -1;
	case 0x16:
		if (depth || uleb(d, &p, end, &v))
			return -1;
		{
			int64_t n = form_size(v, p, end, addr, off, 1);

			return n < 0 ? -1 : (int64_t)(p - pos) + n;
		}
	}
	return -1;
}

/* Record every DIE and attribute of every unit that parses. */
static void read_info(void)
{
	static struct table t;
	const unsigned char *d = buf + sect[S_INFO].off;
	uint64_t size = sect[S_INFO].size, cu = 0;

	while (cu + 11 <= size) {
		uint64_t ulen = rd(d + cu, 4), end, pos, aoff;
		int ver, addr, depth = 0;

		if (ulen >= 0xfffffff0 || ulen > size - cu - 4)
			return;
		end = cu + 4 + ulen;
		ver = rd(d + cu + 4, 2);
		if (ver >= 5) {
			if (d[cu + 6] != 1 && d[cu + 6] != 3)	/* compile, partial */
				goto next_cu;
			addr = d[cu + 7];
			aoff = rd(d + cu + 8, 4);
			pos = cu + 12;
		} else {
			aoff = rd(d + cu + 6, 4);
			addr = d[cu + 10];
			pos = cu + 11;
		}
		if (aoff >= sect[S_ABBREV].size || read_abbrevs(&t, aoff))
			goto next_cu;
		while (pos < end) {
			uint64_t code, ap, dpos = pos, at, form, v;
			const struct abbrev *ab;

			if (uleb(d, &pos, end, &code))
				break;
			if (!code) {
				depth--;
				continue;
			}
			ab = find_abbrev(&t, code);
			if (!ab)
				break;
			if (ndies < MAX_DIES)
				dies[ndies++] = (struct die){
					.pos = dpos, .cu = cu, .cu_end = end,
					.code = code, .tag = ab->tag, .depth = depth,
				};
			ap = ab->attr_pos;
			for (;;) {
				const unsigned char *a = buf + sect[S_ABBREV].off;
				uint64_t aend = sect[S_ABBREV].size;
				int64_t n;

				if (uleb(a, &ap, aend, &at) || uleb(a, &ap, aend, &form))
					goto next_cu;
				if (!at && !form)
					break;
				if (form == 0x21 && uleb(a, &ap, aend, &v))
					goto next_cu;
				n = form_size(form, pos, end, addr, 4, 0);
				if (n < 0)
					goto next_cu;
				if (nattrs < MAX_ATTRS)
					attrs[nattrs++] = (struct attr){
						.pos = pos, .die = dpos, .cu = cu,
						.cu_end = end, .tag = ab->tag,
						.name = at, .form = form,
					};
				pos += n;
			}
			if (ab->children)
				depth++;
		}
next_cu:
		cu = end;
	}
}

/* Tags whose DW_AT_type chains perf's __user code follows. */
static int chain_tag(uint32_t tag)
{
	switch (tag) {
	case 0x0f: case 0x10: case 0x16: case 0x26: case 0x35: case 0x47: /* pointer ref typedef const volatile atomic */
	case 0x0d: case 0x05: case 0x34: case 0x01:	/* member param variable array */
	case 0x6000:			/* DW_TAG_LLVM_annotation */
		return 1;
	}
	return 0;
}

static int is_ref(uint32_t form)
{
	return form >= 0x11 && form <= 0x13;
}

/*
 * A random attribute that WANT accepts, preferably of a DIE whose type
 * chain perf follows.
 */
static struct attr *pick_attr(int (*want)(const struct attr *))
{
	size_t i, start, n = 0;

	if (!nattrs)
		return NULL;
	start = below(nattrs);
	for (i = 0; i < nattrs; i++) {
		struct attr *at = &attrs[(start + i) % nattrs];

		if (want(at) && (chain_tag(at->tag) || n++ > 64))
			return at;
	}
	return NULL;
}

static int want_ref(const struct attr *a) { return is_ref(a->form); }
static int want_strp(const struct attr *a) { return a->form == 0x0e; }

static unsigned char *info(uint64_t pos)
{
	return buf + sect[S_INFO].off + pos;
}

static int ref_size(uint32_t form)
{
	return form == 0x11 ? 1 : form == 0x12 ? 2 : 4;
}

static const char *tag_name(uint32_t tag)
{
	switch (tag) {
	case 0x0f: return "pointer_type";
	case 0x16: return "typedef";
	case 0x0d: return "member";
	case 0x6000: return "LLVM_annotation";
	}
	return "DIE";
}

/* A DIE at or above the one at pos, in its unit: a loop back. */
static uint64_t die_above(uint64_t pos)
{
	size_t i;

	for (i = 0; i < ndies; i++) {
		if (dies[i].pos == pos) {
			size_t j = i - below(i < 8 ? i + 1 : 8);

			return dies[j].cu == dies[i].cu ? dies[j].pos : pos;
		}
	}
	return pos;
}

static int mutate_ref(void)
{
	struct attr *a = pick_attr(want_ref);
	uint64_t to, max;
	const char *how;
	int n;

	if (!a)
		return -1;
	n = ref_size(a->form);
	max = n == 4 ? 0xffffffffULL : n == 2 ? 0xffff : 0xff;
	switch (below(5)) {
	case 0: to = a->die - a->cu; how = "its own DIE (a loop)"; break;
	case 1: to = die_above(a->die) - a->cu; how = "a DIE at or above it (a loop)"; break;
	case 2: to = 0; how = "offset 0 (the unit header)"; break;
	case 3: to = a->cu_end - a->cu + below(16); how = "past its unit"; break;
	default:
		to = ndies ? dies[below(ndies)].pos - a->cu : 0;
		how = "a random DIE";
	}
	if (to > max)
		to = max;
	wr(info(a->pos), n, to);
	printf("info+0x%llx: DW_AT 0x%x of a %s: a reference to %s (0x%llx)\n",
	       (unsigned long long)a->pos, a->name, tag_name(a->tag), how,
	       (unsigned long long)to);
	return 0;
}

static int mutate_strp(void)
{
	struct attr *a = pick_attr(want_strp);
	uint64_t ssize = sect[S_STR].found ? sect[S_STR].size : 0, to;
	const char *how;

	if (!a)
		return -1;
	switch (below(4)) {
	case 0: to = ssize; how = "the end of .debug_str"; break;
	case 1: to = ssize + 1 + below(1 << 20); how = "past .debug_str"; break;
	case 2: to = rd(info(a->pos), 4) + 1; how = "the middle of its string"; break;
	default: to = below(ssize + 1); how = "a random place in .debug_str";
	}
	wr(info(a->pos), 4, to);
	printf("info+0x%llx: DW_AT 0x%x (strp) of a %s: %s (0x%llx)\n",
	       (unsigned long long)a->pos, a->name, tag_name(a->tag), how,
	       (unsigned long long)to);
	return 0;
}

/*
 * DWARF 5 names strings by index (DW_FORM_strx*): an entry of
 * .debug_str_offsets (after its 8-byte header) points elsewhere.
 */
static int mutate_stroff(void)
{
	uint64_t size = sect[S_STROFF].size, ssize = sect[S_STR].size, p, to;
	const char *how;

	if (!sect[S_STROFF].found || size < 12 || !sect[S_STR].found)
		return -1;
	p = 8 + 4 * below((size - 8) / 4);
	switch (below(3)) {
	case 0: to = ssize + below(1 << 20); how = "at or past the end of .debug_str"; break;
	case 1: to = rd(buf + sect[S_STROFF].off + p, 4) + 1; how = "in the middle of its string"; break;
	default: to = below(ssize); how = "at a random place in .debug_str";
	}
	wr(buf + sect[S_STROFF].off + p, 4, to);
	printf(".debug_str_offsets+0x%llx: a string index, now %s (0x%llx)\n",
	       (unsigned long long)p, how, (unsigned long long)to);
	return 0;
}

/* Another abbreviation code of the same length for a DIE. */
static int mutate_code(void)
{
	struct die *d;
	size_t i;

	if (!ndies)
		return -1;
	d = &dies[below(ndies)];
	if (d->code >= 16384)
		return -1;
	for (i = 0; i < 16; i++) {
		uint32_t code = 1 + below(d->code < 128 ? 127 : 16383);

		if ((code < 128) != (d->code < 128))
			continue;
		if (code < 128)
			*info(d->pos) = code;
		else {
			info(d->pos)[0] = 0x80 | (code & 0x7f);
			info(d->pos)[1] = code >> 7;
		}
		printf("info+0x%llx: the %s's abbreviation %u becomes %u\n",
		       (unsigned long long)d->pos, tag_name(d->tag), d->code, code);
		return 0;
	}
	return -1;
}

/* An abbreviation's tag, or one of its forms, becomes another. */
static int mutate_abbrev(void)
{
	static const uint32_t tags[] = { 0x0f, 0x16, 0x0d, 0x26, 0x35, 0x13, 0x17, 0x01, 0x24 };
	static const unsigned char forms[] = {
		0x0b, 0x05, 0x06, 0x07, 0x08, 0x0c, 0x0e, 0x13, 0x17, 0x18, 0x19,
		0x1a, 0x21, 0x25, 0x16, 0x7f,
	};
	unsigned char *a = buf + sect[S_ABBREV].off;
	struct abbrev *ab;

	if (!nabbrevs)
		return -1;
	ab = &abbrevs[below(nabbrevs)];
	if (below(2) && ab->nforms) {
		uint64_t p = ab->form_pos[below(ab->nforms)];
		unsigned char f = forms[below(sizeof(forms))];

		printf("abbrev+0x%llx: a form of a %s, 0x%x, becomes 0x%x\n",
		       (unsigned long long)p, tag_name(ab->tag), a[p], f);
		a[p] = f;
		return 0;
	}
	if (ab->tag_len == 1) {
		uint32_t t = tags[below(sizeof(tags) / sizeof(*tags))];

		printf("abbrev+0x%llx: the tag of a %s becomes 0x%x\n",
		       (unsigned long long)ab->tag_pos, tag_name(ab->tag), t);
		a[ab->tag_pos] = t;
		return 0;
	}
	if (ab->tag_len == 3) {	/* 0x6000 LLVM_annotation <-> 0x4xxx others */
		uint32_t t = below(2) ? 0x4109 : 0x6001;

		printf("abbrev+0x%llx: the tag of a %s becomes 0x%x\n",
		       (unsigned long long)ab->tag_pos, tag_name(ab->tag), t);
		a[ab->tag_pos] = 0x80 | (t & 0x7f);
		a[ab->tag_pos + 1] = 0x80 | ((t >> 7) & 0x7f);
		a[ab->tag_pos + 2] = t >> 14;
		return 0;
	}
	return -1;
}

static int mutate_bytes(void)
{
	static const unsigned char vals[] = { 0x00, 0x01, 0x7f, 0x80, 0xff };
	int s = below(S_NUM);
	uint64_t p;

	if (!sect[s].found || !sect[s].size)
		return -1;
	p = below(sect[s].size);
	if (below(2)) {
		int bit = below(8);

		buf[sect[s].off + p] ^= 1 << bit;
		printf("%s+0x%llx: bit %d flipped\n", sect_name[s],
		       (unsigned long long)p, bit);
	} else {
		unsigned char v = vals[below(sizeof(vals))];

		buf[sect[s].off + p] = v;
		printf("%s+0x%llx: byte set to 0x%02x\n", sect_name[s],
		       (unsigned long long)p, v);
	}
	return 0;
}

/* A string loses its terminator, or becomes another ("user" and such). */
static int mutate_string(void)
{
	static const char *const words[] = { "user", "kernel", "btf_type_tag", "" };
	unsigned char *s = buf + sect[S_STR].off;
	uint64_t size = sect[S_STR].size, p, q;

	if (!sect[S_STR].found || size < 2)
		return -1;
	p = below(size);
	if (below(2)) {
		for (q = p; q < size && s[q]; q++)
			;
		if (q >= size)
			return -1;
		s[q] = 'A';
		printf(".debug_str+0x%llx: a string's terminator becomes 'A'\n",
		       (unsigned long long)q);
		return 0;
	}
	while (p > 0 && s[p - 1])
		p--;
	for (q = p; q < size && s[q]; q++)
		;
	{
		const char *w = words[below(4)];
		size_t n = strlen(w);

		if (n > q - p)
			return -1;
		memset(s + p, 0, q - p);
		memcpy(s + p, w, n);
		printf(".debug_str+0x%llx: a string becomes \"%s\"\n",
		       (unsigned long long)p, w);
	}
	return 0;
}

/* A debug section ends early (its header says so; the data stays). */
static int mutate_truncate(void)
{
	int s = below(S_NUM);
	uint64_t n;

	if (!sect[s].found || !sect[s].size)
		return -1;
	n = below(sect[s].size);
	wr(buf + sect[s].shdr + 0x20, 8, n);
	printf("%s: truncated from %llu to %llu bytes\n", sect_name[s],
	       (unsigned long long)sect[s].size, (unsigned long long)n);
	sect[s].size = n;
	return 0;
}

/*
 * Mutate IN into OUT with SEED: everything is read and chosen again, so
 * that a file made among many (-b) is the file made alone.  Returns the
 * exit status of a run of one.
 */
static int mutate_one(unsigned long long seed, long count, const char *in,
		      const char *out)
{
	static int (*const kinds[])(void) = {
		mutate_ref, mutate_ref, mutate_ref, mutate_strp, mutate_stroff, mutate_code,
		mutate_abbrev, mutate_bytes, mutate_string, mutate_truncate,
	};
	FILE *f;
	int done = 0, tries = 0;

	free(buf);
	buf = NULL;
	memset(sect, 0, sizeof(sect));
	nattrs = ndies = nabbrevs = 0;
	rng = seed;
	if (count <= 0)
		count = 1 + below(4);
	f = fopen(in, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(buf = malloc(len ? len : 1)) ||
	    fread(buf, 1, len, f) != len) {
		fprintf(stderr, "dwarf-mutate: cannot read %s: %s\n", in,
			strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	fclose(f);
	if (find_sections()) {
		fprintf(stderr, "dwarf-mutate: %s: not a 64-bit little-endian ELF file with .debug_info and .debug_abbrev\n",
			in);
		return 2;
	}
	read_info();
	printf("seed %llu: %u DIEs, %u attributes, %u abbreviations\n", seed,
	       (unsigned int)ndies, (unsigned int)nattrs, (unsigned int)nabbrevs);
	while (done < count && tries++ < 100)
		if (!kinds[below(sizeof(kinds) / sizeof(*kinds))]())
			done++;
	f = fopen(out, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "dwarf-mutate: cannot write %s: %s\n", out,
			strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * -b: "SEED IN OUT" lines on stdin, each as "-s SEED IN OUT" would be
 * (with the same -n), one exec for many files: the fuzzer makes
 * thousands.  A line that fails is said on stderr, with its number, and
 * the next goes on; the exit status is the worst.
 */
static int mutate_many(long count)
{
	char *line = NULL, in[4096], out[4096];
	unsigned long long seed;
	size_t cap = 0;
	long n = 0;
	int worst = 0, ret;

	while (getline(&line, &cap, stdin) >= 0) {
		n++;
		if (sscanf(line, "%llu %4095s %4095s", &seed, in, out) != 3) {
			fprintf(stderr, "dwarf-mutate: stdin:%ld: not \"SEED IN OUT\"\n", n);
			worst = worst ? worst : 1;
			continue;
		}
		ret = mutate_one(seed, count, in, out);
		if (ret)
			fprintf(stderr, "dwarf-mutate: stdin:%ld: seed %llu: failed\n", n, seed);
		if (ret > worst)
			worst = ret;
	}
	free(line);
	if (fflush(stdout)) {
		fprintf(stderr, "dwarf-mutate: stdout: %s\n", strerror(errno));
		return 1;
	}
	return worst;
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1;
	long count = 0;
	int c, many = 0;

	while ((c = getopt(argc, argv, "s:n:b")) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtol(optarg, NULL, 0); break;
		case 'b': many = 1; break;
		default: goto usage;
		}
	}
	if (many && argc == optind)
		return mutate_many(count);
	if (many || argc - optind != 2)
		goto usage;
	return mutate_one(seed, count, argv[optind], argv[optind + 1]);
usage:
	fprintf(stderr, "usage: dwarf-mutate [-s SEED] [-n COUNT] IN OUT\n"
		"       dwarf-mutate [-n COUNT] -b <LINES   (each \"SEED IN OUT\")\n");
	return 1;
}
