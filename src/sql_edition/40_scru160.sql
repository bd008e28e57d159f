-- scru160 (SCRU160 v0.1.0): 160 bits = 48-bit Unix milliseconds | 16-bit counter | 16 + 80 random bits,
-- kept as the canonical text: 32 upper-case base32hex symbols, which sort as the bytes. (The native type
-- also reads 40 hex or lower case; the domain holds the canonical text only: scru160_canonical() converts.)

-- Eight symbols of 40 bits, and the 40 bits of eight symbols (the text is four such groups).
CREATE FUNCTION scru160_encode40(g bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 35) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 30) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 25) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 20) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('0123456789ABCDEFGHIJKLMNOPQRSTUV', ((g OPERATOR(pg_catalog.>>) 0) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1);

CREATE FUNCTION scru160_decode40(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 1, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 35) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 2, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 30) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 3, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 25) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 4, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 20) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 5, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 15) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 6, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 7, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 5) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTUV', pg_catalog.substr(t, 8, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 0);

-- The eight symbols of eight 5-bit values, one per byte of x (idtypes_sql_spread40), as bytes: '0' + d
-- below 10, 'A' + d - 10 from 10 on (+7 where d + 22 carries into bit 5).
CREATE FUNCTION scru160_symbols8(x bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(((x OPERATOR(pg_catalog.+) 3472328296227680304) OPERATOR(pg_catalog.+) ((((x OPERATOR(pg_catalog.+) 1591483802437686806) OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 7)));

-- The text of timestamp<<16|counter (`head`), random16 and random80 (as two 40-bit halves).
CREATE FUNCTION scru160_encode(head bigint, random16 bigint, random80_hi bigint, random80_lo bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode40(head OPERATOR(pg_catalog.>>) 24)
	OPERATOR(pg_catalog.||) scru160_encode40(((head OPERATOR(pg_catalog.&) 16777215) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) random16)
	OPERATOR(pg_catalog.||) scru160_encode40(random80_hi) OPERATOR(pg_catalog.||) scru160_encode40(random80_lo);

CREATE FUNCTION scru160_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('scru160'::pg_catalog.text, v, CASE
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.=) 40 AND v OPERATOR(pg_catalog.~) '^[0123456789abcdefABCDEF]*$'
		THEN 'The SQL edition keeps the canonical text only, 32 upper-case base32hex characters: scru160_canonical() converts 40 hex.'::pg_catalog.text
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.=) 32 AND v OPERATOR(pg_catalog.~) '^[0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv]*$'
		THEN 'The SQL edition keeps the canonical text only, 32 upper-case base32hex characters: scru160_canonical() converts lower case.'::pg_catalog.text
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.<>) 32 AND pg_catalog.octet_length(v) OPERATOR(pg_catalog.<>) 40
		THEN pg_catalog.format('Expected 32 base32hex or 40 hex characters, found %s.', pg_catalog.octet_length(v))
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.=) 32 THEN idtypes_sql_symbol_detail(v, '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv'::pg_catalog.text,
		'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case'::pg_catalog.text)
	ELSE idtypes_sql_symbol_detail(v, '0123456789abcdefABCDEF'::pg_catalog.text,
		'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case'::pg_catalog.text) END);

CREATE DOMAIN scru160 AS text COLLATE "C" CHECK ((pg_catalog.octet_length(VALUE) OPERATOR(pg_catalog.=) 32 AND pg_catalog.length(pg_catalog.btrim(pg_catalog.textsend(VALUE), pg_catalog.decode('303132333435363738394142434445464748494a4b4c4d4e4f50515253545556', 'hex'))) OPERATOR(pg_catalog.=) 0) OR scru160_reject(VALUE));

