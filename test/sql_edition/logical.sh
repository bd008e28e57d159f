#!/usr/bin/env bash
# The SQL edition under logical replication (issue 66), in two throwaway clusters of its own (wal_level =
# logical), each a database app whose owner installed the edition with psql -f, each with publications FOR
# ALL TABLES (one publishing everything, one WITH (publish = 'insert')) made before the installation, and each
# subscribed to the other's (both directions, initial sync then streaming):
#  1. the installation, idtypes_sql_set_identity and the update chain from 1.0 (psql -f of each update
#     script) pass those publications;
#  2. the initial sync carries no identity: B, subscribed to A before its owner set one, still refuses to
#     generate timeid and tbsl (55000), its log says why; once each owner has set its own, a change of A's
#     streams to B and is skipped there too, and the other way round: each side keeps exactly the one row
#     its owner set;
#  3. both sides generate at once (2 sessions each, every generator, into a replicated table): 0 timeids and
#     0 tbsls in common, and every row reaches the other side;
#  4. docs/sql-edition.md's cutover block as written (the states of A moved to B once B has caught up),
#     with A's states an hour ahead (tbsl's half a second): B's next IDs sort above A's last; B also
#     subscribed to another server whose LSNs are ahead of A's, and A's last row (committed asynchronously)
#     held back on B for 2 s: the block returns once B has applied it;
#  5. (19) while B subscribes to A's publication FOR ALL SEQUENCES (which carries the states), B's
#     generators refuse; once the subscription is dropped they generate.
# On 15 (no subscription option origin = none) the test's own table skips a row it already holds, so rows
# that come back to their side stop there.
#   logical.sh [SCRIPT]   (default build/idtypes_sql.sql; PG_CONFIG names the server). Prints ok / FAIL lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/scripts/lib.sh"
make -s -C "$root" sql-edition >/dev/null || { echo "FAIL make sql-edition"; exit 0; }
script=${1:-$root/build/idtypes_sql.sql}
work=$(mktemp -d /tmp/idtypes-logical.XXXXXX)
chmod 755 "$work"
dirs=()
cleanup() { local d; for d in "${dirs[@]}"; do CLUSTER_DIR=$d cluster_stop; done; rm -rf "$work"; }
trap cleanup EXIT
ok() { echo "ok   PostgreSQL $server: $*"; }
fail() { echo "FAIL PostgreSQL $server: $*"; }
started=$SECONDS
# two clusters: A and B (their sockets in their own directories); wal_sender_timeout short, so that a
# caught-up subscriber hears its publisher's position within a second (the cutover waits for it); an apply worker
# that stopped on an error starts again within a second (the skipped TRUNCATE below)
declare -A host port
for side in A B; do
	cluster_start wal_level=logical wal_sender_timeout=2s wal_retrieve_retry_interval=1s >/dev/null || { echo "FAIL logical replication: cluster $side"; exit 0; }
	dirs+=("$CLUSTER_DIR") host[$side]=$PGHOST port[$side]=$PGPORT
done
server=$(psql -X -At -c 'SHOW server_version')
origin_none=$([ "$(psql -X -At -c 'SHOW server_version_num')" -ge 160000 ] && echo ", origin = none")
su() { local side=$1; shift; PGHOST=${host[$side]} PGPORT=${port[$side]} PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -U postgres "$@"; }
app() { local side=$1; shift; PGHOST=${host[$side]} PGPORT=${port[$side]} PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -At -U app -d app "$@"; }
conninfo() { echo "host=${host[$1]} port=${port[$1]} dbname=app user=${2:-app}"; }

