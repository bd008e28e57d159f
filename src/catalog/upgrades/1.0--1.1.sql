-- idtypes 1.0 -> 1.1. Every SQL object that 1.1 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.1 one.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.1'" to load this file. \quit

-- scru160's binary input and bytea cast have entry points of their own, like tbsl's (the fixed-length
-- shape no longer exports unvalidated ones; the library keeps 1.0's names for databases not yet updated).
CREATE OR REPLACE FUNCTION scru160_recv(internal, oid, integer) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION bytea_to_scru160(bytea) RETURNS scru160
	AS 'MODULE_PATHNAME', 'scru160_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Every object documented (COMMENT ON) for \df+, \do+, \dT+: the comments 1.0 lacked or that changed.
COMMENT ON FUNCTION idtypes_generator_mode() IS 'where the server''s one generator state lives: shared (preloaded), shared (allocated at first use) or shared (named DSM segment)';
COMMENT ON TYPE timeid IS 'TID (atproto timestamp identifier): 53-bit Unix microseconds and a 10-bit clock id in 8 bytes; text: 13 base32-sortable symbols';
COMMENT ON FUNCTION timeid_in(cstring) IS 'text input of timeid: exactly 13 symbols of 234567abcdefghijklmnopqrstuvwxyz, the first one 2..j; else error 22P02';
COMMENT ON FUNCTION timeid_out(timeid) IS 'text output of timeid: its 13 base32-sortable symbols';
COMMENT ON FUNCTION timeid_to_bigint(timeid) IS 'the 64-bit value of the timeid (the cast timeid::bigint); top bit set (first symbol c..j): error 22003';
COMMENT ON FUNCTION bigint_to_timeid(bigint) IS 'timeid with that 64-bit value (the cast bigint::timeid); negative: error 22003';
COMMENT ON CAST (timeid AS bigint) IS 'the 64-bit value of the timeid; top bit set (first symbol c..j): error 22003';
COMMENT ON CAST (bigint AS timeid) IS 'timeid with that 64-bit value; negative: error 22003';
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: the current microsecond or the server''s last one + 1, whichever is greater; clock id 0..1023 from the argument, else idtypes.timeid_clock_id, else random';
COMMENT ON TYPE tbsl IS 'TBSL (Infocyph\UID): Unix seconds, microseconds, machine id 00..99 and a 20-bit suffix in 10 bytes; text: 20 uppercase hex';
COMMENT ON FUNCTION tbsl_in(cstring) IS 'text input of tbsl: exactly 20 uppercase hex digits whose first 15 are at most 999999999999999999; else error 22P02';
COMMENT ON FUNCTION tbsl_out(tbsl) IS 'text output of tbsl: its 20 uppercase hex digits';
COMMENT ON FUNCTION tbsl_to_numeric(tbsl) IS 'the 80-bit unsigned value of the tbsl (the cast tbsl::numeric)';
COMMENT ON FUNCTION numeric_to_tbsl(numeric) IS 'tbsl with that 80-bit unsigned value (the cast numeric::tbsl); a fraction, negative, 2^80 or more, or an invalid payload: error 22003';
COMMENT ON CAST (tbsl AS numeric) IS 'the 80-bit unsigned value of the tbsl';
COMMENT ON CAST (numeric AS tbsl) IS 'tbsl with that 80-bit unsigned value; a fraction, negative, 2^80 or more, or an invalid payload: error 22003';
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond); machine id NULL: idtypes.tbsl_machine_id';
COMMENT ON TYPE uid11 IS 'uid11: 64 bits, whose time is read as the xid profile (42 bits of milliseconds since 2011-11-11T11:11:11.111Z, 22 random bits); text: 11 Base58 symbols';
COMMENT ON FUNCTION uid11_in(cstring) IS 'text input of uid11: exactly 11 Base58 (Bitcoin alphabet) symbols of value at most 2^64-1; else error 22P02';
COMMENT ON FUNCTION uid11_out(uid11) IS 'text output of uid11: 11 Base58 symbols, left-padded with 1';
COMMENT ON FUNCTION uid11_generate_random() IS 'new uid11, fullrand profile: 64 bits that look random (a keyed permutation of a server-wide counter), never repeated inside one server';
COMMENT ON FUNCTION uid11_to_numeric(uid11) IS 'the 64-bit unsigned value of the uid11 (the cast uid11::numeric)';
COMMENT ON FUNCTION numeric_to_uid11(numeric) IS 'uid11 with that 64-bit unsigned value (the cast numeric::uid11); a fraction, negative or above 2^64-1: error 22003';
COMMENT ON CAST (uid11 AS numeric) IS 'the 64-bit unsigned value of the uid11';
COMMENT ON CAST (numeric AS uid11) IS 'uid11 with that 64-bit unsigned value; a fraction, negative or above 2^64-1: error 22003';
COMMENT ON TYPE scru160 IS 'SCRU160 v0.1.0: 48-bit Unix milliseconds, a 16-bit counter and 96 random bits in 20 bytes; text: 32 base32hex';
COMMENT ON FUNCTION scru160_in(cstring) IS 'text input of scru160: 32 base32hex or 40 hex digits, either case; else error 22P02';
COMMENT ON FUNCTION scru160_out(scru160) IS 'text output of scru160: 32 uppercase base32hex digits (scru160_to_hex gives hex)';

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

-- Time questions on uuid columns (src/catalog/uuid.sql) and idtypes_maintain_partitions (time partitions:
-- src/catalog/partitions.sql): the Makefile appends both files to this script (ADDS_1.0--1.1) as it does to
-- the full script, so that both carry the same text.
