-- scru160 (SCRU160 v0.1.0): 160 bits = 48-bit Unix milliseconds | 16-bit counter | 16 + 80 random bits,
-- kept as the canonical text: 32 upper-case base32hex symbols, which sort as the bytes. (The native type
-- also reads 40 hex or lower case; the domain holds the canonical text only: scru160_canonical() converts.)

-- Eight symbols of 40 bits, and the 40 bits of eight symbols (the text is four such groups).
CREATE FUNCTION scru160_encode40(g bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 35) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 30) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 25) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 20) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 15) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 10) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 5) & 31)::int + 1, 1) || pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g >> 0) & 31)::int + 1, 1);

CREATE FUNCTION scru160_decode40(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 1, 1)) - 1)::bigint << 35) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 2, 1)) - 1)::bigint << 30) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 3, 1)) - 1)::bigint << 25) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 4, 1)) - 1)::bigint << 20) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 5, 1)) - 1)::bigint << 15) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 6, 1)) - 1)::bigint << 10) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 7, 1)) - 1)::bigint << 5) | ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 8, 1)) - 1)::bigint << 0);

-- The text of timestamp<<16|counter (`head`), random16 and random80 (as two 40-bit halves).
CREATE FUNCTION scru160_encode(head bigint, random16 bigint, random80_hi bigint, random80_lo bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode40(head >> 24) || scru160_encode40(((head & 16777215) << 16) | random16)
	|| scru160_encode40(random80_hi) || scru160_encode40(random80_lo);

CREATE FUNCTION scru160_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('scru160', v, CASE
	WHEN pg_catalog.octet_length(v) = 40 AND v ~ '^[0123456789abcdefABCDEF]*$'
		THEN 'The SQL edition keeps the canonical text only, 32 upper-case base32hex characters: scru160_canonical() converts 40 hex.'
	WHEN pg_catalog.octet_length(v) = 32 AND v ~ '^[0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv]*$'
		THEN 'The SQL edition keeps the canonical text only, 32 upper-case base32hex characters: scru160_canonical() converts lower case.'
	WHEN pg_catalog.octet_length(v) NOT IN (32, 40) THEN pg_catalog.format('Expected 32 base32hex or 40 hex characters, found %s.', pg_catalog.octet_length(v))
	WHEN pg_catalog.octet_length(v) = 32 THEN idtypes_sql_symbol_detail(v, '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv',
		'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case')
	ELSE idtypes_sql_symbol_detail(v, '0123456789abcdefABCDEF', 'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case') END);

CREATE FUNCTION scru160_valid(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN v ~ '^[0123456789ABCDEFGHIJKLMNOPQRSTUV]{32}$' OR scru160_reject(v);

CREATE DOMAIN scru160 AS text COLLATE "C" CHECK (scru160_valid(VALUE));

-- Every text the native type reads (32 base32hex or 40 hex, either case) as the canonical text.
CREATE FUNCTION scru160_canonical(v text) RETURNS scru160
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.octet_length(v) = 40 AND v ~ '^[0123456789abcdefABCDEF]*$' THEN
	scru160_encode40(('x' || pg_catalog.substr(v, 1, 10))::bit(40)::bigint) || scru160_encode40(('x' || pg_catalog.substr(v, 11, 10))::bit(40)::bigint)
	|| scru160_encode40(('x' || pg_catalog.substr(v, 21, 10))::bit(40)::bigint) || scru160_encode40(('x' || pg_catalog.substr(v, 31, 10))::bit(40)::bigint)
	ELSE pg_catalog.upper(v) END::scru160;

CREATE FUNCTION scru160_to_hex(id scru160) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 1, 8))), 10, '0')
	|| pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 9, 8))), 10, '0')
	|| pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 17, 8))), 10, '0')
	|| pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 25, 8))), 10, '0');

CREATE FUNCTION scru160_unix_ms(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (scru160_decode40(pg_catalog.substr(id, 1, 8)) << 8) | (scru160_decode40(pg_catalog.substr(id, 9, 8)) >> 32);

CREATE FUNCTION scru160_timestamp(id scru160) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz(scru160_unix_ms(id) * 1000);

CREATE FUNCTION scru160_counter(id scru160) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((scru160_decode40(pg_catalog.substr(id, 9, 8)) >> 16) & 65535)::int;

CREATE FUNCTION scru160_random16(id scru160) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (scru160_decode40(pg_catalog.substr(id, 9, 8)) & 65535)::int;

-- The smallest and the largest scru160 of a time unit (what scru160_min, scru160_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION scru160_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode(u << 16, 0, 0, 0);

CREATE FUNCTION scru160_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode((u << 16) | 65535, 65535, 1099511627775, 1099511627775);

-- A base32hex prefix, either case.
CREATE FUNCTION scru160_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p !~ '^[0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv]*$' THEN pg_catalog.text(idtypes_sql_invalid('scru160', p,
		idtypes_sql_symbol_detail(p, '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv',
			'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case')))
	WHEN pg_catalog.length(p) > 32 THEN pg_catalog.text(idtypes_sql_invalid('scru160', p, idtypes_sql_prefix_length_detail(32, pg_catalog.length(p))))
	ELSE pg_catalog.upper(p) END;

-- The generator's state: timestamp<<16|counter of the last ID issued. A new millisecond starts the counter
-- at a 15-bit random value; the same millisecond (or a clock behind) adds one, carrying into the next
-- millisecond past 0xFFFF. The random fields come from gen_random_uuid() (a strong source): its hex
-- digits 13 and 17 hold the version and variant, the others are random.
CREATE SEQUENCE scru160_state AS bigint MINVALUE 0;
DO $$ BEGIN PERFORM idtypes_sql_keep_in_dumps('scru160_state'); END $$;

-- An ID from a head (timestamp<<16|counter) and the random hex digits of a UUID.
CREATE FUNCTION scru160_with_random(head bigint, h text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode(head, ('x' || pg_catalog.substr(h, 28, 4))::bit(16)::bigint,
	('x' || pg_catalog.substr(h, 18, 10))::bit(40)::bigint, ('x' || pg_catalog.substr(h, 1, 10))::bit(40)::bigint);

-- A new millisecond's counter: 15 random bits.
CREATE FUNCTION scru160_counter_seed(h text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.substr(h, 11, 2) || pg_catalog.substr(h, 14, 2))::bit(16)::bigint & 32767;

CREATE FUNCTION scru160_generate() RETURNS scru160
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	h text := replace(gen_random_uuid()::text, '-', '');
	head bigint := idtypes_sql_advance('scru160_state', ((idtypes_sql_unix_us(clock_timestamp()) / 1000) << 16) | scru160_counter_seed(h), 16, 1);
BEGIN
	RETURN scru160_with_random(head, h);
END $$;

CREATE FUNCTION scru160_generate_at(ts timestamptz) RETURNS scru160
LANGUAGE plpgsql VOLATILE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	h text := replace(gen_random_uuid()::text, '-', '');
	head bigint := (idtypes_sql_units(ts, 'scru160', 0, 1000, 281474976710654, 1, 'generator issues IDs with') << 16) | scru160_counter_seed(h);
BEGIN
	RETURN scru160_with_random(head, h);
END $$;
