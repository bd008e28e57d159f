
-- ---------------------------------------------------------------------------------- scru160 specifics

COMMENT ON TYPE scru160 IS 'SCRU160 v0.1.0: 48-bit Unix milliseconds, a 16-bit counter and 96 random bits in 20 bytes; text: 32 base32hex';
COMMENT ON FUNCTION scru160_in(cstring) IS 'text input of scru160: 32 base32hex or 40 hex digits, either case; else error 22P02';
COMMENT ON FUNCTION scru160_out(scru160) IS 'text output of scru160: 32 uppercase base32hex digits (scru160_to_hex gives hex)';

CREATE FUNCTION scru160_to_hex(scru160) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION make_scru160(unix_ms bigint, counter integer, random16 integer, random80 bytea) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_counter(scru160) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random16(scru160) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION scru160_random80(scru160) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_to_hex(scru160) IS 'the 40-character lower-case hex form';
COMMENT ON FUNCTION make_scru160(bigint, integer, integer, bytea) IS 'scru160 from Unix milliseconds (0..2^48-1), counter and random16 (0..65535) and 10 bytes of random80';
COMMENT ON FUNCTION scru160_counter(scru160) IS 'the 16-bit counter field';
COMMENT ON FUNCTION scru160_random16(scru160) IS 'the 16-bit random16 field';
COMMENT ON FUNCTION scru160_random80(scru160) IS 'the 80-bit random80 field, as 10 bytes';

-- The server's one generator state (last millisecond and counter; src/pg/generate/generators.cpp), shared by every
-- session; PARALLEL RESTRICTED as released.
CREATE FUNCTION scru160_generate() RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION scru160_generate() IS 'new scru160: default counter usage, strong random fields, monotonic';

-- For loading history: no generator state (the times are past ones); IDs sharing a millisecond are told
-- apart by 111 random bits (counter seed, random16, random80), as the first ID of a millisecond is.
CREATE FUNCTION scru160_generate_at(timestamptz) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_generate_at(timestamptz) IS 'scru160 carrying the given time (to the millisecond), a 15-bit random counter and random16/random80, for loading history';
