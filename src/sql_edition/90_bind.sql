-- The installation's bindings (see 00_common.sql's header): the PL/pgSQL bodies name the edition's own
-- objects in the placeholder schema pg_idtypes_sql_unbound (no role can create a pg_ schema, so until this
-- step they fail rather than find anything) and its sessions' temporary sequences with the placeholder
-- pg_idtypes_sql_key. Both are bound here, at installation: the schema the edition went into, quoted
-- (format %I), and a key of that schema's name (distinct for two installations in one database; kept by a
-- dump and restore). The same step runs under psql -f, CREATE EXTENSION and pg_tle; pg_dump then writes the
-- bound bodies as they are.
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	f pg_catalog.oid;
BEGIN
	IF schema_name OPERATOR(pg_catalog.~) '[''$\\]' THEN
		RAISE EXCEPTION USING ERRCODE = '42602', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s', schema_name),
			DETAIL = 'Its name would be written into the bodies of its functions; a quote, a dollar sign or a backslash is not allowed.';
	END IF;
	FOR f IN SELECT p.oid FROM pg_catalog.pg_proc p
		WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_name::pg_catalog.regnamespace::pg_catalog.oid
		AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0
	LOOP
		EXECUTE pg_catalog.replace(pg_catalog.replace(pg_catalog.pg_get_functiondef(f),
			'pg_idtypes_sql_unbound', pg_catalog.format('%I', schema_name)),
			'pg_idtypes_sql_key', pg_catalog.left(pg_catalog.md5(schema_name), 16));
	END LOOP;
	IF EXISTS (SELECT FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_name::pg_catalog.regnamespace::pg_catalog.oid
			AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0) THEN
		RAISE EXCEPTION 'the SQL edition''s bodies were not all bound to schema %', schema_name;
	END IF;
END $$;
