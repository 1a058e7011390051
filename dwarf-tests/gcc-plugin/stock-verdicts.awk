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
# first word of DESC) is in the known differences, "ID | REASON" lines.
BEGIN {
	while ((getline l < known) > 0) {
		if (l ~ /^#/ || l !~ /[^ \t]/)
			continue
		split(l, f, "|")
		gsub(/^[ \t]+|[ \t]+$/, "", f[1])
		kd[f[1]] = 1
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
	} else if (id in kd) {
		printf "R ok %s: differs from stock perf, as documented\n", $1
	} else {
		printf "R notok %s: differs from stock perf\n", $1
		printf "D patched: %s (exit %s)\nD stock:   %s (exit %s)\n", got[$1], ex[$1], $2, $3
	}
}
