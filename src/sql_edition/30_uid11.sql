-- uid11 (xid profile): 11 Base58 symbols over a 64-bit unsigned value; the xid profile's 42-bit
-- milliseconds since 2011-11-11T11:11:11.111Z and 22 random bits. The Bitcoin alphabet is in ASCII order,
-- so the fixed-length text sorts as the value, as the native type does.

-- The ten low symbols of a value below 58^10 (which fits a bigint), and the value of ten symbols.
CREATE FUNCTION uid11_encode10(rest bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 7427658739644928) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 128063081718016) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 2207984167552) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 38068692544) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 656356768) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 11316496) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 195112) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 3364) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 58) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', ((rest OPERATOR(pg_catalog./) 1) OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1, 1);

CREATE FUNCTION uid11_decode10(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 2, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 7427658739644928) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 3, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 128063081718016) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 4, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 2207984167552) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 5, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 38068692544) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 6, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 656356768) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 7, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 11316496) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 8, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 195112) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 9, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 3364) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 10, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 58) OPERATOR(pg_catalog.+) ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 11, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.*) 1);

-- The generator's encoding (several times cheaper than a substr per symbol): five base58 digits of y (below
-- 58^5), one per byte, most significant first; then their symbols, all at once: '1' + d, plus the gaps of
-- the alphabet (no 0, I, O, l) where d reaches 9, 17, 22, 33 and 44 (bit 7 of d + 128 - k, per byte).
CREATE FUNCTION uid11_digits5(y bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (((((y OPERATOR(pg_catalog./) 11316496) OPERATOR(pg_catalog.<<) 32) OPERATOR(pg_catalog.|) (((y OPERATOR(pg_catalog./) 195112) OPERATOR(pg_catalog.%) 58) OPERATOR(pg_catalog.<<) 24)) OPERATOR(pg_catalog.|) (((y OPERATOR(pg_catalog./) 3364) OPERATOR(pg_catalog.%) 58) OPERATOR(pg_catalog.<<) 16)) OPERATOR(pg_catalog.|) ((((y OPERATOR(pg_catalog./) 58) OPERATOR(pg_catalog.%) 58) OPERATOR(pg_catalog.<<) 8) OPERATOR(pg_catalog.|) (y OPERATOR(pg_catalog.%) 58)));

CREATE FUNCTION uid11_symbols5(p bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr(pg_catalog.int8send(((((((p OPERATOR(pg_catalog.+) 3544668469065756977) OPERATOR(pg_catalog.+) ((((p OPERATOR(pg_catalog.+) 8608480567731124087) OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 7)) OPERATOR(pg_catalog.+) ((((p OPERATOR(pg_catalog.+) 8029759185026510703) OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 1)) OPERATOR(pg_catalog.+) ((((p OPERATOR(pg_catalog.+) 7668058320836127338) OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 1)) OPERATOR(pg_catalog.+) ((((p OPERATOR(pg_catalog.+) 6872316419617283935) OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 6)) OPERATOR(pg_catalog.+) ((((p OPERATOR(pg_catalog.+) 6076574518398440532) OPERATOR(pg_catalog.>>) 7) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 1))), 4, 5);

-- The text of a value 0 .. 2^64-1 (numeric), and the value of a text.
CREATE FUNCTION uid11_encode(v numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.div(v, 430804206899405824::numeric)::int OPERATOR(pg_catalog.+) 1, 1)
	OPERATOR(pg_catalog.||) uid11_encode10(pg_catalog.mod(v, 430804206899405824::numeric)::bigint);

CREATE FUNCTION uid11_decode(t text) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', pg_catalog.substr(t, 1, 1)) OPERATOR(pg_catalog.-) 1)::numeric
	OPERATOR(pg_catalog.*) 430804206899405824::numeric) OPERATOR(pg_catalog.+) uid11_decode10(t)::numeric;

CREATE FUNCTION uid11_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('uid11'::pg_catalog.text, v, CASE
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.<>) 11 THEN pg_catalog.format('Expected 11 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v OPERATOR(pg_catalog.!~) '^[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]*$' THEN idtypes_sql_symbol_detail(v,
		'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'::pg_catalog.text, 'the Base58 alphabet 1-9 A-H J-N P-Z a-k m-z (no 0, O, I, l)'::pg_catalog.text)
	ELSE 'The value exceeds 2^64-1 (the largest uid11 is jpXCZedGfVQ).'::pg_catalog.text END);

CREATE DOMAIN uid11 AS text COLLATE "C" CHECK ((pg_catalog.octet_length(VALUE) OPERATOR(pg_catalog.=) 11 AND pg_catalog.length(pg_catalog.btrim(pg_catalog.textsend(VALUE), pg_catalog.decode('31323334353637383941424344454647484a4b4c4d4e505152535455565758595a6162636465666768696a6b6d6e6f707172737475767778797a', 'hex'))) OPERATOR(pg_catalog.=) 0
	AND VALUE COLLATE "C" OPERATOR(pg_catalog.<=) 'jpXCZedGfVQ') OR uid11_reject(VALUE));

-- Timestamps read every uid11 as the xid profile.
CREATE FUNCTION uid11_timestamp(id uid11) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz((pg_catalog.div(uid11_decode(id), 4194304::numeric)::bigint OPERATOR(pg_catalog.+) @EPOCH_UNITS@) OPERATOR(pg_catalog.*) 1000);

CREATE FUNCTION uid11_xid_random(id uid11) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.mod(uid11_decode(id), 4194304::numeric)::int;

CREATE FUNCTION make_uid11_xid(unix_ms bigint, random int) RETURNS uid11
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(((idtypes_sql_check_range('unix_ms'::pg_catalog.text, unix_ms, @EPOCH_UNITS@::bigint, (@EPOCH_UNITS@ OPERATOR(pg_catalog.+) @MAX@)::bigint)
	OPERATOR(pg_catalog.-) @EPOCH_UNITS@)::numeric OPERATOR(pg_catalog.*) 4194304::numeric)
	OPERATOR(pg_catalog.+) idtypes_sql_check_range('random'::pg_catalog.text, random::bigint, 0::bigint, 4194303::bigint)::numeric);

-- The smallest and the largest uid11 of a time unit (what uid11_min, uid11_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION uid11_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(u::numeric OPERATOR(pg_catalog.*) 4194304::numeric);

CREATE FUNCTION uid11_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode((u::numeric OPERATOR(pg_catalog.*) 4194304::numeric) OPERATOR(pg_catalog.+) 4194303::numeric);

-- A Base58 prefix is a text prefix of the fixed-length text (spec §3.6, §4; hi beyond 2^64-1 matches nothing).
CREATE FUNCTION uid11_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p OPERATOR(pg_catalog.!~) '^[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]*$' THEN pg_catalog.text(idtypes_sql_invalid('uid11'::pg_catalog.text, p,
		idtypes_sql_symbol_detail(p, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'::pg_catalog.text,
			'the Base58 alphabet 1-9 A-H J-N P-Z a-k m-z (no 0, O, I, l)'::pg_catalog.text)))
	WHEN pg_catalog.length(p) OPERATOR(pg_catalog.>) 11 THEN pg_catalog.text(idtypes_sql_invalid('uid11'::pg_catalog.text, p,
		idtypes_sql_prefix_length_detail(11, pg_catalog.length(p))))
	ELSE p END;

-- The generator (see 00_common.sql's header): a new millisecond takes a random field; later IDs in the
-- same millisecond (or while the session's block is ahead of the clock) add 1..16, carrying into the next
-- millisecond past 2^22-1, within the session's block of the installation's time line. The session's
-- state is the last xid value issued less 2^63 (a bigint in the same order).
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
CREATE FUNCTION uid11_generate() RETURNS uid11
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	ms bigint := (pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.-) @EPOCH_UNITS@;
	rnd bigint := (pg_catalog.random() OPERATOR(pg_catalog.*) 4194304::double precision)::bigint;
	v bigint;
	x bigint;
BEGIN
	-- the session's state, as in timeid_generate (why the read is a statement of its own, and why the CASE
	-- keeps every ID as the IF it replaces did); v is the xid value (the state's top bit flipped back),
	-- while below 2^63 (until 2081)
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on'
			AND pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'off' THEN
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_uid11'::pg_catalog.regclass);
		v := CASE WHEN ms OPERATOR(pg_catalog.>) ((last OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.+) 2199023255552)
			THEN ((ms OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (rnd OPERATOR(pg_catalog.&) 4194303)) OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1)
			ELSE (last OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.+) (rnd OPERATOR(pg_catalog.&) 15) END;
		v := CASE WHEN (v OPERATOR(pg_catalog.>>) 23) OPERATOR(pg_catalog.=) (last OPERATOR(pg_catalog.>>) 23) -- still in the block
			THEN pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_uid11'::pg_catalog.regclass, v)
			ELSE pg_idtypes_sql_unbound.idtypes_sql_reserve(3) END OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1);
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(3) OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1);
	END IF;
	IF v OPERATOR(pg_catalog.<) 0 THEN
		RETURN pg_idtypes_sql_unbound.uid11_encode(v::numeric OPERATOR(pg_catalog.+) 18446744073709551616::numeric);
	END IF;
	x := pg_idtypes_sql_unbound.uid11_digits5((v OPERATOR(pg_catalog.%) 430804206899405824) OPERATOR(pg_catalog./) 656356768);
	v := pg_idtypes_sql_unbound.uid11_digits5((v OPERATOR(pg_catalog.%) 430804206899405824) OPERATOR(pg_catalog.%) 656356768)
		OPERATOR(pg_catalog.|) ((v OPERATOR(pg_catalog./) 430804206899405824) OPERATOR(pg_catalog.<<) 56); -- the top digit in the top byte
	RETURN pg_catalog.substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', (v OPERATOR(pg_catalog.>>) 56)::int OPERATOR(pg_catalog.+) 1, 1)
		OPERATOR(pg_catalog.||) pg_catalog.encode(pg_idtypes_sql_unbound.uid11_symbols5(x)
			OPERATOR(pg_catalog.||) pg_idtypes_sql_unbound.uid11_symbols5(v OPERATOR(pg_catalog.&) 1099511627775), 'escape');
END $$;
-- [/1.2]

-- random(): PARALLEL RESTRICTED.
CREATE FUNCTION uid11_generate_at(ts timestamptz) RETURNS uid11
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN uid11_encode((idtypes_sql_units(ts, 'uid11'::pg_catalog.text, @EPOCH@::bigint, @UNIT@::bigint, @MAX@::bigint)::numeric
	OPERATOR(pg_catalog.*) 4194304::numeric) OPERATOR(pg_catalog.+) (pg_catalog.random() OPERATOR(pg_catalog.*) 4194303::double precision)::bigint::numeric);

-- The native edition's bytes of the ID (its uid11::bytea): the unsigned 64-bit value, big-endian (less 2^63
-- it fits a bigint; the top bit flipped back).
CREATE FUNCTION uid11_to_bytea(id uid11) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(((uid11_decode(id) OPERATOR(pg_catalog.-) 9223372036854775808::numeric)::bigint)
	OPERATOR(pg_catalog.#) (-9223372036854775807::bigint OPERATOR(pg_catalog.-) 1::bigint));
