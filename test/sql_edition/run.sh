#!/usr/bin/env bash
# The SQL edition (src/sql_edition/, docs/sql-edition.md) against a running cluster (PGHOST etc. set,
# the native idtypes installed): installs it three ways (psql -f by a role without superuser, CREATE
# EXTENSION idtypes_sql, pg_tle where present), among hostile objects too (hostile.sh), runs its suite as that role, compares it with the native
# edition (the native tests' vectors, SIZE native IDs of each type read by the SQL edition and SIZE of its IDs
# read by the native one), checks its generators (sessions one after another and at once, a restart, a
# crash restart, a promoted standby), a dump restored into a fresh cluster, and the one-statement moves
# between the editions. Restarts the cluster (and leaves it running).
#   run.sh DATA_DIR BINDIR [SIZE [full|lean]]
# lean (for the versions after the first, CI time): 300 IDs per generator session instead of 1,000, and no
# promoted standby or dump (whose client would be the other version's). Prints `ok`, `FAIL` or `skip` lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data=${1:?usage: run.sh DATA_DIR BINDIR [SIZE]}
bin=${2:?usage: run.sh DATA_DIR BINDIR [SIZE]}
size=${3:-100000}
mode=${4:-full}
per_session=1000
[ "$mode" = lean ] && per_session=300
psql_q() { PGOPTIONS="-c client_min_messages=warning ${PGOPTIONS_EXTRA:-}" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
# shellcheck source=../concurrency/server.sh
source "$root/test/concurrency/server.sh"
work=$(mktemp -d /tmp/idtypes-sqled.XXXXXX)
chmod 777 "$work"
role=idsql_app
db=idsql_$$
types="timeid tbsl uid11 scru160"
others=()
cleanup() {
	local d
	for d in "${others[@]}"; do (cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$d" -m immediate -s stop) >/dev/null 2>&1; done
	rm -rf "$work"
}
trap cleanup EXIT
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
	local what=$1
	shift
	if "$@" >"$work/out" 2>&1; then ok "$what"; else fail "$what"; head -20 "$work/out" | sed 's/^/     /'; fi
}
server=$(psql_q -d postgres -c 'SHOW server_version')
as_role() { PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -At -U "$role" "$@"; }

make -s -C "$root" sql-edition >/dev/null || { fail "make sql-edition"; exit 0; }
script=$root/build/idtypes_sql.sql

# 1. psql -f by a role that is not a superuser and owns a schema
psql_q -d postgres -c "DROP ROLE IF EXISTS $role" -c "CREATE ROLE $role LOGIN NOSUPERUSER" -c "CREATE DATABASE $db" &&
	psql_q -d "$db" -c "CREATE SCHEMA ids AUTHORIZATION $role" -c "GRANT CREATE ON DATABASE $db TO $role" || { fail "setup"; exit 0; }
check "PostgreSQL $server: psql -f build/idtypes_sql.sql by a role without superuser that owns the schema" \
	bash -c "[ \"\$(psql -X -At -d $db -c \"SELECT rolsuper FROM pg_roles WHERE rolname = '$role'\")\" = f ] &&
		PGOPTIONS='-c client_min_messages=warning -c search_path=ids' psql -X -q -v ON_ERROR_STOP=1 -U $role -d $db -f '$script'"

# the audit of the installed bodies (test/sql_edition/audit.sql): no unqualified operator or call in PL/pgSQL,
# nothing outside pg_catalog and the edition bound into SQL bodies and domain checks
found=$(psql_q -d "$db" -f "$here/audit.sql" 2>&1)
if [ -z "$found" ]; then
	ok "PostgreSQL $server: the installed bodies name every operator and function qualified, and bind nothing outside pg_catalog and the edition (test/sql_edition/audit.sql)"
else
	fail "PostgreSQL $server: the audit of the installed bodies (test/sql_edition/audit.sql):"
	head -20 <<<"$found" | sed 's/^/     /'
fi

# 2. the suite, as that role: answers compared with test/sql_edition/expected/suite.out
PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -At -U "$role" -d "$db" -a <"$here/suite.sql" >"$work/suite.out" 2>&1
if diff -u "$here/expected/suite.out" "$work/suite.out" >"$work/suite.diff"; then
	ok "PostgreSQL $server: the SQL edition's suite as a role without superuser ($(grep -c '^SELECT\|^EXPLAIN' "$here/suite.sql") queries, test/sql_edition/suite.sql)"
else
	fail "PostgreSQL $server: the SQL edition's suite (diff against test/sql_edition/expected/suite.out):"
	head -60 "$work/suite.diff" | sed 's/^/     /'
	cp "$work/suite.out" "$here/suite.out.actual" 2>/dev/null
fi

# 3. every literal of the native tests through both editions: the same text and time, or the same error
native=idsql_native_$$
psql_q -d postgres -c "CREATE DATABASE $native" && psql_q -d "$native" -c "CREATE EXTENSION idtypes" || { fail "native setup"; exit 0; }
{
	grep -ohE "'[^']*'::(timeid|tbsl|uid11|scru160)\b" "$root"/sql/*.sql | sed -E "s/^'(.*)'::(.*)$/literal\t\2\t\1/"
	grep -ohE "'[^']*'::timestamptz" "$root"/sql/*.sql | sed -E "s/^'(.*)'::.*$/instant\t\t\1/"
	grep -ohE "\\^@ '[^']*'" "$root"/sql/*.sql | sed -E "s/^\\^@ '(.*)'$/prefix\t\t\1/"
} | sed 's/\\/\\\\/g' | sort -u >"$work/vectors.tsv"
answers() { psql_q -d "$1" -f "$here/vectors.sql" <"$work/vectors.tsv"; }
if answers "$native" >"$work/vectors.native" 2>&1 && answers "$db" >"$work/vectors.sql" 2>&1 &&
	diff -u "$work/vectors.native" "$work/vectors.sql" >"$work/vectors.diff"; then
	ok "PostgreSQL $server: the native tests' $(grep -c ^literal "$work/vectors.tsv") literals, $(grep -c ^instant "$work/vectors.tsv") instants (T_min, T_max) and $(grep -c ^prefix "$work/vectors.tsv") prefixes (^@ over the literals) give the same texts, times and errors in both editions"
else
	fail "PostgreSQL $server: the native tests' vectors differ between the editions (native -, SQL +):"
	head -40 "$work/vectors.diff" | sed 's/^/     /'
fi

# 3b. `id ^@ prefix` written 7 ways (test/sql_edition/prefixes.sql) over valid, re-cased, dashed, too long and
# foreign prefixes: the native edition answers the same each way; the SQL edition answers as the native one
# for a prefix of type text or varchar (a cast, a typed parameter), and for an untyped one (a literal, a
# parameter of no type) gives pg_catalog's text ^@ text, as docs/sql-edition.md says: the native answer where
# the native edition reads the prefix as written, 0 where it normalizes the prefix or refuses it (22P02)
if psql_q -d "$native" -f "$here/prefixes.sql" >"$work/prefixes.native" 2>&1 && psql_q -d "$db" -f "$here/prefixes.sql" >"$work/prefixes.sql" 2>&1; then
	found=$(paste -d'|' "$work/prefixes.native" "$work/prefixes.sql" | awk -F'|' '
		$1 != $5 || $2 != $6 || $3 != $7 { print "misaligned: " $0; next }
		{ key = $1 "|" $2; nat[key, $3] = $4; sql[key, $3] = $8; keys[key] = 1; forms[$3] = 1 }
		END {
			typed["typed"] = typed["varchar"] = typed["param_text"] = typed["param_varchar"] = typed["param_cast"] = 1
			untyped["untyped"] = untyped["param_unknown"] = 1
			for (f in forms) if (!(f in typed) && !(f in untyped) && f != "text") print "unknown form " f
			if (length(forms) != 8) print "forms: " length(forms) " of 8"
			for (k in keys) {
				n++
				split(k, kp, "|")
				for (f in forms) {
					if (f != "text" && nat[k, f] != nat[k, "typed"]) print "native " k " " f ": " nat[k, f] ", typed: " nat[k, "typed"]
					if ((f in typed) && sql[k, f] != nat[k, "typed"]) print "typed prefix " k " " f ": SQL edition " sql[k, f] ", native " nat[k, "typed"]
					if ((f in untyped) && sql[k, f] != sql[k, "text"]) print "untyped prefix " k " " f ": SQL edition " sql[k, f] ", text ^@ text " sql[k, "text"]
				}
				if (sql[k, "untyped"] == nat[k, "typed"]) same++
				else if (nat[k, "typed"] == "22P02") refused++
				else if ((kp[1] == "timeid" && kp[2] ~ /-/) || (kp[1] == "scru160" && kp[2] ~ /[a-v]/)) normalized++
				else print "untyped prefix " k ": SQL edition " sql[k, "untyped"] ", native " nat[k, "typed"] " (neither refused nor normalized)"
			}
			printf "summary %d %d %d %d\n", n, same, refused, normalized
		}')
	summary=$(grep '^summary' <<<"$found")
	read -r _ pairs same refused normalized <<<"$summary"
	if [ "$(grep -vc '^summary' <<<"$found")" = 0 ] && [ "${pairs:-0}" -ge 70 ] && [ "${refused:-0}" -gt 0 ] && [ "${normalized:-0}" -gt 0 ]; then
		ok "PostgreSQL $server: ^@ over $pairs (type, prefix) pairs, each 7 ways: a text or varchar prefix (cast, typed parameter) answers as the native edition; an untyped one (literal, parameter of no type) as text ^@ text: the native answer for $same, 0 for $refused the native edition refuses and $normalized it normalizes (dashed timeid, lower-case scru160)"
	else
		fail "PostgreSQL $server: ^@ in both editions (test/sql_edition/prefixes.sql): $summary"
		grep -v '^summary' <<<"$found" | head -20 | sed 's/^/     /'
	fi
else
	fail "PostgreSQL $server: test/sql_edition/prefixes.sql:"
	cat "$work/prefixes.native" "$work/prefixes.sql" | grep -m5 ERROR | sed 's/^/     /'
fi

# 4. SIZE IDs of each type generated by each edition, read by the other: the same text, time and order
for t in $types; do
	psql_q -d "$native" -v t="$t" -v n="$size" -f "$here/native_ids.sql" >"$work/$t.native.tsv" 2>&1
	as_role -d "$db" -v t="$t" -v n="$size" -f "$here/sql_ids.sql" >"$work/$t.sql.tsv" 2>&1
	# each side reads the other's IDs: count, timestamps that differ, md5 of the texts in the type's order
	a=$(as_role -d "$db" -v t="$t" -f "$here/read_ids.sql" <"$work/$t.native.tsv" 2>&1)
	b=$(psql_q -d "$native" -v t="$t" -f "$here/read_ids.sql" <"$work/$t.sql.tsv" 2>&1)
	sa=$(cut -f1 "$work/$t.native.tsv" | LC_ALL=C sort | md5sum | cut -c1-32)
	sb=$(cut -f1 "$work/$t.sql.tsv" | LC_ALL=C sort | md5sum | cut -c1-32)
	if [ "$a" = "$size|0|$sa" ] && [ "$b" = "$size|0|$sb" ]; then
		ok "PostgreSQL $server: $t: $size native IDs read by the SQL edition and $size SQL-edition IDs read by the native one: same text, time and order"
	else
		fail "PostgreSQL $server: $t cross-check: SQL reading native: $a (want $size|0|$sa); native reading SQL: $b (want $size|0|$sb)"
	fi
done

# 4b. T_to_bytea: the native edition's bytes (its T::bytea) for the same IDs, both sets of 4 read by each edition
bytes_of() { # bytes_of DB EXPR: count and md5 of EXPR over the IDs on stdin (column t, text), in text order
	psql_q -d "$1" -c "CREATE TEMP TABLE ids_in (t text)" -c "\copy ids_in FROM pstdin" \
		-c "SELECT count(*) || ' ' || md5(string_agg(encode($2, 'hex'), ',' ORDER BY t COLLATE \"C\")) FROM ids_in"
}
bad=""
for t in $types; do
	cut -f1 "$work/$t.native.tsv" "$work/$t.sql.tsv" >"$work/$t.both.txt"
	a=$(bytes_of "$native" "t::$t::bytea" <"$work/$t.both.txt" 2>&1)
	b=$(bytes_of "$db" "ids.${t}_to_bytea(t::ids.$t)" <"$work/$t.both.txt" 2>&1)
	[ "$a" = "$b" ] && [ "${a%% *}" = $((2 * size)) ] || bad+=" $t: native $a, SQL edition $b;"
done
if [ -z "$bad" ]; then
	ok "PostgreSQL $server: T_to_bytea(id) of the SQL edition gives the native edition's id::bytea for the $((2 * size)) IDs of each type (both editions' generated ones)"
else
	fail "PostgreSQL $server: T_to_bytea differs from the native bytes:$bad"
fi

# 4c. every prefix and window query the docs show plans an index range (Index Cond on the column, no Seq Scan
# on the table): literal (untyped, text, varchar) and computed prefixes, now()-relative windows, parameters of a
# generic plan (text, varchar, and one of no type cast to text), and a prefix or window from another table (a
# join: how a subquery's value reaches the index)
as_role -d "$db" >"$work/plans.txt" 2>&1 <<'SQL'
CREATE TABLE plans (id timeid DEFAULT timeid_generate(), t tbsl DEFAULT tbsl_generate(), u uid11 DEFAULT uid11_generate(),
	s scru160 DEFAULT scru160_generate(), n int);
INSERT INTO plans (n) SELECT g FROM generate_series(1, 5000) g;
CREATE INDEX ON plans (id); CREATE INDEX ON plans (t); CREATE INDEX ON plans (u); CREATE INDEX ON plans (s);
CREATE TABLE wanted (prefix text, w tstzrange);
INSERT INTO wanted VALUES ('3', tstzrange(now() - interval '1 hour', now()));
ANALYZE plans; ANALYZE wanted;
SET enable_seqscan = off;
SET plan_cache_mode = force_generic_plan;
SQL
plan_checks=0
bad=""
for c in id:timeid t:tbsl u:uid11 s:scru160; do
	col=${c%%:*} t=${c#*:}
	for q in "$col ^@ '2'" "$col ^@ left(${t}_min(now())::text, 6)" "$col ^@ left(${t}_max(now() - interval '1 day')::text, 4)" \
		"$col <@ tstzrange(now() - interval '1 hour', now())" "$col <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00')" \
		"$col ^@ \$1 -- text" "$col <@ \$1 -- tstzrange" "$col ^@ wanted.prefix -- join" "$col <@ wanted.w -- join" \
		"$col ^@ '2'::text" "$col ^@ '2'::varchar" "$col ^@ \$1 -- varchar" "$col ^@ \$1::text -- unknown"; do
		case $q in
		*"-- join") sql="EXPLAIN (COSTS OFF) SELECT count(*) FROM wanted JOIN plans ON ${q% -- *}" ;;
		*"-- "*) sql="PREPARE p_$plan_checks(${q##*-- }) AS SELECT count(*) FROM plans WHERE ${q% -- *}; EXPLAIN (COSTS OFF) EXECUTE p_$plan_checks(NULL)" ;;
		*) sql="EXPLAIN (COSTS OFF) SELECT count(*) FROM plans WHERE $q" ;;
		esac
		plan=$(PGOPTIONS="-c client_min_messages=warning -c search_path=ids -c enable_seqscan=off -c plan_cache_mode=force_generic_plan" \
			psql -X -q -At -U "$role" -d "$db" -c "$sql" 2>&1)
		plan_checks=$((plan_checks + 1))
		if ! grep -qE "Index Cond: .*\(+$col\)?(::text)? >=" <<<"$plan" || grep -q "Seq Scan on plans" <<<"$plan"; then
			bad+=" [$q]: $(tr '\n' ' ' <<<"$plan" | head -c 300);"
		fi
	done
done
if [ -z "$bad" ]; then
	ok "PostgreSQL $server: $plan_checks prefix and window queries (literal, typed or not, computed from T_min / T_max, now()-relative, generic-plan parameters of text, varchar and no type, joined from another table; 4 types) plan an index range"
else
	fail "PostgreSQL $server: queries that do not plan an index range:$bad"
fi

# 5. generators: 5 sessions one after another (new connections), then 8 at once
gen_query() { echo "SELECT g, ${1}_generate() FROM generate_series(1, $2) g"; }
for t in $types; do
	: >"$work/$t.serial"
	for s in 1 2 3 4 5; do as_role -d "$db" -c "$(gen_query "$t" $per_session)" | sed "s/^/$s|/" >>"$work/$t.serial"; done
	for s in 1 2 3 4 5 6 7 8; do as_role -d "$db" -c "$(gen_query "$t" $per_session)" | sed "s/^/$s|/" >"$work/$t.par$s" & done
	wait
	cat "$work/$t".par? >"$work/$t.parallel"
	# one after another: the IDs in issue order strictly increase; at once: each session's increase, none twice
	serial_bad=$(cut -d'|' -f3 "$work/$t.serial" | LC_ALL=C awk 'NR > 1 && $0 <= prev { bad++ } { prev = $0 } END { print bad + 0 }')
	par_bad=$(LC_ALL=C awk -F'|' '$1 == s && $3 <= prev { bad++ } { s = $1; prev = $3 } END { print bad + 0 }' "$work/$t.parallel")
	distinct=$(cut -d'|' -f3 "$work/$t.serial" "$work/$t.parallel" | sort -u | wc -l)
	if [ "$serial_bad" = 0 ] && [ "$par_bad" = 0 ] && [ "$distinct" = $((13 * per_session)) ]; then
		ok "PostgreSQL $server: ${t}_generate(): 5 sessions one after another, then 8 at once ($per_session each): increasing, $((13 * per_session)) distinct"
	else
		fail "PostgreSQL $server: ${t}_generate(): out of order one after another: $serial_bad, within a session at once: $par_bad, distinct: $distinct of $((13 * per_session))"
	fi
done

# 5b. a read-only transaction refuses every generator, also right after IDs of the same session, whose block is
# still open (issue 66: 1.1 handed out the rest of it): in one query string, 100 IDs then a transaction begun READ
# ONLY or made so by SET TRANSACTION (the block is 2 ms: it is still open, but for about 1 in 40 runs on 1.1);
# and in a transaction that default_transaction_read_only makes read-only
ro=0
for t in $types; do
	for how in "BEGIN READ ONLY" "BEGIN; SET TRANSACTION READ ONLY"; do
		out=$(as_role -d "$db" -c "SELECT count(${t}_generate()) FROM generate_series(1, 100); $how; SELECT ${t}_generate(); COMMIT" 2>&1)
		[[ $out == *"cannot execute ${t}_generate() in a read-only transaction"* ]] && ro=$((ro + 1))
	done
	out=$(as_role -d "$db" -c "SELECT ${t}_generate()" -c "SET default_transaction_read_only = on" -c "SELECT ${t}_generate()" 2>&1)
	[[ $out == *"cannot execute ${t}_generate() in a read-only transaction"* ]] && ro=$((ro + 1))
done
if [ "$ro" = 12 ]; then
	ok "PostgreSQL $server: a read-only transaction right after IDs refuses every generator (25006): begun READ ONLY, by SET TRANSACTION READ ONLY and by default_transaction_read_only, 12 of 12"
else
	fail "PostgreSQL $server: read-only transactions right after IDs: $ro of 12 refused"
fi

# a generation canceled at random points (statement_timeout), in a transaction that stays open, leaves no lock
# on the installation behind (the reservation's lock lives in a subtransaction), so other sessions go on
left=$(for i in 1 2 3 4 5 6; do
	PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -At -U "$role" -d "$db" -c "BEGIN" \
		-c "SAVEPOINT s" -c "SET LOCAL statement_timeout = $((20 + i * 9))" \
		-c "SELECT count(tbsl_generate()) + count(timeid_generate()) + count(uid11_generate()) + count(scru160_generate()) FROM generate_series(1, 100000)" \
		-c "ROLLBACK TO s" -c "SELECT count(*) FROM pg_locks WHERE relation = 'ids.idtypes_sql_installation'::regclass AND pid = pg_backend_pid()" \
		-c "SELECT pg_sleep(0.2)" -c "COMMIT" 2>/dev/null | grep -v '^$' &
	sleep 0.05
	PGOPTIONS="-c client_min_messages=warning -c search_path=ids -c statement_timeout=5000" psql -X -q -At -U "$role" -d "$db" \
		-c "SELECT count(DISTINCT timeid_generate()) FROM generate_series(1, 500)" 2>&1
	wait
done | sort -u | tr '\n' ' ')
if [ "$left" = "0 500 " ]; then
	ok "PostgreSQL $server: generators canceled in the middle (6 statement timeouts) leave no lock on the installation held, and other sessions go on"
else
	fail "PostgreSQL $server: after canceled generators (want '0 500 '): $left"
fi

# 6. restart, crash restart, promoted standby: the state survives. Each generator's state is first moved an
# hour ahead (as if its clock had run ahead), so that only a state that survived keeps the next IDs above the
# last one: tbsl, whose IDs carry the real time, refuses instead (clock_backward = 'error'), which it does
# only if it still knows its last TBSL.
ahead() { # moves every state an hour ahead and prints the last ID of each type (the cluster runs with synchronous_commit off: the generators flush)
	psql_q -d "${gen_db:-$db}" -c "SET search_path = ids" \
		-c "SELECT setval('timeid_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::bigint)" \
		-c "SELECT setval('tbsl_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::bigint)" \
		-c "SELECT setval('uid11_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint - 1321009871111)" \
		-c "SELECT setval('scru160_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint)" >/dev/null &&
		as_role -d "${gen_db:-$db}" -c "SELECT timeid_generate(), uid11_generate(), scru160_generate()"
}
continues() { # continues WHAT LAST [PORT]: the next IDs are above LAST, and tbsl knows its last TBSL
	local what=$1 last=$2 port=${3:-$PGPORT} next behind
	next=$(PGPORT=$port as_role -d "${gen_db:-$db}" -c "SELECT timeid_generate(), uid11_generate(), scru160_generate()")
	behind=$(PGPORT=$port as_role -d "${gen_db:-$db}" -c "SET idtypes.clock_backward = 'error'" -c "SELECT tbsl_generate()" 2>&1)
	if [[ $next > $last ]] && paste -d'|' <(tr '|' '\n' <<<"$last") <(tr '|' '\n' <<<"$next") | LC_ALL=C awk -F'|' '!($2 > $1) { exit 1 }' &&
		[[ $behind == *"behind the last TBSL generated"* ]]; then
		ok "PostgreSQL $server: after $what the generators continue above the last IDs (${last//|/ }), tbsl knows its last TBSL"
	else
		fail "PostgreSQL $server: after $what: last $last, next $next; tbsl: $behind"
	fi
}
started=$(psql_q -d postgres -c 'SELECT pg_postmaster_start_time()')
opts=$(cut -d' ' -f2- "$data/postmaster.opts") # the server's options, to start it again after the standby check
last=$(ahead)
pg_ctl restart -m fast -l "$data/../log" >/dev/null 2>&1
wait_ready
if [ "$(psql_q -d postgres -c 'SELECT pg_postmaster_start_time()')" != "$started" ]; then continues "a restart" "$last"; else fail "the server did not restart"; fi
last=$(ahead)
# committed with a flush (the test clusters commit asynchronously): a crash keeps the table, empty
psql_q -d "$db" -c "SET synchronous_commit = on" -c "CREATE UNLOGGED TABLE crash_witness AS SELECT 1 AS x" >/dev/null
crash_a_backend
if [ "$(psql_q -d "$db" -c 'SELECT count(*) FROM crash_witness')" = 0 ]; then continues "a crash restart (a backend killed)" "$last"; else fail "no crash recovery happened"; fi

# a standby (pg_basebackup) promoted after the primary is killed
standby=$work/standby
sport=$((PGPORT + 1))
if [ "$mode" = lean ]; then
	: # run on the first version only
elif (cd / && runuser -u postgres -- "$bin/pg_basebackup" -h "$PGHOST" -p "$PGPORT" -U postgres -D "$standby" -X stream -R -c fast) >"$work/bb.log" 2>&1 &&
	(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$standby" -l "$work/standby.log" -w -s -o "-p $sport -k $PGHOST" start) >/dev/null 2>&1; then
	others+=("$standby")
	last=$(ahead)
	lsn=$(psql_q -d postgres -c 'SELECT pg_current_wal_flush_lsn()')
	for _ in $(seq 1 60); do
		[ "$(PGPORT=$sport psql_q -d postgres -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
		sleep 0.5
	done
	on_standby=$(PGPORT=$sport as_role -d "$db" -c "SELECT timeid_generate()" 2>&1)
	[[ $on_standby == *"cannot execute timeid_generate() in a read-only transaction"* ]] &&
		ok "PostgreSQL $server: the hot standby refuses timeid_generate() (25006, a read-only transaction)" ||
		fail "PostgreSQL $server: timeid_generate() on the hot standby: $on_standby"
	pg_ctl stop -m immediate >/dev/null 2>&1
	(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$standby" -w -s promote) >/dev/null 2>&1
	continues "the primary was killed and its standby promoted" "$last" "$sport"
	(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$standby" -m immediate -s stop) >/dev/null 2>&1
	pg_ctl start -l "$data/../log" -o "$opts" >/dev/null 2>&1
	wait_ready
else
	fail "PostgreSQL $server: a standby from pg_basebackup"
	head -5 "$work/bb.log" "$work/standby.log" | sed 's/^/     /'
fi
psql_q -d "$db" -c "SELECT setval('ids.tbsl_state', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)" >/dev/null # back from the hour ahead

# 7. a dump of a database using the edition (installed by psql -f), restored into a fresh cluster
as_role -d "$db" -f "$here/dump_make.sql" >/dev/null 2>"$work/dump_make.err" || { fail "dump: test data"; cat "$work/dump_make.err"; }
fresh=$work/fresh
fport=$((PGPORT + 2))
if [ "$mode" = lean ]; then
	: # run on the first version only (pg_dump on PATH is that version's)
elif pg_dump -Fc -d "$db" -f "$work/db.dump" 2>"$work/dump.log" && as_role -d "$db" -f "$here/dump_check.sql" >"$work/dump.expected" 2>&1 &&
	(cd / && runuser -u postgres -- "$bin/initdb" -D "$fresh" -A trust -U postgres --no-sync) >/dev/null 2>&1 &&
	(cd / && runuser -u postgres -- "$bin/pg_ctl" -D "$fresh" -l "$work/fresh.log" -w -s -o "-p $fport -k $PGHOST -c listen_addresses= -c fsync=off" start) >/dev/null 2>&1; then
	others+=("$fresh")
	PGPORT=$fport psql_q -d postgres -c "CREATE ROLE $role LOGIN" -c "CREATE DATABASE restored" >/dev/null &&
		PGPORT=$fport pg_restore -d restored --exit-on-error "$work/db.dump" 2>"$work/restore.log" &&
		PGPORT=$fport as_role -d restored -f "$here/dump_check.sql" >"$work/dump.actual" 2>&1
	if diff -u "$work/dump.expected" "$work/dump.actual" >"$work/dump.diff"; then
		ok "PostgreSQL $server: a dump of a database using the SQL edition restores into a fresh cluster: equal rows, index scans, defaults that continue above ($(wc -l <"$work/dump.actual") checks)"
	else
		fail "PostgreSQL $server: dump restored into a fresh cluster:"
		cat "$work/restore.log" "$work/dump.diff" | head -30 | sed 's/^/     /'
	fi
else
	fail "PostgreSQL $server: dump or fresh cluster"
	head -5 "$work/dump.log" | sed 's/^/     /'
fi

# 8. moving between the editions: one ALTER TABLE each way keeps every value and the index
migrate=idsql_move_$$
if psql_q -d postgres -c "CREATE DATABASE $migrate" && psql_q -d "$migrate" -c "CREATE SCHEMA native" -c "CREATE EXTENSION idtypes SCHEMA native" -c "CREATE SCHEMA ids" &&
	PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -d "$migrate" -f "$script" >/dev/null &&
	psql_q -d "$migrate" -f "$here/migrate.sql" >"$work/migrate.out" 2>&1 && ! grep -qv '^t$' "$work/migrate.out"; then
	ok "PostgreSQL $server: ALTER TABLE ... ALTER COLUMN id TYPE ... USING, native to SQL edition and back, for every type: every value kept, the index rebuilt and used ($(wc -l <"$work/migrate.out") checks)"
else
	fail "PostgreSQL $server: moving between the editions:"
	head -20 "$work/migrate.out" | sed 's/^/     /'
fi

# 9. CREATE EXTENSION idtypes_sql (the control file, no module): not trusted, so a superuser installs it into a
# database its role owns (into a schema of its own: the edition refuses one another role owns), and sets its
# identity; the role generates
sharedir=$("${PG_CONFIG:-$bin/pg_config}" --sharedir) # PG_CONFIG: the server's (test.sh exports it)
# 19 runs in its Debian root (scripts/pgversions.sh): its extension directory is seen from inside it
runner=$(dirname "${PG_CONFIG:-$bin/pg_config}")/in-root
in_server() { if [ -x "$runner" ]; then "$runner" "$@"; else "$@"; fi; }
ext=idsql_ext_$$
version=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$root/idtypes_sql.control")
# the updates, each version to the next (the frozen ones and the current one, which make sql-edition puts in build/)
mapfile -t updates < <(ls "$root"/build/idtypes_sql--*--*.sql | sort -V)
frozen=$root/src/sql_edition/versions/idtypes_sql--1.0.sql
if in_server cp "$root/idtypes_sql.control" "$sharedir/extension/" && in_server cp "$script" "$sharedir/extension/idtypes_sql--$version.sql" &&
	in_server cp "${updates[@]}" "$frozen" "$sharedir/extension/" &&
	psql_q -d postgres -c "CREATE DATABASE $ext OWNER $role" &&
	! psql -X -q -v ON_ERROR_STOP=1 -U "$role" -d "$ext" -c "CREATE SCHEMA ids" -c "CREATE EXTENSION idtypes_sql SCHEMA ids" >"$work/ext.refused" 2>&1 &&
	grep -q "permission denied to create extension" "$work/ext.refused" &&
	psql -X -q -v ON_ERROR_STOP=1 -d "$ext" -c "ALTER SCHEMA ids OWNER TO postgres" -c "CREATE EXTENSION idtypes_sql SCHEMA ids" -c "GRANT USAGE ON SCHEMA ids TO $role" \
		-c "SELECT ids.idtypes_sql_set_identity(11, 12)" >"$work/ext.out" 2>&1 &&
	[ "$(as_role -d "$ext" -c "SELECT timeid_min(now()) < timeid_generate() AND tbsl_generate() ^@ '2' AND uid11_generate() <@ tstzrange(now() - interval '1 hour', null) AND scru160_generate() IS NOT NULL")" = t ] &&
	[ "$(psql_q -d "$ext" -c "SELECT array_length(extconfig, 1) FROM pg_extension WHERE extname = 'idtypes_sql'")" = 5 ] &&
	{ [ "$mode" = lean ] || pg_dump -d "$ext" | grep -q "pg_catalog.setval('ids.timeid_state'"; }; then
	ok "PostgreSQL $server: CREATE EXTENSION idtypes_sql (not trusted: the database's owner is refused, a superuser installs it; no module); its identity and 4 generator states are its configuration, which pg_dump keeps"
else
	fail "PostgreSQL $server: CREATE EXTENSION idtypes_sql"
	head -10 "$work/ext.refused" "$work/ext.out" | sed 's/^/     /'
fi

# 9b. the update from 1.0: ALTER EXTENSION ... UPDATE gives the catalog of a fresh install (test/upgrade/catalog.sql
# of the edition: every function's body, volatility, cost...), also from a 1.0 restore that has the two identity
# rows of issue 57 (its row of NULLs goes); psql -f of 1.0 then of the update script gives the functions,
# operators and types of psql -f of the current version
catalog() { sed "s/extname = 'idtypes'/extname = 'idtypes_sql'/" "$root/test/upgrade/catalog.sql" | psql_q -d "$1" -f -; }
schema_catalog() { psql_q -d "$1" -c "SELECT pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = 'ids'::regnamespace ORDER BY p.oid::regprocedure::text" \
	-c "SELECT o.oid::regoperator, o.oprcode FROM pg_operator o WHERE o.oprnamespace = 'ids'::regnamespace ORDER BY o.oid::regoperator::text" \
	-c "SELECT t.typname, pg_get_constraintdef(c.oid) FROM pg_type t LEFT JOIN pg_constraint c ON c.contypid = t.oid WHERE t.typnamespace = 'ids'::regnamespace ORDER BY 1, 2" \
	-c "SELECT c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = 'ids'::regnamespace ORDER BY 1"; }
up_old=idsql_up_old_$$ up_new=idsql_up_new_$$ up_psql=idsql_up_psql_$$ up_fresh=idsql_up_fresh_$$
for d in $up_old $up_new $up_psql $up_fresh; do psql_q -d postgres -c "CREATE DATABASE $d" -c "ALTER DATABASE $d OWNER TO $role" >/dev/null; done
if psql_q -d "$up_old" -c "CREATE SCHEMA ids" -c "CREATE EXTENSION idtypes_sql VERSION '1.0' SCHEMA ids" -c "SELECT ids.idtypes_sql_set_identity(3, 4)" \
		-c "INSERT INTO ids.idtypes_sql_installation VALUES (NULL, NULL)" -c "ALTER EXTENSION idtypes_sql UPDATE" >"$work/up.out" 2>&1 &&
	psql_q -d "$up_new" -c "CREATE SCHEMA ids" -c "CREATE EXTENSION idtypes_sql SCHEMA ids" >>"$work/up.out" 2>&1 &&
	catalog "$up_old" >"$work/up_old.cat" && catalog "$up_new" >"$work/up_new.cat" && diff -u "$work/up_new.cat" "$work/up_old.cat" >>"$work/up.out" &&
	[ "$(psql_q -d "$up_old" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes_sql'" -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation")" = "$version
3|4" ] &&
	psql_q -d "$up_psql" -c "CREATE SCHEMA ids AUTHORIZATION $role" && psql_q -d "$up_fresh" -c "CREATE SCHEMA ids AUTHORIZATION $role" &&
	as_role -d "$up_psql" -f "$frozen" >>"$work/up.out" 2>&1 && for u in "${updates[@]}"; do as_role -d "$up_psql" -1 -f "$u" || break; done >>"$work/up.out" 2>&1 &&
	[ "$(psql_q -d "$up_psql" -c "SELECT count(*) FROM pg_constraint WHERE conrelid = 'ids.idtypes_sql_installation'::regclass AND contype = 'p'")" = 1 ] &&
	as_role -d "$up_fresh" -f "$script" >>"$work/up.out" 2>&1 &&
	schema_catalog "$up_psql" >"$work/up_psql.cat" && schema_catalog "$up_fresh" >"$work/up_fresh.cat" &&
	diff -u "$work/up_fresh.cat" "$work/up_psql.cat" >>"$work/up.out"; then
	ok "PostgreSQL $server: the SQL edition 1.0 updated to $version equals a fresh $version: ALTER EXTENSION ($(wc -l <"$work/up_new.cat") catalog lines; a 1.0 restore's second identity row of NULLs removed) and psql -f of the update script ($(wc -l <"$work/up_fresh.cat") lines: function definitions, operators, domains, relations)"
else
	fail "PostgreSQL $server: the SQL edition's update from 1.0 to $version:"
	head -30 "$work/up.out" | sed 's/^/     /'
fi
# a 1.1 subscriber that took its publisher's identity row beside its own (1.1 let logical replication write it):
# the update cannot tell them apart, removes both with a WARNING, and the generators refuse until the owner sets one
if psql_q -d "$up_psql" -c "DROP SCHEMA ids CASCADE" -c "CREATE SCHEMA ids" -c "CREATE EXTENSION idtypes_sql VERSION '1.1' SCHEMA ids" \
		-c "SELECT ids.idtypes_sql_set_identity(3, 4)" -c "INSERT INTO ids.idtypes_sql_installation VALUES (5, 6)" >"$work/two.out" 2>&1 &&
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -d "$up_psql" -c "ALTER EXTENSION idtypes_sql UPDATE" >>"$work/two.out" 2>&1 &&
	grep -q "had two identity rows, or one a subscription copies: removed" "$work/two.out" &&
	[ "$(psql_q -d "$up_psql" -c "SELECT count(*) FROM ids.idtypes_sql_installation")" = 0 ] &&
	[[ $(psql_q -d "$up_psql" -c "SELECT ids.timeid_generate()" 2>&1) == *"has no timeid clock id yet"* ]]; then
	ok "PostgreSQL $server: the update of a 1.1 installation with two identity rows (a replicated one beside its own) removes both, says so, and timeid refuses until the owner sets one"
else
	fail "PostgreSQL $server: the update of a 1.1 installation with two identity rows:"
	head -10 "$work/two.out" | sed 's/^/     /'
fi
for d in $up_old $up_new $up_psql $up_fresh; do psql_q -d postgres -c "DROP DATABASE $d" >/dev/null 2>&1; done

# 9c. a dump restored into an empty database, by the installation's owner or a superuser, generates at once with
# the source's identity and above every ID the source issued, with the clock set back onto them (the source's
# states an hour ahead, and IDs issued there): psql -f restored by its owner and by a superuser, CREATE
# EXTENSION by a superuser into its own schema and into the role's schema (the edition then the role's)
pg_dump_bin=pg_dump pg_restore_bin=pg_restore
[ -x "$bin/pg_dump" ] && pg_dump_bin=$bin/pg_dump pg_restore_bin=$bin/pg_restore # the server's own version
ext_role=idsql_extrole_$$
psql_q -d postgres -c "CREATE DATABASE $ext_role OWNER $role" && psql_q -d "$ext_role" -c "CREATE SCHEMA ids AUTHORIZATION $role" \
	-c "CREATE EXTENSION idtypes_sql SCHEMA ids" -c "SELECT ids.idtypes_sql_set_identity(15, 16)" >/dev/null 2>"$work/ext_role.err" &&
	[ "$(psql_q -d "$ext_role" -c "SELECT count(*) FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
		JOIN pg_extension e ON e.oid = d.refobjid WHERE e.extname = 'idtypes_sql' AND d.deptype = 'e' AND p.proowner <> '$role'::regrole")" = 0 ] ||
	{ fail "PostgreSQL $server: CREATE EXTENSION idtypes_sql by a superuser into a schema of $role: not installed as $role"; cat "$work/ext_role.err"; }
dump_cycle() { # dump_cycle WHAT SOURCE_DB RESTORER
	local what=$1 src=$2 restorer=$3 target=idsql_restored_$$ last want
	want=$(psql_q -d "$src" -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation")
	last=$(gen_db=$src ahead)
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $target" -c "CREATE DATABASE $target OWNER $role" >/dev/null
	local opts=(--exit-on-error)
	"$pg_dump_bin" -Fc -d "$src" -f "$work/cycle.dump" 2>"$work/cycle.log"
	if [ "$restorer" != postgres ]; then # the owner restores what it owns; pg_tle, a superuser's, is there already
		opts+=(--no-owner)
		if [ "$(psql_q -d "$src" -c "SELECT count(*) FROM pg_extension WHERE extname = 'pg_tle'")" != 0 ]; then
			psql_q -d "$target" -c "CREATE EXTENSION pg_tle" >/dev/null
			"$pg_restore_bin" -l "$work/cycle.dump" | grep -v -e ' SCHEMA - pgtle ' -e ' EXTENSION - pg_tle' -e ' COMMENT - EXTENSION pg_tle' >"$work/cycle.list"
			opts+=(-L "$work/cycle.list")
		fi
	fi
	if [ ! -s "$work/cycle.dump" ] || ! "$pg_restore_bin" -U "$restorer" -d "$target" "${opts[@]}" "$work/cycle.dump" 2>>"$work/cycle.log"; then
		fail "PostgreSQL $server: $what: dump or restore"
		head -10 "$work/cycle.log" | sed 's/^/     /'
	elif [ "$(psql_q -d "$target" -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation")" != "$want" ]; then
		fail "PostgreSQL $server: $what: the restored identity is '$(psql_q -d "$target" -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation" | tr '\n' ' ')', the source's '$want'"
	elif ! psql_q -U "$role" -d "$target" -c "ALTER DATABASE $target SET search_path = ids, \"\$user\", public" >"$work/path.out" 2>&1 ||
		[ "$(psql -X -At -U "$role" -d "$target" -c "SELECT timeid_generate() < timeid_generate()" 2>&1)" != t ]; then
		# docs/sql-edition.md's restore paragraph: the database's search_path set again by its owner, then an
		# application's unqualified call in a new connection
		fail "PostgreSQL $server: $what: the restore paragraph's search_path step, then an unqualified timeid_generate():"
		cat "$work/path.out" | head -5 | sed 's/^/     /'
	else
		gen_db=$target continues "$what (identity ${want/|/, } kept; the search_path set again as the docs say)" "$last"
	fi
	psql_q -d "$src" -c "SELECT setval('ids.tbsl_state', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)" >/dev/null
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $target" >/dev/null 2>&1
}
if [ "$mode" = full ] || [ -x "$bin/pg_dump" ]; then # else only 15's pg_dump is at hand, which cannot dump a newer server
	dump_cycle "psql -f, a dump restored by the installing role into an empty database of its own" "$db" "$role"
	dump_cycle "psql -f, a dump restored by a superuser into an empty database" "$db" postgres
	dump_cycle "CREATE EXTENSION (superuser, its schema), a dump restored by a superuser into an empty database" "$ext" postgres
	dump_cycle "CREATE EXTENSION (superuser, into $role's schema: installed as $role), a dump restored by a superuser into an empty database" "$ext_role" postgres
fi

# hostile objects planted before and after the installation (test/sql_edition/hostile.sh), psql -f and CREATE
# EXTENSION (its control file is still in place); installations of one server never share IDs, and a role
# without grants neither chooses an identity nor stalls generation (test/sql_edition/xdb.sh)
"$here/hostile.sh" "$script" psql
"$here/hostile.sh" "$script" extension
"$here/xdb.sh" "$script"

in_server rm -f "$sharedir/extension/idtypes_sql.control" "$sharedir/extension/idtypes_sql--$version.sql" "${updates[@]/#*\//$sharedir/extension/}" \
	"$sharedir/extension/${frozen##*/}" # pg_tle refuses a name with a control file

# 10. pg_tle (Amazon RDS, Aurora, Supabase), where pg_tle is installed and preloaded: docs/sql-edition.md's two
# pg_tle blocks as they are written (the install, by a pgtle_admin member that is not a superuser; the update
# path from 1.0, on an installation of 1.0 through pg_tle), dumps restored by a superuser and by the owner,
# then the hostile objects through it
if [ "$(psql_q -d postgres -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_tle'")" = 1 ] &&
	psql_q -d postgres -c 'SHOW shared_preload_libraries' | grep -q pg_tle; then
	tle=idsql_tle_$$ tle_old=idsql_tle_old_$$
	python3 - "$root/docs/sql-edition.md" "$work" <<'PY'
import re, sys
lines, blocks, i = open(sys.argv[1]).read().split('\n'), [], 0
while i < len(lines):
    if 'needs pg_tle' in lines[i]:
        while not re.match(r'^\s*```plpgsql', lines[i]): i += 1
        indent, body = len(lines[i]) - len(lines[i].lstrip()), []
        i += 1
        while not re.match(r'^\s*```\s*$', lines[i]): body.append(lines[i][indent:]); i += 1
        blocks.append('\n'.join(body) + '\n')
    i += 1
assert len(blocks) == 3, blocks
open(sys.argv[2] + '/tle_install.sql', 'w').write(blocks[0])
open(sys.argv[2] + '/tle_update.sql', 'w').write(blocks[1])
open(sys.argv[2] + '/tle_from10.sql', 'w').write(blocks[2])
PY
	psql_q -d postgres -c "DO \$\$ BEGIN CREATE ROLE app; EXCEPTION WHEN duplicate_object THEN NULL; END \$\$" >/dev/null # the blocks grant to app
	tle_as_role() { (cd "$root" && PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -U "$role" "$@"); }
	# pg_tle itself is the administrator's (a superuser, rds_superuser on RDS): the block's CREATE EXTENSION IF NOT
	# EXISTS then finds it
	if psql_q -d postgres -c "CREATE DATABASE $tle OWNER $role" -c "CREATE DATABASE $tle_old OWNER $role" &&
		psql_q -d "$tle" -c "CREATE EXTENSION pg_tle" -c "GRANT pgtle_admin TO $role" && psql_q -d "$tle_old" -c "CREATE EXTENSION pg_tle" &&
		[ "$(psql_q -d postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = '$role'")" = f ] &&
		tle_as_role -d "$tle" -f "$work/tle_install.sql" >"$work/tle.out" 2>&1 &&
		psql_q -d "$tle" -c "SELECT ids.idtypes_sql_set_identity(13, 14)" >>"$work/tle.out" 2>&1 &&
		[ "$(as_role -d "$tle" -c "SELECT timeid_min(now()) < timeid_generate() AND scru160_generate() <@ tstzrange(now() - interval '1 hour', null)
			AND timeid_to_bytea('3jzfcijpj2z2a') = '\\x17fd6873eaf07c06' AND extversion = '$version' FROM pg_extension WHERE extname = 'idtypes_sql'")" = t ]; then
		ok "PostgreSQL $server: docs/sql-edition.md's pg_tle block as written (CREATE EXTENSION pg_tle, pgtle.install_extension, CREATE EXTENSION idtypes_sql $version), by a pgtle_admin member without superuser"
	else
		fail "PostgreSQL $server: docs/sql-edition.md's pg_tle block"
		head -10 "$work/tle.out" | sed 's/^/     /'
	fi
	# the install block all or nothing (issue 66): by a pgtle_admin member without CREATE on the database it
	# says what is missing and leaves nothing behind; run again once the grant is given, it installs
	tle_deny=idsql_tle_deny_$$
	if psql_q -d postgres -c "CREATE DATABASE $tle_deny" && psql_q -d "$tle_deny" -c "CREATE EXTENSION pg_tle" &&
		! tle_as_role -d "$tle_deny" -f "$work/tle_install.sql" >"$work/tle_deny.out" 2>&1 &&
		grep -q "GRANT CREATE ON DATABASE $tle_deny TO $role" "$work/tle_deny.out" &&
		[ "$(psql_q -d "$tle_deny" -c "SELECT (SELECT count(*) FROM pgtle.available_extensions() WHERE name = 'idtypes_sql') + (SELECT count(*) FROM pg_namespace WHERE nspname = 'ids')")" = 0 ] &&
		psql_q -d "$tle_deny" -c "GRANT CREATE ON DATABASE $tle_deny TO $role" && tle_as_role -d "$tle_deny" -f "$work/tle_install.sql" >>"$work/tle_deny.out" 2>&1 &&
		[ "$(psql_q -d "$tle_deny" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes_sql'")" = "$version" ]; then
		ok "PostgreSQL $server: docs/sql-edition.md's pg_tle block by a pgtle_admin member without CREATE on the database: refused naming the grant, nothing left behind (pg_tle's entry, schema); run again after the grant, it installs $version"
	else
		fail "PostgreSQL $server: the pg_tle block without CREATE on the database, then with it:"
		head -10 "$work/tle_deny.out" | sed 's/^/     /'
	fi
	psql_q -d postgres -c "DROP DATABASE IF EXISTS $tle_deny" >/dev/null 2>&1
	# 1.0 through pg_tle, then the docs' update block
	if printf '%s\n' "SELECT pgtle.install_extension('idtypes_sql', '1.0', 'idtypes, SQL edition', :'script');" \
			"CREATE SCHEMA ids;" "CREATE EXTENSION idtypes_sql SCHEMA ids;" "SELECT ids.idtypes_sql_set_identity(17, 18);" |
		tle_as_role -d "$tle_old" -v script="$(cat "$frozen")" -f - >"$work/tle_old.out" 2>&1 &&
		tle_as_role -d "$tle_old" -f "$work/tle_from10.sql" >>"$work/tle_old.out" 2>&1 &&
		tle_as_role -d "$tle_old" -f "$work/tle_update.sql" >>"$work/tle_old.out" 2>&1 &&
		catalog "$tle" >"$work/tle_new.cat" && catalog "$tle_old" >"$work/tle_old.cat" && diff -u "$work/tle_new.cat" "$work/tle_old.cat" >>"$work/tle_old.out" &&
		[ "$(psql_q -d "$tle_old" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes_sql'" -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation")" = "$version
17|18" ]; then
		ok "PostgreSQL $server: docs/sql-edition.md's pg_tle update block as written (pgtle.install_update_path, set_default_version, ALTER EXTENSION) takes an installation of 1.0 through pg_tle to $version, equal to a fresh one ($(wc -l <"$work/tle_new.cat") catalog lines)"
	else
		fail "PostgreSQL $server: the pg_tle update path from 1.0:"
		head -20 "$work/tle_old.out" | sed 's/^/     /'
	fi
	dump_cycle "pg_tle, a dump restored by a superuser into an empty database" "$tle" postgres
	dump_cycle "pg_tle, a dump restored by the installing role (pgtle_admin) into an empty database of its own" "$tle" "$role"
	psql_q -d postgres -c "DROP DATABASE $tle" -c "DROP DATABASE $tle_old" >/dev/null 2>&1
	"$here/hostile.sh" "$script" tle
else
	echo "skip PostgreSQL $server: pg_tle is not installed and preloaded here: docs/sql-edition.md's pg_tle blocks, its update path, dumps through it and the hostile objects through it not tested"
fi

for d in "$db" "$native" "$migrate" "$ext" "$ext_role"; do psql_q -d postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1; done
psql_q -d postgres -c "DROP ROLE IF EXISTS $role" >/dev/null 2>&1

exit 0
