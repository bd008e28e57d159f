-- The installation's bindings (see 00_common.sql's header): the PL/pgSQL bodies name the edition's own
-- objects in the placeholder schema pg_idtypes_sql_unbound (no role can create a pg_ schema, so until this
-- step they fail rather than find anything) and its sessions' temporary sequences with the placeholder
-- pg_idtypes_sql_key. Both are bound here, at installation: the schema the edition went into, quoted
-- (format %I), and a key of that schema's name (distinct for two installations in one database; kept by a
-- dump and restore). The same step runs under psql -f, CREATE EXTENSION and pg_tle; pg_dump then writes the
-- bound bodies as they are. It also refuses a schema another role owns (below).
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	f pg_catalog.oid;
BEGIN
	IF schema_name OPERATOR(pg_catalog.~) '[''$\\]' THEN
		RAISE EXCEPTION USING ERRCODE = '42602', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s', schema_name),
			DETAIL = 'Its name would be written into the bodies of its functions; a quote, a dollar sign or a backslash is not allowed.';
	END IF;
	-- The schema must be the installing role's (or a superuser's, or the database owner's public schema
	-- installed by the database owner): a schema's owner may drop or rename anything in it, and make a new
	-- schema of its name, so every name the bodies qualify would then be the owner's, called by the
	-- edition's functions with their callers' rights, and by its SECURITY DEFINER ones with the installer's.
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
			WHERE n.nspname OPERATOR(pg_catalog.=) schema_name AND (r.rolsuper OR r.rolname OPERATOR(pg_catalog.=) current_user
				OR (r.rolname OPERATOR(pg_catalog.=) 'pg_database_owner' AND EXISTS (SELECT FROM pg_catalog.pg_database d
					WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database() AND d.datdba OPERATOR(pg_catalog.=) current_user::pg_catalog.regrole::pg_catalog.oid)))) THEN
		RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s, which %s owns',
				schema_name, (SELECT n.nspowner::pg_catalog.regrole FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) schema_name)),
			DETAIL = 'The owner of a schema can drop or rename what is in it, and put its own functions in their place for the edition''s functions to call with other roles'' rights.',
			HINT = pg_catalog.format('Install it as the schema''s owner, or into a schema of the installing role (CREATE SCHEMA ... AUTHORIZATION %I).', current_user);
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
