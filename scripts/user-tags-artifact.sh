#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# user-tags-artifact.sh: the objects of a tagged build (scripts/user-tags.sh)
# of one kernel image or module as one "user tags" artifact, the file that
# perf probe fetches by build-id from debuginfod, or takes from
# --user-tags FILE (format: scripts/user-tags-pack.c).
#
#   user-tags-artifact.sh [-o OUT] DIR
#   user-tags-artifact.sh -d FOLDER DIR...
#
#   DIR  a tagged build: DIR/build-id and DIR/CU.o per unit (the folders
#        .build and .modules in it are not units)
#   -o OUT the artifact; default: BUILD-ID.debug in the current folder
#   -d FOLDER each DIR's artifact as FOLDER/BUILD-ID.debug (a whole
#        kernel: the tags of scripts/user-tags.sh -k, DIR/*)
#
# Put the artifacts of a kernel build in one folder and serve it with an
# unmodified debuginfod (debuginfod -F FOLDER): perf probe finds each one
# by the build-id of its kernel or module.  Needs cc, libelf-dev and
# eu-strip (elfutils).
set -eu

die() { printf 'user-tags-artifact.sh: error: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '/^#   user-tags-artifact.sh/,/^#   -o/p' "$0" | cut -c3- >&2; exit 2; }

out='' folder=''
while getopts o:d: opt; do
	case $opt in
	o) out=$OPTARG ;;
	d) folder=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ -n "$folder" ]; then
	[ -z "$out" ] || die "-o names one artifact, -d a folder of them: not both"
	[ $# -ge 1 ] || usage
	[ -d "$folder" ] || die "$folder is not a folder"
else
	[ $# -eq 1 ] || usage
fi

# Every DIR is checked before anything is written.
for dir; do
	dir=${dir%/}
	[ -d "$dir" ] || die "$dir is not a folder"
	[ -r "$dir/build-id" ] || die "$dir has no build-id file: it is not a tagged build (scripts/user-tags.sh)"
	bid=$(sed -n '1{s/[[:space:]].*//;p;}' "$dir/build-id")
	case $bid in
	''|*[!0-9a-f]*) die "$dir/build-id does not hold a build-id: '$bid'" ;;
	esac
done
for tool in cc eu-strip; do
	command -v "$tool" >/dev/null || die "$tool is missing (Debian: gcc, elfutils)"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
here=$(cd "$(dirname -- "$0")" && pwd)
cc -O2 -Wall -o "$tmp/user-tags-pack" "$here/user-tags-pack.c" -lelf 2>"$tmp/cc.log" ||
	die "cannot compile user-tags-pack (Debian: libelf-dev): $(cat "$tmp/cc.log")"

# pack DIR OUT: DIR's units, relocated (relocations between debug
# sections applied, which the artifact's reduced objects no longer
# carry), as the artifact OUT.
pack() {
	pdir=$1 pout=$2
	bid=$(sed -n '1{s/[[:space:]].*//;p;}' "$pdir/build-id")
	units=$(cd "$pdir" && find . \( -name .build -o -name .modules \) -prune -o \
		-type f -name '*.o' -print | sed 's|^\./||' | LC_ALL=C sort)
	if [ -z "$units" ]; then
		printf 'user-tags-artifact.sh: error: %s has no objects\n' "$pdir" >&2
		return 1
	fi
	rm -rf "$tmp/objects"
	set --
	for u in $units; do
		mkdir -p "$tmp/objects/$(dirname -- "$u")"
		cp "$pdir/$u" "$tmp/objects/$u"
		eu-strip --reloc-debug-sections-only "$tmp/objects/$u" ||
			die "cannot apply the debug relocations of $pdir/$u"
		set -- "$@" "$u=$tmp/objects/$u"
	done
	"$tmp/user-tags-pack" -o "$tmp/artifact" -t "$bid" "$@"
	mv -f "$tmp/artifact" "$pout"
	printf '%s: %s units of build-id %s, %s bytes\n' "$pout" "$#" "$bid" \
		"$(wc -c <"$pout" | tr -d ' ')"
}

if [ -z "$folder" ]; then
	dir=${1%/}
	pack "$dir" "${out:-$(sed -n '1{s/[[:space:]].*//;p;}' "$dir/build-id").debug}"
	exit
fi
# A DIR without objects (none of its units compiled) is an error that
# stops no other.
status=0
for dir; do
	dir=${dir%/}
	pack "$dir" "$folder/$(sed -n '1{s/[[:space:]].*//;p;}' "$dir/build-id").debug" ||
		status=1
done
exit $status
