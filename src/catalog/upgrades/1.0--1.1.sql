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
