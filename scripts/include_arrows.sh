#!/usr/bin/env bash
# The include arrows between the folders of src/pg/ (FOLDER -> FOLDER it includes, with the number of
# #include lines), then one check: `ok` when no two folders include each other, directly or through others
# (folders include downward only), else `FAIL` naming the cycle. `--list` prints the arrows only.
set -uo pipefail
cd "$(dirname "$0")/.."

arrows=$(grep -H '^#include "pg/' src/pg/*/*.[ch]pp |
	sed -E 's|^src/pg/([^/]+)/[^:]*:#include "pg/([^/]+)/.*|\1 \2|' | awk '$1 != $2' | sort | uniq -c |
	awk '{print $2, $3, $1}')
printf '%s\n' "$arrows" | awk 'NF {printf "     %s -> %s (%s)\n", $1, $2, $3}'
[ "${1:-}" = --list ] && exit 0

# a cycle: a folder that reaches itself through the arrows (depth-first search from each folder)
cycle=$(printf '%s\n' "$arrows" | awk '
	NF { to[$1] = to[$1] " " $2; node[$1]; node[$2] }
	function walk(n, path,   i, m, k) {
		if (n in onpath) { found = path; return 1 }
		if (n in done) return 0
		onpath[n]
		k = split(to[n], m, " ")
		for (i = 1; i <= k; i++)
			if (walk(m[i], path " -> " m[i])) return 1
		delete onpath[n]; done[n]
		return 0
	}
	END { for (n in node) if (walk(n, n)) { print found; exit } }')
if [ -z "$cycle" ]; then
	echo "ok   the folders of src/pg/ include downward only (no cycle among $(printf '%s\n' "$arrows" | awk 'NF' | wc -l) arrows)"
else
	echo "FAIL folders of src/pg/ include each other: $cycle"
fi
