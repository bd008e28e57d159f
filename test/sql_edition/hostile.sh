#!/usr/bin/env bash
# The SQL edition among hostile objects (issue 43), against a running cluster (PGHOST etc. set, connecting as
# the superuser postgres): a role that owns the database (and so public), and a role with CREATE on the
# edition's schema and public, both with CREATE on the edition's schema, plant functions and operators for every name and signature the edition's bodies could resolve
# to (every function name its bodies call, with each of its signatures and every one-off variant of argument
# types; every operator symbol for every pair of common types; domains named as the types the bodies name),
# in the edition's schema and in public, BEFORE the installation and again AFTER it, and in pg_temp. Each
# planted function logs who it runs as (a table and a WARNING, which no rollback takes back) and tries
# ALTER ROLE <its author> SUPERUSER. Then every function of the edition runs (with arguments of every kind,
# the generators thousands of times, after DISCARD ALL again) as other roles: the installer, an application
# role, the superuser, and the hostile roles themselves (with their pg_temp objects).
# Passes when no planted object ran as anyone but its author and no role gained an attribute, and when an
# installation into a schema the hostile owner owns is refused (its owner could drop or rename what is in it).
#   hostile.sh SCRIPT MODE   (MODE: psql = psql -f by a role without superuser; extension = CREATE EXTENSION
#   by the superuser, the control file installed; tle = through pg_tle)
# Prints one `ok` or `FAIL` line (and details).
set -uo pipefail
script=${1:?usage: hostile.sh SCRIPT MODE}
mode=${2:?usage: hostile.sh SCRIPT MODE}
server=$(psql -X -At -d postgres -c 'SHOW server_version')
work=$(mktemp -d /tmp/idtypes-hostile.XXXXXX)
chmod 755 "$work"
db=idsqlh_${mode}_$$
scratch=idsqlh_scratch_$$
owner=idsqlh_owner creator=idsqlh_creator inst=idsqlh_inst app=idsqlh_app
su() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
as() { local r=$1; shift; PGOPTIONS="-c client_min_messages=warning -c search_path=ids,public" psql -X -q -At -U "$r" "$@"; }
cleanup() {
	su -d postgres -c "DROP DATABASE IF EXISTS $db (FORCE)" -c "DROP DATABASE IF EXISTS $scratch (FORCE)" >/dev/null 2>&1
	for r in $owner $creator $inst $app; do su -d postgres -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1; done
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL PostgreSQL $server: hostile objects ($mode): $*"; exit 0; }

cleanup; mkdir -p "$work"
mkdir -p "$work" && chmod 755 "$work"
for r in $owner $creator $inst $app; do su -d postgres -c "CREATE ROLE $r LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB" || fail "roles"; done

# The names and signatures the edition's bodies could resolve to, from an installation in a scratch database:
# every identifier followed by "(" in its function definitions and domain checks that names a function of
# pg_catalog or of the edition, with each of that function's signatures.
su -d postgres -c "CREATE DATABASE $scratch" && su -d "$scratch" -c "CREATE SCHEMA ids" &&
	PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -d "$scratch" -f "$script" >/dev/null ||
	fail "scratch installation"
su -d "$scratch" >"$work/signatures.tsv" <<'SQL' || fail "signatures"
WITH bodies AS (
	SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p WHERE p.pronamespace = 'ids'::regnamespace
	UNION ALL SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid WHERE t.typnamespace = 'ids'::regnamespace),
names AS (SELECT DISTINCT lower(m[1]) AS name FROM bodies, regexp_matches(d, '([A-Za-z_][A-Za-z0-9_]*)\s*\(', 'g') m)
SELECT p.pronamespace::regnamespace::text, p.proname, coalesce(string_agg(format_type(a.t, NULL), ',' ORDER BY a.n), ''),
	CASE WHEN p.prorettype IN ('void'::regtype, 'record'::regtype, 'trigger'::regtype, 'internal'::regtype, 'cstring'::regtype)
		OR format_type(p.prorettype, NULL) LIKE 'any%' THEN 'text' ELSE format_type(p.prorettype, NULL) END
FROM pg_proc p JOIN names n ON n.name = p.proname
	LEFT JOIN LATERAL unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, n) ON true
