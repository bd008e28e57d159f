-- tbsl (TBSL, Infocyph\UID): 20 upper-case hex digits over 10 bytes. The first 15 are the decimal payload
-- seconds*10^8 + microseconds*100 + machine id (at most 999999999999999999), the last 5 a 20-bit suffix.
-- Upper-case hex sorts as its bytes, so the domain (collation "C") orders IDs as the native type does.

CREATE FUNCTION tbsl_payload(id text) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.lpad(pg_catalog.substr(id, 1, 15), 16, '0'))::bit(64)::bigint;

CREATE FUNCTION tbsl_encode(payload bigint, suffix bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(payload), 15, '0') || pg_catalog.lpad(pg_catalog.to_hex(suffix), 5, '0'));

CREATE FUNCTION tbsl_reject(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_invalid('tbsl', v, CASE
	WHEN pg_catalog.octet_length(v) <> 20 THEN pg_catalog.format('Expected 20 characters, found %s.', pg_catalog.octet_length(v))
	WHEN v !~ '^[0123456789ABCDEF]*$' THEN idtypes_sql_symbol_detail(v, '0123456789ABCDEF', 'upper-case hexadecimal 0-9 A-F')
	ELSE 'The first 15 hex digits exceed 999999999999999999, so they cannot be read as seconds, microseconds and machine id.' END);

CREATE FUNCTION tbsl_valid(v text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (v ~ '^[0123456789ABCDEF]{20}$' AND pg_catalog.substr(v, 1, 15) COLLATE "C" <= 'DE0B6B3A763FFFF') OR tbsl_reject(v);

CREATE DOMAIN tbsl AS text COLLATE "C" CHECK (tbsl_valid(VALUE));

CREATE FUNCTION tbsl_timestamp(id tbsl) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN idtypes_sql_timestamptz(tbsl_payload(id) / 100);

CREATE FUNCTION tbsl_machine_id(id tbsl) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (tbsl_payload(id) % 100)::int;

CREATE FUNCTION tbsl_suffix(id tbsl) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN ('x' || pg_catalog.substr(id, 16, 5))::bit(20)::int;

CREATE FUNCTION make_tbsl(unix_seconds bigint, microseconds int, machine_id int, suffix int) RETURNS tbsl
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode(idtypes_sql_check_range('unix_seconds', unix_seconds, 0, 9999999999) * 100000000
	+ idtypes_sql_check_range('microseconds', microseconds, 0, 999999) * 100
	+ idtypes_sql_check_range('machine_id', machine_id, 0, 99), idtypes_sql_check_range('suffix', suffix, 0, 1048575));

-- The smallest and the largest tbsl of a time unit (what tbsl_min, tbsl_max and the windows of
-- type.sql.in are made of).
CREATE FUNCTION tbsl_first_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode(u * 100, 0);

CREATE FUNCTION tbsl_last_of_unit(u bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_encode(u * 100 + 99, 1048575);

CREATE FUNCTION tbsl_prefix_symbols(p text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE
	WHEN p !~ '^[0123456789ABCDEF]*$' THEN pg_catalog.text(idtypes_sql_invalid('tbsl', p,
		idtypes_sql_symbol_detail(p, '0123456789ABCDEF', 'upper-case hexadecimal 0-9 A-F')))
	WHEN pg_catalog.length(p) > 20 THEN pg_catalog.text(idtypes_sql_invalid('tbsl', p, idtypes_sql_prefix_length_detail(20, pg_catalog.length(p))))
	ELSE p END;

-- The generator's state: the last microsecond issued and its suffix, two sequences moved together under
-- the lock (the pair does not fit one bigint). TBSL carries the real time: while the clock is behind the
-- last TBSL issued, the generator waits (idtypes.clock_backward_max_wait ms, default 1000) or, with
-- idtypes.clock_backward = 'error', refuses at once; within one microsecond suffixes grow (random mode:
-- by 1..16 from a random start; sequenced: 0, 1, 2, ...), and past 0xFFFFF it waits for the next one.
CREATE SEQUENCE tbsl_state_us AS bigint MINVALUE 0;
CREATE SEQUENCE tbsl_state_suffix AS bigint MINVALUE 0 MAXVALUE 1048575;
DO $$ BEGIN
	PERFORM idtypes_sql_keep_in_dumps('tbsl_state_us'), idtypes_sql_keep_in_dumps('tbsl_state_suffix');
END $$;

CREATE FUNCTION idtypes_sql_tbsl_next(us_state regclass, suffix_state regclass, machine bigint, sequenced boolean)
RETURNS text LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
	key bigint := (1229214545::bigint << 32) | us_state::oid::bigint;
	rnd bigint;
	now_us bigint;
	last_us bigint;
	suffix bigint;
	started timestamptz;
	held boolean;
BEGIN
	IF current_setting('synchronous_commit') = 'off' THEN -- as idtypes_sql_advance() does
		PERFORM set_config('synchronous_commit', 'local', true);
	END IF;
	LOOP
		rnd := (random() * 16777215)::bigint; -- 20 bits for a new microsecond, 4 for a step within one
		held := false;
		BEGIN -- as in idtypes_sql_advance()
			PERFORM pg_advisory_lock(key);
			held := true;
			now_us := (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::bigint; -- read under the lock
			last_us := pg_sequence_last_value(us_state);
			suffix := CASE WHEN last_us IS NULL OR now_us > last_us THEN CASE WHEN sequenced THEN 0 ELSE rnd & 1048575 END
				WHEN now_us = last_us THEN pg_sequence_last_value(suffix_state) + 1 + CASE WHEN sequenced THEN 0 ELSE (rnd >> 20) & 15 END
				ELSE -1 END;
			IF suffix BETWEEN 0 AND 1048575 THEN
				PERFORM setval(suffix_state, suffix);
				PERFORM setval(us_state, now_us);
			END IF;
			PERFORM pg_advisory_unlock(key);
		EXCEPTION WHEN OTHERS OR query_canceled THEN
			-- held, or taken just before a cancel arrived, ahead of `held := true`
			IF held OR EXISTS (SELECT FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND pid = pg_catalog.pg_backend_pid()
					AND granted AND objsubid = 1 AND classid = (key >> 32)::oid AND objid = (key & 4294967295)::oid) THEN
				PERFORM pg_advisory_unlock(key);
			END IF;
			RAISE;
		END;
		IF suffix BETWEEN 0 AND 1048575 THEN
			RETURN upper(lpad(to_hex(now_us * 100 + machine), 15, '0') || lpad(to_hex(suffix), 5, '0'));
		END IF;
		IF now_us < last_us AND current_setting('idtypes.clock_backward', true) = 'error' THEN
			RAISE EXCEPTION USING ERRCODE = '55000',
				MESSAGE = format('the clock is %s microseconds behind the last TBSL generated', last_us - now_us),
				HINT = 'Set idtypes.clock_backward = ''wait'' to wait for the clock instead.';
		END IF;
		started := coalesce(started, clock_timestamp());
		IF clock_timestamp() - started > coalesce(nullif(current_setting('idtypes.clock_backward_max_wait', true), '')::int, 1000) * interval '1 ms' THEN
			RAISE EXCEPTION USING ERRCODE = '55000',
				MESSAGE = format('gave up waiting for the clock after %s ms', coalesce(nullif(current_setting('idtypes.clock_backward_max_wait', true), '')::int, 1000)),
				DETAIL = format('The clock is %s microseconds behind the last TBSL generated.', last_us - now_us);
		END IF;
		PERFORM pg_sleep(0.0001);
	END LOOP;
END $$;
REVOKE ALL ON FUNCTION idtypes_sql_tbsl_next(regclass, regclass, bigint, boolean) FROM PUBLIC;

-- machine_id: the argument, else the setting idtypes.tbsl_machine_id, else 0.
CREATE FUNCTION tbsl_machine(machine_id int) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN machine_id IS NOT NULL THEN idtypes_sql_check_range('machine_id', machine_id, 0, 99)
	ELSE idtypes_sql_check_range('idtypes.tbsl_machine_id',
		coalesce(nullif(pg_catalog.current_setting('idtypes.tbsl_machine_id', true), '')::bigint, 0), 0, 99) END;

CREATE FUNCTION tbsl_generate(machine_id int DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	RETURN idtypes_sql_tbsl_next('tbsl_state_us', 'tbsl_state_suffix', tbsl_machine(machine_id), coalesce(sequenced, false));
END $$;

CREATE FUNCTION tbsl_generate_at(ts timestamptz, machine_id int DEFAULT NULL) RETURNS tbsl
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN tbsl_encode(idtypes_sql_units(ts, 'tbsl', 0, 1, 9999999999999999) * 100 + tbsl_machine(machine_id),
	(pg_catalog.random() * 1048575)::bigint);
