#!/usr/bin/env bash
# Both editions on one server (issue 50), in throwaway clusters of its own, the native library not preloaded
# and then preloaded (shared_preload_libraries = idtypes):
#  1. one database with both (native in schema native, the SQL edition in ids): in one session, a native
#     call first (which loads the library, and with it idtypes.clock_backward_max_wait, shown as '1s'), then
#     every SQL-edition generator, then the native one again;
#  2. the two settings the SQL edition reads (idtypes.clock_backward, idtypes.clock_backward_max_wait) with
#     and without units, with the library loaded and (not preloaded) without: tbsl generates with each; with
#     its state an hour ahead it refuses at once ('error', any case) or gives up after the wait set; a value
#     the native edition would refuse is refused by tbsl (22023 naming it), timeid still generates;
#  3. one database each: the SQL edition's generators in a database without the native extension, with the
#     library loaded there (preloaded, or by LOAD in the session) and not;
#  4. docs/sql-edition.md top to bottom, as the non-superuser owner of database app: its shell block, then
#     its plpgsql blocks in one session (but those marked `docs-test: skip`), the move between the editions
#     included, on a server with the native edition in schema native.
# Needs PG_CONFIG (idtypes installed there) and root. Prints `ok` / `FAIL` lines.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/scripts/lib.sh"
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; }
q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
work=$(mktemp -d /tmp/idtypes-both.XXXXXX)
chmod 755 "$work"
trap 'cluster_stop; rm -rf "$work"' EXIT
make -s -C "$root" sql-edition >/dev/null || { fail "make sql-edition"; exit 0; }
script=$root/build/idtypes_sql.sql

install_sql() { # install_sql DB CLOCK_ID: the SQL edition in schema ids, with an identity
	q -d "$1" -c "CREATE SCHEMA ids" &&
		PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -d "$1" -f "$script" >/dev/null &&
		q -d "$1" -c "SELECT ids.idtypes_sql_set_identity($2, $2)" >/dev/null
}
# 1000 IDs of each SQL-edition generator, counted distinct: 4000
generate="SELECT count(DISTINCT ids.timeid_generate()) + count(DISTINCT ids.tbsl_generate()) + count(DISTINCT ids.uid11_generate())
	+ count(DISTINCT ids.scru160_generate()) FROM generate_series(1, 1000)"
expect() { # expect WHAT WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: want $(tr '\n' ' ' <<<"$2"), got: $(head -c 600 <<<"$3" | tr '\n' ' ')"; fi
}

for preload in no yes; do
	if [ $preload = yes ]; then
		cluster_start shared_preload_libraries=idtypes || { fail "a cluster with idtypes preloaded"; continue; }
		how="idtypes preloaded"
	else
		cluster_start || { fail "a cluster"; continue; }
		how="idtypes not preloaded"
	fi
	server=$(q -d postgres -c 'SHOW server_version')
	label="PostgreSQL $server, $how"

	# 1. one database, both editions, one session
	q -d postgres -c "CREATE DATABASE both_db" && q -d both_db -c "CREATE SCHEMA native" -c "CREATE EXTENSION idtypes SCHEMA native" &&
		install_sql both_db 1 || fail "$label: both editions in one database"
	got=$(q -d both_db -c "SELECT native.timeid_generate() IS NOT NULL" -c "SHOW idtypes.clock_backward_max_wait" -c "$generate" \
		-c "SELECT count(DISTINCT native.timeid_generate()) + count(DISTINCT native.tbsl_generate()) FROM generate_series(1, 1000)" 2>&1)
	expect "$label: one database, one session: a native call (the library loaded, its setting reads 1s), 4 x 1000 SQL-edition IDs, then native ones" \
		"t
