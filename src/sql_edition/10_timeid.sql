-- timeid (TID, atproto / draft-goldman): 13 base32-sortable symbols over 64 bits; 53 bits of Unix
-- microseconds and a 10-bit clock id. The canonical text sorts as the value (unsigned), so a btree on the
-- domain (collation "C") orders IDs as the native type does.

-- The 13 symbols of a 64-bit value (bigint, top bit included): 4 bits, then twelve times 5 bits.
CREATE FUNCTION timeid_encode(v bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 60) & 15)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 55) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 50) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 45) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 40) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 35) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 30) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 25) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 20) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 15) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 10) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 5) & 31)::int + 1, 1) || pg_catalog.substr('234567abcdefghijklmnopqrstuvwxyz', ((v >> 0) & 31)::int + 1, 1);

-- The 64-bit value of a canonical text (a bigint, negative when the top bit is set).
CREATE FUNCTION timeid_decode(t text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 1, 1)) - 1)::bigint << 60) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 2, 1)) - 1)::bigint << 55) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 3, 1)) - 1)::bigint << 50) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 4, 1)) - 1)::bigint << 45) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 5, 1)) - 1)::bigint << 40) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 6, 1)) - 1)::bigint << 35) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 7, 1)) - 1)::bigint << 30) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 8, 1)) - 1)::bigint << 25) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 9, 1)) - 1)::bigint << 20) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 10, 1)) - 1)::bigint << 15) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 11, 1)) - 1)::bigint << 10) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 12, 1)) - 1)::bigint << 5) | ((pg_catalog.strpos('234567abcdefghijklmnopqrstuvwxyz', pg_catalog.substr(t, 13, 1)) - 1)::bigint << 0);

-- Why a text is not a timeid (the native edition's DETAIL), raised as 22P02. (Like every function that
-- calls another of the edition's, an SQL body: bound at creation, whatever the caller's search_path.)
CREATE FUNCTION timeid_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('timeid', v, CASE
	WHEN pg_catalog.octet_length(v) <> 13 THEN pg_catalog.format('Expected 13 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v !~ '^[234567abcdefghijklmnopqrstuvwxyz]*$' THEN idtypes_sql_symbol_detail(v, '234567abcdefghijklmnopqrstuvwxyz',
		'the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case)')
	ELSE 'The first character must be one of 234567abcdefghij (the value has 64 bits, the text 65).' END);

-- The domain's check: a regular expression for the canonical text; the reason only when it fails.
CREATE FUNCTION timeid_valid(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN v ~ '^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$' OR timeid_reject(v);

CREATE DOMAIN timeid AS text COLLATE "C" CHECK (timeid_valid(VALUE));

CREATE FUNCTION timeid_timestamp(id timeid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz((timeid_decode(id) >> 10) & 18014398509481983);

CREATE FUNCTION timeid_micros(id timeid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (timeid_decode(id) >> 10) & 18014398509481983;

CREATE FUNCTION timeid_clock_id(id timeid) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (timeid_decode(id) & 1023)::int;

CREATE FUNCTION make_timeid(micros bigint, clock_id int) RETURNS timeid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode((idtypes_sql_check_range('micros', micros, 0, 9007199254740991) << 10)
	| idtypes_sql_check_range('clock_id', clock_id, 0, 1023));

-- The smallest and the largest timeid of a time unit (what timeid_min, timeid_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION timeid_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode(u << 10);

CREATE FUNCTION timeid_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_encode((u << 10) | 1023);

-- A prefix's symbols (for `id ^@ prefix`, type.sql.in): dashes (the draft's display form) are ignored; a
-- symbol outside the alphabet or more than 13: 22P02 as natively. A first symbol k..z is valid text that no
-- timeid has: the range from prefix||'22...' to prefix||'zz...' is then empty of IDs.
CREATE FUNCTION timeid_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p !~ '^[-234567abcdefghijklmnopqrstuvwxyz]*$' THEN pg_catalog.text(idtypes_sql_invalid('timeid', p,
		idtypes_sql_symbol_detail(p, '-234567abcdefghijklmnopqrstuvwxyz', 'the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case)')))
	WHEN pg_catalog.length(pg_catalog.replace(p, '-', '')) > 13 THEN pg_catalog.text(idtypes_sql_invalid('timeid', p,
		idtypes_sql_prefix_length_detail(13, pg_catalog.length(pg_catalog.replace(p, '-', '')))))
	ELSE pg_catalog.replace(p, '-', '') END;

-- The generator: the state is the last microsecond issued (a sequence); the next is the current one or
-- the last plus one, whichever is greater (the draft's rule). The clock id: the argument, else the
-- setting idtypes.timeid_clock_id, else one drawn at random when the edition was installed.
CREATE SEQUENCE timeid_state AS bigint MINVALUE 0;
CREATE SEQUENCE timeid_drawn_clock_id AS bigint MINVALUE 0 MAXVALUE 1023;
DO $$ BEGIN
	PERFORM pg_catalog.setval('timeid_drawn_clock_id', (pg_catalog.random() * 1023.99)::bigint);
	PERFORM idtypes_sql_keep_in_dumps('timeid_state'), idtypes_sql_keep_in_dumps('timeid_drawn_clock_id');
END $$;

CREATE FUNCTION timeid_clock(clock_id int) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE
	WHEN clock_id IS NOT NULL THEN idtypes_sql_check_range('clock_id', clock_id, 0, 1023)
	WHEN coalesce(pg_catalog.current_setting('idtypes.timeid_clock_id', true), '') NOT IN ('', '-1')
		THEN idtypes_sql_check_range('idtypes.timeid_clock_id', pg_catalog.current_setting('idtypes.timeid_clock_id', true)::bigint, 0, 1023)
	ELSE pg_catalog.pg_sequence_last_value('timeid_drawn_clock_id'::regclass) END;

-- (The generators are PL/pgSQL, whose expressions are planned once per session, with the SQL functions
-- they call inlined: an SQL-language wrapper would run its executor for every ID, several times slower.
-- They run as the edition's owner, who alone may move the states, with a search_path of pg_catalog, the
-- edition's schema and pg_temp, bound at installation by 90_bind.sql.)
CREATE FUNCTION timeid_generate(clock_id int DEFAULT NULL) RETURNS timeid
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	v bigint := (idtypes_sql_advance('timeid_state', idtypes_sql_unix_us(clock_timestamp()), 0, 1) << 10) | timeid_clock(clock_id);
BEGIN
	RETURN timeid_encode(v);
END $$;

-- An ID carrying a given time, the clock id as the generator's (backfill); not from the state.
CREATE FUNCTION timeid_generate_at(ts timestamptz) RETURNS timeid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	v bigint := (idtypes_sql_units(ts, 'timeid', 0, 1, 9007199254740991, 0, 'generator issues IDs with') << 10) | timeid_clock(NULL);
BEGIN
	RETURN timeid_encode(v);
END $$;
