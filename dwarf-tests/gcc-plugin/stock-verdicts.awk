# SPDX-License-Identifier: GPL-2.0
# The gcc-stock verdicts (fixtures.sh stock), as records for tap_records
# (scripts/tap.sh); tested by qemu-image/parsers.sh.
#
#   awk -F '\t' -v known=stock-differences.txt -f stock-verdicts.awk \
#       PATCHED.cases STOCK.cases
#
# Each .cases file has one line per case, "DESC<TAB>OUTPUT<TAB>EXIT", what
# perf printed (dwarf-tests/run.sh's "G" records).  A case passes when the
# patched perf printed what the stock perf printed, or when its id (the
# first word of DESC) is a known difference and the patched perf printed
# what that difference says it prints: "ID | EXIT | OUTPUT | REASON"
# lines, one or more per id (one per output, where the kernel generations'
# perfs print different things).
BEGIN {
	while ((getline l < known) > 0) {
		if (l ~ /^#/ || l !~ /[^ \t]/)
			continue
		n = split(l, f, / \| /)
		for (i = 1; i <= n; i++)
			gsub(/^[ \t]+|[ \t]+$/, "", f[i])
		if (n != 4 || f[2] !~ /^[0-9]+$/ || f[4] == "") {
			printf "R notok %s: not \"ID | EXIT | OUTPUT | REASON\": %s\n", known, l
			continue
		}
		kn[f[1]]++
		kex[f[1], kn[f[1]]] = f[2]
		kout[f[1], kn[f[1]]] = f[3]
	}
}
FNR == 1 { file++ }
file == 1 { got[$1] = $2; ex[$1] = $3; next }
{
	id = $1
	sub(/ .*/, "", id)
	if (!($1 in got)) {
		printf "R notok %s: no result with the patched perf\n", $1
	} else if (got[$1] == $2 && ex[$1] == $3) {
		printf "R ok %s: as stock perf\n", $1
	} else if (id in kn) {
		for (i = 1; i <= kn[id]; i++)
			if (got[$1] == kout[id, i] && ex[$1] == kex[id, i])
				break
		if (i <= kn[id]) {
			printf "R ok %s: differs from stock perf, as documented\n", $1
		} else {
			printf "R notok %s: differs from stock perf, not as documented\n", $1
			for (i = 1; i <= kn[id]; i++)
				printf "D documented: %s (exit %s)\n", kout[id, i], kex[id, i]
			printf "D patched:    %s (exit %s)\nD stock:      %s (exit %s)\n", got[$1], ex[$1], $2, $3
		}
	} else {
		printf "R notok %s: differs from stock perf\n", $1
		printf "D patched: %s (exit %s)\nD stock:   %s (exit %s)\n", got[$1], ex[$1], $2, $3
	}
}
