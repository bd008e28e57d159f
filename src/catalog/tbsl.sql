
-- ---------------------------------------------------------------------------------- tbsl specifics

COMMENT ON TYPE tbsl IS 'TBSL (Infocyph\UID): Unix seconds, microseconds, machine id 00..99 and a 20-bit suffix in 10 bytes; text: 20 uppercase hex';
COMMENT ON FUNCTION tbsl_in(cstring) IS 'text input of tbsl: exactly 20 uppercase hex digits whose first 15 are at most 999999999999999999; else error 22P02';
COMMENT ON FUNCTION tbsl_out(tbsl) IS 'text output of tbsl: its 20 uppercase hex digits';

CREATE FUNCTION make_tbsl(unix_seconds bigint, microseconds integer, machine_id integer, suffix integer) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_machine_id(tbsl) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_suffix(tbsl) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_tbsl(bigint, integer, integer, integer) IS 'tbsl from Unix seconds (0..9999999999), microseconds (0..999999), machine id (0..99) and suffix (0..0xFFFFF)';
COMMENT ON FUNCTION tbsl_machine_id(tbsl) IS 'machine id of the tbsl (its last two payload digits)';
COMMENT ON FUNCTION tbsl_suffix(tbsl) IS 'the 20-bit random or sequence suffix of the tbsl';

CREATE FUNCTION tbsl_to_base(tbsl, base integer) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tbsl_from_base(text, base integer) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_to_base(tbsl, integer) IS 'the 10 bytes as one number in base 16, 32, 36, 58 or 62, unpadded (Infocyph\UID transport encodings)';
COMMENT ON FUNCTION tbsl_from_base(text, integer) IS 'inverse of tbsl_to_base; bases 16, 32 and 36 ignore case';

CREATE FUNCTION tbsl_to_numeric(tbsl) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_tbsl(numeric) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (tbsl AS numeric) WITH FUNCTION tbsl_to_numeric(tbsl);
CREATE CAST (numeric AS tbsl) WITH FUNCTION numeric_to_tbsl(numeric);
COMMENT ON FUNCTION tbsl_to_numeric(tbsl) IS 'the 80-bit unsigned value of the tbsl (the cast tbsl::numeric)';
COMMENT ON FUNCTION numeric_to_tbsl(numeric) IS 'tbsl with that 80-bit unsigned value (the cast numeric::tbsl); a fraction, negative, 2^80 or more, or an invalid payload: error 22003';
COMMENT ON CAST (tbsl AS numeric) IS 'the 80-bit unsigned value of the tbsl';
COMMENT ON CAST (numeric AS tbsl) IS 'tbsl with that 80-bit unsigned value; a fraction, negative, 2^80 or more, or an invalid payload: error 22003';

-- The server's one generator state (last time issued, sequences; src/pg/generate/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released (a change of marking is a catalog change).
CREATE FUNCTION tbsl_generate(machine_id integer DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION tbsl_generate(integer, boolean) IS 'new tbsl from the microsecond clock: random suffix, or sequenced per (machine id, microsecond); machine id NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter';


-- For loading history: no generator state (the times are past ones), so IDs sharing a microsecond and a
-- machine id are told apart only by their 20-bit random suffix (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION tbsl_generate_at(timestamptz, machine_id integer DEFAULT NULL) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_generate_at(timestamptz, integer) IS 'tbsl carrying the given time (to the microsecond), the machine id (NULL: idtypes.tbsl_machine_id; another than the server''s own needs SET on that parameter) and a random suffix, for loading history; a duplicate is likely among ~1200 rows sharing a microsecond and machine id';
