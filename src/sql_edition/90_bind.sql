-- The installation's bindings (see 00_common.sql's header): the PL/pgSQL bodies name the edition's own
-- objects in the placeholder schema pg_idtypes_sql_unbound (no role can create a pg_ schema, so until this
-- step they fail rather than find anything) and its sessions' temporary sequences with the placeholder
-- pg_idtypes_sql_key. Both are bound here, at installation (and at each update): the schema the edition went
-- into, quoted (format %I), and a key of that schema's name (distinct for two installations in one database;
-- kept by a dump and restore). The same step runs under psql -f, CREATE EXTENSION and pg_tle; pg_dump then
-- writes the bound bodies as they are.
-- It touches the edition's own functions only, found by what they are, never by their text (a function
-- another role put in the schema may hold the same words): the signatures below, which this script created
-- in this schema (CREATE FUNCTION fails on one that exists); installed as an extension, also the members of
-- the extension that owns idtypes_sql_installation, which must be the same functions.
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	bound pg_catalog.oid[];
	members pg_catalog.oid[];
	f pg_catalog.oid;
BEGIN
	-- installer.sql's choice of owner still holds (a psql -f without -1 loses its SET LOCAL ROLE)
	IF current_user OPERATOR(pg_catalog.<>) COALESCE(pg_catalog.current_setting('idtypes_sql.installer', true), '') THEN
		RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('the SQL edition in schema %s must be installed by %s, not %s',
				schema_name, pg_catalog.current_setting('idtypes_sql.installer', true), current_user),
			HINT = 'Run the whole script in one transaction (psql -1), so that a superuser installs it as the schema''s owner.';
	END IF;
	SELECT pg_catalog.array_agg(pg_catalog.to_regprocedure(pg_catalog.format('%I.%s', schema_name, s))::pg_catalog.oid) INTO bound
		FROM pg_catalog.unnest(ARRAY['idtypes_sql_set_identity(integer,integer)', 'idtypes_sql_installed_identity(integer)',
			'idtypes_sql_reserve(integer)', 'timeid_generate(integer)', 'tbsl_generate(integer,boolean)', 'uid11_generate()',
			'scru160_generate()', 'scru160_generate_at(timestamp with time zone)',
			'timeid_min(timestamp with time zone)', 'timeid_max(timestamp with time zone)', 'tbsl_min(timestamp with time zone)',
			'tbsl_max(timestamp with time zone)', 'uid11_min(timestamp with time zone)', 'uid11_max(timestamp with time zone)',
			'scru160_min(timestamp with time zone)', 'scru160_max(timestamp with time zone)']) s;
	IF pg_catalog.array_position(bound, NULL) IS NOT NULL OR EXISTS (SELECT FROM pg_catalog.pg_proc p
			WHERE p.oid OPERATOR(pg_catalog.=) ANY (bound) AND p.proowner OPERATOR(pg_catalog.<>) current_user::pg_catalog.regrole::pg_catalog.oid) THEN
		RAISE EXCEPTION 'the SQL edition''s functions in schema % are not all its installer''s', schema_name;
	END IF;
	SELECT pg_catalog.array_agg(m.objid) INTO members FROM pg_catalog.pg_depend t JOIN pg_catalog.pg_depend m
			ON m.refclassid OPERATOR(pg_catalog.=) t.refclassid AND m.refobjid OPERATOR(pg_catalog.=) t.refobjid
			AND m.deptype OPERATOR(pg_catalog.=) 'e' AND m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) m.objid
		WHERE t.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
			AND t.objid OPERATOR(pg_catalog.=) pg_catalog.format('%I.idtypes_sql_installation', schema_name)::pg_catalog.regclass::pg_catalog.oid
			AND t.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass AND t.deptype OPERATOR(pg_catalog.=) 'e'
			AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0;
	IF NOT COALESCE(members, '{}') OPERATOR(pg_catalog.<@) bound THEN
		RAISE EXCEPTION 'the SQL edition has functions to bind that 90_bind.sql does not list: %',
			(SELECT pg_catalog.string_agg(m::pg_catalog.regprocedure::pg_catalog.text, ', ') FROM pg_catalog.unnest(members) m
				WHERE m OPERATOR(pg_catalog.<>) ALL (bound));
	END IF;
	FOREACH f IN ARRAY bound LOOP
		IF pg_catalog.strpos((SELECT p.prosrc FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f), 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0 THEN
			EXECUTE pg_catalog.replace(pg_catalog.replace(pg_catalog.pg_get_functiondef(f),
				'pg_idtypes_sql_unbound', pg_catalog.format('%I', schema_name)),
				'pg_idtypes_sql_key', pg_catalog.left(pg_catalog.md5(schema_name), 16));
		END IF;
	END LOOP;
	IF EXISTS (SELECT FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) ANY (bound)
			AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0) THEN
		RAISE EXCEPTION 'the SQL edition''s bodies were not all bound to schema %', schema_name;
	END IF;
END $$;
