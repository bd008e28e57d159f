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
DROP FUNCTION @extschema@.idtypes_keys();
CREATE FUNCTION @extschema@.idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text, OUT stage text,
                             OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 4;
COMMENT ON FUNCTION @extschema@.idtypes_keys() IS 'the keys of the keyring that the caller may use: name, version, fingerprint, stage (active or decrypt), whether it is the version that makes public forms; never key bytes';
REVOKE EXECUTE ON FUNCTION @extschema@.idtypes_keys() FROM PUBLIC;
-- ---- end of issue 56 ----------------------------------------------------------------------------------------

-- ==================================================================================== issue 55: parallel labels
-- uuid_v7_generate may write the mark (WAL, and waits for the synchronous standbys), like every generator
-- with state: PARALLEL RESTRICTED, so the leader of a parallel plan runs it.
ALTER FUNCTION @extschema@.uuid_v7_generate(interval) PARALLEL RESTRICTED;
