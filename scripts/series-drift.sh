#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host suite "drift": a kernel generation whose series are a backport of
# another's (BACKPORT_OF in its descriptor) carries the same changes,
# patch by patch, except where its list of differences (BACKPORT_DIFFS)
# says otherwise, so that the two copies of a change cannot drift apart
# silently when one is edited by hand.  TAP on stdout.
#
#   series-drift.sh                  every generation that is a backport
#   series-drift.sh --compare LIST BACKPORT-DIRS -- PRIMARY-DIRS
#                                    one comparison, of any series folders
#                                    with any list (the suite's self-test)
#
# Patches pair up by subject, over all the series of each generation
# (kernel and perf, in any folder).  A change is the patch's added lines
# (after its first "diff --git"), without their leading "+" and blanks,
# as a multiset: where the two patches of a subject add different lines,
# the list must give the counts, "+A -B" (A lines that only the backport
# adds, B that only the primary adds), and why.  A patch that only the
# backport has is declared "only", one that only the primary has
# "missing".  A declaration that does not hold any more fails too.
#
# LIST: one declaration per line, "SUBJECT | DIFF | WHY"; '#' starts a
# comment line.
set -u
. "$(dirname -- "$0")/lib.sh"

# changes DIR...: "SUBJECT<TAB>LINE" for every added line of every patch
# of the series folders DIR (and "SUBJECT<TAB>" once per patch).
changes() {
	for _d in "$@"; do
		series_patches "$_d"
	done | while read -r _p; do
		awk '
			FNR == 1 { subj = ""; insubj = 0; indiff = 0; done = 0 }
			done { next }
			!indiff && /^Subject: / {
				subj = substr($0, 10); insubj = 1; next
			}
			insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subj = subj $0; next }
			insubj {
				insubj = 0
				sub(/^\[[^]]*\] */, "", subj)
				printf "%s\t\n", subj
			}
			/^diff --git / { indiff = 1; next }
			indiff && /^-- $/ { done = 1; next }
			indiff && /^\+/ && !/^\+\+\+ / {
				l = substr($0, 2)
				gsub(/^[ \t]+|[ \t]+$/, "", l)
				if (l != "")
					printf "%s\t%s\n", subj, l
			}' "$_p"
	done
}