# 1. publications first, then the edition through every update script (1.0, then each update), its identity
# where the test says; the test's table (each side's IDs; a row already held is skipped: see above)
# 1.0's full script, then every update in order (the frozen ones and the current one, as make sql-edition copies them)
chain=("$root/src/sql_edition/versions/idtypes_sql--1.0.sql")
mapfile -t -O 1 chain < <(ls "$root"/build/idtypes_sql--*--*.sql | sort -V)
[ "$script" != "$root/build/idtypes_sql.sql" ] && chain=("$script") # another edition's script: installed as is
for side in A B; do
	su "$side" -c "CREATE ROLE app LOGIN" -c "CREATE DATABASE app OWNER app" &&
		su "$side" -d app -c "CREATE PUBLICATION all_tables FOR ALL TABLES" -c "CREATE PUBLICATION all_inserts FOR ALL TABLES WITH (publish = 'insert')" &&
		app "$side" -c "CREATE SCHEMA ids" || { fail "logical replication: setup of $side"; exit 0; }
	for f in "${chain[@]}"; do
		app "$side" -1 -f "$f" >"$work/install.$side" 2>&1 || { fail "logical replication: ${f##*/} on $side with publications FOR ALL TABLES:"; sed 's/^/     /' "$work/install.$side"; exit 0; }
	done
	app "$side" -c "CREATE TABLE public.seen (side text, type text, id text, PRIMARY KEY (side, type, id))" \
		-c "CREATE FUNCTION public.seen_once() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
			RETURN CASE WHEN EXISTS (SELECT FROM public.seen s WHERE (s.side, s.type, s.id) = (NEW.side, NEW.type, NEW.id)) THEN NULL ELSE NEW END; END \$\$" \
		-c "CREATE TRIGGER seen_once BEFORE INSERT ON public.seen FOR EACH ROW EXECUTE FUNCTION public.seen_once()" \
		-c "ALTER TABLE public.seen ENABLE REPLICA TRIGGER seen_once" >/dev/null || { fail "logical replication: the test's table on $side"; exit 0; }
done
app A -c "SELECT idtypes_sql_set_identity(1, 1)" >"$work/set.A" 2>&1
app A -c "SELECT idtypes_sql_set_identity(2, 2)" >>"$work/set.A" 2>&1 # the update of the row, published
if [ "$(app A -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation")" = "2|2" ]; then
	ok "logical replication: ${#chain[@]} script(s) per side ($(basename -a "${chain[@]}" | tr '\n' ' ')), idtypes_sql_set_identity (insert, then update) in databases with publications FOR ALL TABLES (all, and publish = 'insert')"
else
	fail "logical replication: idtypes_sql_set_identity with publications FOR ALL TABLES:"
	sed 's/^/     /' "$work/set.A"
fi

# a publication of the identity with a row filter or a column list naming more than its key (only the table's
# owner can publish it so) makes PostgreSQL refuse set_identity's UPDATE: the error names the publications and
# the way out; the identity is kept and the generators go on; a filter and a list of the key alone pass
app A -c "CREATE PUBLICATION filtered FOR TABLE ids.idtypes_sql_installation WHERE (timeid_clock_id > 0)" \
	-c "CREATE PUBLICATION listed FOR TABLE ids.idtypes_sql_installation (timeid_clock_id, tbsl_machine_id)" >/dev/null
