-- idtypes 1.0 -> 1.1. Every SQL object that 1.1 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.1 one.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.1'" to load this file. \quit

-- scru160's binary input and bytea cast have entry points of their own, like tbsl's (the fixed-length
-- shape no longer exports unvalidated ones; the library keeps 1.0's names for databases not yet updated).
CREATE OR REPLACE FUNCTION scru160_recv(internal, oid, integer) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bytea_to_scru160(bytea) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ---------------------------------------------------------------------------------- backfill generators

-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond are told
-- apart only by the 10 random bits of their clock id (README: Backfill generators).
CREATE FUNCTION timeid_generate_at(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_generate_at(timestamptz) IS 'timeid carrying the given time (to the microsecond) and a random clock id, for loading history; a duplicate is likely among ~38 rows sharing a microsecond';

-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond and a
-- machine id are told apart only by their 20-bit random suffix (README: Backfill generators).
CREATE FUNCTION tbsl_generate_at(timestamptz, machine_id integer DEFAULT NULL) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_generate_at(timestamptz, integer) IS 'tbsl carrying the given time (to the microsecond), the machine id (NULL: idtypes.tbsl_machine_id) and a random suffix, for loading history; a duplicate is likely among ~1200 rows sharing a microsecond and machine id';

-- For loading history: no generator state (the times are past ones), so IDs sharing a millisecond are
-- told apart only by their 22 random bits (README: Backfill generators).
CREATE FUNCTION uid11_generate_at(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_generate_at(timestamptz) IS 'xid-profile uid11 carrying the given time (to the millisecond) and 22 random bits, for loading history; a duplicate is likely among ~2400 rows sharing a millisecond';

-- For loading history: no generator state (the times are past ones); IDs sharing a millisecond are told
-- apart by 111 random bits (counter seed, random16, random80), as the first ID of a millisecond is.
CREATE FUNCTION scru160_generate_at(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_generate_at(timestamptz) IS 'scru160 carrying the given time (to the millisecond), a 15-bit random counter and random16/random80, for loading history';

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
