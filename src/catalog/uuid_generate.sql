
-- ==================================================================================== uuid generator
-- UUIDv7s for plain uuid columns on every version (PostgreSQL 18's uuidv7() is monotonic only inside one
-- backend): laid out as uuidv7() lays them out (48-bit Unix milliseconds, a 12-bit fraction of the
-- millisecond, 62 random bits), so they sort by time exactly as core's do and uuid_v7_timestamp,
-- uuid_extract_timestamp (18), <@ and ^@ read them. Never named uuidv7: no clash with core's function.
-- It may write the mark (WAL, and waits for the synchronous standbys), like every generator with state:
-- PARALLEL RESTRICTED since 1.6, so the leader runs it (in parallel mode, which the generators support).
CREATE FUNCTION uuid_v7_generate(shift interval DEFAULT NULL) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION uuid_v7_generate(interval) IS 'new UUIDv7 (PostgreSQL 18''s layout), greater than every one issued before in the server, across restarts; its time shifted by the interval, if given';

-- For loading history: no generator state, so uuids sharing a microsecond are told apart by their 62 random
-- bits only (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION uuid_v7_generate_at(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_generate_at(timestamptz) IS 'UUIDv7 carrying the given time (to the microsecond, as a 1/4096 fraction of its millisecond) and 62 random bits, for loading history';
