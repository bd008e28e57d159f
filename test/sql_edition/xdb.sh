#!/usr/bin/env bash
# The SQL edition's installations on one server never share a sequence of IDs, and no role without a grant
# chooses an identity or stalls generation (issue 43), against a running cluster (PGHOST etc. set, as the
# superuser postgres):
#  1. two databases, and two installations (two schemas) in a third, each with its own identity set by its
#     owner, generate 20,000 IDs of each generator at once: no timeid or tbsl in common (their identities
#     differ); uid11 and scru160 have no identity field: their collisions may not exceed the format's odds
#     at the rates measured (an allowance with false alarms below one in a million runs, below);
#  2. a role with USAGE on the edition's schema and no other grant tries to set the identity, change it, lock
#     the installation, move a state, and holds every lock it can take on the installation's table (its
#     ACCESS SHARE through pg_relation_size(), a PREPAREd statement's) while the owner's sessions generate
#     under a statement_timeout: refused, and no stall.
#   xdb.sh SCRIPT   Prints `ok` / `FAIL` lines.
set -uo pipefail
script=${1:?usage: xdb.sh SCRIPT}
server=$(psql -X -At -d postgres -c 'SHOW server_version')
work=$(mktemp -d /tmp/idtypes-xdb.XXXXXX)
chmod 777 "$work"
a=idsqlx_a_$$ b=idsqlx_b_$$ c=idsqlx_c_$$
inst=idsqlx_inst nogrant=idsqlx_nogrant
su() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
cleanup() {
	for d in $a $b $c; do su -d postgres -c "DROP DATABASE IF EXISTS $d (FORCE)" >/dev/null 2>&1; done
	for r in $inst $nogrant; do su -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1; done
	rm -rf "$work"
}
trap cleanup EXIT
cleanup
mkdir -p "$work" && chmod 777 "$work"
ok() { echo "ok   PostgreSQL $server: $*"; }
fail() { echo "FAIL PostgreSQL $server: $*"; }

su -d postgres -c "CREATE ROLE $inst LOGIN" -c "CREATE ROLE $nogrant LOGIN" >/dev/null || { fail "cross-database: roles"; exit 0; }
install() { # install DB SCHEMA CLOCK_ID MACHINE_ID
	su -d "$1" -c "CREATE SCHEMA $2 AUTHORIZATION $inst" -c "GRANT USAGE ON SCHEMA $2 TO $nogrant" &&
		PGOPTIONS="-c client_min_messages=warning -c search_path=$2" psql -X -q -v ON_ERROR_STOP=1 -U $inst -d "$1" -1 -f "$script" >/dev/null &&
		psql -X -q -At -U $inst -d "$1" -c "SELECT $2.idtypes_sql_set_identity($3, $4)" >/dev/null
}
installations=("$a ids 1 1" "$b ids 2 2" "$c s1 3 3" "$c s2 4 4")
for d in $a $b $c; do su -d postgres -c "CREATE DATABASE $d" || { fail "cross-database: databases"; exit 0; }; done
for i in "${installations[@]}"; do
	# shellcheck disable=SC2086 # DB SCHEMA CLOCK MACHINE
	install $i || { fail "cross-database: installing ($i)"; exit 0; }
done

# 1. all four at once, each generator 20,000 times (the same microseconds and milliseconds in all four)
n=20000
for i in "${installations[@]}"; do
	read -r d s _ <<<"$i"
	for t in timeid tbsl uid11 scru160; do
		psql -X -q -At -U $inst -d "$d" -c "SELECT $s.${t}_generate() FROM generate_series(1, $n)" >"$work/$d.$s.$t" 2>&1 &
	done