WHERE p.pronamespace IN ('pg_catalog'::regnamespace, 'ids'::regnamespace) AND p.prokind = 'f'
GROUP BY p.oid, p.proname, p.prorettype
SQL
[ -s "$work/signatures.tsv" ] || fail "no signatures found"

# The planting, as the role it runs as, into the schema given (:target), for :phase (before / after / temp).
cat >"$work/plant.sql" <<'SQL'
\set ON_ERROR_STOP 1
SET client_min_messages = error;
SET search_path = pg_catalog, pg_temp; -- the planters' own code finds nothing planted
CREATE TEMP TABLE sigs (schema text, name text, args text, ret text);
\copy sigs FROM 'SIGNATURES' WITH (DELIMITER '|')
CREATE TEMP TABLE planted (what text);
SELECT set_config('hostile.target', :'target', false) \gset
DO $plant$
DECLARE
	target text := current_setting('hostile.target');
	author text := current_user;
	types text[] := ARRAY['smallint', 'integer', 'bigint', 'numeric', 'double precision', 'text', 'character varying', 'name',
		'bytea', 'boolean', 'timestamp with time zone', 'uuid'];
	ops text[] := ARRAY['+', '-', '*', '/', '%', '&', '|', '#', '<<', '>>', '=', '<>', '<', '>', '<=', '>=', '||', '~', '!~', '~~', '^@', '<@', '@>'];
	s record;
	a text[];
	variant text[];
	n int := 0;
	fn text;
	body text := $b$ BEGIN
		INSERT INTO hostile_log.log VALUES (%1$L, current_user, session_user, %2$L);
		RAISE WARNING 'HOSTILE planted by %% ran as %% (session %%): %%', %1$L, current_user, session_user, %2$L;
		BEGIN EXECUTE %3$L; EXCEPTION WHEN OTHERS THEN NULL; END;
		RETURN NULL;
	END $b$;
	q text;
