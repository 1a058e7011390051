// SPDX-License-Identifier: GPL-2.0
/*
 * user-tags-pack: the objects of a tagged build (scripts/user-tags.sh) of
 * one kernel image or module as one file that perf probe reads, and that
 * an unmodified debuginfod serves by build-id: the "user tags" artifact.
 *
 *	user-tags-pack -o OUT -t BUILD-ID UNIT=OBJECT...
 *
 * BUILD-ID is the target's (the vmlinux's or the module's), in hex; UNIT
 * the object's name in the tagged build ("fs/open.o", for the
 * compilation unit "fs/open.c"); OBJECT the object, whose relocations
 * between debug sections are already applied (eu-strip
 * --reloc-debug-sections-only): what is left of them is refused.
 *
 * OUT is an ELF relocatable file of the objects' machine with two
 * sections.  ".note.gnu.build-id" holds its own build-id, derived from
 * the target's: the 16 bytes "perf-user-tags-1" and then the target's
 * build-id.  debuginfod serves it as that build-id's debuginfo, which
 * never is the target's own (real debuginfo has the target's build-id),
 * and a later format gets another prefix.  ".debug_user_tags" holds,
 * little-endian:
 *
 *	0	"USERTAGS"
 *	8	le32 version (1)
 *	12	le32 size of the target's build-id (1 to 64)
 *	16	the target's build-id, padded with zeroes to 64 bytes
 *	80	le32 number of units N
 *	84	le32 size of the names S
 *	88	N entries of 24 bytes, sorted by name, names unique:
 *		le32 offset of the name in the names, le32 zero,
 *		le64 offset of the object from the section's start, le64 size
 *	88+24N	the names, each ending with a NUL
 *	then	the objects, each at a multiple of 8
 *
 * Each object is an ELF file with what perf probe reads of the unit's
 * DWARF only: .debug_info, .debug_abbrev, .debug_str, .debug_line_str
 * and .debug_str_offsets, compressed (SHF_COMPRESSED, zlib).  Their
 * locations, line table, ranges and frames are left out, and so is all
 * code and data.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FORMAT_PREFIX	"perf-user-tags-1"
#define FORMAT_MAGIC	"USERTAGS"
#define FORMAT_VERSION	1
#define MAX_BUILD_ID	64
#define HEADER_SIZE	88
#define ENTRY_SIZE	24

static const char *const kept[] = {
	".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str",
	".debug_str_offsets",
};

struct unit {
	const char	*name;
	const char	*path;
	unsigned char	*data;
	size_t		size;
};

static const char *prog = "user-tags-pack";

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t size)
{
	void *p = calloc(1, size ?: 1);

	if (!p)
		die("out of memory");
	return p;
}

static bool is_kept(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if (!strcmp(name, kept[i]))
			return true;
	return false;
}

static const char *scn_name(Elf *elf, size_t shstrndx, Elf_Scn *scn)
{
	GElf_Shdr shdr;
	const char *name;

	if (!gelf_getshdr(scn, &shdr))
		return NULL;
	name = elf_strptr(elf, shstrndx, shdr.sh_name);
	return name;
}

/*
 * Refuse an object whose kept sections still have relocations against
 * kept sections: their offsets would be wrong without them.  Relocations
 * against code or data (addresses) do not matter to perf probe here.
 */
static void check_relocations(struct unit *u, Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr, symshdr;
		Elf_Scn *target, *symscn;
		Elf_Data *data, *syms;
		const char *tname;
		size_t i, n;

		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_RELA && shdr.sh_type != SHT_REL))
			continue;
		target = elf_getscn(elf, shdr.sh_info);
		tname = target ? scn_name(elf, shstrndx, target) : NULL;
		if (!tname || !is_kept(tname))
			continue;
		symscn = elf_getscn(elf, shdr.sh_link);
		data = elf_getdata(scn, NULL);
		syms = symscn ? elf_getdata(symscn, NULL) : NULL;
		if (!data || !syms || !gelf_getshdr(symscn, &symshdr) ||
		    !shdr.sh_entsize)
			die("%s: unreadable relocations of %s", u->path, tname);
		n = shdr.sh_size / shdr.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela rela;
			GElf_Rel rel;
			GElf_Sym sym;
			Elf_Scn *ss;
			const char *sname;
			size_t info;

			if (shdr.sh_type == SHT_RELA) {
				if (!gelf_getrela(data, i, &rela))
					die("%s: unreadable relocation", u->path);
				info = rela.r_info;
			} else {
				if (!gelf_getrel(data, i, &rel))
					die("%s: unreadable relocation", u->path);
				info = rel.r_info;
			}
			if (!gelf_getsym(syms, GELF_R_SYM(info), &sym))
				die("%s: a relocation of %s has no symbol",
				    u->path, tname);
			if (sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE)
				continue;
			ss = elf_getscn(elf, sym.st_shndx);
			sname = ss ? scn_name(elf, shstrndx, ss) : NULL;
			if (sname && is_kept(sname))
				die("%s: %s has relocations against %s: apply them first (eu-strip --reloc-debug-sections-only)",
				    u->path, tname, sname);
		}
	}
}

