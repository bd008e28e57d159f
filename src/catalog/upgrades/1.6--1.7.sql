-- idtypes 1.6 -> 1.7. Every SQL object that 1.7 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.7 one.
-- A catalog file that 1.7 adds whole is appended by the Makefile (ADDS_1.6--1.7), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.7'" to load this file. \quit

-- ==================================================================== issue 65: upgrades that no session feels
-- idtypes_keys() keeps 1.6's five columns (CREATE OR REPLACE: its grants, comment and dependent views stay) on
-- 1.7's C symbol, which the libraries of 1.5 and 1.6 lack: a session still on one of them gets "could not find
-- function" instead of reading rows in a shape its code did not fill. 1.7's library still exports the old
-- symbol, for catalogs at 1.5 (four columns) and 1.6 (five).
CREATE OR REPLACE FUNCTION @extschema@.idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text,
                                                    OUT stage text, OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'idtypes_keys_1_7' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 4;
-- ---- end of issue 65 ------------------------------------------------------------------------------------------

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