# compare LIST BACKPORT-CHANGES PRIMARY-CHANGES: one line per verdict,
# "ok<TAB>DESC" or "not ok<TAB>DESC<TAB>DIAG".
compare() {
	awk -F '\t' -v list="$1" '
		function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
		# excess(S, LINES, MINE, THEIRS, LABEL): how many more times
		# subject S adds each of its LINES on one side (MINE) than on
		# the other (THEIRS); each such line goes to diag under LABEL.
		function excess(s, lines, mine, theirs, label,    n, xs, j, x, seen) {
			n = 0
			split(substr(lines, 2), xs, SUBSEP)
			for (j in xs) {
				x = xs[j]
				if ((x in seen) || mine[s, x] <= theirs[s, x])
					continue
				seen[x] = 1
				n += mine[s, x] - theirs[s, x]
				diag = diag label x "\034"
			}
			return n
		}
		BEGIN {
			while ((getline line < list) > 0) {
				n++
				if (line ~ /^[ \t]*(#|$)/)
					continue
				k = split(line, f, / [|] /)
				if (k != 3 || trim(f[3]) == "") {
					printf "not ok\t%s:%d: \"SUBJECT | DIFF | WHY\"\t%s\n", list, n, line
					continue
				}
				s = trim(f[1]); d = trim(f[2])
				if (d != "only" && d != "missing" && d !~ /^\+[0-9]+ -[0-9]+$/) {
					printf "not ok\t%s:%d: DIFF is only, missing or +A -B\t%s\n", list, n, line
					continue
				}
				decl[s] = d; declline[s] = n
			}
		}
		{
			file = (FILENAME == ARGV[1]) ? 1 : 2
			s = $1; l = substr($0, length($1) + 2)
			if (file == 1) {
				inb[s] = 1; if (l != "") { cb[s, l]++; linesb[s] = linesb[s] SUBSEP l }
			} else {
				inp[s] = 1; if (l != "") { cp[s, l]++; linesp[s] = linesp[s] SUBSEP l }
			}
			if (!(s in seen)) { seen[s] = 1; order[++m] = s }
		}
		END {
			for (i = 1; i <= m; i++) {
				s = order[i]; diag = ""
				if ((s in inb) && !(s in inp)) {
					got = "only"
				} else if (!(s in inb)) {
					got = "missing"
				} else {
					a = excess(s, linesb[s], cb, cp, "backport only: ")
					b = excess(s, linesp[s], cp, cb, "primary only: ")
					got = "+" a " -" b
					if (a == 0 && b == 0)
						got = "same"
				}
				want = (s in decl) ? decl[s] : "same"
				if (got == want) {
					printf "ok\t%s: %s\n", s, (got == "same" ? "the same change" : got " as declared")
				} else {
					printf "not ok\t%s: %s, declared %s\t%s\n", s, got,
						(s in decl) ? want " (line " declline[s] ")" : "nothing", diag
				}
				used[s] = 1
			}
			for (s in decl)
				if (!(s in used))
					printf "not ok\t%s: declared %s (line %d), but neither generation has it\t\n",
						s, decl[s], declline[s]
		}' "$2" "$3"
}

# verdicts: the lines of compare, as TAP.
verdicts() {
	_tab=$(printf '\t')
	while IFS="$_tab" read -r _v _desc _diag; do
		if [ "$_v" = ok ]; then
			tap_ok "$_desc"
		else
			tap_not_ok "$_desc"
			[ -z "$_diag" ] || printf '%s\n' "$_diag" | tr '\034' '\n' | tap_diag
		fi
	done
}

if [ "${1:-}" = --compare ]; then
	list=$2
	shift 2
	b=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do b="$b $1" && shift; done
	[ $# -gt 0 ] && shift
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	# shellcheck disable=SC2086 # folders without blanks
	changes $b >"$t/b"
	changes "$@" >"$t/p"
	compare "$list" "$t/b" "$t/p"
	exit 0
fi

tap_begin
t=$BUILD/series-drift
rm -rf "$t"
mkdir -p "$t"
pairs=0
for g in $(list_descriptors "$GEN_DIR"); do
	(load_generation "$g" && [ -n "$BACKPORT_OF" ]) || continue
	pairs=$((pairs + 1))
	# shellcheck disable=SC2046 # folders without blanks
	(
		load_generation "$g"
		list=$TOP/$BACKPORT_DIFFS
		[ -f "$list" ] || { tap_not_ok "$g: its list of differences ${BACKPORT_DIFFS:-(BACKPORT_DIFFS)} exists"; exit 0; }
		mine=$(series_dirs)
		primary=$BACKPORT_OF
		theirs=$(load_generation "$primary" && series_dirs)
		# shellcheck disable=SC2086
		sh "$0" --compare "$list" $mine -- $theirs >"$t/$g.verdicts"
		TAP_PREFIX="$g of $primary: " verdicts <"$t/$g.verdicts"
	)
done
[ "$pairs" -gt 0 ] || tap_not_ok "a generation is a backport of another (BACKPORT_OF)"

# The check can fail: the first generation's comparison, again, with a
# list that lost its first declaration, with a line of a patch edited,
# and with a list that declares a change no series has.
for g in $(list_descriptors "$GEN_DIR"); do
	(load_generation "$g" && [ -n "$BACKPORT_OF" ]) || continue
	(
		load_generation "$g"
		primary=$BACKPORT_OF
		theirs=$(load_generation "$primary" && series_dirs)
		first=$(grep -v -E '^[[:space:]]*(#|$)' "$TOP/$BACKPORT_DIFFS" | head -n 1)
		grep -v -x -F "$first" "$TOP/$BACKPORT_DIFFS" >"$t/lost"
		# shellcheck disable=SC2046,SC2086
		if sh "$0" --compare "$t/lost" $(series_dirs) -- $theirs | grep -q '^not ok'; then
			tap_ok "self-test: a list without its declaration \"${first%% |*}\" fails"
		else
			tap_not_ok "self-test: a list without its declaration \"${first%% |*}\" fails"
		fi
		# A hand edit of one copy: a line of the first patch of the first
		# series changed in a copy of that folder.
		# shellcheck disable=SC2046 # folders without blanks
		set -- $(series_dirs)
		rel=${t#"$TOP"/}/edited
		rm -rf "$t/edited"
		cp -R "$TOP/$1" "$t/edited"
		shift
		p1=$(series_patches "$rel" | head -n 1)
		awk '/^diff --git / { d = 1 } d && !e && /^\+[^+]/ { $0 = $0 " /* edited */"; e = 1 } { print }' \
			"$p1" >"$t/p1" && mv "$t/p1" "$p1"
		# shellcheck disable=SC2086
		if sh "$0" --compare "$TOP/$BACKPORT_DIFFS" "$rel" "$@" -- $theirs | grep -q '^not ok.*: +1 -1, declared nothing'; then
			tap_ok "self-test: a line edited in one generation's copy of a patch fails"
		else
			tap_not_ok "self-test: a line edited in one generation's copy of a patch fails"
		fi
		{ cat "$TOP/$BACKPORT_DIFFS"; echo 'perf: A change that no series has | only | none'; } >"$t/stale"
		# shellcheck disable=SC2046,SC2086
		if sh "$0" --compare "$t/stale" $(series_dirs) -- $theirs | grep -q '^not ok.*neither generation has it'; then
			tap_ok "self-test: a declaration of a change that no series has fails"
		else
			tap_not_ok "self-test: a declaration of a change that no series has fails"
		fi
	)
	break
done
tap_done
