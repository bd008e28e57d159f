-- idtypes 1.3 -> 1.4. Every SQL object that 1.4 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.4 one.
-- A catalog file that 1.4 adds whole is appended by the Makefile (ADDS_1.3--1.4), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.4'" to load this file. \quit

-- 1.3's replicated mark, the table idtypes_high_water in the extension's schema, goes into this database's
-- carrier (idtypes_internal.high_water, below), then the table goes. As shipped with 1.5 this script no
-- longer creates or advances the replication origin idtypes_high_water from one database's table: the
-- library alone makes the origin, from every database's carrier, so an update run before the first ID after
-- pg_upgrade cannot hide the other databases' marks (1.4's script did). A row implausibly far ahead of the
-- clock (1.3's table could be written with ordinary grants) is not followed. Every operator is qualified and
-- every call exact: this runs as a superuser with the extension's schema, which another role may own, on the
-- search_path.

-- idtypes_identity() gains the primary's identity as seen by a standby (src/catalog/identity.sql, appended
-- below): its OUT columns change, so it is made again.
-- Amended in 1.7 (issue 65): what users attached to idtypes_identity(), which this step makes again, is kept
-- (without this, a user's REVOKE EXECUTE ... FROM PUBLIC was undone: every role could call it again). Its
-- owner, grants, revokes and a comment of the user's, for after it is made again (a setting of this
-- transaction: no object is created, which the extension would own).
SELECT pg_catalog.set_config('idtypes_update.identity', pg_catalog.json_build_object(
	'owner', p.proowner, 'acl', p.proacl::text, 'note', pg_catalog.obj_description(p.oid, 'pg_proc'))::text, true)
FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) '@extschema@.idtypes_identity()'::pg_catalog.regprocedure::pg_catalog.oid;
DROP FUNCTION idtypes_identity();
-- The server's identity (src/pg/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity; on a standby, also the identity its primary generates with (replicated), which
-- the standby refuses to generate with.
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz,
                                 OUT primary_timeid_clock_id integer, OUT primary_tbsl_machine_id integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), the high-water mark on disk (NULL before any), and on a standby its primary''s clock id and machine id (NULL elsewhere)';
-- Amended in 1.7 (issue 65): idtypes_identity() made again with what the user had attached to the one dropped
-- above: its owner, its ACL (grants given again; EXECUTE revoked from PUBLIC again where the user had revoked
-- it; a NULL ACL is the default, as made again), a comment of the user's own. The initial privileges stay the
-- extension's own (none), so that pg_dump dumps the user's grants and revokes as it does any user's.
DO $keep$
DECLARE
	f pg_catalog.oid := '@extschema@.idtypes_identity()'::pg_catalog.regprocedure::pg_catalog.oid;
	old pg_catalog.json := pg_catalog.current_setting('idtypes_update.identity')::pg_catalog.json;
	owner pg_catalog.oid := pg_catalog.json_extract_path_text(old, 'owner')::pg_catalog.oid;
	acl pg_catalog.aclitem[] := pg_catalog.json_extract_path_text(old, 'acl')::pg_catalog.aclitem[];
	note text := pg_catalog.json_extract_path_text(old, 'note');
	g record;
BEGIN
	IF note IS NULL OR note OPERATOR(pg_catalog.<>) 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), and the high-water mark on disk (NULL before any)' THEN
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f::pg_catalog.regprocedure, note);
	END IF;
	IF owner OPERATOR(pg_catalog.<>) (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f) THEN
		EXECUTE pg_catalog.format('ALTER FUNCTION %s OWNER TO %s', f::pg_catalog.regprocedure, owner::pg_catalog.regrole);
	END IF;
	IF acl IS NOT NULL THEN
		IF NOT EXISTS (SELECT FROM pg_catalog.aclexplode(acl) a
		               WHERE a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text) THEN
			EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f::pg_catalog.regprocedure);
		END IF;
		FOR g IN SELECT a.grantee, a.is_grantable FROM pg_catalog.aclexplode(acl) a
		         WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text AND a.grantee OPERATOR(pg_catalog.<>) owner
		           AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid LOOP
			EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s%s', f::pg_catalog.regprocedure, g.grantee::pg_catalog.regrole,
			        CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
		END LOOP;
		IF EXISTS (SELECT FROM pg_catalog.aclexplode(acl) a
		           WHERE a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text AND a.is_grantable) THEN
			EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO PUBLIC WITH GRANT OPTION', f::pg_catalog.regprocedure);
		END IF;
	END IF;
	DELETE FROM pg_catalog.pg_init_privs
	WHERE objoid OPERATOR(pg_catalog.=) f AND classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
	  AND objsubid OPERATOR(pg_catalog.=) 0;