/* Copy the kept sections of @u->path into a new ELF in memory */
static void reduce(struct unit *u, GElf_Half *machine)
{
	Elf *in, *out;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr, oehdr;
	size_t shstrndx, nkept = 0, len;
	char shstrtab[256] = "";
	size_t shstrlen = 1;
	FILE *tmp;
	int fd, ofd;
	long size;

	fd = open(u->path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", u->path, strerror(errno));
	in = elf_begin(fd, ELF_C_READ, NULL);
	if (!in || elf_kind(in) != ELF_K_ELF || !gelf_getehdr(in, &ehdr))
		die("%s is not an ELF file", u->path);
	if (ehdr.e_type != ET_REL)
		die("%s is not an object file (ET_REL)", u->path);
	if (*machine && ehdr.e_machine != *machine)
		die("%s is of another machine than the other objects", u->path);
	*machine = ehdr.e_machine;
	if (elf_getshdrstrndx(in, &shstrndx))
		die("%s has no section names", u->path);
	check_relocations(u, in, shstrndx);

	tmp = tmpfile();
	if (!tmp)
		die("cannot make a temporary file: %s", strerror(errno));
	ofd = fileno(tmp);
	out = elf_begin(ofd, ELF_C_WRITE, NULL);
	if (!out || !gelf_newehdr(out, gelf_getclass(in)))
		die("libelf: %s", elf_errmsg(-1));
	gelf_getehdr(out, &oehdr);
	memcpy(oehdr.e_ident, ehdr.e_ident, EI_NIDENT);
	oehdr.e_type = ET_REL;
	oehdr.e_machine = ehdr.e_machine;
	oehdr.e_version = EV_CURRENT;
	oehdr.e_flags = ehdr.e_flags;
	if (!gelf_update_ehdr(out, &oehdr))
		die("libelf: %s", elf_errmsg(-1));

	while ((scn = elf_nextscn(in, scn))) {
		const char *name = scn_name(in, shstrndx, scn);
		GElf_Shdr shdr, oshdr;
		Elf_Data *data, *odata;
		Elf_Scn *oscn;

		if (!name || !is_kept(name) || !gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type != SHT_PROGBITS)
			die("%s: %s is not PROGBITS", u->path, name);
		if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			die("%s: %s: %s", u->path, name, elf_errmsg(-1));
		data = elf_getdata(scn, NULL);
		if (!data)
			die("%s: %s: %s", u->path, name, elf_errmsg(-1));
		oscn = elf_newscn(out);
		odata = elf_newdata(oscn);
		if (!oscn || !odata)
			die("libelf: %s", elf_errmsg(-1));
		odata->d_buf = data->d_buf;
		odata->d_size = data->d_size;
		odata->d_type = ELF_T_BYTE;
		odata->d_align = 1;
		gelf_getshdr(oscn, &oshdr);
		len = strlen(name) + 1;
		oshdr.sh_name = shstrlen;
		memcpy(shstrtab + shstrlen, name, len);
		shstrlen += len;
		oshdr.sh_type = SHT_PROGBITS;
		oshdr.sh_flags = shdr.sh_flags & (SHF_MERGE | SHF_STRINGS);
		oshdr.sh_entsize = shdr.sh_entsize;
		oshdr.sh_addralign = 1;
		gelf_update_shdr(oscn, &oshdr);
		if (data->d_size && elf_compress(oscn, ELFCOMPRESS_ZLIB, 0) < 0)
			die("%s: cannot compress %s: %s", u->path, name,
			    elf_errmsg(-1));
		nkept++;
	}
	if (!nkept)
		die("%s has no DWARF (.debug_info)", u->path);
	{
		Elf_Scn *sscn = elf_newscn(out);
		Elf_Data *sdata = sscn ? elf_newdata(sscn) : NULL;
		GElf_Shdr sshdr;

		if (!sdata)
			die("libelf: %s", elf_errmsg(-1));
		len = strlen(".shstrtab") + 1;
		memcpy(shstrtab + shstrlen, ".shstrtab", len);
		gelf_getshdr(sscn, &sshdr);
		sshdr.sh_name = shstrlen;
		shstrlen += len;
		sdata->d_buf = shstrtab;
		sdata->d_size = shstrlen;
		sdata->d_type = ELF_T_BYTE;
		sdata->d_align = 1;
		sshdr.sh_type = SHT_STRTAB;
		sshdr.sh_addralign = 1;
		gelf_update_shdr(sscn, &sshdr);
		oehdr.e_shstrndx = elf_ndxscn(sscn);
	}
	gelf_update_ehdr(out, &oehdr);
	if (elf_update(out, ELF_C_WRITE) < 0)
		die("cannot write the reduced %s: %s", u->path, elf_errmsg(-1));
	elf_end(out);
	elf_end(in);
	close(fd);

	size = lseek(ofd, 0, SEEK_END);
	if (size <= 0 || lseek(ofd, 0, SEEK_SET) < 0)
		die("cannot read back the reduced %s", u->path);
	u->size = size;
	u->data = xmalloc(u->size);
	if (fread(u->data, 1, u->size, tmp) != u->size)
		die("cannot read back the reduced %s", u->path);
	fclose(tmp);
}

static int unit_cmp(const void *a, const void *b)
{
	return strcmp(((const struct unit *)a)->name,
		      ((const struct unit *)b)->name);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, v);
	put_le32(p + 4, v >> 32);
}

