#!/usr/bin/env bash
# A live upgrade from each supported release to this tree (issue 65), as docs/upgrading.md's "To 1.7" orders it,
# with sessions that no order of the steps may crash. PG_CONFIG: a private installation (the releases' files
# are installed into it in turn, this tree's again at the end); TREE: this tree, built for it. For each of
# 1.5 (e9a2f5f) and 1.6 (ea3c833), preloaded and not: a primary with a streaming standby, installed at that
# release, a role `app` granted EXECUTE on idtypes_keys() and the public forms, views on the extension's
# functions (idtypes_identity(), the generators; idtypes_keys() from 1.6: 1.5 -> 1.6 refuses a view on it,
# attached.sh), a keyring of one key. Sessions opened before step 1 (old library; as app, one as a
# superuser) call every generator, idtypes_keys(), idtypes_identity(), the views and a public form's round
# trip, over and over, on the primary (2) and the standby (1); new sessions do the same in a loop (2 clients on the primary, 1 on the
# standby) throughout. Then, to go past the page's order: step 1 (this tree's `make install`), the update
# BEFORE the restart (preloaded, it is refused: nothing changes; from 1.5 not preloaded, to 1.6 for 1 s first), 3 s, step 2 (restart the standby, then the
# primary), step 3 (the update, where it was refused), 2 s. Checks: no crash (the postmaster's start time kept
# between restarts, no backend ended by a signal in either log), no ID twice, every error one the page
# announces (counted by kind), the old sessions' idtypes_keys() answered before the update and refused after
# it (42883) without a crash, grants and views working after. IDTYPES_LIVE="1.5:no 1.6:yes": only those
# scenarios (version:preloaded). Prints `ok` / `FAIL` lines.
set -uo pipefail
pg_config=${1:?usage: live.sh PG_CONFIG TREE}
tree=${2:?usage: live.sh PG_CONFIG TREE}
here=$(cd "$(dirname "$0")" && pwd)
bin=$("$pg_config" --bindir)
source "$here/../../scripts/lib.sh"
source "$here/earlier.sh"
source "$here/../concurrency/server.sh"
source "$here/../concurrency/clusters.sh"
PG_CONFIG=$pg_config
# this tree's files back in the installation whatever happens
reinstall() { pg_make -C "$tree" -s install >/dev/null 2>&1; }
die() { fail "$*"; touch "$work/stop"; wait; reinstall; exit 1; }
current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$tree/idtypes.control")
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
printf 'orders 1 %s\n' "$key" >"$work/keyring" && chown postgres: "$work/keyring" && chmod 600 "$work/keyring"

# app NAME [psql arguments]: psql as the role app in the database app of cluster NAME, errors with their SQLSTATE
app() { local n=$1; shift; psql -X -q -At -v VERBOSITY=verbose -h "$work" -p "${port[$n]}" -U "${as_role:-app}" -d app "$@"; }
admin() { local n=$1; shift; sql "$n" -d app "$@"; }
# What every session calls, valid under 1.5's SQL and this tree's: one line per ID (`id <kind> <text>`), then
# one per answer (`keys <rows>`, ...). The standby generates only scru160 and uuid_v7 (1.5 and later).
calls_primary="COPY (SELECT 'id t ' || timeid_generate() UNION ALL SELECT 'id b ' || tbsl_generate()
	UNION ALL SELECT 'id u ' || uid11_generate() UNION ALL SELECT 'id r ' || uid11_generate_random()
	UNION ALL SELECT 'id s ' || scru160_generate() UNION ALL SELECT 'id v ' || uuid_v7_generate()
	UNION ALL SELECT 'id t ' || t FROM generated UNION ALL SELECT 'id s ' || s FROM generated) TO STDOUT;"