BEGIN
	-- functions: every signature (in another schema than its own: the same in this one is refused), and
	-- every variant with one argument of another type; "any" arguments as text, variadic ones 1 to 3 times
	FOR s IN SELECT DISTINCT * FROM sigs LOOP
		a := CASE WHEN s.args = '' THEN ARRAY[]::text[] ELSE string_to_array(replace(replace(s.args, '"any"', 'text'), 'anyelement', 'text'), ',') END;
		FOR i IN -coalesce(array_length(a, 1), 0) .. coalesce(array_length(a, 1), 0) LOOP
			-- i < 0: the first -i - 1 arguments only (what a call leaving the others to their defaults
			-- matches: public.timeid_generate()), in public; i = 0: the signature itself; i > 0: argument i varied
			CONTINUE WHEN i < 0 AND target <> 'public';
			FOREACH fn IN ARRAY CASE WHEN i <= 0 THEN ARRAY['-'] ELSE types END LOOP
				variant := CASE WHEN i < 0 THEN a[1:-i - 1] ELSE a END;
				IF i > 0 THEN
					CONTINUE WHEN variant[i] = fn;
					variant[i] := fn;
				ELSIF i = 0 THEN
					CONTINUE WHEN s.schema = target; -- the edition's own signature: its installation would fail on it
				END IF;
				q := format('%s.%I(%s)', target, s.name, array_to_string(variant, ', '));
				BEGIN
					EXECUTE format('CREATE FUNCTION %s RETURNS %s LANGUAGE plpgsql AS %L', q, s.ret,
						format(body, author, q, format('ALTER ROLE %I SUPERUSER', author)));
					n := n + 1;
				EXCEPTION WHEN OTHERS THEN
					NULL; -- exists, or not a valid signature
				END;
			END LOOP;
		END LOOP;
	END LOOP;
	-- operators: every symbol for every pair of types, and as a prefix; and in public, once the edition's types
	-- exist, its operators' own signatures (T ^@ text, T <@ tstzrange)
	FOR s IN SELECT o.op, l.t AS l, r.t AS r, row_number() OVER () AS k
			FROM unnest(ops) o(op), unnest(array_prepend(NULL, types)) l(t), unnest(types) r(t)
		UNION ALL SELECT o.oprname, o.oprleft::regtype::text, o.oprright::regtype::text, -row_number() OVER ()
			FROM pg_operator o WHERE o.oprnamespace = to_regnamespace('ids') AND target = 'public' LOOP
		fn := format('%s.hostile_op_%s_%s', target, author, abs(s.k) || CASE WHEN s.k < 0 THEN 'e' ELSE '' END);
		q := format('OPERATOR(%s.%s)(%s, %s)', target, s.op, coalesce(s.l, 'NONE'), s.r);
		BEGIN
			EXECUTE format('CREATE FUNCTION %s(%s) RETURNS %s LANGUAGE plpgsql AS %L', fn, concat_ws(', ', s.l, s.r),
				CASE WHEN s.op IN ('=', '<>', '<', '>', '<=', '>=', '~', '!~', '~~', '^@', '<@', '@>') THEN 'boolean'
					WHEN s.op = '||' THEN 'text' ELSE coalesce(s.l, s.r) END,
				format(body, author, q, format('ALTER ROLE %I SUPERUSER', author)));
			EXECUTE format('CREATE OPERATOR %s.%s (%s RIGHTARG = %s, FUNCTION = %s)', target, s.op,
				CASE WHEN s.l IS NULL THEN '' ELSE format('LEFTARG = %s,', s.l) END, s.r, fn);
			n := n + 1;
		EXCEPTION WHEN OTHERS THEN
			NULL;
		END;
	END LOOP;
	-- types the bodies name (each qualified, or an SQL keyword): a domain of each, whose check logs
	IF target <> 'pg_temp' THEN
		BEGIN
			EXECUTE format('CREATE FUNCTION %s.hostile_check_%s(anyelement) RETURNS boolean LANGUAGE plpgsql AS %L', target, author,
				format(replace(body, 'RETURN NULL', 'RETURN true'), author, target || ' domain', format('ALTER ROLE %I SUPERUSER', author)));
		EXCEPTION WHEN OTHERS THEN
			NULL;
		END;
		-- and the edition's types' names (in public: what an application's unqualified type name could find)
		FOREACH fn IN ARRAY ARRAY['text', 'bytea', 'uuid', 'int8range', 'tstzrange', 'timestamptz', 'regclass', 'bit', 'int8', 'int4', 'float8', 'bool',
				'timeid', 'tbsl', 'uid11', 'scru160'] LOOP
			CONTINUE WHEN fn IN ('timeid', 'tbsl', 'uid11', 'scru160') AND target <> 'public';
			BEGIN
				EXECUTE format('CREATE DOMAIN %s.%I AS pg_catalog.%I CHECK (%s.hostile_check_%s(VALUE))', target, fn,
					CASE WHEN fn IN ('timeid', 'tbsl', 'uid11', 'scru160') THEN 'text' ELSE fn END, target, author);
				n := n + 1;
			EXCEPTION WHEN OTHERS THEN
				NULL;
			END;
		END LOOP;
	END IF;
	INSERT INTO planted VALUES (n::text);
END $plant$;
SELECT 'planted', :'target', what FROM planted;
SQL
sed -i "s|'SIGNATURES'|'$work/signatures.tsv'|" "$work/plant.sql"
plant() { # plant ROLE SCHEMA: the count planted
	as "$1" -d "$db" -v target="$2" -f "$work/plant.sql" >"$work/plant.$1.$2.out" 2>&1
	grep '^planted' "$work/plant.$1.$2.out" | cut -d'|' -f3 | grep . || echo 0
}

# every function of the edition, called with arguments of each kind (one argument varied at a time), the
# generators many times and again after DISCARD ALL; the caller's own SQL qualified (its search_path has ids
# and public: the bodies' names are what is under test)
su -d "$scratch" >"$work/calls.sql" <<'SQL' || fail "calls"
WITH samples(t, v) AS (VALUES
	('bigint', '1721382046481000'), ('bigint', '5'), ('integer', '5'), ('integer', '1024'), ('boolean', 'true'), ('boolean', 'false'),
	('text', '3jzfcijpj2z2a'), ('text', '25BF6196C8D6107ABCDE'), ('text', 'jpXCZedGfVQ'), ('text', '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
	('text', '017bdf6431bb33750751eb63beb3c3f8c5969d86'), ('text', '3kx-m'), ('text', 'zz!'), ('text', 'é'),
	('ids.timeid', '3jzfcijpj2z2a'), ('ids.tbsl', '25BF6196C8D6107ABCDE'), ('ids.uid11', 'jpXCZedGfVQ'), ('ids.scru160', '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
	('timestamp with time zone', '2024-07-19 09:40:46.481+00'), ('timestamp with time zone', 'infinity'),
	('tstzrange', '[2024-07-19 10:00+00,2024-07-19 11:00+00)'), ('tstzrange', 'empty'), ('tstzrange', '(,2024-07-19 11:00+00]'),
	('bytea', '\x00112233445566778899aabbccddeeff'), ('uuid', '0190c3f2-1c4e-7a4b-8d5e-123456789abc'), ('numeric', '12345678901234567890')),
fns AS (SELECT p.oid, p.proname, array_agg(format_type(a.t, NULL) ORDER BY a.n) AS args
	FROM pg_proc p, unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, n)
	WHERE p.pronamespace = 'ids'::regnamespace GROUP BY p.oid, p.proname)
SELECT DISTINCT format('SELECT ids.%I(%s);', f.proname, (SELECT string_agg(
		format('%L::%s', CASE WHEN k = i THEN s.v ELSE (SELECT v FROM samples WHERE t = f.args[k] LIMIT 1) END, f.args[k]), ', ' ORDER BY k)
		FROM generate_subscripts(f.args, 1) k))
FROM fns f, generate_subscripts(f.args, 1) i, samples s WHERE s.t = f.args[i]
UNION ALL SELECT format('SELECT ids.%I();', proname) FROM pg_proc WHERE pronamespace = 'ids'::regnamespace AND pronargs = 0
SQL
{
	echo "SET search_path = ids, public;"
	echo "SELECT ids.idtypes_sql_set_identity(21, 22);" # refused unless the installation's owner
	cat "$work/calls.sql"
	for t in timeid tbsl uid11 scru160; do
		echo "SELECT pg_catalog.count(ids.${t}_generate()) FROM pg_catalog.generate_series(1, 3000);"
		echo "SELECT pg_catalog.count(ids.${t}_generate_at('2024-07-19 09:40:46.481+00'::pg_catalog.timestamptz)) FROM pg_catalog.generate_series(1, 100);"
		echo "SELECT '!'::ids.$t; SELECT ''::ids.$t;"
		echo "SELECT ids.${t}_min(pg_catalog.now()) OPERATOR(ids.<@) pg_catalog.tstzrange(pg_catalog.now() OPERATOR(pg_catalog.-) '1 hour'::pg_catalog.interval, NULL);"
		echo "SELECT ids.${t}_max(pg_catalog.now()) OPERATOR(ids.^@) 'ab'::pg_catalog.text;"
	done
	echo "SELECT ids.timeid_generate(5), ids.tbsl_generate(42, true), ids.tbsl_generate(NULL::integer, false);" # typed: an untyped NULL would let an overload planted in the schema capture the caller's own call
	echo "DISCARD ALL;"
	echo "SET search_path = ids, public;"
	for t in timeid tbsl uid11 scru160; do echo "SELECT pg_catalog.count(ids.${t}_generate()) FROM pg_catalog.generate_series(1, 1000);"; done
	echo "BEGIN; SELECT pg_catalog.count(ids.timeid_generate()) FROM pg_catalog.generate_series(1, 100); ROLLBACK;"
	echo "SELECT pg_catalog.count(ids.timeid_generate()) FROM pg_catalog.generate_series(1, 100);"
} | awk '{ print } /^(SELECT|BEGIN|DISCARD)/ { print "\\echo victim-call" }' >"$work/victim.sql"
# a session that planted before (pg_temp: plant.sql stops at its own errors) goes on past the refused calls
{ echo '\set ON_ERROR_STOP 0'; cat "$work/victim.sql"; } >"$work/victim.tmp" && mv "$work/victim.tmp" "$work/victim.sql"
calls=$(grep -c '^\\echo victim-call' "$work/victim.sql")

# An application following docs/sql-edition.md: the edition's schema first in the database's search_path, its
# names unqualified, for each type (every statement one call, counted)
for t in timeid tbsl uid11 scru160; do
	cat <<SQL
CREATE TEMP TABLE posts_$t (id $t PRIMARY KEY DEFAULT ${t}_generate(), body text);
INSERT INTO posts_$t (body) VALUES ('first'), ('second');
SELECT count(*) FROM posts_$t WHERE id ^@ left(${t}_min(now())::text, 6);
SELECT count(*) FROM posts_$t WHERE id <@ tstzrange(now() - interval '1 hour', now());
SELECT count(${t}_timestamp(id)) + count(${t}_min(now())) + count(${t}_max(now())) + count(${t}_generate_at(now())) + count(${t}_to_bytea(id)) FROM posts_$t;
SELECT ${t}_generate() IS NOT NULL;
SQL
done | awk '{ print; print "\\echo docs-call" }' >"$work/docs.sql"
echo "SELECT tbsl_generate(7, true) IS NOT NULL;" >>"$work/docs.sql"
echo '\echo docs-call' >>"$work/docs.sql"
docs_calls=$(grep -c '^\\echo docs-call' "$work/docs.sql")

# the database (and so its public schema) belongs to the hostile owner; the edition's schema to the installing
# role (the edition refuses a schema another role owns: its owner could drop or rename what is in it), where
# both hostile roles may create; the creator may create in public too
case $mode in psql) edition_owner=$inst ;; *) edition_owner=postgres ;; esac
su -d postgres -c "CREATE DATABASE $db OWNER $owner" -c "ALTER DATABASE $db SET client_min_messages = warning" &&
	su -d "$db" -c "CREATE SCHEMA ids AUTHORIZATION $edition_owner" -c "GRANT USAGE, CREATE ON SCHEMA ids TO $owner, $creator" \
		-c "GRANT USAGE ON SCHEMA ids TO $app" -c "GRANT CREATE ON SCHEMA public TO $creator" \
		-c "CREATE SCHEMA hostile_log" -c "CREATE TABLE hostile_log.log (author name, ran_as name, session_as name, what text)" \
		-c "GRANT USAGE ON SCHEMA hostile_log TO PUBLIC" -c "GRANT INSERT ON hostile_log.log TO PUBLIC" >/dev/null || fail "setup"
