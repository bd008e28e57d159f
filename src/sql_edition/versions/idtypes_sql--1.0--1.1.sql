-- idtypes, SQL edition: 1.0 -> 1.1 as released (frozen: generated then from src/sql_edition/upgrades/1.0--1.1.sql and
-- the sources' parts marked [1.1]), with one fix of 1.2: the table of the identity gets REPLICA IDENTITY FULL before
-- its DELETE, which a publication FOR ALL TABLES publishing deletes refuses on a table without one (issue 66; the
-- update to 1.2 gives the table a primary key and its default replica identity). Later changes go in the update
-- script of the version that makes them.
-- idtypes, SQL edition (idtypes_sql): who installs it. The first statement of the full script and of every
-- update script. The objects go into the first schema of search_path, which must be its installing role's
-- (a schema's owner may drop or rename anything in it, and make a new schema of its name, so every name the
-- bodies qualify would then be the owner's, called by the edition's functions with their callers' rights,
-- and by its SECURITY DEFINER ones with the installer's). A superuser installing into a schema of another
-- role (pg_restore of a database whose edition that role installed, through pg_tle or psql -f: the dump
-- creates the schema with its owner, then the extension) runs the rest of the script as that role
-- (SET LOCAL ROLE: until the script, or psql -1's transaction, ends), so that role owns every object, as
-- when it installed it, and no superuser's code or object is left in a schema another role controls.
-- 90_bind.sql checks again at the end (a psql -f without -1 loses the SET LOCAL: it is refused there).
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	owner pg_catalog.oid;
BEGIN
	IF schema_name IS NULL THEN
		RAISE EXCEPTION USING ERRCODE = '3F000', MESSAGE = 'the SQL edition needs a schema: the first schema of search_path does not exist';
	END IF;
	IF schema_name OPERATOR(pg_catalog.~) '[''$\\]' THEN
		RAISE EXCEPTION USING ERRCODE = '42602', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s', schema_name),
			DETAIL = 'Its name would be written into the bodies of its functions; a quote, a dollar sign or a backslash is not allowed.';
	END IF;
	-- the schema's owner; for pg_database_owner (public), the database's owner
	SELECT CASE WHEN n.nspowner OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.regrole::pg_catalog.oid
			THEN (SELECT d.datdba FROM pg_catalog.pg_database d WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
			ELSE n.nspowner END INTO owner
		FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) schema_name;
	-- who must own the edition's objects, for 90_bind.sql to check (its own session's setting)
	IF owner OPERATOR(pg_catalog.=) current_user::pg_catalog.regrole::pg_catalog.oid
			OR (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) owner) THEN
		PERFORM pg_catalog.set_config('idtypes_sql.installer', current_user, false);
		RETURN;
	END IF;
	IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname OPERATOR(pg_catalog.=) current_user) THEN
		PERFORM pg_catalog.set_config('idtypes_sql.installer', r.rolname, false), pg_catalog.set_config('role', r.rolname, true)
			FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) owner;
		RETURN;
	END IF;
	RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s, which %s owns',
			schema_name, owner::pg_catalog.regrole),
		DETAIL = 'The owner of a schema can drop or rename what is in it, and put its own functions in their place for the edition''s functions to call with other roles'' rights.',
		HINT = pg_catalog.format('Install it as the schema''s owner, or into a schema of the installing role (CREATE SCHEMA ... AUTHORIZATION %I).', current_user);
END $$;