-- 40 bits of hex digits (for scru160_canonical).
CREATE FUNCTION scru160_hex40(h text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (('x'::pg_catalog.text OPERATOR(pg_catalog.||) h)::bit(40))::bigint;

-- Every text the native type reads (32 base32hex or 40 hex, either case) as the canonical text.
CREATE FUNCTION scru160_canonical(v text) RETURNS scru160
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.=) 40 AND v OPERATOR(pg_catalog.~) '^[0123456789abcdefABCDEF]*$' THEN
	scru160_encode40(scru160_hex40(pg_catalog.substr(v, 1, 10))) OPERATOR(pg_catalog.||) scru160_encode40(scru160_hex40(pg_catalog.substr(v, 11, 10)))
	OPERATOR(pg_catalog.||) scru160_encode40(scru160_hex40(pg_catalog.substr(v, 21, 10))) OPERATOR(pg_catalog.||) scru160_encode40(scru160_hex40(pg_catalog.substr(v, 31, 10)))
	ELSE pg_catalog.upper(v) END::scru160;

CREATE FUNCTION scru160_to_hex(id scru160) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 1, 8))), 10, '0')
	OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 9, 8))), 10, '0')
	OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 17, 8))), 10, '0')
	OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(scru160_decode40(pg_catalog.substr(id, 25, 8))), 10, '0');

CREATE FUNCTION scru160_unix_ms(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (scru160_decode40(pg_catalog.substr(id, 1, 8)) OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) (scru160_decode40(pg_catalog.substr(id, 9, 8)) OPERATOR(pg_catalog.>>) 32);

CREATE FUNCTION scru160_timestamp(id scru160) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz(scru160_unix_ms(id) OPERATOR(pg_catalog.*) 1000);

CREATE FUNCTION scru160_counter(id scru160) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((scru160_decode40(pg_catalog.substr(id, 9, 8)) OPERATOR(pg_catalog.>>) 16) OPERATOR(pg_catalog.&) 65535)::int;

CREATE FUNCTION scru160_random16(id scru160) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (scru160_decode40(pg_catalog.substr(id, 9, 8)) OPERATOR(pg_catalog.&) 65535)::int;

-- The smallest and the largest scru160 of a time unit (what scru160_min, scru160_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION scru160_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode(u OPERATOR(pg_catalog.<<) 16, 0::bigint, 0::bigint, 0::bigint);

CREATE FUNCTION scru160_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_encode((u OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) 65535::bigint, 65535::bigint, 1099511627775::bigint, 1099511627775::bigint);

-- A base32hex prefix, either case.
CREATE FUNCTION scru160_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p OPERATOR(pg_catalog.!~) '^[0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv]*$' THEN pg_catalog.text(idtypes_sql_invalid('scru160'::pg_catalog.text, p,
		idtypes_sql_symbol_detail(p, '0123456789ABCDEFGHIJKLMNOPQRSTUVabcdefghijklmnopqrstuv'::pg_catalog.text,
			'base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case'::pg_catalog.text)))
	WHEN pg_catalog.length(p) OPERATOR(pg_catalog.>) 32 THEN pg_catalog.text(idtypes_sql_invalid('scru160'::pg_catalog.text, p,
		idtypes_sql_prefix_length_detail(32, pg_catalog.length(p))))
	ELSE pg_catalog.upper(p) END;

-- The random fields come from gen_random_uuid() (a strong source: the spec asks for one), read through
-- uuid_hash_extended() with three seeds (bigints of 64 well-mixed bits, where reading the UUID's hex digits
-- would cost several times more): random80 is the low five bits of each byte of the first two (8 random
-- bits modulo 32 are uniform), random16 the low 16 bits of the third.
-- The text of an ID: g1 is idtypes_sql_spread40(head >> 24), g2 that of head's low 24 bits and random16
-- (the callers' variables: an argument used twice is inlined only while cheap).
CREATE FUNCTION scru160_text(g1 bigint, g2 bigint, u uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.encode(scru160_symbols8(g1) OPERATOR(pg_catalog.||) scru160_symbols8(g2)
	OPERATOR(pg_catalog.||) scru160_symbols8(pg_catalog.uuid_hash_extended(u, 0::bigint) OPERATOR(pg_catalog.&) 2242545357980376863)
	OPERATOR(pg_catalog.||) scru160_symbols8(pg_catalog.uuid_hash_extended(u, 1::bigint) OPERATOR(pg_catalog.&) 2242545357980376863), 'escape');

-- The generator (see 00_common.sql's header): the state is timestamp<<16|counter of the last ID issued. A
-- new millisecond starts the counter at a 15-bit random value; the same millisecond (or the session's
-- block ahead of the clock) adds one, carrying into the next millisecond past 0xFFFF, within the
-- session's block of the installation's time line. It moves state: PARALLEL UNSAFE.
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
CREATE FUNCTION scru160_generate() RETURNS scru160
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	ms bigint := pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint OPERATOR(pg_catalog./) 1000;
	head bigint;
	u pg_catalog.uuid := pg_catalog.gen_random_uuid();
	g bigint;
BEGIN
	-- once the session's state is set up, and not in a read-only transaction (which would let the session move
	-- its temporary sequence and hand out the rest of its block: idtypes_sql_reserve() refuses there): the
	-- last head plus one, the same millisecond's next counter, in one step (the common case); a new
	-- millisecond's counter from 15 random bits (of the UUID); a new block past the session's (the CASE
	-- calls idtypes_sql_reserve where the IF it replaces found NULL: the same IDs). The nextval is a
	-- statement of its own: see timeid_generate.
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on'
			AND pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'off' THEN
		head := pg_catalog.nextval('pg_temp.idtypes_sql_pg_idtypes_sql_key_scru160'::pg_catalog.regclass);
		head := CASE WHEN ms OPERATOR(pg_catalog.>) (head OPERATOR(pg_catalog.>>) 16) THEN
				CASE WHEN (ms OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.=) ((head OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.>>) 17)
				THEN pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_scru160'::pg_catalog.regclass,
					(ms OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 3::bigint) OPERATOR(pg_catalog.&) 32767))
				ELSE pg_idtypes_sql_unbound.idtypes_sql_reserve(4) END
			WHEN (head OPERATOR(pg_catalog.>>) 17) OPERATOR(pg_catalog.<>) ((head OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.>>) 17)
			THEN pg_idtypes_sql_unbound.idtypes_sql_reserve(4)
			ELSE head END;
	ELSE -- no block yet
		head := pg_idtypes_sql_unbound.idtypes_sql_reserve(4);
	END IF;
	g := pg_idtypes_sql_unbound.idtypes_sql_spread40(((head OPERATOR(pg_catalog.&) 16777215) OPERATOR(pg_catalog.<<) 16)
		OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 2::bigint) OPERATOR(pg_catalog.&) 65535));
	head := pg_idtypes_sql_unbound.idtypes_sql_spread40(head OPERATOR(pg_catalog.>>) 24);
	RETURN pg_idtypes_sql_unbound.scru160_text(head, g, u);
