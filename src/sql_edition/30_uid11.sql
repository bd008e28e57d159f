-- uid11 (xid profile): 11 Base58 symbols over a 64-bit unsigned value; the xid profile's 42-bit
-- milliseconds since 2011-11-11T11:11:11.111Z and 22 random bits. The Bitcoin alphabet is in ASCII order,
-- so the fixed-length text sorts as the value, as the native type does.

-- The ten low symbols of a value below 58^10 (which fits a bigint), and the value of ten symbols.
CREATE FUNCTION uid11_encode10(rest bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 7427658739644928 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 128063081718016 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 2207984167552 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 38068692544 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 656356768 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 11316496 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 195112 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 3364 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest / 58 % 58)::int + 1, 1) || pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (rest % 58)::int + 1, 1);

CREATE FUNCTION uid11_decode10(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 2, 1)) - 1)::bigint * 7427658739644928 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 3, 1)) - 1)::bigint * 128063081718016 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 4, 1)) - 1)::bigint * 2207984167552 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 5, 1)) - 1)::bigint * 38068692544 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 6, 1)) - 1)::bigint * 656356768 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 7, 1)) - 1)::bigint * 11316496 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 8, 1)) - 1)::bigint * 195112 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 9, 1)) - 1)::bigint * 3364 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 10, 1)) - 1)::bigint * 58 + (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 11, 1)) - 1)::bigint * 1;

-- The text of a value 0 .. 2^64-1 (numeric), and the value of a text.
CREATE FUNCTION uid11_encode(v numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.div(v, 430804206899405824)::int + 1, 1) || uid11_encode10(pg_catalog.mod(v, 430804206899405824)::bigint);

CREATE FUNCTION uid11_decode(t text) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 1, 1)) - 1)::numeric * 430804206899405824 + uid11_decode10(t);

CREATE FUNCTION uid11_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('uid11', v, CASE
	WHEN pg_catalog.octet_length(v) <> 11 THEN pg_catalog.format('Expected 11 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v !~ '^[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]*$' THEN idtypes_sql_symbol_detail(v, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'the Base58 alphabet 1-9 A-H J-N P-Z a-k m-z (no 0, O, I, l)')
	ELSE 'The value exceeds 2^64-1 (the largest uid11 is jpXCZedGfVQ).' END);

CREATE FUNCTION uid11_valid(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (v ~ '^[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]{11}$' AND v COLLATE "C" <= 'jpXCZedGfVQ') OR uid11_reject(v);

CREATE DOMAIN uid11 AS text COLLATE "C" CHECK (uid11_valid(VALUE));

-- Timestamps read every uid11 as the xid profile.
CREATE FUNCTION uid11_timestamp(id uid11) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz((pg_catalog.div(uid11_decode(id), 4194304)::bigint + 1321009871111) * 1000);

CREATE FUNCTION uid11_xid_random(id uid11) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.mod(uid11_decode(id), 4194304)::int;

CREATE FUNCTION make_uid11_xid(unix_ms bigint, random int) RETURNS uid11
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(idtypes_sql_check_range('unix_ms', unix_ms, 1321009871111, 1321009871111 + 4398046511103)::numeric * 4194304
	- 1321009871111::numeric * 4194304 + idtypes_sql_check_range('random', random, 0, 4194303));

-- The smallest and the largest uid11 of a time unit (what uid11_min, uid11_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION uid11_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(u::numeric * 4194304);

CREATE FUNCTION uid11_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(u::numeric * 4194304 + 4194303);

-- A Base58 prefix is a text prefix of the fixed-length text (spec §3.6, §4; hi beyond 2^64-1 matches nothing).
CREATE FUNCTION uid11_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p !~ '^[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]*$' THEN pg_catalog.text(idtypes_sql_invalid('uid11', p,
		idtypes_sql_symbol_detail(p, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'the Base58 alphabet 1-9 A-H J-N P-Z a-k m-z (no 0, O, I, l)')))
	WHEN pg_catalog.length(p) > 11 THEN pg_catalog.text(idtypes_sql_invalid('uid11', p, idtypes_sql_prefix_length_detail(11, pg_catalog.length(p))))
	ELSE p END;

-- The generator's state: the last xid issued, minus 2^63 so that it fits a bigint sequence in order. A new
-- millisecond takes a random field; later IDs in the same millisecond (or while the clock is behind) add
-- 1..16, carrying into the next millisecond past 2^22-1.
CREATE SEQUENCE uid11_state AS bigint MINVALUE -9223372036854775808;
DO $$ BEGIN PERFORM idtypes_sql_keep_in_dumps('uid11_state'); END $$;

CREATE FUNCTION uid11_generate() RETURNS uid11
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	state bigint := idtypes_sql_advance('uid11_state',
		(((idtypes_sql_unix_us(clock_timestamp()) / 1000 - 1321009871111) << 22) | (random() * 4194303)::bigint)
			# (-9223372036854775807 - 1),
		22, 1 + (random() * 15)::bigint);
BEGIN
	RETURN uid11_encode(state::numeric + 9223372036854775808);
END $$;

CREATE FUNCTION uid11_generate_at(ts timestamptz) RETURNS uid11
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN uid11_encode(idtypes_sql_units(ts, 'uid11', 1321009871111000, 1000, 4398046511103)::numeric * 4194304
	+ (pg_catalog.random() * 4194303)::bigint);
