
-- ==================================================================================== text or NULL
-- T_or_null(text): the ID a text is, read as the type's input function reads it, or NULL where that input
-- would raise 22P02. It never raises and depends on nothing but its argument, so it is IMMUTABLE: usable
-- in a generated column, an index expression or a CHECK on every version, where a cast would stop the
-- statement at the first text that is not an ID (PostgreSQL 15 has no pg_input_is_valid). For text columns
-- that hold an ID only sometimes, such as atproto record keys (docs/atproto.md).
CREATE FUNCTION timeid_or_null(text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_or_null(text) IS 'the timeid the text is (as its input reads it), or NULL if it is not one; never raises';
CREATE FUNCTION tbsl_or_null(text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_or_null(text) IS 'the tbsl the text is (as its input reads it), or NULL if it is not one; never raises';
CREATE FUNCTION uid11_or_null(text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_or_null(text) IS 'the uid11 the text is (as its input reads it), or NULL if it is not one; never raises';
CREATE FUNCTION scru160_or_null(text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_or_null(text) IS 'the scru160 the text is (as its input reads it, 32 base32hex or 40 hex), or NULL if it is not one; never raises';
