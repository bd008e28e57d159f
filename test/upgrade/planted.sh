#!/usr/bin/env bash
# ALTER EXTENSION idtypes UPDATE runs as a superuser with the extension's schema on the search_path, where its
# owner (the database owner, for public) can create operators: an operator whose argument types match a
# comparison exactly, where pg_catalog's needs a cast (oid = regclass, oid = regprocedure, oid = integer, ...),
# is chosen over pg_catalog's, and runs with the superuser's rights (issue 65's amended steps compared
# unqualified: a database owner made itself superuser, from 1.5). Against a running cluster with this tree
# installed (PGHOST etc. set). A database owned by a role with nothing else; idtypes created at 1.0 (every
# step after it runs) and at 1.5 with grants on idtypes_keys() and idtypes_identity() (the steps' loops over
# grants); then the owner plants =, <> and || in public for every pair of common types that pg_catalog lacks
# exactly, each raising a warning when a superuser calls it; then the update. Prints `ok` / `FAIL` lines.
source "$(dirname "$0")/cluster_checks.sh"
owner=idtypes_planted_$$
trap 'psql_q -d postgres -c "DROP ROLE IF EXISTS $owner" 2>/dev/null; rm -rf "$work"' EXIT
psql_q -d postgres -c "CREATE ROLE $owner LOGIN"
types="'oid','regclass','regprocedure','regproc','regtype','regrole','regnamespace','integer','smallint','bigint','text','name','\"char\"','character varying','json','jsonb','boolean','anyelement'"
plant="CREATE FUNCTION public.planted_called() RETURNS void LANGUAGE plpgsql AS \$f\$ BEGIN
	IF current_setting('is_superuser') OPERATOR(pg_catalog.=) 'on' THEN RAISE WARNING 'planted operator called by a superuser'; END IF; END \$f\$;
DO \$d\$ DECLARE l text; r text; o text; n int := 0; BEGIN
	FOREACH l IN ARRAY ARRAY[$types] LOOP FOREACH r IN ARRAY ARRAY[$types] LOOP FOREACH o IN ARRAY ARRAY['=', '<>', '||'] LOOP
		CONTINUE WHEN l = 'anyelement' AND r = 'anyelement';
		CONTINUE WHEN EXISTS (SELECT FROM pg_operator p WHERE p.oprname = o AND p.oprleft = l::regtype AND p.oprright = r::regtype);
		EXECUTE format('CREATE FUNCTION public.planted_%s(%s, %s) RETURNS %s LANGUAGE sql AS %L', n, l, r,
			CASE o WHEN '||' THEN 'text' ELSE 'boolean' END,
			CASE o WHEN '||' THEN 'SELECT public.planted_called(); SELECT pg_catalog.concat(\$1, \$2)'
			       ELSE 'SELECT public.planted_called(); SELECT \$1::text OPERATOR(pg_catalog.' || o || ') \$2::text' END);
		EXECUTE format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.planted_%s)', o, l, r, n);
		n := n + 1;
	END LOOP; END LOOP; END LOOP;
	RAISE WARNING 'planted %', n;
END \$d\$;"
for from in 1.0 1.5; do
	db=idtypes_planted_${from//./_}_$$
	psql_q -d postgres -c "CREATE DATABASE $db OWNER $owner" && psql_q -d "$db" -c "CREATE EXTENSION idtypes VERSION '$from'" || fail "$from: the database"
	[ "$from" = 1.5 ] && psql_q -d "$db" -c "GRANT EXECUTE ON FUNCTION idtypes_keys(), idtypes_identity() TO $owner WITH GRANT OPTION" \
		-c "GRANT EXECUTE ON FUNCTION idtypes_keys() TO PUBLIC" -c "REVOKE EXECUTE ON FUNCTION idtypes_identity() FROM PUBLIC"
	planted=$(psql_q -d "$db" -U "$owner" -c "$plant" 2>&1 | sed -n 's/.*WARNING:  planted //p')
	out=$(psql_q -d "$db" -c 'ALTER EXTENSION idtypes UPDATE' 2>&1)
	version=$(psql_q -d "$db" -c "SET search_path = pg_catalog" -c "SELECT extversion FROM pg_extension WHERE extname OPERATOR(pg_catalog.=) 'idtypes'")
	called=$(grep -c 'planted operator called by a superuser' <<<"$out")
	[ "${planted:-0}" -gt 500 ] && [ "$called" = 0 ] && [[ $version != "$from" ]] &&
		ok "$from -> $version: $planted operators planted in public by the database owner, none called by the update" ||
		fail "$from -> $version: of ${planted:-0} operators planted by the database owner, $called called with a superuser's rights: $(grep -m1 -v WARNING <<<"$out")"
	psql_q -d postgres -c "DROP DATABASE $db"
done
exit $status
