#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-graph.sh DIR GOAL...: the targets that make, in DIR, can start
# for GOAL... and that have no path to the target "deps" in make's own
# database (make -p), one per line with the chain that reached it.
# Nothing printed means that every build of GOAL... runs after deps, so
# a fresh machine never compiles against a package that deps is still
# installing.
#
# Targets are those that make can start: GOAL's prerequisites, closed
# over the database's rules (order-only ones included), and the targets
# that a recipe hands to a sub-make, which the Makefile names through
# "make check-plan" (the builds of make check).  A target needs deps if
# it has a recipe; "deps" itself and the timers begin-GOAL (shell and
# date only) need nothing.  A target that is no rule's and no file is
# reported too: make would stop there.
set -u
dir=$1
shift

db=$(mktemp)
trap 'rm -f "$db"' EXIT
# -q runs no recipe; make's status says only whether a goal is up to date.
make -C "$dir" --no-print-directory -pq -r help >"$db" 2>/dev/null
# The builds that check's recipe hands to its sub-make, if it has them.
subs=$(make -C "$dir" --no-print-directory -s check-plan 2>/dev/null |
	sed -n 's/^builds: //p')

# shellcheck disable=SC2086 # goals and target names, without blanks
awk -v goals="$* $subs" -v dir="$dir" '
	/^# Files/ { files = 1; next }
	/^# files hash-table stats/ { files = 0 }
	!files { next }
	/^# Not a target:/ { notarget = 1; next }
	/^$/ { notarget = 0; cur = ""; next }
	/^\t/ { if (cur != "") recipe[cur] = 1; next }
	/^#/ { next }
	/^[^ \t#][^=]*:/ && !/^[^:]*:[:!?+]?=/ {
		if (notarget) next
		t = $0
		sub(/:.*/, "", t)
		p = $0
		sub(/^[^:]*:[:]?/, "", p)
		gsub(/\|/, " ", p)
		rule[t] = 1
		prereq[t] = p
		cur = t
	}
	function needs_nothing(t) { return t == "deps" || t ~ /^begin-/ }
	# reaches(t): does t have a path to deps?  Memoised; a loop is no path.
	function reaches(t,    n, i, a, r) {
		if (t == "deps") return 1
		if (t in memo) return memo[t]
		memo[t] = 0
		n = split(prereq[t], a, " ")
		r = 0
		for (i = 1; i <= n && !r; i++)
			r = reaches(a[i])
		memo[t] = r
		return r
	}
	function exists(f,    cmd, ok) {
		cmd = "test -e \"" (f ~ /^\// ? f : dir "/" f) "\""
		ok = (system(cmd) == 0)
		return ok
	}
	END {
		n = split(goals, q, " ")
		for (i = 1; i <= n; i++) { seen[q[i]] = 1; via[q[i]] = q[i] }
		for (i = 1; i <= n; i++) {
			t = q[i]
			if (!(t in rule)) {
				if (!needs_nothing(t) && !exists(t))
					print t ": no rule makes it (" via[t] ")"
				continue
			}
			if (recipe[t] && !needs_nothing(t) && !reaches(t))
				print t ": no path to deps (" via[t] ")"
			m = split(prereq[t], a, " ")
			for (j = 1; j <= m; j++)
				if (!(a[j] in seen)) {
					seen[a[j]] = 1
					via[a[j]] = via[t] " -> " a[j]
					q[++n] = a[j]
				}
		}
	}' "$db"