calls_both="SELECT 'keys ' || count(*) FROM idtypes_keys();
SELECT 'identity ' || generator_state FROM idtypes_identity();
SELECT 'view ' || count(*) FROM identity_now;
SELECT 'public ' || (timeid_from_public(timeid_to_public(x, 'orders'), 'orders') = x) FROM make_timeid(1721382046481000, 1) x;"
calls_standby="COPY (SELECT 'id s ' || scru160_generate() UNION ALL SELECT 'id v ' || uuid_v7_generate()) TO STDOUT;"
# session NAME FILE CALLS: one session calling CALLS every 0.1 s until $work/stop (or its end)
session() { while [ ! -f "$work/stop" ]; do printf '%s\n' "$3"; sleep 0.1; done | app "$1" >>"$2" 2>>"$2.err"; }
# sessions NAME FILE CALLS: a new session for each round of CALLS; counts them in FILE.n
sessions() { while [ ! -f "$work/stop" ]; do printf '%s\n' "$3" | app "$1" >>"$2" 2>>"$2.err"; echo >>"$2.n"; sleep 0.05; done; }
# crashes NAME: the log's lines of a server process ended by a signal or a crash restart
crashes() { grep -E 'terminated by signal|was terminated by exception|terminating any other active server processes|all server processes terminated' "$work/$1.log"; }
# The errors the page announces, by kind (grep -E patterns on the clients' error lines)
declare -A announced=(
	[refused beside the earlier library (55000, not preloaded: new sessions before the restart)]='55000: sessions on (an earlier idtypes library|idtypes library [0-9.]+) have generated in this server since it started'
	[moved to a new C symbol (42883: old sessions after the update; the update before a restart, preloaded)]='42883: could not find function "[a-z0-9_]+" in file'
	[public forms need preloading (55000, not preloaded, 1.6 and later)]='55000: the public forms need idtypes in shared_preload_libraries'
	[a standby refusing forms until its primary records the key (55000, preloaded: between the restarts of the standby and the primary)]='55000: version [0-9]+ of key "[^"]+" is not usable on this standby yet: its primary has not recorded it'
	[the restart (57P01, 57P03, connections refused)]='57P01|57P03|the database system is (shutting down|starting up|not yet accepting)|server closed the connection unexpectedly|connection to server .* failed|The connection to the server was lost|no connection to the server|terminating connection due to administrator command'
)