-- idtypes, SQL edition: 1.0 -> 1.1 (ALTER EXTENSION idtypes_sql UPDATE, pgtle.install_update_path, or psql -1 -f
-- with search_path set to the edition's schema alone). The Makefile writes the update script: installer.sql,
-- this file, every part of the sources marked [1.1] (functions made again with CREATE OR REPLACE), then
-- 90_bind.sql.
-- * The identity table holds a row only once the owner has set the identity (1.0 made it with a row of
--   NULLs, which a dump restored beside the source's row). A 1.0 restore's row of NULLs goes too.
-- * T_min and T_max are PL/pgSQL of COST 1, so that prefixes computed from them are read from an index.
-- * T_to_bytea(T): the native edition's bytes.
-- * T ^@ varchar (T_starts_with(T, varchar)): a varchar prefix (JDBC's setString) is read as the native
--   edition reads it, not by pg_catalog's text ^@ text.
ALTER TABLE idtypes_sql_installation REPLICA IDENTITY FULL;
DELETE FROM idtypes_sql_installation WHERE timeid_clock_id IS NULL AND tbsl_machine_id IS NULL;
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- Sets this installation's identity (owner or superuser only: EXECUTE is revoked from PUBLIC, and the
-- write needs the table's owner). Give every installation on the server (every database, every schema)
-- its own pair; an argument left NULL keeps its current value. The table's one row is made by the first
-- call (under a lock that two first calls at once take in turn).
CREATE OR REPLACE FUNCTION idtypes_sql_set_identity(timeid_clock_id int, tbsl_machine_id int DEFAULT NULL) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	PERFORM pg_idtypes_sql_unbound.idtypes_sql_check_range('timeid_clock_id'::pg_catalog.text, timeid_clock_id::bigint, 0::bigint, 1023::bigint),
		pg_idtypes_sql_unbound.idtypes_sql_check_range('tbsl_machine_id'::pg_catalog.text, tbsl_machine_id::bigint, 0::bigint, 99::bigint);
	LOCK TABLE pg_idtypes_sql_unbound.idtypes_sql_installation IN SHARE ROW EXCLUSIVE MODE;
	UPDATE pg_idtypes_sql_unbound.idtypes_sql_installation i
		SET timeid_clock_id = COALESCE(idtypes_sql_set_identity.timeid_clock_id, i.timeid_clock_id),
			tbsl_machine_id = COALESCE(idtypes_sql_set_identity.tbsl_machine_id, i.tbsl_machine_id);
	IF NOT FOUND THEN
		INSERT INTO pg_idtypes_sql_unbound.idtypes_sql_installation (timeid_clock_id, tbsl_machine_id)
			VALUES (idtypes_sql_set_identity.timeid_clock_id, idtypes_sql_set_identity.tbsl_machine_id);
	END IF;
END $$;
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The native edition's bytes of the ID (its timeid::bytea): the 64-bit value, big-endian. (`id::bytea` is
-- the text's bytes here: a domain has no cast of its own.)
CREATE OR REPLACE FUNCTION timeid_to_bytea(id timeid) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(timeid_decode(id));
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The smallest / largest timeid at an instant (the instant truncated to the unit); outside the type's times: 22008.
-- PL/pgSQL of COST 1, so never inlined: a prefix or window computed from them (`id ^@ left(timeid_min(now())::text,
-- 6)`) stays an argument of a few operators, and PostgreSQL inlines the operators below (which use their
-- argument twice) only over an argument of at most ten.
CREATE OR REPLACE FUNCTION timeid_min(ts timestamptz) RETURNS timeid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.timeid_first_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 18014398509481983::bigint));
END $$;

CREATE OR REPLACE FUNCTION timeid_max(ts timestamptz) RETURNS timeid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.timeid_last_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 18014398509481983::bigint));
END $$;
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- `id ^@ prefix` with a varchar prefix (JDBC's setString sends one): a domain's operator is chosen only when
-- both argument types match it exactly, otherwise PostgreSQL prefers pg_catalog's text ^@ text over the
-- domain's base type, which neither drops a timeid's dashes, nor reads a scru160 prefix in lower case, nor
-- refuses symbols outside the alphabet. (An untyped prefix cannot be caught so: docs/sql-edition.md.)
CREATE OR REPLACE FUNCTION timeid_starts_with(id timeid, prefix varchar) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN timeid_starts_with(id, prefix::pg_catalog.text);

CREATE OPERATOR ^@ (LEFTARG = timeid, RIGHTARG = varchar, FUNCTION = timeid_starts_with);
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The native edition's bytes of the ID (its tbsl::bytea): the 10 bytes the hex digits spell.
CREATE OR REPLACE FUNCTION tbsl_to_bytea(id tbsl) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(id::pg_catalog.text, 'hex'::pg_catalog.text);
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The smallest / largest tbsl at an instant (the instant truncated to the unit); outside the type's times: 22008.
-- PL/pgSQL of COST 1, so never inlined: a prefix or window computed from them (`id ^@ left(tbsl_min(now())::text,
-- 6)`) stays an argument of a few operators, and PostgreSQL inlines the operators below (which use their
-- argument twice) only over an argument of at most ten.
CREATE OR REPLACE FUNCTION tbsl_min(ts timestamptz) RETURNS tbsl
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.tbsl_first_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, 0::bigint, 1::bigint, 9999999999999999::bigint));
END $$;