before=$(( $(plant $owner ids) + $(plant $owner public) + $(plant $creator ids) + $(plant $creator public) ))

# into a schema the hostile owner owns, the installation is refused
su -d "$db" -c "CREATE SCHEMA owned AUTHORIZATION $owner" -c "GRANT CREATE, USAGE ON SCHEMA owned TO $inst" >/dev/null
case $mode in
psql) PGOPTIONS="-c client_min_messages=warning -c search_path=owned" psql -X -q -v ON_ERROR_STOP=1 -U $inst -d "$db" -1 -f "$script" ;;
extension) su -d "$db" -c "CREATE EXTENSION idtypes_sql SCHEMA owned" ;;
tle) printf '%s\n' "SELECT pgtle.install_extension('idtypes_sql_o', '1.1', 'idtypes, SQL edition', :'script');" "CREATE EXTENSION idtypes_sql_o SCHEMA owned;" |
	su -d "$db" -c "CREATE EXTENSION IF NOT EXISTS pg_tle" -v script="$(cat "$script")" -f - ;;
esac >"$work/owned.out" 2>&1
if [ "$mode" = psql ]; then
	grep -q "cannot go into schema owned, which $owner owns" "$work/owned.out" || { cat "$work/owned.out"; fail "installing into a schema the hostile role owns was not refused"; }
	owned_note="into a schema the hostile role owns, the installation was refused"
