-- idtypes 1.5 -> 1.6. Every SQL object that 1.6 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.6 one.
-- A catalog file that 1.6 adds whole is appended by the Makefile (ADDS_1.5--1.6), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.6'" to load this file. \quit

-- ---- issue 60: ULID text for uuid columns (uuid_from_ulid, uuid_to_ulid) --------------------------------
CREATE FUNCTION uuid_from_ulid(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_from_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_to_ulid(uuid) RETURNS text
	AS 'MODULE_PATHNAME', 'uuid_v7_to_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_ulid(text) IS 'the uuid of a ULID''s text: 26 characters of Crockford''s base32, either case, the first 0-7';
COMMENT ON FUNCTION uuid_to_ulid(uuid) IS 'the uuid''s 128 bits as a ULID''s text: 26 characters of Crockford''s base32, upper case';
-- ---- end of issue 60 ----------------------------------------------------------------------------------

-- ---- issue 56: the public forms' keyring (stages, scopes, one keyring per statement) ----------------------
-- PARALLEL RESTRICTED: a session takes the keyring once per transaction; a parallel worker would take its own.
ALTER FUNCTION @extschema@.timeid_to_public(@extschema@.timeid, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.timeid_from_public(text, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uid11_to_public(@extschema@.uid11, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uid11_from_public(text, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.tbsl_to_public(@extschema@.tbsl, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.tbsl_from_public(text, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.scru160_to_public(@extschema@.scru160, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.scru160_from_public(text, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuid_to_public(uuid, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuid_from_public(uuid, text) PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.uuid_from_public_candidates(uuid, text) PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.uuid_from_public(uuid, text) IS 'the UUIDv7 a public uuid stands for under the one version of the named key in the keyring (refused when it holds several: uuid_from_public_candidates)';
-- idtypes_keys() gains its stage column (OUT parameters change: dropped and made again, EXECUTE revoked again).
-- Amended in 1.7 (issue 65): what users attached to 1.5's function is kept, or the update refuses before it
-- changes anything. An object depending on it (a view, a SQL function's body) was built on four columns: made
-- again from its stored text, its column alias list would bind `current` to the new fourth column, `stage`;
-- so it is named, for its owner to drop and create again. Grants of EXECUTE are given again, kept out of
-- the extension's initial privileges (pg_dump dumps them, as any grant of a user's); a comment of the user's
-- own (not 1.5's) is kept; so is the owner.
DO $refuse$
DECLARE
	dependents text;
BEGIN
	SELECT pg_catalog.string_agg(CASE WHEN d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass::pg_catalog.oid
	                                  THEN (SELECT pg_catalog.concat('view ', r.ev_class::pg_catalog.regclass)
	                                        FROM pg_catalog.pg_rewrite r WHERE r.oid OPERATOR(pg_catalog.=) d.objid)
	                                  ELSE pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid) END, ', ')
	INTO dependents
	FROM pg_catalog.pg_depend d
	WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
	  AND d.refobjid OPERATOR(pg_catalog.=) '@extschema@.idtypes_keys()'::pg_catalog.regprocedure::pg_catalog.oid
	  AND d.deptype OPERATOR(pg_catalog.=) 'n'::pg_catalog.char;
	IF dependents IS NOT NULL THEN
		RAISE EXCEPTION 'idtypes 1.6 changes the columns of idtypes_keys(), which % depends on', dependents
			USING ERRCODE = 'dependent_objects_still_exist',
			DETAIL = '1.6 adds a column, stage, before current: name, version, fingerprint, stage, current. '
			         'Made again from its definition, an object built on 1.5''s four columns would read stage as current.',
			HINT = 'Nothing was changed. Keep each one''s definition (\d+ in psql, or pg_get_viewdef), drop it, run '
			       'ALTER EXTENSION idtypes UPDATE again, then create it again on the new columns.';
	END IF;
	-- what 1.5's function had, for after it is made again (a setting of this transaction: no object is
	-- created, which the extension would own)
	PERFORM pg_catalog.set_config('idtypes_update.keys_1_5', pg_catalog.json_build_object(
		'owner', p.proowner, 'acl', p.proacl::text, 'note', pg_catalog.obj_description(p.oid, 'pg_proc'))::text, true)
	FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) '@extschema@.idtypes_keys()'::pg_catalog.regprocedure::pg_catalog.oid;
END
$refuse$;
-- Made on 1.7's C symbol, which 1.5's library lacks: a session still on it, in a database updated to 1.6 (not
-- past it), gets "could not find function" where its code for the symbol idtypes_keys would fill four columns
-- of five (a crash). 1.6's own library lacks it too (42883 there as well, never a crash).
DROP FUNCTION @extschema@.idtypes_keys();
CREATE FUNCTION @extschema@.idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text, OUT stage text,
                             OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'idtypes_keys_1_7' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 4;
COMMENT ON FUNCTION @extschema@.idtypes_keys() IS 'the keys of the keyring that the caller may use: name, version, fingerprint, stage (active or decrypt), whether it is the version that makes public forms; never key bytes';
REVOKE EXECUTE ON FUNCTION @extschema@.idtypes_keys() FROM PUBLIC;
DO $keep$
DECLARE
	f pg_catalog.oid := '@extschema@.idtypes_keys()'::pg_catalog.regprocedure::pg_catalog.oid;
	old pg_catalog.json := pg_catalog.current_setting('idtypes_update.keys_1_5')::pg_catalog.json;
	owner pg_catalog.oid := pg_catalog.json_extract_path_text(old, 'owner')::pg_catalog.oid;
	acl pg_catalog.aclitem[] := pg_catalog.json_extract_path_text(old, 'acl')::pg_catalog.aclitem[];
	note text := pg_catalog.json_extract_path_text(old, 'note');
	initial pg_catalog.aclitem[];
	g record;
BEGIN
	IF note IS NULL OR note OPERATOR(pg_catalog.<>) 'the keys of the keyring file (idtypes.keyring): name, version, fingerprint, whether it is the version that makes public forms; never key bytes' THEN
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f::pg_catalog.regprocedure, note);
	END IF;
	IF owner OPERATOR(pg_catalog.<>) (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f) THEN
		EXECUTE pg_catalog.format('ALTER FUNCTION %s OWNER TO %s', f::pg_catalog.regprocedure, owner::pg_catalog.regrole);
	END IF;
	SELECT p.proacl INTO initial FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f;
	FOR g IN SELECT a.grantee, a.is_grantable FROM pg_catalog.aclexplode(acl) a
	         WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text AND a.grantee OPERATOR(pg_catalog.<>) owner LOOP
		EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s%s', f::pg_catalog.regprocedure,
		        CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC' ELSE g.grantee::pg_catalog.regrole::text END,
		        CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
	END LOOP;
	UPDATE pg_catalog.pg_init_privs SET initprivs = initial
	WHERE objoid OPERATOR(pg_catalog.=) f AND classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
	  AND objsubid OPERATOR(pg_catalog.=) 0 AND initial IS NOT NULL;
END
$keep$;
-- ---- end of issue 56 ----------------------------------------------------------------------------------------

-- ==================================================================================== issue 55: parallel labels
-- uuid_v7_generate may write the mark (WAL, and waits for the synchronous standbys), like every generator
-- with state: PARALLEL RESTRICTED, so the leader of a parallel plan runs it.
ALTER FUNCTION @extschema@.uuid_v7_generate(interval) PARALLEL RESTRICTED;
