-- idtypes 1.1 -> 1.2. Every SQL object that 1.2 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.2 one.
-- A catalog file that 1.2 adds whole is appended by the Makefile (ADDS_1.1--1.2), as in the full script.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.2'" to load this file. \quit

-- An identity argument other than the server's own needs SET on the identity's parameter (issue 28).
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: the current microsecond or the server''s last one + 1, whichever is greater; clock id 0..1023 from the argument (another than the server''s own needs SET on idtypes.timeid_clock_id), else idtypes.timeid_clock_id, else random';
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond); machine id NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter';
COMMENT ON FUNCTION tbsl_generate_at(timestamptz, integer) IS 'tbsl carrying the given time (to the microsecond), the machine id (NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter) and a random suffix, for loading history; a duplicate is likely among ~1200 rows sharing a microsecond and machine id';
-- The server's identity (src/pg/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity.
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), and the high-water mark on disk (NULL before any)';

-- ==================================================================================== uuid generator
-- UUIDv7s for plain uuid columns on every version (PostgreSQL 18's uuidv7() is monotonic only inside one
-- backend): laid out as uuidv7() lays them out (48-bit Unix milliseconds, a 12-bit fraction of the
-- millisecond, 62 random bits), so they sort by time exactly as core's do and uuid_v7_timestamp,
-- uuid_extract_timestamp (18), <@ and ^@ read them. Never named uuidv7: no clash with core's function.
-- The state is server-wide only (shared memory and the high-water mark), nothing per session: PARALLEL SAFE.
CREATE FUNCTION uuid_v7_generate(shift interval DEFAULT NULL) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_generate(interval) IS 'new UUIDv7 (PostgreSQL 18''s layout), greater than every one issued before in the server, across restarts; its time shifted by the interval, if given';

-- For loading history: no generator state, so uuids sharing a microsecond are told apart by their 62 random
-- bits only (README: Backfill generators).
CREATE FUNCTION uuid_v7_generate_at(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_generate_at(timestamptz) IS 'UUIDv7 carrying the given time (to the microsecond, as a 1/4096 fraction of its millisecond) and 62 random bits, for loading history';
