
-- ==================================================================================== public forms of uuids
-- UUIDv7s in plain uuid columns (docs/public-ids.md): FF1 over the 122 bits that are neither version nor
-- variant, so the public form is a version-4-looking uuid. It has no room for the key's version:
-- uuid_from_public decodes with the newest version, uuid_from_public_candidates with every version the
-- keyring holds (newest first) for forms made before a rotation. The C symbols are uuid_v7_*, apart from
-- PostgreSQL's and libuuid's. The T_to_public / T_from_public of the four types are in public.type.sql.in.
CREATE FUNCTION uuid_to_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_to_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_public(uuid, text) IS 'the UUIDv7''s public form (a version 4 uuid) under the newest version of the named key of the keyring (idtypes.keyring)';
REVOKE EXECUTE ON FUNCTION uuid_to_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public(uuid, text) IS 'the UUIDv7 a public uuid stands for under the newest version of the named key; forms made before a rotation: uuid_from_public_candidates';
REVOKE EXECUTE ON FUNCTION uuid_from_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public_candidates(uuid, key text) RETURNS uuid[]
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public_candidates' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public_candidates(uuid, text) IS 'the UUIDv7s a public uuid stands for under each version of the named key in the keyring, newest first: WHERE id = ANY(...) finds the row';
REVOKE EXECUTE ON FUNCTION uuid_from_public_candidates(uuid, text) FROM PUBLIC;

-- The keyring as this session read it: names, versions, fingerprints (the first 8 bytes of a SHA-256 of
-- the key, to tell keys apart between servers), never a key byte.
CREATE FUNCTION idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text, OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION idtypes_keys() IS 'the keys of the keyring file (idtypes.keyring): name, version, fingerprint, whether it is the version that makes public forms; never key bytes';
REVOKE EXECUTE ON FUNCTION idtypes_keys() FROM PUBLIC;