scenario() {
	local from=$1 rev=$2 preload=$3 label p s old_tree started_p started_s t kinds k n unannounced
	label="from $from ($rev), $([ "$preload" = yes ] && echo preloaded || echo "not preloaded")"
	p=p${from//./}$preload s=s${from//./}$preload
	old_tree=$(earlier_tree "$rev") && pg_make -C "$old_tree" -s install >/dev/null 2>&1 || die "$label: idtypes $from's files"
	settings=$(settings_for "$preload" "$fleet_identity -c idtypes.keyring=$work/keyring -c wal_level=replica")
	as_postgres "$bin/initdb" -D "$work/$p" -A trust -U postgres --no-sync >/dev/null && start "$p" || die "$label: the primary"
	sql "$p" -c 'CREATE DATABASE app' -c 'CREATE ROLE app LOGIN' &&
		admin "$p" -c "CREATE EXTENSION idtypes VERSION '$from'" \
			-c 'GRANT EXECUTE ON FUNCTION idtypes_keys(), timeid_to_public(timeid, text), timeid_from_public(text, text) TO app' \
			-c 'CREATE VIEW identity_now AS SELECT timeid_clock_id, generator_state FROM idtypes_identity()' \
			-c 'CREATE VIEW generated AS SELECT timeid_generate() AS t, scru160_generate() AS s' \
			-c 'GRANT SELECT ON identity_now, generated TO app' -c 'SELECT timeid_generate()' >/dev/null ||
		die "$label: idtypes $from in the database app"
	if [ "$from" != 1.5 ]; then
		admin "$p" -c 'CREATE VIEW keys AS SELECT name, version, stage, current FROM idtypes_keys()' -c 'GRANT SELECT ON keys TO app' ||
			die "$label: a view on idtypes_keys()"
	fi
	make_standby "$work/$p" "$work/$s" "$work" "${port[$p]}" >/dev/null 2>&1 && start "$s" && ready "$s" || die "$label: the standby"
	wait_replay "$p" "$s" || die "$label: the standby replays"
	[ "$(admin "$s" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")" = "$from" ] || die "$label: the standby at $from"

	rm -f "$work"/stop "$work"/out.* "$work"/*.err "$work"/*.n
	# (the second as a superuser: a lost grant would not hide what the call does)
	session "$p" "$work/out.old1" "$calls_primary$calls_both" & as_role=postgres session "$p" "$work/out.old2" "$calls_primary$calls_both" &
	session "$s" "$work/out.oldstandby" "$calls_standby$calls_both" &
	sessions "$p" "$work/out.new1" "$calls_primary$calls_both" & sessions "$p" "$work/out.new2" "$calls_primary$calls_both" &
	sessions "$s" "$work/out.newstandby" "$calls_standby$calls_both" &
	sleep 2
	grep -q '^identity' "$work/out.old1" || die "$label: the old sessions answer ($(head -3 "$work/out.old1.err"))"
	started_p=$(sql "$p" -c 'SELECT pg_postmaster_start_time()') started_s=$(sql "$s" -c 'SELECT pg_postmaster_start_time()')
	cp "$work/out.old1" "$work/before_update.old1"

	# step 1: this tree's files, over the release's, on the (one) installation both servers use
	reinstall || die "$label: make install of this tree"
	sleep 1
	# the update before the restart (the order the page warns against): refused where preloaded. From 1.5 not
	# preloaded, first to 1.6 only, for a second of the old sessions' calls: its idtypes_keys() on a symbol of
	# 1.5's library (five columns filled as four) crashed the server
	t=
	if [ "$from" = 1.5 ] && [ "$preload" = no ]; then
		t=$(admin "$p" -v VERBOSITY=verbose -c "ALTER EXTENSION idtypes UPDATE TO '1.6'" 2>&1)
		sleep 1
	fi
	t+=$(admin "$p" -v VERBOSITY=verbose -c 'ALTER EXTENSION idtypes UPDATE' 2>&1)
	if [ "$preload" = yes ]; then
		[[ $t == *42883*"could not find function"* ]] &&
			ok "$label: ALTER EXTENSION UPDATE before the restart refused, as the page says ($(grep -m1 -o 'ERROR.*' <<<"$t" | cut -c1-110))" ||
			fail "$label: ALTER EXTENSION UPDATE before the restart: ${t:-done}"
	else
		[ -z "$t" ] && ok "$label: ALTER EXTENSION UPDATE before the restart, old sessions open" || fail "$label: the update: $t"
	fi
	wait_replay "$p" "$s"
	sleep 3
	# old sessions after the update (not preloaded) or beside the refused one (preloaded): no crash
	for n in "$p" "$s"; do
		t=$(sql "$n" -c 'SELECT pg_postmaster_start_time()')
		[ "$t" = "$([ "$n" = "$p" ] && echo "$started_p" || echo "$started_s")" ] && [ -z "$(crashes "$n")" ] &&
			ok "$label: $([ "$n" = "$p" ] && echo primary || echo standby): no crash while sessions on idtypes $from's library ran beside the new files and the update (postmaster started $t)" ||
			fail "$label: $n crashed: $(crashes "$n" | head -3)"
	done
	if [ "$preload" = no ]; then
		k=$(cat "$work/out.old1.err" "$work/out.old2.err" | grep -c 'could not find function "idtypes_keys_1_7"')
		n=$(grep -c '^keys' "$work/before_update.old1")
		[ "$k" -gt 0 ] && { [ "$n" -gt 0 ] || [ "$from" != 1.5 ]; } &&
			ok "$label: old sessions' idtypes_keys(): $n answers before the update (session 1; 1.6 not preloaded refuses), $k refusals after it (42883), no crash" ||
			fail "$label: old sessions' idtypes_keys(): $n answers before the update, $k refusals after it"
	fi

	# step 2: restart, the standby first; step 3: the update where it was refused
	restart "$s" && restart "$p" && ready "$p" && ready "$s" || die "$label: the restart"
	if [ "$preload" = yes ]; then
		t=$(admin "$p" -c 'ALTER EXTENSION idtypes UPDATE' 2>&1)
		[ -z "$t" ] && ok "$label: ALTER EXTENSION UPDATE after the restart" || fail "$label: the update after the restart: $t"
	fi
	wait_replay "$p" "$s"
	# preloaded, the standby (restarted first, on this tree) refuses a key's forms until its primary, restarted
	# after it, has recorded the keyring and the record has replayed (docs/upgrading.md, step 2): waited for,
	# 120 s at most, so that what follows is the settled server
	if [ "$preload" = yes ]; then
		for _ in $(seq 1 240); do
			[ "$(sql "$s" -d app -c "SELECT timeid_from_public(timeid_to_public(x, 'orders'), 'orders') = x FROM make_timeid(1721382046481000, 1) x" 2>/dev/null)" = t ] && break
			sleep 0.5
		done
	fi
	started_p=$(sql "$p" -c 'SELECT pg_postmaster_start_time()') started_s=$(sql "$s" -c 'SELECT pg_postmaster_start_time()')
	for f in "$work"/out.new*[0-9y]; do wc -l <"$f" >"$f.mark"; touch "$f.err"; wc -l <"$f.err" >"$f.err.mark"; done
	sleep 2
	touch "$work/stop"
	wait
	for n in "$p" "$s"; do
		[ "$(admin "$n" -c "SELECT extversion FROM pg_extension WHERE extname = 'idtypes'")" = "$current" ] &&
			[ "$(sql "$n" -c 'SELECT pg_postmaster_start_time()')" = "$([ "$n" = "$p" ] && echo "$started_p" || echo "$started_s")" ] &&
			[ -z "$(crashes "$n")" ] &&
			ok "$label: $([ "$n" = "$p" ] && echo primary || echo standby) at $current, no crash after the restart" ||
			fail "$label: $n after the restart: $(crashes "$n" | head -3)"
	done
	# after the restart, as app in a new session: the grants and the views answer; idtypes_keys() gives the key
	# where idtypes is preloaded, else the announced refusal
	t=$(app "$p" -c 'SELECT count(*) FROM idtypes_keys()' 2>&1)
	local views=(-c 'SELECT count(*) FROM identity_now' -c 'SELECT count(*) FROM generated')
	[ "$from" != 1.5 ] && [ "$preload" = yes ] && views+=(-c 'SELECT count(*) FROM keys')
	n=$(app "$p" "${views[@]}" 2>&1 | paste -sd' ')
	{ [ "$preload" = yes ] && [ "$t" = 1 ] && [[ $n == "1 1"* ]] && [[ $from == 1.5 || $n == "1 1 1" ]]; } ||
		{ [ "$preload" = no ] && [[ $t == *"55000: the public forms need idtypes in shared_preload_libraries"* ]] && [ "$n" = "1 1" ]; } &&
		ok "$label: after it, as app (its grants): idtypes_keys() ${t:0:60}, the views $n" || fail "$label: after it, as app: $t; $n"
	# the new sessions after the restart: calls answered, no error but (not preloaded) the public forms' refusal
	for f in "$work"/out.new*[0-9y]; do
		n=$(tail -n +"$(($(cat "$f.mark") + 1))" "$f" | grep -c '^keys\|^identity')
		t=$(tail -n +"$(($(cat "$f.err.mark") + 1))" "$f.err" | grep -E 'ERROR|FATAL' | grep -v -E "${announced[public forms need preloading (55000, not preloaded, 1.6 and later)]}" | head -2)
		[ "$n" -gt 0 ] && [ -z "$t" ] && ok "$label: $(basename "$f") after the restart: $n answers, no error" ||
			fail "$label: $(basename "$f") after the restart: $n answers; $t"
	done
	# no ID twice, in every session, primary and standby
	cat "$work"/out.* 2>/dev/null | grep -h '^id ' | sort >"$work/ids"
	n=$(wc -l <"$work/ids") t=$(uniq -d "$work/ids" | wc -l)
	[ "$t" = 0 ] && [ "$n" -gt 100 ] && ok "$label: $n IDs from $(cat "$work"/out.*.n | wc -l) new sessions and 3 old ones, none twice" ||
		fail "$label: $t of $n IDs twice"
	# every error one the page announces (after the restart: above)
	grep -h -E 'ERROR|FATAL|psql: error' "$work"/*.err >"$work/errors"
	kinds= total=0
	for k in "${!announced[@]}"; do
		n=$(grep -c -E "${announced[$k]}" "$work/errors")
		total=$((total + n))
		[ "$n" -gt 0 ] && kinds+="$n $k; "
	done
	unannounced=$(grep -v -E "$(printf '%s|' "${announced[@]}" | sed 's/|$//')" "$work/errors")
	[ -z "$unannounced" ] && [ "$total" = "$(wc -l <"$work/errors")" ] &&
		ok "$label: $total errors, each one the page announces: ${kinds:-none}" ||
		fail "$label: errors the page does not announce ($(wc -l <"$work/errors") errors, $total by kind: $kinds): $(sort <<<"$unannounced" | uniq -c | sort -rn | head -5)"
	stop "$s"
	stop "$p"
}

declare -A revision=([1.5]=e9a2f5f [1.6]=ea3c833)
for run in ${IDTYPES_LIVE:-1.5:no 1.5:yes 1.6:no 1.6:yes}; do
	scenario "${run%:*}" "${revision[${run%:*}]}" "${run#*:}"
done
reinstall || fail "make install of this tree at the end"
exit $status