static size_t parse_build_id(const char *hex, unsigned char *bid)
{
	size_t n = strlen(hex), i;

	if (!n || n % 2 || n / 2 > MAX_BUILD_ID)
		die("%s is not a build-id (hex, 1 to %d bytes)", hex,
		    MAX_BUILD_ID);
	for (i = 0; i < n / 2; i++) {
		unsigned int byte;

		if (sscanf(hex + 2 * i, "%2x", &byte) != 1 ||
		    !strchr("0123456789abcdef", hex[2 * i]) ||
		    !strchr("0123456789abcdef", hex[2 * i + 1]))
			die("%s is not a build-id (lowercase hex)", hex);
		bid[i] = byte;
	}
	return n / 2;
}

static Elf_Scn *add_section(Elf *elf, const char *name, size_t name_off,
			    GElf_Word type, void *buf, size_t size,
			    size_t align)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *data = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr shdr;

	if (!data)
		die("libelf: %s (%s)", elf_errmsg(-1), name);
	data->d_buf = buf;
	data->d_size = size;
	data->d_type = ELF_T_BYTE;
	data->d_align = align;
	gelf_getshdr(scn, &shdr);
	shdr.sh_name = name_off;
	shdr.sh_type = type;
	shdr.sh_addralign = align;
	gelf_update_shdr(scn, &shdr);
	return scn;
}