END $$;
-- [/1.2]

-- random(): PARALLEL RESTRICTED.
CREATE FUNCTION scru160_generate_at(ts timestamptz) RETURNS scru160
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED AS $$
DECLARE
	head bigint := (pg_idtypes_sql_unbound.idtypes_sql_units(ts, 'scru160'::pg_catalog.text, 0::bigint, 1000::bigint, 281474976710654::bigint, 1::bigint,
		'generator issues IDs with'::pg_catalog.text) OPERATOR(pg_catalog.<<) 16)
		OPERATOR(pg_catalog.|) ((pg_catalog.random() OPERATOR(pg_catalog.*) 32768::double precision)::bigint OPERATOR(pg_catalog.&) 32767);
	u pg_catalog.uuid := pg_catalog.gen_random_uuid();
	g bigint := ((head OPERATOR(pg_catalog.&) 16777215) OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 2::bigint) OPERATOR(pg_catalog.&) 65535);
BEGIN
	g := pg_idtypes_sql_unbound.idtypes_sql_spread40(g);
	head := pg_idtypes_sql_unbound.idtypes_sql_spread40(head OPERATOR(pg_catalog.>>) 24);
	RETURN pg_idtypes_sql_unbound.scru160_text(head, g, u);
END $$;

-- The native edition's bytes of the ID (its scru160::bytea): the 20 bytes of its 160 bits.
CREATE FUNCTION scru160_to_bytea(id scru160) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(scru160_to_hex(id), 'hex'::pg_catalog.text);
