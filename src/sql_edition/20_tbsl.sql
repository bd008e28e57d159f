-- tbsl (TBSL, Infocyph\UID): 20 upper-case hex digits over 10 bytes. The first 15 are the decimal payload
-- seconds*10^8 + microseconds*100 + machine id (at most 999999999999999999), the last 5 a 20-bit suffix.
-- Upper-case hex sorts as its bytes, so the domain (collation "C") orders IDs as the native type does.

CREATE FUNCTION tbsl_payload(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (('x'::pg_catalog.text OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.substr(id, 1, 15), 16, '0'))::bit(64))::bigint;

CREATE FUNCTION tbsl_encode(payload bigint, suffix bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(payload), 15, '0') OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(suffix), 5, '0') COLLATE "C");

CREATE FUNCTION tbsl_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('tbsl'::pg_catalog.text, v, CASE
	WHEN pg_catalog.octet_length(v) OPERATOR(pg_catalog.<>) 20 THEN pg_catalog.format('Expected 20 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v OPERATOR(pg_catalog.!~) '^[0123456789ABCDEF]*$' THEN idtypes_sql_symbol_detail(v, '0123456789ABCDEF'::pg_catalog.text, 'upper-case hexadecimal 0-9 A-F'::pg_catalog.text)
	ELSE 'The first 15 hex digits exceed 999999999999999999, so they cannot be read as seconds, microseconds and machine id.'::pg_catalog.text END);

CREATE DOMAIN tbsl AS text COLLATE "C" CHECK ((pg_catalog.octet_length(VALUE) OPERATOR(pg_catalog.=) 20 AND pg_catalog.length(pg_catalog.btrim(pg_catalog.textsend(VALUE), pg_catalog.decode('30313233343536373839414243444546', 'hex'))) OPERATOR(pg_catalog.=) 0
	AND VALUE COLLATE "C" OPERATOR(pg_catalog.<=) 'DE0B6B3A763FFFFFFFFF') OR tbsl_reject(VALUE));

CREATE FUNCTION tbsl_timestamp(id tbsl) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz(tbsl_payload(id) OPERATOR(pg_catalog./) 100);

CREATE FUNCTION tbsl_machine_id(id tbsl) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (tbsl_payload(id) OPERATOR(pg_catalog.%) 100)::int;

CREATE FUNCTION tbsl_suffix(id tbsl) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (('x'::pg_catalog.text OPERATOR(pg_catalog.||) pg_catalog.substr(id, 16, 5))::bit(20))::int;

CREATE FUNCTION make_tbsl(unix_seconds bigint, microseconds int, machine_id int, suffix int) RETURNS tbsl
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode((idtypes_sql_check_range('unix_seconds'::pg_catalog.text, unix_seconds, 0::bigint, 9999999999::bigint) OPERATOR(pg_catalog.*) 100000000)
	OPERATOR(pg_catalog.+) (idtypes_sql_check_range('microseconds'::pg_catalog.text, microseconds::bigint, 0::bigint, 999999::bigint) OPERATOR(pg_catalog.*) 100)
	OPERATOR(pg_catalog.+) idtypes_sql_check_range('machine_id'::pg_catalog.text, machine_id::bigint, 0::bigint, 99::bigint),
	idtypes_sql_check_range('suffix'::pg_catalog.text, suffix::bigint, 0::bigint, 1048575::bigint));

-- The smallest and the largest tbsl of a time unit (what tbsl_min, tbsl_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION tbsl_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode(u OPERATOR(pg_catalog.*) 100, 0::bigint);

CREATE FUNCTION tbsl_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode(u OPERATOR(pg_catalog.*) 100 OPERATOR(pg_catalog.+) 99, 1048575::bigint);

CREATE FUNCTION tbsl_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p OPERATOR(pg_catalog.!~) '^[0123456789ABCDEF]*$' THEN pg_catalog.text(idtypes_sql_invalid('tbsl'::pg_catalog.text, p,
		idtypes_sql_symbol_detail(p, '0123456789ABCDEF'::pg_catalog.text, 'upper-case hexadecimal 0-9 A-F'::pg_catalog.text)))
	WHEN pg_catalog.length(p) OPERATOR(pg_catalog.>) 20 THEN pg_catalog.text(idtypes_sql_invalid('tbsl'::pg_catalog.text, p,
		idtypes_sql_prefix_length_detail(20, pg_catalog.length(p))))
	ELSE p END;

-- The generator (see 00_common.sql's header): each TBSL takes a microsecond of the session's block of the
-- installation's time line, the current one or the last plus one, whichever is greater, so no two TBSLs
-- of an installation share a microsecond and the suffix never has to count within one: random (20 bits),
-- or 0 in sequenced mode (a sequence that starts at 0 in every microsecond). The session's state is the
-- last payload issued (microseconds * 100 + the installation's machine id). TBSL carries the real time:
-- idtypes_sql_reserve() waits while the clock is behind the installation's last TBSL (see there).
-- random(): PARALLEL RESTRICTED at most; it moves state: UNSAFE.
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
CREATE FUNCTION tbsl_generate(machine_id int DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	us bigint;
	v bigint;
BEGIN
	-- the session's state, as in timeid_generate (why the read is a statement of its own, and why the CASE
	-- keeps every ID as the IF it replaces did)
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on'
			AND pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'off' THEN
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_tbsl'::pg_catalog.regclass);
		us := GREATEST(pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
			OPERATOR(pg_catalog.*) 1000000::double precision)::bigint, (last OPERATOR(pg_catalog./) 100) OPERATOR(pg_catalog.+) 1);
		v := CASE WHEN (us OPERATOR(pg_catalog.>>) 11) OPERATOR(pg_catalog.=) ((last OPERATOR(pg_catalog./) 100) OPERATOR(pg_catalog.>>) 11) -- still in the block
			THEN pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_tbsl'::pg_catalog.regclass,
				(us OPERATOR(pg_catalog.*) 100) OPERATOR(pg_catalog.+) (last OPERATOR(pg_catalog.%) 100))
			ELSE pg_idtypes_sql_unbound.idtypes_sql_reserve(2) END;
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(2);
	END IF;
	-- a machine_id given replaces the state's (the payload's last two decimal digits)
	RETURN pg_idtypes_sql_unbound.tbsl_encode(CASE WHEN machine_id IS NULL THEN v
			ELSE (v OPERATOR(pg_catalog.-) (v OPERATOR(pg_catalog.%) 100)) OPERATOR(pg_catalog.+) pg_idtypes_sql_unbound.idtypes_sql_check_range(
				'machine_id'::pg_catalog.text, machine_id::bigint, 0::bigint, 99::bigint) END,
		CASE WHEN sequenced THEN 0
		ELSE (pg_catalog.random() OPERATOR(pg_catalog.*) 1048576::double precision)::bigint OPERATOR(pg_catalog.&) 1048575 END);
END $$;
-- [/1.2]

-- A TBSL carrying a given time, the machine id as the generator's (backfill); not from the state.
CREATE FUNCTION tbsl_generate_at(ts timestamptz, machine_id int DEFAULT NULL) RETURNS tbsl
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN tbsl_encode(idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, @EPOCH@::bigint, @UNIT@::bigint, @MAX@::bigint) OPERATOR(pg_catalog.*) 100
	OPERATOR(pg_catalog.+) CASE WHEN machine_id IS NULL THEN idtypes_sql_installed_identity(2)
		ELSE idtypes_sql_check_range('machine_id'::pg_catalog.text, machine_id::bigint, 0::bigint, 99::bigint) END,
	(pg_catalog.random() OPERATOR(pg_catalog.*) 1048576::double precision)::bigint OPERATOR(pg_catalog.&) 1048575);

-- The native edition's bytes of the ID (its tbsl::bytea): the 10 bytes the hex digits spell.
CREATE FUNCTION tbsl_to_bytea(id tbsl) RETURNS pg_catalog.bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.decode(id::pg_catalog.text, 'hex'::pg_catalog.text);