END
$keep$;

-- The replicated high-water mark, the replication origin idtypes_high_water, is the library's (as shipped
-- with 1.5, no script creates it).

-- What carries the mark across pg_upgrade (src/pg/carrier.cpp), which carries no origin: a one-row
-- materialized view in a schema of the extension's own, outside the application's schemas. Generators
-- write the server's mark into it in place (generic WAL); after pg_upgrade the origin is rebuilt from
-- every database's carrier before any ID is issued. Its query gives the server's mark when it is created
-- or refreshed. No DML, TRUNCATE or LOCK TABLE applies to a materialized view, and no privilege on it but
-- its owner's is left, whatever default privileges gave it.
CREATE SCHEMA idtypes_internal;
COMMENT ON SCHEMA idtypes_internal IS 'idtypes'' own objects, kept out of the application''s schemas: the carrier of the high-water mark';
-- (as shipped with 1.5: the carrier holds 1.3's mark as a constant, read before the table goes)
DO $$
BEGIN
	EXECUTE pg_catalog.format('CREATE MATERIALIZED VIEW idtypes_internal.high_water AS SELECT %s::bigint AS mark, 0::bigint AS writer',
	    (SELECT COALESCE(pg_catalog.max(mark), 0) FROM idtypes_high_water
	     WHERE mark OPERATOR(pg_catalog.<=) ((pg_catalog.date_part('epoch', pg_catalog.clock_timestamp())
	                                        OPERATOR(pg_catalog.*) 1000000::float8)::bigint OPERATOR(pg_catalog.+) 86400000000::bigint)));
END
$$;
DROP TABLE idtypes_high_water;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'the generators'' high-water mark (Unix microseconds), carried across pg_upgrade; written only by the generators';
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT DISTINCT k.kind, a.grantee
		FROM (SELECT 'SCHEMA' AS kind, nspacl AS acl, nspowner AS owner FROM pg_catalog.pg_namespace
		      WHERE nspname OPERATOR(pg_catalog.=) 'idtypes_internal'::pg_catalog.name
		      UNION ALL
		      SELECT 'TABLE', relacl, relowner FROM pg_catalog.pg_class
		      WHERE oid OPERATOR(pg_catalog.=) 'idtypes_internal.high_water'::pg_catalog.regclass::pg_catalog.oid) AS k,
		     pg_catalog.aclexplode(k.acl) AS a
		WHERE a.grantee OPERATOR(pg_catalog.<>) k.owner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON %s %s FROM %s', g.kind,
		                          CASE g.kind WHEN 'SCHEMA' THEN 'idtypes_internal' ELSE 'idtypes_internal.high_water' END,
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
		                               ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END);
	END LOOP;
END
$$;

-- ==================================================================================== text or NULL
-- (instantiated for every format: timeid is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION timeid_or_null(text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_or_null(text) IS 'the timeid the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: uid11 is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION uid11_or_null(text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_or_null(text) IS 'the uid11 the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: tbsl is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION tbsl_or_null(text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_or_null(text) IS 'the tbsl the text is (as its input function reads it), or NULL if it is not one; never raises';

-- ==================================================================================== text or NULL
-- (instantiated for every format: scru160 is its name)
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION scru160_or_null(text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_or_null(text) IS 'the scru160 the text is (as its input function reads it), or NULL if it is not one; never raises';