else
	# a superuser installs as the schema's owner: every object of the edition is that role's, none the superuser's
	owned=$(su -d "$db" -c "SELECT count(*) FILTER (WHERE o = '$owner'::regrole), count(*) FILTER (WHERE o <> '$owner'::regrole) FROM (
		SELECT proowner FROM pg_proc WHERE pronamespace = 'owned'::regnamespace UNION ALL
		SELECT relowner FROM pg_class WHERE relnamespace = 'owned'::regnamespace UNION ALL
		SELECT typowner FROM pg_type WHERE typnamespace = 'owned'::regnamespace UNION ALL
		SELECT oprowner FROM pg_operator WHERE oprnamespace = 'owned'::regnamespace) x(o)" 2>&1)
	[[ $owned =~ ^[1-9][0-9]*\|0$ ]] || { cat "$work/owned.out"; fail "installed by a superuser into a schema the hostile role owns: objects of the owner | of others: $owned"; }
	owned_note="installed by the superuser into a schema the hostile role owns, all ${owned%|*} objects are that role's, none the superuser's"
	[ "$mode" = extension ] && su -d "$db" -c "DROP EXTENSION idtypes_sql" >/dev/null
fi

# a function of the creator's in the edition's schema whose body holds the placeholders the installation binds:
# the installation goes on and leaves it as it was (it binds its own functions, found by what they are)
as $creator -d "$db" -c "CREATE FUNCTION ids.zz_blocker() RETURNS text LANGUAGE sql AS \$\$ SELECT 'pg_idtypes_sql_unbound.x pg_idtypes_sql_key' \$\$" >/dev/null ||
	fail "planting zz_blocker"
