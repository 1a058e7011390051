// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf-marks: print every parameter, variable and member of an ELF
 * object's DWARF whose type has pointer levels, with the btf_type_tag
 * annotations of each level:
 *
 *	KIND SCOPE NAME MARKS
 *
 * KIND is param, var or member; SCOPE the enclosing function, or the
 * structure or union for a member ("{FIRST}" for an anonymous one whose
 * first member is FIRST).  MARKS has one item per level from the outside
 * in: "*" and the tag values of that pointer type joined with '+'
 * ("*user", "*percpu", "*" for none), "[]" for an array level, "()"
 * where a function type ends the walk.  Typedefs and qualifiers are
 * looked through.  Tags are read in clang's encoding (a
 * DW_TAG_LLVM_annotation child of the pointer type).
 *
 *	dwarf-marks FILE.o...
 *
 * The output is sorted by the caller; entries without a pointer level
 * are left out.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DW_TAG_LLVM_annotation	0x6000
#define MAX_LEVELS		16

static int errors;

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name ? name : NULL;
}

static int type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return -1;
	return dwarf_formref_die(&attr, type) ? 0 : -1;
}

/* Append the tag values of pointer type PTR to BUF: "+user+percpu" */
static void tags_of(Dwarf_Die *ptr, char *buf, size_t size)
{
	Dwarf_Die child;
	Dwarf_Attribute attr;
	const char *name, *value;
	char tags[256] = "";

	if (dwarf_child(ptr, &child) != 0)
		return;
	do {
		if (dwarf_tag(&child) != DW_TAG_LLVM_annotation)
			continue;
		name = dwarf_formstring(dwarf_attr(&child, DW_AT_name, &attr));
		value = dwarf_formstring(dwarf_attr(&child, DW_AT_const_value,
						    &attr));
		if (!name || strcmp(name, "btf_type_tag"))
			continue;
		if (tags[0])
			strncat(tags, "+", sizeof(tags) - strlen(tags) - 1);
		strncat(tags, value ? value : "?", sizeof(tags) - strlen(tags) - 1);
	} while (dwarf_siblingof(&child, &child) == 0);
	strncat(buf, tags, size - strlen(buf) - 1);
}

/* The marks of the type of DIE into BUF; returns the number of levels. */
static int marks(Dwarf_Die *die, char *buf, size_t size)
{
	Dwarf_Die type;
	int levels = 0, steps = 0;

	buf[0] = '\0';
	if (type_of(die, &type))
		return 0;
	while (steps++ < 64) {
		switch (dwarf_tag(&type)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			break;
		case DW_TAG_pointer_type:
			if (++levels > MAX_LEVELS)
				return levels;
			strncat(buf, "*", size - strlen(buf) - 1);
			tags_of(&type, buf, size);
			break;
		case DW_TAG_array_type:
			strncat(buf, "[]", size - strlen(buf) - 1);
			break;
		case DW_TAG_subroutine_type:
			strncat(buf, "()", size - strlen(buf) - 1);
			return levels;
		default:
			return levels;
		}
		if (type_of(&type, &type))
			return levels;	/* void */
	}
	return levels;
}

static void walk(Dwarf_Die *die, const char *scope)
{
	Dwarf_Die child;
	char inner[512], buf[512];
	const char *name, *kind;
	int tag;

	if (dwarf_child(die, &child) != 0)
		return;
	do {
		tag = dwarf_tag(&child);
		name = die_name(&child);
		kind = NULL;
		switch (tag) {
		case DW_TAG_formal_parameter:
			kind = "param";
			break;
		case DW_TAG_variable:
			kind = "var";
			break;
		case DW_TAG_member:
			kind = "member";
			break;
		default:
			break;
		}
		if (kind && marks(&child, buf, sizeof(buf)) > 0)
			printf("%s %s %s %s\n", kind, scope, name ? name : "{}", buf);

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
			snprintf(inner, sizeof(inner), "%s", name ? name : "{}");
			walk(&child, inner);
			break;
		case DW_TAG_lexical_block:
			walk(&child, scope);
			break;
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			/*
			 * GCC puts anonymous members' types at the top level
			 * and clang inside the structure: name an anonymous
			 * one by its first member instead.
			 */
			if (name) {
				snprintf(inner, sizeof(inner), "%s", name);
			} else {
				Dwarf_Die first;
				const char *m = NULL;

				if (dwarf_child(&child, &first) == 0)
					m = die_name(&first);
				snprintf(inner, sizeof(inner), "{%s}", m ? m : "");
			}
			walk(&child, inner);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* libdwfl applies the relocations of an ET_REL object's DWARF. */
static void dump(const char *path)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	Dwfl_Module *mod;
	Dwfl *dwfl;

	dwfl = dwfl_begin(&callbacks);
	if (!dwfl)
		goto fail;
	mod = dwfl_report_offline(dwfl, path, path, -1);
	if (!mod || dwfl_report_end(dwfl, NULL, NULL) != 0)
		goto fail;
	if (!dwfl_module_getdwarf(mod, &bias))
		goto fail;
	while ((cu = dwfl_module_nextcu(mod, cu, &bias)))
		walk(cu, "-");
	dwfl_end(dwfl);
	return;
fail:
	fprintf(stderr, "%s: cannot read DWARF: %s\n", path, dwfl_errmsg(-1));
	if (dwfl)
		dwfl_end(dwfl);
	errors++;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE.o...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		dump(argv[i]);
	return errors ? 1 : 0;
}