done
wait
# timeid and tbsl: none in common (distinct identities). uid11 (42-bit ms, 22 random bits): within a millisecond
# an installation issues one run of IDs (one session's block holds it), from a random start, stepping up by
# 1..16. Two installations' runs share values only where their ranges overlap, which they do with
# probability (span_A + span_B - 1) / 2^22; where they overlap they share one value in about 72 (so repeats
# come in bursts, and their count is not Poisson; its mean is n_A * n_B / 2^22 a millisecond, the formula of
# docs/sql-edition.md, printed as `expected`). So the check counts collisions (a millisecond and a pair of
# installations with a value in common), which are never more than the overlaps: a sum of independent rare
# events with mean mu = the sum of those probabilities over the milliseconds and pairs the IDs generated here
# show. It allows the smallest k with P(Poisson(mu) > k) < 1e-6: it fails only where collisions exceed the
# format's odds, falsely less than once in a million runs. scru160 (96 random bits a millisecond) and timeid
# and tbsl: mu 0, none allowed.
odds() { # odds TYPE FILES...: "repeats collisions allowed mu expected" of the IDs in FILES (one installation a file)
	python3 - "$@" <<'PY'
import math, sys
kind, files = sys.argv[1], sys.argv[2:]
alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
runs, seen, total = [], {}, 0
for i, f in enumerate(files):
    per_ms = {} # ms -> [count, lowest, highest] (uid11 only)
    for line in open(f):
        t = line.strip()
        total += 1
        seen.setdefault(t, set()).add(i)
        if kind == 'uid11':
            v = 0
            for c in t: v = v * 58 + alphabet.index(c)
            r = per_ms.setdefault(v >> 22, [0, v, v])
            r[0] += 1; r[1] = min(r[1], v); r[2] = max(r[2], v)
    runs.append(per_ms)
repeats = total - len(seen)
collisions = set()
for t, where in seen.items():
    if len(where) > 1 and kind == 'uid11':
        v = 0
        for c in t: v = v * 58 + alphabet.index(c)
        w = sorted(where)
        collisions.update((v >> 22, w[a], w[b]) for a in range(len(w)) for b in range(a + 1, len(w)))
    elif len(where) > 1:
        collisions.add((t, 0, 0))
mu = expected = 0.0
for i in range(len(runs)):
    for j in range(i + 1, len(runs)):
        for ms, (n, lo, hi) in runs[i].items():
            if ms in runs[j]:
                m, lo2, hi2 = runs[j][ms]
                mu += ((hi - lo + 1) + (hi2 - lo2 + 1) - 1) / 2 ** 22
                expected += n * m / 2 ** 22
k, term, tail = 0, math.exp(-mu), 1 - math.exp(-mu) # tail = P(X > k)
while tail >= 1e-6:
    k += 1
    term *= mu / k
    tail -= term
print(repeats, len(collisions), k, '%.3g' % mu, '%.3g' % expected)
PY
}
for t in timeid tbsl uid11 scru160; do
	total=$(cat "$work"/*."$t" | grep -c .)
	read -r common collisions allowed mu expected < <(odds $t "$work"/*."$t" 2>&1)
	if [ "$total" = $((4 * n)) ] && [ "$collisions" -le "$allowed" ]; then
		ok "two databases and two installations in one database, ${t}_generate() $n times each at once: $common in common of $total, in $collisions collision(s) (allowed $allowed: overlaps expected $mu, repeats $expected, at the rates generated; a false alarm below 1e-6)"
	else
		fail "cross-database: ${t}_generate(): $common in common of $total in ${collisions:-?} collision(s) (want $((4 * n)); allowed ${allowed:-?}: overlaps expected ${mu:-?}, repeats ${expected:-?})"
		grep -hv '^[0-9A-Za-z]*$' "$work"/*."$t" | head -3 | sed 's/^/     /'
	fi
done

# 2. the role without grants: each attempt refused
refused=0 tried=0
for q in "SELECT ids.idtypes_sql_set_identity(9, 9)" "UPDATE ids.idtypes_sql_installation SET timeid_clock_id = 9" \
	"SELECT * FROM ids.idtypes_sql_installation" "BEGIN; LOCK TABLE ids.idtypes_sql_installation IN SHARE UPDATE EXCLUSIVE MODE" \
	"SELECT setval('ids.timeid_state', 1)" "SELECT nextval('ids.tbsl_state')" "SELECT ids.idtypes_sql_reserve(0)" \
	"SET idtypes.timeid_clock_id = 9; SELECT ids.timeid_clock_id(ids.timeid_generate()) = 9"; do
	tried=$((tried + 1))
	out=$(psql -X -q -At -U $nogrant -d "$a" -c "$q" 2>&1)
	if [[ $out == *"permission denied"* || $out == *"must be between"* || $out == f ]]; then refused=$((refused + 1)); else echo "     not refused: $q -> $out"; fi
done
# ... and holds what it can take on the installation's table while the owner's new sessions generate
oid=$(su -d "$a" -c "SELECT 'ids.idtypes_sql_installation'::regclass::oid")
psql -X -q -U $nogrant -d "$a" -c "BEGIN" -c "SELECT pg_relation_size($oid)" -c "SELECT pg_table_size($oid)" \
	-c "PREPARE p AS SELECT * FROM ids.idtypes_sql_installation FOR UPDATE" -c "SELECT pg_sleep(6)" -c "COMMIT" >"$work/holder.out" 2>&1 &
holder=$!
sleep 1
held=$(su -d "$a" -c "SELECT string_agg(DISTINCT mode, ',') FROM pg_locks WHERE relation = $oid AND granted")
gen=0
for s in 1 2 3 4; do
	r=$(PGOPTIONS="-c statement_timeout=3000" psql -X -q -At -U $inst -d "$a" -c "SELECT count(DISTINCT ids.timeid_generate()) + count(DISTINCT ids.tbsl_generate()) + count(DISTINCT ids.uid11_generate()) + count(DISTINCT ids.scru160_generate()) FROM generate_series(1, 2000)" 2>&1)
	[ "$r" = 8000 ] && gen=$((gen + 1))
done
wait $holder
if [ "$refused" = "$tried" ] && [ "$gen" = 4 ]; then
	ok "a role without grants: $refused of $tried attempts on the identity, the lock and the states refused; while it held the locks it can take on the installation's table (${held:-none}), 4 new sessions generated 8,000 IDs each within their 3 s timeout"
else
	fail "a role without grants: $refused of $tried attempts refused; with it holding ${held:-no lock}, $gen of 4 sessions generated within 3 s"
	head -5 "$work/holder.out" | sed 's/^/     /'
fi
exit 0