blocker() { su -d "$db" -c "SELECT md5(pg_get_functiondef('ids.zz_blocker()'::regprocedure)) || ' ' || proowner::regrole FROM pg_proc WHERE oid = 'ids.zz_blocker()'::regprocedure"; }
blocker_before=$(blocker)

# the installation
case $mode in
psql)
	PGOPTIONS="-c client_min_messages=warning -c search_path=ids" psql -X -q -v ON_ERROR_STOP=1 -U $inst -d "$db" -1 -f "$script" >"$work/install.out" 2>&1 ;;
extension)
	su -d "$db" -c "CREATE EXTENSION idtypes_sql SCHEMA ids" >"$work/install.out" 2>&1 ;;
tle)
	printf '%s\n' "SELECT pgtle.install_extension('idtypes_sql_h', '1.1', 'idtypes, SQL edition', :'script');" \
		"CREATE EXTENSION idtypes_sql_h SCHEMA ids;" |
		su -d "$db" -c "CREATE EXTENSION IF NOT EXISTS pg_tle" -v script="$(cat "$script")" -f - >"$work/install.out" 2>&1 ;;
esac || { cat "$work/install.out"; fail "the installation among the planted objects"; }
su -d "$db" -c "SELECT ids.idtypes_sql_set_identity(31, 32)" >/dev/null || fail "identity"
[ "$(blocker)" = "$blocker_before" ] && [ -n "$blocker_before" ] || fail "the installation changed the creator's function ids.zz_blocker: $blocker_before -> $(blocker)"
owned_note+="; a function of another role in the edition's schema holding the placeholders the installation binds was left as it was"
after=$(( $(plant $owner ids) + $(plant $creator ids) + $(plant $creator public) ))

# every function, as each role (the hostile ones also from a session with their own pg_temp objects); each
# session makes every call planned (counted)
: >"$work/victims.out"
sessions=0 short=""
for r in $edition_owner $app postgres $owner $creator temp:$owner temp:$creator; do
	if [ "${r#temp:}" != "$r" ]; then
		as "${r#temp:}" -d "$db" -v target=pg_temp -f "$work/plant.sql" -f "$work/victim.sql" >"$work/victim.$sessions.out" 2>&1
	else
		as "$r" -d "$db" -f "$work/victim.sql" >"$work/victim.$sessions.out" 2>&1
	fi
	made=$(grep -cx 'victim-call' "$work/victim.$sessions.out")
	[ "$made" = "$calls" ] || short+=" $r: $made of $calls;"
	cat "$work/victim.$sessions.out" >>"$work/victims.out"
	sessions=$((sessions + 1))
