-- idtypes, SQL edition (idtypes_sql): the four ID formats of idtypes in SQL and PL/pgSQL only, for servers
-- where no C extension can be installed. Built by `make sql-edition` into build/idtypes_sql.sql from
-- src/sql_edition/*.sql (in name order); installable with `psql -f` by a role that owns a schema, as
-- `CREATE EXTENSION idtypes_sql`, or through pg_tle. The objects go into the first schema of search_path.
--
-- Dump-safe by construction: pg_dump runs with an empty search_path, so every SQL function body is
-- BEGIN ATOMIC (parsed once, stored by OID), and every PL/pgSQL body names only pg_catalog objects or
-- runs with `SET search_path = pg_catalog, pg_temp`.
--
-- Shared helpers: errors worded as the native edition words them, time conversions, windows.
--
-- Speed: an SQL function is inlined into the query calling it (else it runs its own executor per call, some
-- ten times slower), which PostgreSQL does only while an argument used more than once is cheap: so the
-- PL/pgSQL helpers that such arguments call are declared COST 1, and the generators pass their volatile
-- results on through variables.

-- Raises 22P02 `invalid input syntax for type T: "..."` with the DETAIL given; the native wording.
CREATE FUNCTION idtypes_sql_invalid(type_name text, input text, detail text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
	RAISE EXCEPTION USING ERRCODE = '22P02',
		MESSAGE = pg_catalog.format('invalid input syntax for type %s: "%s"', type_name, input), DETAIL = detail;
END $$;

-- The DETAIL for the first byte of `input` outside `alphabet` (text positions count bytes, as the native
-- edition's do): `Character 4 ("!") is not in ...` for a printable ASCII byte, `Byte 12 (0xC3) ...` else.
CREATE FUNCTION idtypes_sql_symbol_detail(input text, alphabet text, alphabet_name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	bytes bytea := pg_catalog.convert_to(input, pg_catalog.current_setting('server_encoding'));
	b int;
BEGIN
	FOR i IN 0 .. pg_catalog.length(bytes) - 1 LOOP
		b := pg_catalog.get_byte(bytes, i);
		IF b >= 128 OR pg_catalog.strpos(alphabet, pg_catalog.chr(b)) = 0 THEN
			IF b BETWEEN 33 AND 126 THEN
				RETURN pg_catalog.format('Character %s ("%s") is not in %s.', i + 1, pg_catalog.chr(b), alphabet_name);
			END IF;
			RETURN pg_catalog.format('Byte %s (0x%s) is not in %s.', i + 1,
				pg_catalog.upper(pg_catalog.lpad(pg_catalog.to_hex(b), 2, '0')), alphabet_name);
		END IF;
	END LOOP;
	RETURN NULL;
END $$;

-- The DETAIL for a prefix longer than the canonical text (native: "A prefix has at most N symbols, found M.").
CREATE FUNCTION idtypes_sql_prefix_length_detail(max_symbols int, found int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.format('A prefix has at most %s symbols, found %s.', max_symbols, found);

-- Unix microseconds of a finite timestamptz (exact: extract gives numeric).
CREATE FUNCTION idtypes_sql_unix_us(ts timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (EXTRACT(EPOCH FROM ts) * 1000000)::bigint;

-- The timestamptz of Unix microseconds, exactly (an interval of whole hours and seconds: no day arithmetic,
-- so no time zone rule moves it). PL/pgSQL so that its argument, used twice, is computed once.
CREATE FUNCTION idtypes_sql_timestamptz(unix_us bigint) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN '1970-01-01 00:00:00+00'::timestamptz
		+ pg_catalog.make_interval(hours => (unix_us / 3600000000)::int, secs => (unix_us % 3600000000)::float8 / 1000000);
END $$;

-- The time unit holding ts for a format counting `unit_us` microseconds since `epoch_us`, from first_unit to
-- max_units; out of that range: 22008 with the native DETAIL ("A timeid holds times from ... to ...", or for a
-- generator's narrower range "A timeid generator issues IDs with times from ... to ...").
CREATE FUNCTION idtypes_sql_units(ts timestamptz, type_name text, epoch_us bigint, unit_us bigint, max_units bigint,
	first_unit bigint DEFAULT 0, carries text DEFAULT 'holds')
RETURNS bigint LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
	d numeric;
	units numeric;
BEGIN
	IF pg_catalog.isfinite(ts) THEN
		d := EXTRACT(EPOCH FROM ts) * 1000000 - epoch_us;
		units := pg_catalog.floor(d / unit_us);
		IF d >= 0 AND units >= first_unit AND units <= max_units THEN
			RETURN units::bigint;
		END IF;
	END IF;
	RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = pg_catalog.format('timestamp out of range for type %s', type_name),
		DETAIL = pg_catalog.format('A %s %s times from %s to %s.', type_name, carries,
			'1970-01-01 00:00:00+00'::timestamptz + pg_catalog.make_interval(secs => (epoch_us + first_unit * unit_us)::float8 / 1000000),
			'1970-01-01 00:00:00+00'::timestamptz + pg_catalog.make_interval(hours => ((epoch_us + max_units * unit_us) / 3600000000)::int,
				secs => ((epoch_us + max_units * unit_us) % 3600000000)::float8 / 1000000));
END $$;

-- The time units whose instants lie in the window, as [first, last] in an int8range (empty when none):
-- the core's window_units() (src/core/time_scale.hpp). Bounds at ±infinity and open ends are honoured.
CREATE FUNCTION idtypes_sql_window_units(w tstzrange, epoch_us bigint, unit_us bigint, max_units bigint)
RETURNS int8range LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
DECLARE
	first numeric := 0;
	last numeric := max_units;
	d numeric;
	q numeric;
	lo timestamptz := pg_catalog.lower(w);
	hi timestamptz := pg_catalog.upper(w);
BEGIN
	IF pg_catalog.isempty(w) THEN
		RETURN 'empty';
	END IF;
	IF lo IS NOT NULL AND lo <> '-infinity' THEN
		IF lo = 'infinity' THEN
			RETURN 'empty';
		END IF;
		d := EXTRACT(EPOCH FROM lo) * 1000000 - epoch_us;
		IF d >= 0 THEN
			q := pg_catalog.floor(d / unit_us);
			first := CASE WHEN pg_catalog.lower_inc(w) AND q * unit_us = d THEN q ELSE q + 1 END;
		END IF;
	END IF;
	IF hi IS NOT NULL AND hi <> 'infinity' THEN
		IF hi = '-infinity' THEN
			RETURN 'empty';
		END IF;
		d := EXTRACT(EPOCH FROM hi) * 1000000 - epoch_us;
		IF d < 0 OR (d = 0 AND NOT pg_catalog.upper_inc(w)) THEN
			RETURN 'empty';
		END IF;
		q := pg_catalog.floor(d / unit_us);
		last := least(last, CASE WHEN pg_catalog.upper_inc(w) OR q * unit_us <> d THEN q ELSE q - 1 END);
	END IF;
	IF first > last THEN
		RETURN 'empty';
	END IF;
	RETURN pg_catalog.int8range(first::bigint, last::bigint, '[]');
END $$;

-- The generators' one serialised step, for a state kept in a sequence as one bigint whose high bits (above
-- `unit_shift`) are a time unit: the next state is `fresh` (a new unit's first value) when its unit is past
-- the last state's, else the last state plus `step`. So states strictly increase: no value twice, across
-- sessions, restarts and crashes (setval is WAL-logged, and assigns the transaction an xid so that its
-- commit flushes that record), and on a standby promoted after a failover (the record was replicated).
-- The lock: a session-level advisory lock on the sequence, held only across reading and moving it (two
-- function calls), released at once, also when an error or a cancel ends the step, so that a transaction
-- that generates never holds it while it runs on or commits.
-- Called only by the generators (EXECUTE is revoked from PUBLIC), which run it as the edition's owner with
-- their own fixed search_path.
CREATE FUNCTION idtypes_sql_advance(state regclass, fresh bigint, unit_shift int, step bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT AS $$
DECLARE
	key bigint := (1229214545::bigint << 32) | state::oid::bigint;
	last bigint;
	next_state bigint;
	held boolean := false;
BEGIN
	-- The setval below is only as durable as the commit: with synchronous_commit off, a crash could lose the
	-- record while an ID it covers is already out. So a transaction that generates commits with a flush.
	IF current_setting('synchronous_commit') = 'off' THEN
		PERFORM set_config('synchronous_commit', 'local', true);
	END IF;
	BEGIN -- the exception block's subtransaction begins before the lock and ends after it: not in its hold
		PERFORM pg_advisory_lock(key);
		held := true;
		last := pg_sequence_last_value(state);
		next_state := CASE WHEN last IS NULL OR (fresh >> unit_shift) > (last >> unit_shift) THEN fresh ELSE last + step END;
		PERFORM setval(state, next_state);
		PERFORM pg_advisory_unlock(key);
	EXCEPTION WHEN OTHERS OR query_canceled THEN
		-- held, or taken just before a cancel arrived, ahead of `held := true`
		IF held OR EXISTS (SELECT FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND pid = pg_catalog.pg_backend_pid()
				AND granted AND objsubid = 1 AND classid = (key >> 32)::oid AND objid = (key & 4294967295)::oid) THEN
			PERFORM pg_advisory_unlock(key);
		END IF;
		RAISE;
	END;
	RETURN next_state;
END $$;
-- Only the generators (SECURITY DEFINER, bodies bound at creation) move the states.
REVOKE ALL ON FUNCTION idtypes_sql_advance(regclass, bigint, int, bigint) FROM PUBLIC;

-- Marks a state sequence as the extension's data where the edition is installed as an extension, so that
-- pg_dump keeps its value (installed with psql -f, the sequence is dumped like any other).
CREATE FUNCTION idtypes_sql_keep_in_dumps(state regclass) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	PERFORM pg_catalog.pg_extension_config_dump(state, '');
EXCEPTION WHEN OTHERS THEN
	NULL; -- not run by CREATE EXTENSION
END $$;

-- An argument's range check: 22003 worded as the native edition words it.
CREATE FUNCTION idtypes_sql_check_range(what text, v bigint, lo bigint, hi bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	IF v < lo OR v > hi THEN
		RAISE EXCEPTION USING ERRCODE = '22003', MESSAGE = pg_catalog.format('%s must be between %s and %s, got %s', what, lo, hi, v);
	END IF;
	RETURN v;
END $$;
