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
