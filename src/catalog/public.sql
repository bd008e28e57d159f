
-- ==================================================================================== public forms of uuids
-- UUIDv7s in plain uuid columns (docs/public-ids.md): FF1 over the 122 bits that are neither version nor
-- variant, so the public form is a version-4-looking uuid. It has no room for the key's version:
-- uuid_from_public decodes when the keyring holds one version of the key and refuses, naming them, when it
-- holds several; uuid_from_public_candidates decodes with every version (newest first), the lookup that stays
-- right across a rotation. PARALLEL SAFE: a parallel worker converts with the keyring generation its leader
-- took (src/pg/public/keyring.hpp), so a statement uses one keyring. The C symbols are uuid_v7_*, apart from
-- PostgreSQL's and libuuid's. The T_to_public / T_from_public of the four types are in public.type.sql.in.
CREATE FUNCTION uuid_to_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_to_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_public(uuid, text) IS 'the UUIDv7''s public form (a version 4 uuid) under the newest version of the named key of the keyring (idtypes.keyring)';
REVOKE EXECUTE ON FUNCTION uuid_to_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public(uuid, text) IS 'the UUIDv7 a public uuid stands for under the one version of the named key in the keyring (refused when it holds several: uuid_from_public_candidates)';
REVOKE EXECUTE ON FUNCTION uuid_from_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public_candidates(uuid, key text) RETURNS uuid[]
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public_candidates' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public_candidates(uuid, text) IS 'the UUIDv7s a public uuid stands for under each version of the named key in the keyring, newest first: WHERE id = ANY(...) finds the row';
REVOKE EXECUTE ON FUNCTION uuid_from_public_candidates(uuid, text) FROM PUBLIC;

-- The keyring as the server read it at its last reload, the keys the caller may use (its scope): names, versions,
-- fingerprints (the first 8 bytes of a SHA-256 of the key, to tell keys apart between servers), stages, never a
-- key byte. Its C symbol is 1.7's (1.6's five columns): a session still on the library of 1.5 or 1.6, which
-- has no such symbol, gets "could not find function" (never a shape its code did not fill; issue 65).
CREATE FUNCTION idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text, OUT stage text,
                             OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'idtypes_keys_1_7' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 4;
COMMENT ON FUNCTION idtypes_keys() IS 'the keys of the keyring that the caller may use: name, version, fingerprint, stage (active or decrypt), whether it is the version that makes public forms; never key bytes';
REVOKE EXECUTE ON FUNCTION idtypes_keys() FROM PUBLIC;

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
