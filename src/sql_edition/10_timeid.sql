-- timeid (TID, atproto / draft-goldman): 13 base32-sortable symbols over 64 bits; 53 bits of Unix
-- microseconds and a 10-bit clock id. The canonical text sorts as the value (unsigned), so a btree on the
-- domain (collation "C") orders IDs as the native type does.

-- The 13 symbols of a 64-bit value (bigint, top bit included): 4 bits, then twelve times 5 bits.
CREATE FUNCTION timeid_encode(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 60) OPERATOR(pg_catalog.&) 15)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 55) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 50) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 45) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 35) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 30) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 25) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 20) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 15) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1) OPERATOR(pg_catalog.||) pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v OPERATOR(pg_catalog.>>) 0) OPERATOR(pg_catalog.&) 31)::int OPERATOR(pg_catalog.+) 1, 1);

-- The eight symbols of eight 5-bit values, one per byte of x (idtypes_sql_spread40), as bytes: a value d
-- is '2' + d below 6, 'a' + d - 6 from 6 on (+41 where d + 26 carries into bit 5).
CREATE FUNCTION timeid_symbols8(x bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(((x OPERATOR(pg_catalog.+) 3617008641903833650) OPERATOR(pg_catalog.+) ((((x OPERATOR(pg_catalog.+) 1880844493789993498) OPERATOR(pg_catalog.>>) 5) OPERATOR(pg_catalog.&) 72340172838076673) OPERATOR(pg_catalog.*) 41)));

-- The 64-bit value of a canonical text (a bigint, negative when the top bit is set).
CREATE FUNCTION timeid_decode(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 1, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 60) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 2, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 55) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 3, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 50) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 4, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 45) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 5, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 40) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 6, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 35) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 7, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 30) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 8, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 25) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 9, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 20) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 10, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 15) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 11, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 12, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 5) OPERATOR(pg_catalog.|) ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 13, 1)) OPERATOR(pg_catalog.-) 1)::bigint OPERATOR(pg_catalog.<<) 0);

-- Why a text is not a timeid (the native edition's DETAIL), raised as 22P02. (Like every function that
-- calls another of the edition's, an SQL body: bound at creation, whatever the caller's search_path.)
CREATE FUNCTION timeid_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('timeid'::pg_catalog.text, v, CASE
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.<>) 13 THEN pg_catalog.format('Expected 13 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v OPERATOR(pg_catalog.!~) '^[234567abcdefghijklmnopqrstuvwxyz]*$' THEN idtypes_sql_symbol_detail(v, '234567abcdefghijklmnopqrstuvwxyz'::pg_catalog.text,
		'the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case)'::pg_catalog.text)
	ELSE 'The first character must be one of 234567abcdefghij (the value has 64 bits, the text 65).'::pg_catalog.text END);

-- The domain's check, written into it (a function there would run its own executor for every value, which
-- domain checks do not inline): the canonical text's length, alphabet (btrim of its bytes: a regular
-- expression, or btrim on text in a multibyte database, costs several times more for every generated ID)
-- and first symbol; the reason only when it fails.
CREATE DOMAIN timeid AS text COLLATE "C" CHECK ((pg_catalog.octet_length(VALUE) OPERATOR(pg_catalog.=) 13 AND pg_catalog.length(pg_catalog.btrim(pg_catalog.textsend(VALUE), pg_catalog.decode('3233343536376162636465666768696a6b6c6d6e6f707172737475767778797a', 'hex'))) OPERATOR(pg_catalog.=) 0
	AND VALUE COLLATE "C" OPERATOR(pg_catalog.<) 'k') OR timeid_reject(VALUE));