CREATE OR REPLACE FUNCTION tbsl_max(ts timestamptz) RETURNS tbsl
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.tbsl_last_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, 0::bigint, 1::bigint, 9999999999999999::bigint));
END $$;
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- `id ^@ prefix` with a varchar prefix (JDBC's setString sends one): a domain's operator is chosen only when
-- both argument types match it exactly, otherwise PostgreSQL prefers pg_catalog's text ^@ text over the
-- domain's base type, which neither drops a timeid's dashes, nor reads a scru160 prefix in lower case, nor
-- refuses symbols outside the alphabet. (An untyped prefix cannot be caught so: docs/sql-edition.md.)
CREATE OR REPLACE FUNCTION tbsl_starts_with(id tbsl, prefix varchar) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN tbsl_starts_with(id, prefix::pg_catalog.text);

CREATE OPERATOR ^@ (LEFTARG = tbsl, RIGHTARG = varchar, FUNCTION = tbsl_starts_with);
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The native edition's bytes of the ID (its uid11::bytea): the unsigned 64-bit value, big-endian (less 2^63
-- it fits a bigint; the top bit flipped back).
CREATE OR REPLACE FUNCTION uid11_to_bytea(id uid11) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(((uid11_decode(id) OPERATOR(pg_catalog.-) 9223372036854775808::numeric)::bigint)
	OPERATOR(pg_catalog.#) (-9223372036854775807::bigint OPERATOR(pg_catalog.-) 1::bigint));
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The smallest / largest uid11 at an instant (the instant truncated to the unit); outside the type's times: 22008.
-- PL/pgSQL of COST 1, so never inlined: a prefix or window computed from them (`id ^@ left(uid11_min(now())::text,
-- 6)`) stays an argument of a few operators, and PostgreSQL inlines the operators below (which use their
-- argument twice) only over an argument of at most ten.
CREATE OR REPLACE FUNCTION uid11_min(ts timestamptz) RETURNS uid11
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.uid11_first_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'uid11'::pg_catalog.text, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint));
END $$;

CREATE OR REPLACE FUNCTION uid11_max(ts timestamptz) RETURNS uid11
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.uid11_last_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'uid11'::pg_catalog.text, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint));
END $$;
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- `id ^@ prefix` with a varchar prefix (JDBC's setString sends one): a domain's operator is chosen only when
-- both argument types match it exactly, otherwise PostgreSQL prefers pg_catalog's text ^@ text over the
-- domain's base type, which neither drops a timeid's dashes, nor reads a scru160 prefix in lower case, nor
-- refuses symbols outside the alphabet. (An untyped prefix cannot be caught so: docs/sql-edition.md.)
CREATE OR REPLACE FUNCTION uid11_starts_with(id uid11, prefix varchar) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN uid11_starts_with(id, prefix::pg_catalog.text);

CREATE OPERATOR ^@ (LEFTARG = uid11, RIGHTARG = varchar, FUNCTION = uid11_starts_with);
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The native edition's bytes of the ID (its scru160::bytea): the 20 bytes of its 160 bits.
CREATE OR REPLACE FUNCTION scru160_to_bytea(id scru160) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(scru160_to_hex(id), 'hex'::pg_catalog.text);
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- The smallest / largest scru160 at an instant (the instant truncated to the unit); outside the type's times: 22008.
-- PL/pgSQL of COST 1, so never inlined: a prefix or window computed from them (`id ^@ left(scru160_min(now())::text,
-- 6)`) stays an argument of a few operators, and PostgreSQL inlines the operators below (which use their
-- argument twice) only over an argument of at most ten.
CREATE OR REPLACE FUNCTION scru160_min(ts timestamptz) RETURNS scru160
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.scru160_first_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'scru160'::pg_catalog.text, 0::bigint, 1000::bigint, 281474976710655::bigint));
END $$;

CREATE OR REPLACE FUNCTION scru160_max(ts timestamptz) RETURNS scru160
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN pg_idtypes_sql_unbound.scru160_last_of_unit(pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'scru160'::pg_catalog.text, 0::bigint, 1000::bigint, 281474976710655::bigint));
END $$;
-- [/1.1]
-- [1.1] (what the update script from 1.0 takes, from here to the closing mark)
-- `id ^@ prefix` with a varchar prefix (JDBC's setString sends one): a domain's operator is chosen only when
-- both argument types match it exactly, otherwise PostgreSQL prefers pg_catalog's text ^@ text over the
-- domain's base type, which neither drops a timeid's dashes, nor reads a scru160 prefix in lower case, nor
-- refuses symbols outside the alphabet. (An untyped prefix cannot be caught so: docs/sql-edition.md.)
CREATE OR REPLACE FUNCTION scru160_starts_with(id scru160, prefix varchar) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN scru160_starts_with(id, prefix::pg_catalog.text);

CREATE OPERATOR ^@ (LEFTARG = scru160, RIGHTARG = varchar, FUNCTION = scru160_starts_with);
-- [/1.1]
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