refused=$(app A -c "SELECT idtypes_sql_set_identity(3, 3)" 2>&1)
kept=$(app A -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation" -c "SELECT timeid_generate() IS NOT NULL")
keyed=$(app A -c "DROP PUBLICATION filtered, listed" -c "CREATE PUBLICATION keyed FOR TABLE ids.idtypes_sql_installation (installation) WHERE (installation)" \
	-c "SELECT idtypes_sql_set_identity(3, 3)" -c "SELECT idtypes_sql_set_identity(2, 2)" -c "DROP PUBLICATION keyed" -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation" 2>&1)
if [[ $refused == *"HINT:  Publication filtered, listed takes the identity with a row filter or a column list: ALTER PUBLICATION ... DROP TABLE ids.idtypes_sql_installation"* ]] &&
	[ "$kept" = "2|2
t" ] && [ "$(grep -v '^$' <<<"$keyed")" = "2|2" ]; then
	ok "logical replication: publications of the identity with a row filter and a column list: set_identity refused, naming both and the way out; the identity kept, timeid generates; a filter and a list of the key alone: set_identity passes"
else
	fail "logical replication: publications of the identity with a row filter, a column list: $(head -c 400 <<<"$refused"); kept: $kept; with the key alone: $keyed"
fi

subscribe() { # subscribe TO FROM: TO subscribes to FROM's publication of everything; waits for the initial sync
	su "$1" -d app -c "CREATE SUBSCRIPTION from_$2 CONNECTION '$(conninfo "$2" postgres)' PUBLICATION all_tables WITH (copy_data = true$origin_none)" >/dev/null 2>>"$work/subscribe.log" || return 1
	for _ in $(seq 1 120); do
		[ "$(su "$1" -d app -c "SELECT count(*) FILTER (WHERE srsubstate <> 'r') || ' ' || count(*) FROM pg_subscription_rel")" = "0 2" ] && return 0
		sleep 0.25
	done
	return 1
}
caught_up() { # caught_up FROM TO: TO has applied everything FROM had committed when called
	# FROM's position is read after a transaction of its own that wrote WAL (a logical message, which no
	# subscription applies) committed with synchronous_commit = local: its flush writes every commit before
	# it. cluster_start sets synchronous_commit = off, and an asynchronous commit can still be unwritten,
	# behind pg_current_wal_lsn() (the position written), which TO then reaches without it (checked below,
	# after the TRUNCATE)
	local lsn
	lsn=$(su "$1" -d app -c "SET synchronous_commit = local" -c "SELECT pg_logical_emit_message(true, 'logical.sh', 'caught_up')" -c "SELECT pg_current_wal_lsn()" | tail -1)
	for _ in $(seq 1 120); do
		[ "$(su "$2" -d app -c "SELECT count(*) FROM pg_stat_subscription WHERE subname = 'from_${1,,}' AND latest_end_lsn >= '$lsn'")" = 1 ] && return 0
		sleep 0.25
	done
	return 1
}

# 2. B subscribes to A before its owner chose an identity: A's row (initial sync) is not taken
if subscribe B A; then
	refusal=$(app B -c "SELECT timeid_generate()" 2>&1; app B -c "SELECT tbsl_generate()" 2>&1)
	rows=$(su B -d app -c "SELECT count(*) FROM ids.idtypes_sql_installation")
	warned=$(grep -c "takes no identity from replication" "${dirs[1]}/log")
	if [ "$rows" = 0 ] && [ "$(grep -c 'has no .* yet' <<<"$refusal")" = 2 ] && [ "$warned" -ge 1 ]; then
		ok "logical replication: the initial sync of a subscription FOR ALL TABLES carries no identity: B, without one of its own, has no row and refuses timeid and tbsl; its log says why ($warned WARNING)"
	else
		fail "logical replication: after the initial sync, B has $rows identity row(s), $warned WARNING(s); its generators: $(head -c 300 <<<"$refusal")"
	fi
else
	fail "logical replication: B's subscription to A did not sync"
	tail -5 "${dirs[1]}/log" | sed 's/^/     /'
fi
app B -c "SELECT idtypes_sql_set_identity(3, 3)" >/dev/null
# what the trigger refuses beside replication: set_identity under session_replication_role = replica (the
# trigger would skip its write), and TRUNCATE (by the owner too)
refused=$(su B -d app -c "SET session_replication_role = replica" -c "SELECT ids.idtypes_sql_set_identity(9, 9)" 2>&1
	app B -c "TRUNCATE idtypes_sql_installation" 2>&1)
if [[ $refused == *"does not run with session_replication_role = replica"* && $refused == *"is not truncated"* ]] &&
	[ "$(app B -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation")" = "3|3" ]; then
	ok "logical replication: idtypes_sql_set_identity() under session_replication_role = replica and TRUNCATE of the identity are refused, the identity kept"
else
	fail "logical replication: set_identity as replica, TRUNCATE: $(head -c 400 <<<"$refused")"
fi
# a member of pg_write_all_data (which writes every table, this one's missing grant aside) cannot write the
# identity; a data-only restore with --disable-triggers (pg_dump's DISABLE then ENABLE TRIGGER ALL, which leaves
# the triggers firing for local writes alone, so a subscription would write its publisher's identity) makes
# timeid and tbsl refuse, naming the ALTER TABLE that sets them back (run here; B keeps its row, checked below)
su B -c "CREATE ROLE writer LOGIN IN ROLE pg_write_all_data" >/dev/null
written=$(for q in "UPDATE ids.idtypes_sql_installation SET timeid_clock_id = 9" "DELETE FROM ids.idtypes_sql_installation"; do
	PGHOST=${host[B]} PGPORT=${port[B]} psql -X -q -At -U writer -d app -c "$q" 2>&1; done)
app B -c "DELETE FROM idtypes_sql_installation" -c "SELECT idtypes_sql_set_identity(4, 4)" >/dev/null # the row the dump holds
PGHOST=${host[B]} PGPORT=${port[B]} "$("$PG_CONFIG" --bindir)/pg_dump" -U postgres --data-only --disable-triggers -t ids.idtypes_sql_installation app >"$work/identity.sql"
app B -c "DELETE FROM idtypes_sql_installation" >/dev/null && su B -d app -f "$work/identity.sql" >/dev/null 2>&1
restored=$(app B -c "SELECT timeid_generate()" 2>&1; app B -c "SELECT tbsl_generate()" 2>&1)
hint=$(grep -o -m1 'ALTER TABLE [^;]*;' <<<"$restored")
app B -c "$hint" >/dev/null 2>&1
if [ "$(grep -c 'only the owner of ids.idtypes_sql_installation writes the identity' <<<"$written")" = 2 ] &&
	[ "$(grep -c 'are not ENABLE ALWAYS' <<<"$restored")" = 2 ] && grep -q 'DISABLE TRIGGER ALL' "$work/identity.sql" &&
	[ "$(app B -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation" -c "SELECT timeid_generate() IS NOT NULL")" = "4|4
t" ]; then
	ok "logical replication: a member of pg_write_all_data cannot write the identity (2 of 2 refused); after a data-only restore with --disable-triggers, timeid and tbsl refuse (2 of 2) until the hint's ALTER TABLE, then generate"
else
	fail "logical replication: pg_write_all_data, restore with --disable-triggers: $(head -c 400 <<<"$written $restored")"
fi
# a TRUNCATE from a publisher (one of 1.1, or one whose owner set the trigger aside, as here) is refused on B
# and stops its apply worker, which retries it: the hint's ALTER SUBSCRIPTION ... SKIP, with the LSN the
# error's context gives, lets replication go on; B keeps its identity
app A -c "ALTER TABLE idtypes_sql_installation DISABLE TRIGGER idtypes_sql_installation_truncate" -c "TRUNCATE idtypes_sql_installation" \
	-c "ALTER TABLE idtypes_sql_installation ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate" -c "INSERT INTO public.seen VALUES ('A', 'mark', 'after truncate')" >/dev/null
skip_lsn=""
for _ in $(seq 1 120); do
	skip_lsn=$(grep -A3 'idtypes_sql_installation is not truncated' "${dirs[1]}/log" | grep -o -m1 'finished at [0-9A-F]*/[0-9A-F]*' | cut -d' ' -f3)
	[ -n "$skip_lsn" ] && break
	sleep 0.25
done
hinted=$(grep -c 'ALTER SUBSCRIPTION ... SKIP' "${dirs[1]}/log")
[ -n "$skip_lsn" ] && su B -d app -c "ALTER SUBSCRIPTION from_a SKIP (lsn = '$skip_lsn')" >/dev/null
if [ -n "$skip_lsn" ] && [ "$hinted" -ge 1 ] && caught_up A B && [ "$(su B -d app -c "SELECT count(*) FROM public.seen WHERE type = 'mark'")" = 1 ] &&
	[ "$(app B -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation")" = "4|4" ]; then
	ok "logical replication: a publisher's TRUNCATE of the identity is refused on B, its hint names ALTER SUBSCRIPTION ... SKIP; skipped at $skip_lsn, replication goes on and B keeps its identity"
else
	fail "logical replication: a publisher's TRUNCATE of the identity: LSN '${skip_lsn}', $hinted hint(s), B's identity $(app B -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation")"
fi
# the same TRUNCATE in one transaction with another change (a row of the test's table): SKIP would drop that
# change too (before this hint: followed, 1 of 1 lost); the hint's other way applies it whole: B's owner
# disables the truncate trigger until it is applied, which removes B's identity, then enables it again and
# sets B's identity again
errors=$(grep -c 'idtypes_sql_installation is not truncated' "${dirs[1]}/log")
app A -c "ALTER TABLE idtypes_sql_installation DISABLE TRIGGER idtypes_sql_installation_truncate" -c "BEGIN" \
	-c "INSERT INTO public.seen VALUES ('A', 'mark', 'with truncate')" -c "TRUNCATE idtypes_sql_installation" -c "COMMIT" \
	-c "ALTER TABLE idtypes_sql_installation ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate" >/dev/null
for _ in $(seq 1 120); do
	[ "$(grep -c 'idtypes_sql_installation is not truncated' "${dirs[1]}/log")" -gt "$errors" ] && break
	sleep 0.25
done
hinted=$(grep -c 'ALTER TABLE ids.idtypes_sql_installation DISABLE TRIGGER idtypes_sql_installation_truncate until it is applied' "${dirs[1]}/log")
app B -c "ALTER TABLE idtypes_sql_installation DISABLE TRIGGER idtypes_sql_installation_truncate" >/dev/null
applied=$(caught_up A B && su B -d app -c "SELECT count(*) FROM public.seen WHERE (type, id) = ('mark', 'with truncate')" -c "SELECT count(*) FROM ids.idtypes_sql_installation")
app B -c "ALTER TABLE idtypes_sql_installation ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate" -c "SELECT idtypes_sql_set_identity(4, 4)" >/dev/null
if [ "$hinted" -ge 1 ] && [ "$applied" = "1
0" ] && [ "$(app B -c "SELECT timeid_clock_id, tbsl_machine_id FROM idtypes_sql_installation" -c "SELECT timeid_generate() IS NOT NULL")" = "4|4
t" ]; then
	ok "logical replication: a publisher's TRUNCATE of the identity with a row in its transaction: the hint's other way (the truncate trigger disabled until applied) keeps the row (1 of 1) and removes B's identity (0 rows), which its owner sets again"
else
	fail "logical replication: a publisher's TRUNCATE with a row in its transaction: $hinted hint(s) naming DISABLE TRIGGER; the row and B's identity rows: $(tr '\n' ' ' <<<"$applied") (want 1 0)"
fi
# the marks deleted on A with A's WAL writer slowed to 10 s, so that the DELETE's asynchronous commit is still
# unwritten when caught_up starts: B has applied it when caught_up returns. (caught_up read A's written
# position: B reached it with the mark still there, A's subscription to B below copied the mark back to A, and
# with origin = none no DELETE of B's reached it there: 80,001 rows on A in step 3 of a full run on 19; on 15,
# with no origin filter, the copied mark went back to B once B had applied the DELETE: 80,001 on both sides
# when reproduced with A's WAL writer at 10 s)
su A -c "ALTER SYSTEM SET wal_writer_delay = '10s'" -c "SELECT pg_reload_conf()" >/dev/null && sleep 0.3
unwritten=$(app A -c "DELETE FROM public.seen WHERE type = 'mark'" -c "SELECT pg_current_wal_lsn() < pg_current_wal_insert_lsn()")
caught_up A B
marks=$(su B -d app -c "SELECT count(*) FROM public.seen WHERE type = 'mark'")
su A -c "ALTER SYSTEM RESET wal_writer_delay" -c "SELECT pg_reload_conf()" >/dev/null
if [ "$unwritten" = t ] && [ "$marks" = 0 ]; then
	ok "logical replication: a DELETE committed asynchronously on A, its commit not yet written (A's WAL writer at 10 s), is applied on B when the test's wait for B returns (0 rows left of 2)"
else
	fail "logical replication: the wait for B after an asynchronous commit on A: the commit unwritten: ${unwritten:-?}; rows left on B: $marks of 2"
fi
subscribe A B || fail "logical replication: A's subscription to B did not sync"
# streaming: each owner changes its identity, which the other side skips
app A -c "SELECT idtypes_sql_set_identity(5, 5)" >/dev/null && app B -c "SELECT idtypes_sql_set_identity(6, 6)" >/dev/null
streamed=$(caught_up A B && caught_up B A && echo yes)
ids=$(su A -d app -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation"; su B -d app -c "SELECT timeid_clock_id, tbsl_machine_id FROM ids.idtypes_sql_installation")
if [ "$streamed" = yes ] && [ "$ids" = "5|5
6|6" ]; then
	ok "logical replication, both directions: each side's identity changed while streaming, each keeps its own one row (A 5|5, B 6|6)"
else
	fail "logical replication: the identities after streaming: $(tr '\n' ' ' <<<"$ids") (want A 5|5, B 6|6); caught up: ${streamed:-no}"
fi

# 2b. a 1.1 subscriber that took its publisher's row, having none of its own (1.1 let the sync write it): the
# update to 1.2 cannot tell that row from one its owner set, so while a subscription copies the table it
# removes it, says so, and timeid refuses until the owner sets one (the subscriber updated first, as the docs say)
if [ ${#chain[@]} -ge 3 ]; then
	v11=$(for side in A B; do
		su "$side" -c "CREATE DATABASE v11 OWNER app" && su "$side" -d v11 -c "CREATE SCHEMA ids AUTHORIZATION app" &&
			for f in "${chain[@]:0:2}"; do app "$side" -d v11 -1 -f "$f" || exit 1; done; done 2>&1) &&
		app A -d v11 -c "SELECT idtypes_sql_set_identity(7, 7)" >/dev/null && su A -d v11 -c "CREATE PUBLICATION identity FOR TABLE ids.idtypes_sql_installation" &&
		su B -d v11 -c "CREATE SUBSCRIPTION from_a11 CONNECTION '$(conninfo A postgres | sed 's/dbname=app/dbname=v11/')' PUBLICATION identity" 2>>"$work/subscribe.log"
	for _ in $(seq 1 120); do [ "$(su B -d v11 -c "SELECT count(*) FROM ids.idtypes_sql_installation")" = 1 ] && break; sleep 0.25; done
	taken=$(su B -d v11 -c "SELECT timeid_clock_id FROM ids.idtypes_sql_installation")
	updated=$(app B -d v11 -1 -f "${chain[2]}" 2>&1)
	if [ "$taken" = 7 ] && [[ $updated == *"or one a subscription copies: removed"* ]] &&
		[ "$(su B -d v11 -c "SELECT count(*) FROM ids.idtypes_sql_installation")" = 0 ] &&
		[[ $(app B -d v11 -c "SELECT timeid_generate()" 2>&1) == *"has no timeid clock id yet"* ]]; then
		ok "logical replication: a 1.1 subscriber that took its publisher's identity (7) in the sync, updated to 1.2 while subscribed: the row removed with a WARNING, timeid refuses until its owner sets one"
	else
		fail "logical replication: the update of a 1.1 subscriber holding its publisher's identity ($taken): $(head -c 300 <<<"$v11 $updated"); rows: $(su B -d v11 -c "TABLE ids.idtypes_sql_installation" | tr '\n' ' ')"
	fi
	su B -d v11 -c "DROP SUBSCRIPTION from_a11" >/dev/null 2>>"$work/subscribe.log"
fi

# 3. both sides at once, 2 sessions each, every generator, into the replicated table
n=5000
for side in A B; do
	for s in 1 2; do
		for t in timeid tbsl uid11 scru160; do
			app "$side" -c "INSERT INTO public.seen SELECT '$side', '$t', ${t}_generate() FROM generate_series(1, $n) RETURNING id" >"$work/$side.$s.$t" 2>&1 &
		done
	done
done
wait
caught_up A B && caught_up B A
summary="" bad=0
for t in timeid tbsl uid11 scru160; do
	a=$(cat "$work"/A.?."$t" | grep -c .) b=$(cat "$work"/B.?."$t" | grep -c .)
	common=$(comm -12 <(cat "$work"/A.?."$t" | LC_ALL=C sort -u) <(cat "$work"/B.?."$t" | LC_ALL=C sort -u) | wc -l)
	summary+=" $t $common;"
	[ "$a" = $((2 * n)) ] && [ "$b" = $((2 * n)) ] || bad=1
	{ [ $t = timeid ] || [ $t = tbsl ]; } && [ "$common" != 0 ] && bad=1
done
# every row of the table on each side, by side and type: each side's own and the other's IDs, nothing else
want=$(for side in A B; do for t in scru160 tbsl timeid uid11; do echo "$side|$t|$((2 * n))"; done; done)
rows=$(for side in A B; do su "$side" -d app -c "SELECT side, type, count(*) FROM public.seen GROUP BY 1, 2 ORDER BY 1, 2" | tr '\n' ' '; echo; done)
if [ "$bad" = 0 ] && [ "$rows" = "$(tr '\n' ' ' <<<"$want")
$(tr '\n' ' ' <<<"$want")" ]; then
	ok "logical replication, both directions: A and B generating at once ($((8 * n)) IDs each, 2 sessions): in common:$summary every row on both sides and no other ($((16 * n)) each: A's and B's $((2 * n)) of each type)"
else
	fail "logical replication: generating at once: in common:$summary rows by side|type|count on A: $(head -1 <<<"$rows")and on B: $(tail -1 <<<"$rows")(want $((2 * n)) of each side and type, nothing else)"
	grep -hv '^[0-9A-Za-z]*$' "$work"/[AB].?.* | head -3 | sed 's/^/     /'
fi

# 4. the docs' cutover from A to B, with A's states an hour ahead (as a clock ahead would leave them; tbsl's,
# which carries the real time and waits for the clock, half a second)
python3 - "$root/docs/sql-edition.md" "$work/cutover.sql" <<'PY'
import re, sys
lines, i, found = open(sys.argv[1]).read().split('\n'), 0, []
while i < len(lines):
    if 'logical.sh runs this block' in lines[i]:
        while not re.match(r'^\s*```plpgsql', lines[i]): i += 1
        i += 1
        while not re.match(r'^\s*```\s*$', lines[i]): found.append(lines[i]); i += 1
    i += 1
assert found, 'no cutover block'
open(sys.argv[2], 'w').write('\n'.join(found) + '\n')
PY
app A -c "SELECT setval('timeid_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::bigint)" \
	-c "SELECT setval('tbsl_state', (extract(epoch FROM clock_timestamp() + interval '500 ms') * 1000000)::bigint)" \
	-c "SELECT setval('uid11_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint - 1321009871111)" \
	-c "SELECT setval('scru160_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint)" >/dev/null
last=$(app A -c "SELECT timeid_generate(), tbsl_generate(), uid11_generate(), scru160_generate()")
# ... and B subscribed to another server too (here B itself, its database other), whose LSNs are ahead of A's:
# they say nothing of A's WAL. A's last row, committed asynchronously, is applied on B only once a session of
# B's that inserted the same key rolls back (2 s later): the block waits for it.
su B -c "CREATE DATABASE other" >/dev/null &&
	su B -d other -c "CREATE TABLE public.other (x int PRIMARY KEY)" -c "CREATE PUBLICATION other FOR TABLE public.other" \
		-c "SELECT pg_create_logical_replication_slot('elsewhere', 'pgoutput')" >/dev/null &&
	su B -d app -c "CREATE TABLE public.other (x int PRIMARY KEY)" \
		-c "CREATE SUBSCRIPTION elsewhere CONNECTION '$(conninfo B postgres | sed 's/dbname=app/dbname=other/')' PUBLICATION other WITH (create_slot = false, slot_name = 'elsewhere', copy_data = false)" >/dev/null 2>>"$work/subscribe.log"
for _ in $(seq 1 20); do # B's WAL a segment past A's
	[ "$(su B -d app -c "SELECT count(*) FROM pg_stat_subscription WHERE subname = 'elsewhere' AND latest_end_lsn > '$(su A -c "SELECT pg_current_wal_insert_lsn() + 16777216")'")" = 1 ] && break
	su B -c "SELECT pg_logical_emit_message(false, 'logical.sh', 'ahead')" -c "SELECT pg_switch_wal()" >/dev/null
	sleep 0.2
done
su B -d app -c "BEGIN" -c "INSERT INTO public.seen VALUES ('A', 'last', 'before the cutover')" -c "SELECT pg_sleep(2)" -c "ROLLBACK" >/dev/null &
locker=$!
for _ in $(seq 1 40); do [ "$(su B -d app -c "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(2)'")" = 1 ] && break; sleep 0.05; done
app A -c "INSERT INTO public.seen VALUES ('A', 'last', 'before the cutover')" >/dev/null
su A -c "ALTER DATABASE app SET default_transaction_read_only = on" >/dev/null # the docs' step 1
if PGHOST=${host[B]} PGPORT=${port[B]} PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At -U app -d app \
		-v old="$(conninfo A)" -v new="$(conninfo B)" -f "$work/cutover.sql" >"$work/cutover.out" 2>&1; then
	applied=$(su B -d app -c "SELECT count(*) FROM public.seen WHERE type = 'last'")
	next=$(app B -c "SELECT timeid_generate(), tbsl_generate(), uid11_generate(), scru160_generate()" 2>&1)
	if paste -d'|' <(tr '|' '\n' <<<"$last") <(tr '|' '\n' <<<"$next") | LC_ALL=C awk -F'|' '!($2 > $1) { exit 1 } END { if (NR != 4) exit 1 }' && [ "$applied" = 1 ]; then
		ok "logical replication: docs/sql-edition.md's cutover block, A's states an hour ahead: B's next IDs sort above A's last (${last//|/ }); it returned once B had applied A's last row (1 of 1), B's apply held back 2 s, another subscription of B's ahead of A's WAL, A's database read-only"
	else
		fail "logical replication: after the cutover block: A's last $last, B's next $next; A's last row on B when it returned: $applied of 1"
	fi
else
	fail "logical replication: docs/sql-edition.md's cutover block:"
	head -10 "$work/cutover.out" | sed 's/^/     /'
fi
wait "$locker"
su A -c "ALTER DATABASE app RESET default_transaction_read_only" >/dev/null
su B -d app -c "DROP SUBSCRIPTION elsewhere" >/dev/null 2>>"$work/subscribe.log"
# 5. PostgreSQL 19's publications FOR ALL SEQUENCES carry sequences (a subscription's sync sets them to the
# publisher's, back too), but never the states: each installation's have an INCREMENT of their own, and the
# sync refuses sequences whose parameters differ (its log says so). B, which generated before, subscribes to
# A's: its generators refuse while subscribed; once it drops the subscription they continue above B's own
# last IDs (before each installation drew its INCREMENT, the sync set B's states back to A's, and B's next
# timeid was one B had issued already)
if [ "$(su A -d app -c 'SHOW server_version_num')" -ge 190000 ]; then
	before=$(app B -c "SELECT timeid_generate(), tbsl_generate(), uid11_generate(), scru160_generate()")
	mismatched=$(grep -c 'mismatched or renamed sequences on subscriber' "${dirs[1]}/log")
	su A -d app -c "CREATE PUBLICATION all_sequences FOR ALL SEQUENCES" >/dev/null &&
		su B -d app -c "CREATE SUBSCRIPTION sequences_from_a CONNECTION '$(conninfo A postgres)' PUBLICATION all_sequences" >/dev/null 2>>"$work/subscribe.log"
	for _ in $(seq 1 80); do # the sync refused, or done (B's timeid state A's)
		[ "$(grep -c 'mismatched or renamed sequences on subscriber' "${dirs[1]}/log")" -gt "$mismatched" ] && break
		[ "$(su B -d app -c "SELECT pg_sequence_last_value('ids.timeid_state')")" = "$(su A -d app -c "SELECT pg_sequence_last_value('ids.timeid_state')")" ] && break
		sleep 0.25
	done
	refused=$(grep -A3 'mismatched or renamed sequences on subscriber' "${dirs[1]}/log" | grep -o 'ids\.[a-z0-9]*_state' | sort -u | tr '\n' ' ')
	held=$(for t in timeid tbsl uid11 scru160; do app B -c "SELECT ${t}_generate()" 2>&1; done)
	su B -d app -c "DROP SUBSCRIPTION sequences_from_a" >/dev/null 2>>"$work/subscribe.log"
	after=$(app B -c "SELECT timeid_generate(), tbsl_generate(), uid11_generate(), scru160_generate()" 2>&1)
	if [ "$(grep -c 'while a subscription writes its state' <<<"$held")" = 4 ] && [ "$refused" = "ids.scru160_state ids.tbsl_state ids.timeid_state ids.uid11_state " ] &&
		paste -d'|' <(tr '|' '\n' <<<"$before") <(tr '|' '\n' <<<"$after") | LC_ALL=C awk -F'|' '!($2 > $1) { exit 1 } END { if (NR != 4) exit 1 }'; then
		ok "logical replication: a subscription to a publication FOR ALL SEQUENCES: the sync refuses the 4 states (their INCREMENT is B's own), the 4 generators refuse while it exists (55000); with it dropped, B's next IDs sort above its own last"
	else
		fail "logical replication: FOR ALL SEQUENCES: states the sync refused: ${refused:-none}; $(grep -c 'while a subscription writes its state' <<<"$held") of 4 generators refused; B's IDs before $before, after dropping it $after"
	fi
fi
echo "# logical.sh: $((SECONDS - started)) s"
exit 0