CREATE FUNCTION timeid_timestamp(id timeid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz((timeid_decode(id) OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) @MAX@);

CREATE FUNCTION timeid_micros(id timeid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (timeid_decode(id) OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) @MAX@;

CREATE FUNCTION timeid_clock_id(id timeid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (timeid_decode(id) OPERATOR(pg_catalog.&) 1023)::int;

CREATE FUNCTION make_timeid(micros bigint, clock_id int) RETURNS timeid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode((idtypes_sql_check_range('micros'::pg_catalog.text, micros, 0::bigint, 9007199254740991::bigint) OPERATOR(pg_catalog.<<) 10)
	OPERATOR(pg_catalog.|) idtypes_sql_check_range('clock_id'::pg_catalog.text, clock_id::bigint, 0::bigint, 1023::bigint));

-- The smallest and the largest timeid of a time unit (what timeid_min, timeid_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION timeid_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode(u OPERATOR(pg_catalog.<<) 10);

CREATE FUNCTION timeid_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode((u OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) 1023::bigint);

-- A prefix's symbols (for `id ^@ prefix`, type.sql.in): dashes (the draft's display form) are ignored; a
-- symbol outside the alphabet or more than 13: 22P02 as natively. A first symbol k..z is valid text that no
-- timeid has: the range from prefix||'22...' to prefix||'zz...' is then empty of IDs.
CREATE FUNCTION timeid_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p OPERATOR(pg_catalog.!~) '^[-234567abcdefghijklmnopqrstuvwxyz]*$' THEN pg_catalog.text(idtypes_sql_invalid('timeid'::pg_catalog.text, p,
		idtypes_sql_symbol_detail(p, '-234567abcdefghijklmnopqrstuvwxyz'::pg_catalog.text, 'the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case)'::pg_catalog.text)))
	WHEN pg_catalog.length(pg_catalog.replace(p, '-', '')) OPERATOR(pg_catalog.>) 13 THEN pg_catalog.text(idtypes_sql_invalid('timeid'::pg_catalog.text, p,
		idtypes_sql_prefix_length_detail(13, pg_catalog.length(pg_catalog.replace(p, '-', '')))))
	ELSE pg_catalog.replace(p, '-', '') END;

-- The generator (see 00_common.sql's header): the draft's rule, the next microsecond is the current one or
-- the last plus one, whichever is greater, within the session's block of the installation's time line.
-- The session's state is the last value issued (microseconds << 10 | the installation's clock id).
-- No lock, no write but the session's temporary sequence: VOLATILE, PARALLEL UNSAFE (it moves state).
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
CREATE FUNCTION timeid_generate(clock_id int DEFAULT NULL) RETURNS timeid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	v bigint;
	hi bigint;
BEGIN
	-- Once the session's state is set up and not in a read-only transaction (which would let the session move
	-- its temporary sequence and hand out the rest of its block): the next microsecond, written back while it
	-- is still in the block, else a new block. Every other case (no state yet, or read-only: reserve refuses
	-- there) goes to idtypes_sql_reserve() as before. The state is read in a statement of its own: its
	-- regclass constant is resolved when the statement is first planned, which must wait until the flag says
	-- the sequence exists. The CASE writes only after the block test, as the IF it replaces did: the temporary
	-- sequence never holds a value outside the session's block, so the IDs are the same as before.
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on'
			AND pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'off' THEN
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_timeid'::pg_catalog.regclass);
		v := GREATEST(pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
			OPERATOR(pg_catalog.*) 1000000::double precision)::bigint, (last OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.+) 1);
		v := CASE WHEN (v OPERATOR(pg_catalog.>>) 11) OPERATOR(pg_catalog.=) (last OPERATOR(pg_catalog.>>) 21) -- still in the block
			THEN pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_timeid'::pg_catalog.regclass,
				(v OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) (last OPERATOR(pg_catalog.&) 1023))
			ELSE pg_idtypes_sql_unbound.idtypes_sql_reserve(1) END;
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(1);
	END IF;
	-- timeid_encode(v), in two groups of symbols (5 and 8) made at once; a clock_id given replaces the low 10
	-- bits (the high group holds none of them)
	hi := pg_idtypes_sql_unbound.idtypes_sql_spread40((v OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 16777215);
	v := pg_idtypes_sql_unbound.idtypes_sql_spread40(CASE WHEN clock_id IS NULL THEN v OPERATOR(pg_catalog.&) 1099511627775
		ELSE (v OPERATOR(pg_catalog.&) 1099511626752) OPERATOR(pg_catalog.|) pg_idtypes_sql_unbound.idtypes_sql_check_range(
			'clock_id'::pg_catalog.text, clock_id::bigint, 0::bigint, 1023::bigint) END);
	RETURN pg_catalog.encode(pg_catalog.substr(pg_idtypes_sql_unbound.timeid_symbols8(hi), 4, 5)
		OPERATOR(pg_catalog.||) pg_idtypes_sql_unbound.timeid_symbols8(v), 'escape');
END $$;
-- [/1.2]

-- An ID carrying a given time, the clock id as the generator's (backfill); not from the state.
CREATE FUNCTION timeid_generate_at(ts timestamptz) RETURNS timeid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN timeid_encode((idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 9007199254740991::bigint, 0::bigint,
	'generator issues IDs with'::pg_catalog.text) OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) idtypes_sql_installed_identity(1));

-- The native edition's bytes of the ID (its timeid::bytea): the 64-bit value, big-endian. (`id::bytea` is
-- the text's bytes here: a domain has no cast of its own.)
CREATE FUNCTION timeid_to_bytea(id timeid) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.int8send(timeid_decode(id));
