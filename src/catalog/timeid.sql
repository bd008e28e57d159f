
-- ---------------------------------------------------------------------------------- timeid specifics

COMMENT ON TYPE timeid IS 'TID (atproto timestamp identifier): 53-bit Unix microseconds and a 10-bit clock id in 8 bytes; text: 13 base32-sortable symbols';
COMMENT ON FUNCTION timeid_in(cstring) IS 'text input of timeid: exactly 13 symbols of 234567abcdefghijklmnopqrstuvwxyz, the first one 2..j; else error 22P02';
COMMENT ON FUNCTION timeid_out(timeid) IS 'text output of timeid: its 13 base32-sortable symbols';

CREATE FUNCTION make_timeid(micros bigint, clock_id integer) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_micros(timeid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_clock_id(timeid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION timeid_to_dashed(timeid) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_timeid(bigint, integer) IS 'timeid from Unix microseconds (0..2^53-1) and a clock id (0..1023)';
COMMENT ON FUNCTION timeid_micros(timeid) IS 'Unix microseconds of the timeid (its value shifted right by 10)';
COMMENT ON FUNCTION timeid_clock_id(timeid) IS 'clock id of the timeid (its low 10 bits)';
COMMENT ON FUNCTION timeid_to_dashed(timeid) IS 'the draft''s display form STTT-TTT-TTTT-CC';

CREATE FUNCTION timeid_to_bigint(timeid) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bigint_to_timeid(bigint) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (timeid AS bigint) WITH FUNCTION timeid_to_bigint(timeid);
CREATE CAST (bigint AS timeid) WITH FUNCTION bigint_to_timeid(bigint);
COMMENT ON FUNCTION timeid_to_bigint(timeid) IS 'the 64-bit value of the timeid (the cast timeid::bigint); top bit set (first symbol c..j): error 22003';
COMMENT ON FUNCTION bigint_to_timeid(bigint) IS 'timeid with that 64-bit value (the cast bigint::timeid); negative: error 22003';
COMMENT ON CAST (timeid AS bigint) IS 'the 64-bit value of the timeid; top bit set (first symbol c..j): error 22003';
COMMENT ON CAST (bigint AS timeid) IS 'timeid with that 64-bit value; negative: error 22003';

-- The server's one generator state (the last microsecond issued; src/pg/generate/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released, so workers never run it.
CREATE FUNCTION timeid_generate(clock_id integer DEFAULT NULL) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION timeid_generate(integer) IS 'new timeid: the current microsecond or the server''s last one + 1, whichever is greater; clock id 0..1023 from the argument (another than the server''s own needs SET on idtypes.timeid_clock_id), else idtypes.timeid_clock_id, else random';


-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond are told
-- apart only by the 10 random bits of their clock id (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION timeid_generate_at(timestamptz) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_generate_at(timestamptz) IS 'timeid carrying the given time (to the microsecond) and a random clock id, for loading history; a duplicate is likely among ~38 rows sharing a microsecond';
