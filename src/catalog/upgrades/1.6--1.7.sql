-- idtypes 1.6 -> 1.7. Every SQL object that 1.7 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.7 one.
-- A catalog file that 1.7 adds whole is appended by the Makefile (ADDS_1.6--1.7), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.7'" to load this file. \quit

-- ---- the keyring (issue 64) ------------------------------------------------------------------------------
-- The public forms PARALLEL SAFE again: a parallel worker converts with the keyring generation its leader took.
ALTER FUNCTION @extschema@.timeid_to_public(@extschema@.timeid, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.timeid_from_public(text, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.uid11_to_public(@extschema@.uid11, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.uid11_from_public(text, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.tbsl_to_public(@extschema@.tbsl, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.tbsl_from_public(text, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.scru160_to_public(@extschema@.scru160, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.scru160_from_public(text, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.uuid_to_public(uuid, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.uuid_from_public(uuid, text) PARALLEL SAFE;
ALTER FUNCTION @extschema@.uuid_from_public_candidates(uuid, text) PARALLEL SAFE;

-- The keyring's state (docs/operations.md#the-keyring): whether idtypes is preloaded, the worker "idtypes
-- keyring" (its pid when running), the generation new transactions take, whether it is usable, its versions,
-- when it was read, the file, and the last reading refused (file and refusal shown to superusers and
-- pg_read_all_settings members only). Never a key byte. pg_monitor may call it.
CREATE FUNCTION idtypes_keyring_status(OUT preloaded boolean, OUT worker_pid integer,
                                       OUT worker_started timestamptz, OUT generation bigint, OUT usable boolean,
                                       OUT versions integer, OUT loaded_at timestamptz, OUT file text,
                                       OUT refused_at timestamptz, OUT last_refusal text)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION idtypes_keyring_status() IS 'the keyring of the public forms: its worker, the generation in use, when it was read, the last refusal; never key bytes';
REVOKE EXECUTE ON FUNCTION idtypes_keyring_status() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION idtypes_keyring_status() TO pg_monitor;