1s
4000
2000" "$got"

	# 2. the settings, with and without units; loaded (a native call first) and, not preloaded, not loaded
	loads=("SELECT native.timeid_generate() IS NOT NULL")
	[ $preload = no ] && loads+=("SELECT true")
	for load in "${loads[@]}"; do
		bad=""
		for v in 1000 0 60000 1s 500ms "1500 ms" 1min 0.5s; do
			got=$(q -d both_db -c "SET idtypes.clock_backward_max_wait = '$v'" -c "SET idtypes.clock_backward = 'wait'" -c "$load" -c "$generate" 2>&1)
			[ "$got" = "t
4000" ] || bad+=" $v: $got;"
		done
		where=$([ "$load" = "SELECT true" ] && echo "the library not loaded in the session" || echo "the library loaded")
		expect "$label, $where: tbsl and the others generate with idtypes.clock_backward_max_wait 1000, 0, 60000, 1s, 500ms, '1500 ms', 1min, 0.5s" "" "$bad"
		# tbsl's state an hour ahead: refused at once, or after the wait set (read with its unit)
		q -d both_db -c "SELECT setval('ids.tbsl_state', (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::bigint)" >/dev/null
		got=$(q -d both_db -c "SET idtypes.clock_backward = 'ERROR'" -c "$load" -c "SELECT ids.tbsl_generate()" 2>&1 | grep -o 'behind the last TBSL generated' | head -1)
		got+=" / "$(q -d both_db -c "SET idtypes.clock_backward_max_wait = '200ms'" -c "$load" -c "SELECT ids.tbsl_generate()" 2>&1 | grep -o 'gave up waiting for the clock after [0-9]* ms')
		got+=" / "$(q -d both_db -c "SET idtypes.clock_backward_max_wait = '0.3s'" -c "$load" -c "SELECT ids.tbsl_generate()" 2>&1 | grep -o 'gave up waiting for the clock after [0-9]* ms')
		q -d both_db -c "SELECT setval('ids.tbsl_state', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)" >/dev/null
		expect "$label, $where: tbsl an hour behind its state: clock_backward = 'ERROR' refuses, max_wait '200ms' and '0.3s' give up after 200 and 300 ms" \
			"behind the last TBSL generated / gave up waiting for the clock after 200 ms / gave up waiting for the clock after 300 ms" "$got"
	done
	if [ $preload = no ]; then # placeholders: what the native edition would refuse at SET, tbsl refuses (timeid does not read them)
		got=""
		for s in "idtypes.clock_backward_max_wait = 'soon'" "idtypes.clock_backward_max_wait = '61s'" "idtypes.clock_backward_max_wait = '-1'" \
			"idtypes.clock_backward = 'later'"; do
			got+=$(q -d both_db -c "SET $s" -c "SELECT ids.timeid_generate() IS NOT NULL" -c "SELECT ids.tbsl_generate()" 2>&1 |
				sed -n 's/^t$/timeid/p; s/.*\(invalid value for parameter "[a-z_.]*"\).*/\1/p' | tr '\n' ' ')
		done
		expect "$label: without the library, a value the native edition refuses is refused by tbsl_generate (22023 naming the setting), timeid still generates" \
			"timeid invalid value for parameter \"idtypes.clock_backward_max_wait\" timeid invalid value for parameter \"idtypes.clock_backward_max_wait\" timeid invalid value for parameter \"idtypes.clock_backward_max_wait\" timeid invalid value for parameter \"idtypes.clock_backward\" " \
			"$got"
	fi

	# 3. one database each
	q -d postgres -c "CREATE DATABASE sql_db" -c "CREATE DATABASE native_db" && q -d native_db -c "CREATE EXTENSION idtypes" && install_sql sql_db 2 ||
		fail "$label: a database for each edition"
	got=$(q -d native_db -c "SELECT count(DISTINCT timeid_generate()) FROM generate_series(1, 1000)" 2>&1
		q -d sql_db -c "SET idtypes.clock_backward_max_wait = '1s'" -c "$generate" 2>&1
		[ $preload = no ] && q -d sql_db -c "LOAD 'idtypes'" -c "SHOW idtypes.clock_backward_max_wait" -c "$generate" 2>&1)
	want="1000
4000"
	[ $preload = no ] && want+="
1s
4000"
	expect "$label: one database each: the native edition's, and the SQL edition's generating$([ $preload = no ] && echo ' without the library and after LOAD in its session' || echo ' with the library loaded')" \
		"$want" "$got"

	# 4. docs/sql-edition.md top to bottom, as the owner of database app
	q -d postgres -c "CREATE ROLE app LOGIN" -c "CREATE DATABASE app OWNER app" &&
		q -d app -c "CREATE SCHEMA native" -c "CREATE EXTENSION idtypes SCHEMA native" -c "GRANT USAGE ON SCHEMA native TO app" || fail "$label: database app"
	python3 - "$root/docs/sql-edition.md" "$work" <<'PY'
import re, sys
page, work = sys.argv[1], sys.argv[2]
lines = open(page).read().split('\n')
blocks, prev, i = [], '', 0
while i < len(lines):
    m = re.match(r'^\s*```(\w*)\s*$', lines[i])
    if m:
        indent = len(lines[i]) - len(lines[i].lstrip())
        body, start = [], i + 1
        i += 1
        while not re.match(r'^\s*```\s*$', lines[i]):
            body.append(lines[i][indent:])
            i += 1
        if m.group(1) in ('sh', 'plpgsql') and not re.match(r'^\s*<!--\s*docs-test:\s*skip', prev):
            blocks.append((m.group(1), start, '\n'.join(body)))
        prev = ''
    elif lines[i].strip():
        prev = lines[i]
    i += 1
sh = [b for b in blocks if b[0] == 'sh']
sql = [b for b in blocks if b[0] == 'plpgsql']
assert sh and sql and max(b[1] for b in sh) < min(b[1] for b in sql), 'the page: its shell block(s) before its SQL blocks'
open(work + '/page.sh', 'w').write('set -e\n' + '\n'.join(b[2] for b in sh) + '\n')
open(work + '/page.sql', 'w').write('\n'.join('\\echo -- line %d\n%s' % (b[1], b[2]) for b in sql) + '\n')
PY
	if [ -s "$work/page.sh" ] && (cd "$root" && PGUSER=app bash "$work/page.sh") >"$work/page.out" 2>&1 &&
		PGUSER=app psql -X -At -v ON_ERROR_STOP=1 -d app -f "$work/page.sql" >>"$work/page.out" 2>&1 &&
		[ "$(q -d app -c "SELECT string_agg(body, ' ' ORDER BY id) FROM posts")" = "first second third fourth" ] &&
		[ "$(q -d app -c "SELECT atttypid = 'ids.timeid'::regtype FROM pg_attribute WHERE attrelid = 'posts'::regclass AND attname = 'id'")" = t ]; then
		ok "$label: docs/sql-edition.md top to bottom as database app's owner ($(grep -c '^-- line' "$work/page.out") plpgsql blocks): installed, identity set, used, moved to the native edition and back, the IDs in insertion order"
	else
		fail "$label: docs/sql-edition.md top to bottom:"
		tail -15 "$work/page.out" | sed 's/^/     /'
	fi
	cluster_stop
done
exit 0