int main(int argc, char **argv)
{
	unsigned char bid[MAX_BUILD_ID] = { 0 }, *sec, *note;
	const char *out_path = NULL, *bid_hex = NULL;
	static char shstrtab[] = "\0.note.gnu.build-id\0.debug_user_tags\0.shstrtab";
	size_t bid_size, nunits, i, names_size = 0, off, note_size;
	GElf_Half machine = 0;
	struct unit *units;
	GElf_Ehdr ehdr;
	Elf_Scn *scn;
	Elf *elf;
	int opt, fd;

	while ((opt = getopt(argc, argv, "o:t:")) != -1) {
		switch (opt) {
		case 'o':
			out_path = optarg;
			break;
		case 't':
			bid_hex = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!out_path || !bid_hex || optind >= argc)
		goto usage;
	bid_size = parse_build_id(bid_hex, bid);
	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));

	nunits = argc - optind;
	units = xmalloc(nunits * sizeof(*units));
	for (i = 0; i < nunits; i++) {
		char *arg = argv[optind + i], *eq = strchr(arg, '=');

		if (!eq || eq == arg || !eq[1])
			die("%s is not UNIT=OBJECT", arg);
		*eq = '\0';
		units[i].name = arg;
		units[i].path = eq + 1;
		if (strlen(arg) < 3 || strcmp(arg + strlen(arg) - 2, ".o") ||
		    arg[0] == '/' || strstr(arg, "../") || !strncmp(arg, "./", 2))
			die("%s is not the name of a unit's object (dir/name.o)",
			    arg);
	}
	qsort(units, nunits, sizeof(*units), unit_cmp);
	for (i = 0; i < nunits; i++) {
		if (i && !strcmp(units[i - 1].name, units[i].name))
			die("%s is given twice", units[i].name);
		reduce(&units[i], &machine);
		names_size += strlen(units[i].name) + 1;
	}

	off = HEADER_SIZE + ENTRY_SIZE * nunits + names_size;
	off = (off + 7) & ~(size_t)7;
	for (i = 0; i < nunits; i++)
		off = ((off + units[i].size) + 7) & ~(size_t)7;
	sec = xmalloc(off);
	memcpy(sec, FORMAT_MAGIC, 8);
	put_le32(sec + 8, FORMAT_VERSION);
	put_le32(sec + 12, bid_size);
	memcpy(sec + 16, bid, bid_size);
	put_le32(sec + 80, nunits);
	put_le32(sec + 84, names_size);
	{
		size_t name_off = 0;
		size_t data_off = HEADER_SIZE + ENTRY_SIZE * nunits + names_size;
		unsigned char *names = sec + HEADER_SIZE + ENTRY_SIZE * nunits;

		data_off = (data_off + 7) & ~(size_t)7;
		for (i = 0; i < nunits; i++) {
			unsigned char *e = sec + HEADER_SIZE + ENTRY_SIZE * i;
			size_t len = strlen(units[i].name) + 1;

			put_le32(e, name_off);
			put_le64(e + 8, data_off);
			put_le64(e + 16, units[i].size);
			memcpy(names + name_off, units[i].name, len);
			name_off += len;
			memcpy(sec + data_off, units[i].data, units[i].size);
			data_off = (data_off + units[i].size + 7) & ~(size_t)7;
		}
	}

	/* The note: namesz, descsz, type, "GNU\0", the derived build-id */
	note_size = 16 + ((strlen(FORMAT_PREFIX) + bid_size + 3) & ~(size_t)3);
	note = xmalloc(note_size);
	put_le32(note, 4);
	put_le32(note + 4, strlen(FORMAT_PREFIX) + bid_size);
	put_le32(note + 8, NT_GNU_BUILD_ID);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, FORMAT_PREFIX, strlen(FORMAT_PREFIX));
	memcpy(note + 16 + strlen(FORMAT_PREFIX), bid, bid_size);

	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("cannot create %s: %s", out_path, strerror(errno));
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !gelf_newehdr(elf, ELFCLASS64))
		die("libelf: %s", elf_errmsg(-1));
	gelf_getehdr(elf, &ehdr);
	ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
	ehdr.e_type = ET_REL;
	ehdr.e_machine = machine;
	ehdr.e_version = EV_CURRENT;
	if (!gelf_update_ehdr(elf, &ehdr))
		die("libelf: %s", elf_errmsg(-1));
	scn = add_section(elf, ".note.gnu.build-id", 1, SHT_NOTE, note,
			  note_size, 4);
	scn = add_section(elf, ".debug_user_tags", 20, SHT_PROGBITS, sec, off,
			  8);
	scn = add_section(elf, ".shstrtab", 37, SHT_STRTAB, shstrtab,
			  sizeof(shstrtab), 1);
	ehdr.e_shstrndx = elf_ndxscn(scn);
	gelf_update_ehdr(elf, &ehdr);
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		unlink(out_path);
		die("cannot write %s: %s", out_path, elf_errmsg(-1));
	}
	elf_end(elf);
	if (close(fd)) {
		unlink(out_path);
		die("cannot write %s: %s", out_path, strerror(errno));
	}
	return 0;
usage:
	fprintf(stderr, "usage: %s -o OUT -t BUILD-ID UNIT=OBJECT...\n", prog);
	return 2;
}