done
wrong=$(su -d "$db" -c "SELECT count(*) FROM hostile_log.log WHERE ran_as <> author OR session_as <> author")
ran=$(su -d "$db" -c "SELECT count(*) FROM hostile_log.log")
warned=$(grep -c 'HOSTILE planted by' "$work/victims.out")
mismatched=$(grep -o 'HOSTILE planted by [a-z_]* ran as [a-z_]*' "$work/victims.out" | awk '$4 != $7' | wc -l)
super=$(su -d postgres -c "SELECT string_agg(rolname, ',') FROM pg_roles WHERE rolname LIKE 'idsqlh\_%' AND (rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls OR rolreplication)")
generated=$(grep -cx '3000' "$work/victims.out")
if [ "$wrong" = 0 ] && [ "$mismatched" = 0 ] && [ -z "$super" ] && [ "$generated" = $((4 * sessions)) ] && [ -z "$short" ]; then
	echo "ok   PostgreSQL $server: hostile objects ($mode): $before planted before the installation and $after after (functions of every name and signature the bodies call, operators of every symbol and type pair, domains; in the edition's schema, public and pg_temp), $calls calls of every function in each of $sessions sessions of 5 roles (2 with their own pg_temp objects), all made: planted objects ran $ran times, never as anyone but their author ($warned warnings); no role gained an attribute; $owned_note"
else
	echo "FAIL PostgreSQL $server: hostile objects ($mode): planted objects ran as another role $wrong times (log) / $mismatched (warnings); roles with new attributes: '${super}'; generator runs that completed: $generated of $((4 * sessions)); sessions that did not make every call:${short:- none}"
	su -d "$db" -c "SELECT author, ran_as, session_as, what, count(*) FROM hostile_log.log WHERE ran_as <> author OR session_as <> author GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC LIMIT 10" | sed 's/^/     /'
	grep -m5 'ERROR' "$work/victims.out" | sed 's/^/     /'
fi

# The docs' application (docs.sql) with the search_path the docs give, as each role: no planted object runs.
# First, with the search_path the docs gave before 1.1 ("$user", public, ids), as the application role: the
# functions planted in public run (what shows that this check sees them).
docs_run() { # docs_run ROLE SEARCH_PATH: the docs' statements as ROLE, the database's search_path set first
	su -d postgres -c "ALTER DATABASE $db SET search_path = $2" >/dev/null
	PGOPTIONS="-c client_min_messages=warning" psql -X -q -At -U "$1" -d "$db" -f "$work/docs.sql" 2>&1
}
logged() { su -d "$db" -c "SELECT count(*) FROM hostile_log.log"; }
was=$(logged)
docs_run $app '"$user", public, ids' >"$work/docs.old.out"
control=$(( $(logged) - was ))
was=$(logged) short="" errors=0
for r in $edition_owner $app postgres $owner $creator; do
	docs_run "$r" 'ids, "$user", public' >"$work/docs.$r.out"
	made=$(grep -cx 'docs-call' "$work/docs.$r.out")
	[ "$made" = "$docs_calls" ] || short+=" $r: $made of $docs_calls;"
	errors=$((errors + $(grep -c 'ERROR' "$work/docs.$r.out")))
done
ran_docs=$(( $(logged) - was ))
if [ "$ran_docs" = 0 ] && [ -z "$short" ] && [ "$errors" = 0 ] && [ "$control" -gt 0 ]; then
	echo "ok   PostgreSQL $server: hostile objects ($mode): docs/sql-edition.md's application, search_path = ids, \"\$user\", public, unqualified names: $docs_calls statements as each of 5 roles, all made without error; the objects planted under the edition's names in public (functions with every signature and with the defaults left out, T ^@ text, T <@ tstzrange, domains timeid...) ran 0 times (with the path the docs gave before, \"\$user\", public, ids: $control times)"
else
	echo "FAIL PostgreSQL $server: hostile objects ($mode): docs/sql-edition.md's application: planted objects ran $ran_docs times (want 0; with the old path $control, want more than 0); errors: $errors; sessions that did not make every call:${short:- none}"
	grep -h -m5 'ERROR\|HOSTILE' "$work"/docs.*.out | sed 's/^/     /'
fi
exit 0
