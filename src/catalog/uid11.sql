
-- ---------------------------------------------------------------------------------- uid11 specifics

COMMENT ON TYPE uid11 IS 'uid11: 64 bits, whose time is read as the xid profile (42 bits of milliseconds since 2011-11-11T11:11:11.111Z, 22 random bits); text: 11 Base58 symbols';
COMMENT ON FUNCTION uid11_in(cstring) IS 'text input of uid11: exactly 11 Base58 (Bitcoin alphabet) symbols of value at most 2^64-1; else error 22P02';
COMMENT ON FUNCTION uid11_out(uid11) IS 'text output of uid11: 11 Base58 symbols, left-padded with 1';

CREATE FUNCTION make_uid11_xid(unix_ms bigint, random integer) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid11_xid_random(uid11) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION make_uid11_xid(bigint, integer) IS 'xid-profile uid11 from Unix milliseconds (2011-11-11T11:11:11.111Z + 0..2^42-1) and 22 random bits';
COMMENT ON FUNCTION uid11_xid_random(uid11) IS 'the 22 random bits of an xid-profile uid11';

CREATE FUNCTION uid11_to_numeric(uid11) RETURNS numeric
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION numeric_to_uid11(numeric) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid11 AS numeric) WITH FUNCTION uid11_to_numeric(uid11);
CREATE CAST (numeric AS uid11) WITH FUNCTION numeric_to_uid11(numeric);
COMMENT ON FUNCTION uid11_to_numeric(uid11) IS 'the 64-bit unsigned value of the uid11 (the cast uid11::numeric)';
COMMENT ON FUNCTION numeric_to_uid11(numeric) IS 'uid11 with that 64-bit unsigned value (the cast numeric::uid11); a fraction, negative or above 2^64-1: error 22003';
COMMENT ON CAST (uid11 AS numeric) IS 'the 64-bit unsigned value of the uid11';
COMMENT ON CAST (numeric AS uid11) IS 'uid11 with that 64-bit unsigned value; a fraction, negative or above 2^64-1: error 22003';

-- uid11_generate keeps the last xid in the server's one generator state (src/pg/generate/generators.cpp), shared by every
-- session: PARALLEL RESTRICTED as released.
-- uid11_generate_random may write WAL (the mark) and a file (its key): PARALLEL RESTRICTED.
CREATE FUNCTION uid11_generate() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
CREATE FUNCTION uid11_generate_random() RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION uid11_generate() IS 'new uid11, xid profile: milliseconds since 2011-11-11T11:11:11.111Z and 22 random bits (increasing within a millisecond)';
COMMENT ON FUNCTION uid11_generate_random() IS 'new uid11, fullrand profile: 64 bits that look random (a keyed permutation of a server-wide counter), never repeated inside one server';

-- For loading history: no generator state (the times are past ones), so IDs sharing a millisecond are
-- told apart only by their 22 random bits (docs/time-queries.md, "Backfill generators").
CREATE FUNCTION uid11_generate_at(timestamptz) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_generate_at(timestamptz) IS 'xid-profile uid11 carrying the given time (to the millisecond) and 22 random bits, for loading history; a duplicate is likely among ~2400 rows sharing a millisecond';
