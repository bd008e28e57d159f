
-- ============================================================================================= uuid
-- Time questions on plain uuid columns holding UUIDv7 (PostgreSQL 18's uuidv7(), pg_uuidv7, clients) or
-- ULIDs stored as uuid: both begin with 48 bits of Unix milliseconds, so the uuids of a time window or of a
-- hex prefix form one range of uuid's own order. As for the extension's types, the operators' support
-- functions rewrite `id <@ r` and `id ^@ p` into `id >= lo AND id <= hi` with uuid's btree operators, so a
-- plain btree index on the column answers them; the _lo/_hi helpers compute the bounds at run time when the
-- argument is not a constant.

CREATE FUNCTION uuid_v7_timestamp(uuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_v7_min(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_v7_max(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_timestamp(uuid) IS 'the first 48 bits of the uuid as Unix milliseconds: the creation time of a UUIDv7 or a ULID';
COMMENT ON FUNCTION uuid_v7_min(timestamptz) IS 'smallest uuid whose first 48 bits are the instant''s millisecond (the other 80 bits zero)';
COMMENT ON FUNCTION uuid_v7_max(timestamptz) IS 'largest uuid whose first 48 bits are the instant''s millisecond (the other 80 bits one)';

CREATE FUNCTION uuid_prefix_lo(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_lo' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_hi(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_hi' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_prefix_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'uuid_v7_prefix_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_starts_with(uuid, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'uuid_v7_starts_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uuid_prefix_support;
CREATE OPERATOR ^@ (LEFTARG = uuid, RIGHTARG = text, FUNCTION = uuid_starts_with, RESTRICT = uuid_prefix_sel);
COMMENT ON FUNCTION uuid_prefix_lo(text) IS 'smallest uuid whose hex digits start with the prefix (dashes ignored)';
COMMENT ON FUNCTION uuid_prefix_hi(text) IS 'largest uuid whose hex digits start with the prefix (dashes ignored)';
COMMENT ON FUNCTION uuid_prefix_support(internal) IS 'planner support of uuid ^@ text: rewrites it into an index range';
COMMENT ON FUNCTION uuid_prefix_sel(internal, oid, internal, integer) IS 'row estimate of uuid ^@ text';
COMMENT ON FUNCTION uuid_starts_with(uuid, text) IS 'the uuid''s 32 hex digits start with the prefix (either case, dashes ignored)';
COMMENT ON OPERATOR ^@ (uuid, text) IS 'the uuid''s 32 hex digits start with the prefix (either case, dashes ignored)';

CREATE FUNCTION uuid_window_lo(tstzrange) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_window_lo' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_hi(tstzrange) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_window_hi' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'uuid_v7_window_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_window_sel(internal, oid, internal, integer) RETURNS double precision
	AS 'MODULE_PATHNAME', 'uuid_v7_window_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_in_window(uuid, tstzrange) RETURNS boolean
	AS 'MODULE_PATHNAME', 'uuid_v7_in_window' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE SUPPORT uuid_window_support;
CREATE OPERATOR <@ (LEFTARG = uuid, RIGHTARG = tstzrange, FUNCTION = uuid_in_window, RESTRICT = uuid_window_sel);
COMMENT ON FUNCTION uuid_window_lo(tstzrange) IS 'smallest uuid whose millisecond (first 48 bits) lies in the range';
COMMENT ON FUNCTION uuid_window_hi(tstzrange) IS 'largest uuid whose millisecond (first 48 bits) lies in the range';
COMMENT ON FUNCTION uuid_window_support(internal) IS 'planner support of uuid <@ tstzrange: rewrites it into an index range';
COMMENT ON FUNCTION uuid_window_sel(internal, oid, internal, integer) IS 'row estimate of uuid <@ tstzrange';
COMMENT ON FUNCTION uuid_in_window(uuid, tstzrange) IS 'the uuid''s time (uuid_v7_timestamp) lies in the range';
COMMENT ON OPERATOR <@ (uuid, tstzrange) IS 'the uuid''s time (its first 48 bits as Unix milliseconds) lies in the range';

-- ULID text for uuid columns that hold ULIDs (issue 60): Crockford's base32 as the ULID spec writes it.
CREATE FUNCTION uuid_from_ulid(text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_from_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_to_ulid(uuid) RETURNS text
	AS 'MODULE_PATHNAME', 'uuid_v7_to_ulid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_ulid(text) IS 'the uuid of a ULID''s text: 26 characters of Crockford''s base32, either case, the first 0-7';
COMMENT ON FUNCTION uuid_to_ulid(uuid) IS 'the uuid''s 128 bits as a ULID''s text: 26 characters of Crockford''s base32, upper case';
