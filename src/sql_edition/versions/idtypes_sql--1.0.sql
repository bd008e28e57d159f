-- idtypes, SQL edition (idtypes_sql): the four ID formats of idtypes in SQL and PL/pgSQL only, for servers
-- where no C extension can be installed. Built by `make sql-edition` into build/idtypes_sql.sql from
-- src/sql_edition/*.sql (in name order); installable with `psql -1 -f` by a role that owns a schema (with
-- search_path set to that schema alone), as `CREATE EXTENSION idtypes_sql` (a superuser: not trusted, see
-- idtypes_sql.control), or through pg_tle. The objects go into the first schema of search_path.
--
-- SECURITY. The edition follows PostgreSQL's "Security Considerations for Extensions", whichever way it
-- was installed, so that nothing another role can create is ever found by name while an edition function
-- runs, with its owner's rights or with its caller's:
-- * Every operator in every body is written OPERATOR(pg_catalog.op), every function of PostgreSQL
--   pg_catalog.f, every type that is not an SQL keyword pg_catalog.t; the edition's own functions are called
--   with arguments of exactly their parameters' types (explicit casts), so that no overload, anywhere, can
--   be a better match.
-- * SQL-language bodies (RETURN ...) are parsed once, at creation, and stored by OID: as every operator in
--   them is qualified, an operator or function planted before the installation is not picked either.
-- * PL/pgSQL bodies are resolved when they run, on the caller's search_path: so they name the edition's
--   own objects through its schema, bound at installation: they are written with the placeholder schema
--   pg_idtypes_sql_unbound (a pg_ name: no role can create it), which 90_bind.sql replaces with the schema
--   the edition went into (format %I), the same under psql -f, CREATE EXTENSION and pg_tle.
-- * SECURITY DEFINER functions (idtypes_sql_reserve, idtypes_sql_installed_identity) run with
--   `search_path = pg_catalog, pg_temp`: never the edition's schema, where a role with CREATE could plant
--   a better-matching function (pg_temp, last, is searched for relations and types only, and every name
--   they use is qualified anyway). They take no name or OID from their caller.
-- * The edition's schema must be its installing role's (90_bind.sql refuses another role's): a schema's
--   owner may drop or rename anything in it and make a new schema of the same name, so no qualified name
--   is safe in a schema an untrusted role owns. Roles may still have CREATE on it: what they create there
--   is never found by the bodies (but do not grant it to untrusted roles: an overload they create can
--   capture an application's own call with an untyped argument, e.g. tbsl_generate(NULL, true)).
-- test/sql_edition/hostile.sh plants functions and operators for every name and signature the bodies use,
-- before and after installing, and runs every function as other roles; test/sql_edition/audit.sql
-- looks for unqualified operators and functions in the installed bodies.
--
-- IDENTITY IS THE INSTALLER'S, STATE IS THE INSTALLATION'S. The timeid clock id and the tbsl machine id
-- are a row of idtypes_sql_installation, a table of the installation's owner with no grant to anyone,
-- set only with idtypes_sql_set_identity() (EXECUTE revoked from PUBLIC; the owner or a superuser may
-- call it, or grant it). No setting a role could SET names them any more. Two installations on one server
-- (two databases, or two schemas of one database) each have their own state, so only distinct identities
-- keep their timeids and TBSLs apart, and no identity can be drawn that is certain to differ from the
-- others' (10 bits and 100 values cannot hold a database and a schema OID). So timeid_generate() and
-- tbsl_generate() (and their _at forms) refuse with SQLSTATE 55000, naming idtypes_sql_set_identity(),
-- until the owner has chosen this installation's identity; the owner gives every installation on the
-- server its own. uid11 and scru160 carry no identity (their formats have no field for one): their random
-- bits keep installations apart, with the formats' own odds.
--
-- GENERATION. Each generator's state is a sequence of the installation (WAL-logged, so it survives
-- restarts, crashes and a promoted standby) holding the last time unit handed out. A session reserves a
-- block of the time line at a time (idtypes_sql_reserve(): 2,048 microseconds for timeid and tbsl, 2
-- milliseconds for uid11 and scru160, aligned), under a lock on idtypes_sql_installation that only the
-- installation's owner can take (SHARE UPDATE EXCLUSIVE: its LOCK needs a privilege on the table that no
-- one else has, and the locks anyone can take on any table, ACCESS SHARE through pg_relation_size() for
-- one, do not conflict with it), and issues IDs from the block without any lock: a block goes to one
-- session only, so sessions never issue the same ID; blocks only move forward, so IDs issued one after
-- another increase; a crash loses the unused rest of a block (gaps only). The lock is taken in a
-- subtransaction that the step ends itself, so it is released at once (also on an error or a cancel),
-- never held while the transaction runs on. The session's place in its block is a temporary sequence
-- (pg_temp.idtypes_sql_<installation>_<type>): a sequence's value is not rolled back with a
-- transaction, which a setting (set_config) would be, handing an aborted transaction's IDs out again.
-- A role may move its own session's temporary sequence (it has to, to issue): that only changes the IDs
-- its own session generates, which it could write by hand anyway (make_timeid()); the shared state is
-- only ever moved by idtypes_sql_reserve(), from the clock.
-- A setting, idtypes_sql.s<installation>, tells the generators that the session's sequences exist (a
-- lookup by name for every ID would cost more); after DISCARD TEMP alone (DISCARD ALL and RESET ALL are
-- fine) RESET it. The installer needs the TEMP privilege on the database (PUBLIC has it by default).
-- What this costs: a block written to WAL, so no generation on a standby or in a read-only transaction;
-- IDs of concurrent sessions run ahead of the clock by up to a block each (a few milliseconds).
-- idtypes_sql_reserve() is executable by every role that may generate (the generators run as their
-- caller and call it): each call moves a state a block ahead, as generating quickly would; where that
-- matters, revoke EXECUTE on it and on the generators from PUBLIC and grant them to the application roles.
--
-- Dump-safe by construction: pg_dump runs with an empty search_path, which none of the above depends on.
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
	bytes pg_catalog.bytea := pg_catalog.convert_to(input, pg_catalog.current_setting('server_encoding'));
	b int;
BEGIN
	FOR i IN 0 .. pg_catalog.length(bytes) OPERATOR(pg_catalog.-) 1 LOOP
		b := pg_catalog.get_byte(bytes, i);
		IF b OPERATOR(pg_catalog.>=) 128 OR pg_catalog.strpos(alphabet, pg_catalog.chr(b)) OPERATOR(pg_catalog.=) 0 THEN
			IF b OPERATOR(pg_catalog.>=) 33 AND b OPERATOR(pg_catalog.<=) 126 THEN
				RETURN pg_catalog.format('Character %s ("%s") is not in %s.', i OPERATOR(pg_catalog.+) 1, pg_catalog.chr(b), alphabet_name);
			END IF;
			RETURN pg_catalog.format('Byte %s (0x%s) is not in %s.', i OPERATOR(pg_catalog.+) 1,
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
RETURN (EXTRACT(EPOCH FROM ts) OPERATOR(pg_catalog.*) 1000000)::bigint;

-- The timestamptz of Unix microseconds, exactly (an interval of whole hours and seconds: no day arithmetic,
-- so no time zone rule moves it). PL/pgSQL so that its argument, used twice, is computed once.
CREATE FUNCTION idtypes_sql_timestamptz(unix_us bigint) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	RETURN '1970-01-01 00:00:00+00'::pg_catalog.timestamptz OPERATOR(pg_catalog.+) pg_catalog.make_interval(
		hours => (unix_us OPERATOR(pg_catalog./) 3600000000)::int,
		secs => (unix_us OPERATOR(pg_catalog.%) 3600000000)::double precision OPERATOR(pg_catalog./) 1000000::double precision);
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
		d := EXTRACT(EPOCH FROM ts) OPERATOR(pg_catalog.*) 1000000::numeric OPERATOR(pg_catalog.-) epoch_us::numeric;
		units := pg_catalog.floor(d OPERATOR(pg_catalog./) unit_us::numeric);
		IF d OPERATOR(pg_catalog.>=) 0::numeric AND units OPERATOR(pg_catalog.>=) first_unit::numeric
				AND units OPERATOR(pg_catalog.<=) max_units::numeric THEN
			RETURN units::bigint;
		END IF;
	END IF;
	RAISE EXCEPTION USING ERRCODE = '22008', MESSAGE = pg_catalog.format('timestamp out of range for type %s', type_name),
		DETAIL = pg_catalog.format('A %s %s times from %s to %s.', type_name, carries,
			'1970-01-01 00:00:00+00'::pg_catalog.timestamptz OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs =>
				(epoch_us OPERATOR(pg_catalog.+) (first_unit OPERATOR(pg_catalog.*) unit_us))::double precision OPERATOR(pg_catalog./) 1000000::double precision),
			'1970-01-01 00:00:00+00'::pg_catalog.timestamptz OPERATOR(pg_catalog.+) pg_catalog.make_interval(
				hours => ((epoch_us OPERATOR(pg_catalog.+) (max_units OPERATOR(pg_catalog.*) unit_us)) OPERATOR(pg_catalog./) 3600000000)::int,
				secs => ((epoch_us OPERATOR(pg_catalog.+) (max_units OPERATOR(pg_catalog.*) unit_us)) OPERATOR(pg_catalog.%) 3600000000)::double precision
					OPERATOR(pg_catalog./) 1000000::double precision));
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
	lo pg_catalog.timestamptz := pg_catalog.lower(w);
	hi pg_catalog.timestamptz := pg_catalog.upper(w);
BEGIN
	IF pg_catalog.isempty(w) THEN
		RETURN 'empty';
	END IF;
	IF lo IS NOT NULL AND lo OPERATOR(pg_catalog.<>) '-infinity'::pg_catalog.timestamptz THEN
		IF lo OPERATOR(pg_catalog.=) 'infinity'::pg_catalog.timestamptz THEN
			RETURN 'empty';
		END IF;
		d := EXTRACT(EPOCH FROM lo) OPERATOR(pg_catalog.*) 1000000::numeric OPERATOR(pg_catalog.-) epoch_us::numeric;
		IF d OPERATOR(pg_catalog.>=) 0::numeric THEN
			q := pg_catalog.floor(d OPERATOR(pg_catalog./) unit_us::numeric);
			first := CASE WHEN pg_catalog.lower_inc(w) AND q OPERATOR(pg_catalog.*) unit_us::numeric OPERATOR(pg_catalog.=) d THEN q
				ELSE q OPERATOR(pg_catalog.+) 1::numeric END;
		END IF;
	END IF;
	IF hi IS NOT NULL AND hi OPERATOR(pg_catalog.<>) 'infinity'::pg_catalog.timestamptz THEN
		IF hi OPERATOR(pg_catalog.=) '-infinity'::pg_catalog.timestamptz THEN
			RETURN 'empty';
		END IF;
		d := EXTRACT(EPOCH FROM hi) OPERATOR(pg_catalog.*) 1000000::numeric OPERATOR(pg_catalog.-) epoch_us::numeric;
		IF d OPERATOR(pg_catalog.<) 0::numeric OR (d OPERATOR(pg_catalog.=) 0::numeric AND NOT pg_catalog.upper_inc(w)) THEN
			RETURN 'empty';
		END IF;
		q := pg_catalog.floor(d OPERATOR(pg_catalog./) unit_us::numeric);
		last := LEAST(last, CASE WHEN pg_catalog.upper_inc(w) OR q OPERATOR(pg_catalog.*) unit_us::numeric OPERATOR(pg_catalog.<>) d THEN q
			ELSE q OPERATOR(pg_catalog.-) 1::numeric END);
	END IF;
	IF first OPERATOR(pg_catalog.>) last THEN
		RETURN 'empty';
	END IF;
	RETURN pg_catalog.int8range(first::bigint, last::bigint, '[]');
END $$;

-- An argument's range check: 22003 worded as the native edition words it.
CREATE FUNCTION idtypes_sql_check_range(what text, v bigint, lo bigint, hi bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 1 AS $$
BEGIN
	IF v OPERATOR(pg_catalog.<) lo OR v OPERATOR(pg_catalog.>) hi THEN
		RAISE EXCEPTION USING ERRCODE = '22003', MESSAGE = pg_catalog.format('%s must be between %s and %s, got %s', what, lo, hi, v);
	END IF;
	RETURN v;
END $$;

-- The generators' encoding (several times cheaper than a substr per symbol, which every generated ID would
-- pay): the 5-bit groups of a value's low 40 bits, one per byte (the highest group in the highest byte),
-- by three steps that each move the upper half of every lane up (x + (x & upper) * (2^shift - 1)); the
-- types' files map each byte to its alphabet's symbol with a few operations on all eight at once, and
-- int8send gives the eight bytes, highest first.
CREATE FUNCTION idtypes_sql_spread40(x bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (((x OPERATOR(pg_catalog.+) ((x OPERATOR(pg_catalog.&) 1099510579200) OPERATOR(pg_catalog.*) 4095)) OPERATOR(pg_catalog.+) (((x OPERATOR(pg_catalog.+) ((x OPERATOR(pg_catalog.&) 1099510579200) OPERATOR(pg_catalog.*) 4095)) OPERATOR(pg_catalog.&) 4499201581906944) OPERATOR(pg_catalog.*) 63)) OPERATOR(pg_catalog.+) ((((x OPERATOR(pg_catalog.+) ((x OPERATOR(pg_catalog.&) 1099510579200) OPERATOR(pg_catalog.*) 4095)) OPERATOR(pg_catalog.+) (((x OPERATOR(pg_catalog.+) ((x OPERATOR(pg_catalog.&) 1099510579200) OPERATOR(pg_catalog.*) 4095)) OPERATOR(pg_catalog.&) 4499201581906944) OPERATOR(pg_catalog.*) 63)) OPERATOR(pg_catalog.&) 279227437569541088) OPERATOR(pg_catalog.*) 7));

-- The installation: its identity (one row), and the object whose lock serialises the reservation of blocks.
-- Its owner's alone: no grant, so no other role can read it, change it or lock it (SHARE UPDATE EXCLUSIVE).
CREATE TABLE idtypes_sql_installation (
	timeid_clock_id int CHECK (timeid_clock_id OPERATOR(pg_catalog.>=) 0 AND timeid_clock_id OPERATOR(pg_catalog.<=) 1023),
	tbsl_machine_id int CHECK (tbsl_machine_id OPERATOR(pg_catalog.>=) 0 AND tbsl_machine_id OPERATOR(pg_catalog.<=) 99)
);
INSERT INTO idtypes_sql_installation VALUES (NULL, NULL);
REVOKE ALL ON TABLE idtypes_sql_installation FROM PUBLIC;

-- Sets this installation's identity (owner or superuser only: EXECUTE is revoked from PUBLIC, and the
-- UPDATE needs the table's owner). Give every installation on the server (every database, every schema)
-- its own pair; an argument left NULL keeps its current value.
CREATE FUNCTION idtypes_sql_set_identity(timeid_clock_id int, tbsl_machine_id int DEFAULT NULL) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	PERFORM pg_idtypes_sql_unbound.idtypes_sql_check_range('timeid_clock_id'::pg_catalog.text, timeid_clock_id::bigint, 0::bigint, 1023::bigint),
		pg_idtypes_sql_unbound.idtypes_sql_check_range('tbsl_machine_id'::pg_catalog.text, tbsl_machine_id::bigint, 0::bigint, 99::bigint);
	UPDATE pg_idtypes_sql_unbound.idtypes_sql_installation i
		SET timeid_clock_id = COALESCE(idtypes_sql_set_identity.timeid_clock_id, i.timeid_clock_id),
			tbsl_machine_id = COALESCE(idtypes_sql_set_identity.tbsl_machine_id, i.tbsl_machine_id);
END $$;
REVOKE ALL ON FUNCTION idtypes_sql_set_identity(int, int) FROM PUBLIC;

-- The identity for generator 1 (timeid: the clock id) or 2 (tbsl: the machine id); 55000 naming the
-- function that sets it while the owner has not. SECURITY DEFINER: the table has no grant.
CREATE FUNCTION idtypes_sql_installed_identity(generator int) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	ident bigint;
BEGIN
	SELECT CASE WHEN generator OPERATOR(pg_catalog.=) 1 THEN i.timeid_clock_id ELSE i.tbsl_machine_id END INTO ident
		FROM pg_idtypes_sql_unbound.idtypes_sql_installation i;
	IF ident IS NULL THEN
		RAISE EXCEPTION USING ERRCODE = '55000',
			MESSAGE = pg_catalog.format('the SQL edition in schema %s has no %s yet', 'pg_idtypes_sql_unbound',
				CASE WHEN generator OPERATOR(pg_catalog.=) 1 THEN 'timeid clock id' ELSE 'tbsl machine id' END),
			DETAIL = 'Every installation on a server has its own state, so only distinct identities keep their IDs apart; none is drawn for it.',
			HINT = pg_catalog.format('Its owner sets it once: SELECT %s.idtypes_sql_set_identity(timeid_clock_id => 0..1023, tbsl_machine_id => 0..99), distinct for every installation on the server.',
				'pg_idtypes_sql_unbound');
	END IF;
	RETURN ident;
END $$;

-- The generators' states: the last time unit handed out in a block (microseconds for timeid and tbsl,
-- milliseconds since the xid epoch for uid11, Unix milliseconds for scru160); no grant.
CREATE SEQUENCE timeid_state AS bigint MINVALUE 0;
CREATE SEQUENCE tbsl_state AS bigint MINVALUE 0;
CREATE SEQUENCE uid11_state AS bigint MINVALUE 0;
CREATE SEQUENCE scru160_state AS bigint MINVALUE 0;
REVOKE ALL ON SEQUENCE timeid_state, tbsl_state, uid11_state, scru160_state FROM PUBLIC;
-- Where the edition is installed as an extension, its states and identity are its data, which pg_dump keeps
-- (installed with psql -f, they are dumped like any other table and sequence).
DO $$ BEGIN
	PERFORM pg_catalog.pg_extension_config_dump('idtypes_sql_installation'::pg_catalog.regclass, ''); -- one a statement: each updates
	PERFORM pg_catalog.pg_extension_config_dump('timeid_state'::pg_catalog.regclass, '');             -- pg_extension's row
	PERFORM pg_catalog.pg_extension_config_dump('tbsl_state'::pg_catalog.regclass, '');
	PERFORM pg_catalog.pg_extension_config_dump('uid11_state'::pg_catalog.regclass, '');
	PERFORM pg_catalog.pg_extension_config_dump('scru160_state'::pg_catalog.regclass, '');
EXCEPTION WHEN OTHERS THEN
	-- not run by CREATE EXTENSION: the only error it raises (its SQLSTATE differs between versions)
	IF pg_catalog.strpos(SQLERRM, 'CREATE EXTENSION') OPERATOR(pg_catalog.=) 0 THEN
		RAISE;
	END IF;
END $$;

-- The one serialised step: reserves the calling session a block of generator's time line (1 timeid, 2 tbsl,
-- 3 uid11, 4 scru160), from the clock, and returns its first state, which it also puts in the session's
-- temporary sequence (created on first use; see the header). A block starts at the clock's aligned block,
-- or after the last block handed out if that is later; it ends at the end of its aligned block, so the
-- generators tell whether a state is still in their block by its block number alone.
-- The state is a sequence (setval is not rolled back, and is WAL-logged: the transaction gets an xid, so
-- its commit flushes the record); with synchronous_commit off a crash could lose the record while IDs of
-- the block are out, so the transaction commits with a flush (`local`): set here, outside the
-- subtransaction, which would undo it.
-- How long tbsl's reservation waits for a clock behind its last TBSL, in milliseconds, from the two settings
-- the native edition reads for it, read the same way; NULL when it refuses at once. The settings are the
-- session's own choice for its own IDs (any role may SET them, natively too), so the edition reads them,
-- and only them: nothing that names an identity. Where the native library is loaded (preloaded, or by a
-- native call earlier in the session) they are real settings, shown with a unit ('1s', '500ms', '1min');
-- elsewhere they are placeholders holding whatever text was SET. Either way: idtypes.clock_backward is
-- 'wait' (default) or 'error', in any case; idtypes.clock_backward_max_wait is 0..60000 ms, a number (ms)
-- or a number with a time unit (us, ms, s, min, h, d, as PostgreSQL reads it; through the interval input,
-- which reads those units), default 1000. Anything else is refused (22023, PostgreSQL's wording), by tbsl
-- only, as the native edition refuses it at SET.
CREATE FUNCTION idtypes_sql_clock_wait() RETURNS int
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
	backward pg_catalog.text := pg_catalog.lower(pg_catalog.btrim(COALESCE(pg_catalog.current_setting('idtypes.clock_backward', true), '')));
	raw pg_catalog.text := pg_catalog.btrim(COALESCE(pg_catalog.current_setting('idtypes.clock_backward_max_wait', true), ''));
	ms numeric;
BEGIN
	IF NOT (backward OPERATOR(pg_catalog.=) '' OR backward OPERATOR(pg_catalog.=) 'wait' OR backward OPERATOR(pg_catalog.=) 'error') THEN
		RAISE EXCEPTION USING ERRCODE = '22023',
			MESSAGE = pg_catalog.format('invalid value for parameter "idtypes.clock_backward": "%s"',
				pg_catalog.current_setting('idtypes.clock_backward', true)),
			HINT = 'Available values: wait, error.';
	END IF;
	IF raw OPERATOR(pg_catalog.=) '' THEN
		ms := 1000;
	ELSIF raw OPERATOR(pg_catalog.~) '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)$' THEN -- a number: milliseconds
		ms := pg_catalog.round(raw::numeric);
	ELSE
		BEGIN
			ms := pg_catalog.round(EXTRACT(EPOCH FROM raw::pg_catalog.interval) OPERATOR(pg_catalog.*) 1000::numeric);
		EXCEPTION WHEN data_exception THEN
			ms := NULL;
		END;
	END IF;
	IF ms IS NULL OR ms OPERATOR(pg_catalog.<) 0::numeric OR ms OPERATOR(pg_catalog.>) 60000::numeric THEN
		RAISE EXCEPTION USING ERRCODE = '22023',
			MESSAGE = pg_catalog.format('invalid value for parameter "idtypes.clock_backward_max_wait": "%s"', raw),
			DETAIL = 'It is a time from 0 to 60000 ms: a number of milliseconds, or a number with a unit (''1s'', ''500ms'').',
			HINT = 'SET idtypes.clock_backward_max_wait = ''1s'', or RESET it (1000 ms).';
	END IF;
	RETURN CASE WHEN backward OPERATOR(pg_catalog.=) 'error' THEN NULL ELSE ms::int END;
END $$;

-- tbsl carries the real time: when its state is more than a second ahead of the clock (further than
-- concurrent blocks take it), the clock went back: the step waits or refuses, as idtypes_sql_clock_wait()
-- reads the session's settings.
CREATE FUNCTION idtypes_sql_reserve(generator int) RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	ident bigint := 0;
	us bigint;
	unit bigint;
	shift int := CASE WHEN generator OPERATOR(pg_catalog.<=) 2 THEN 11 ELSE 1 END; -- log2 of a block's units
	last bigint;
	first bigint;
	state bigint;
	behind bigint := 0;
	started pg_catalog.timestamptz;
	max_wait int := CASE WHEN generator OPERATOR(pg_catalog.=) 2 THEN pg_idtypes_sql_unbound.idtypes_sql_clock_wait() END;
	session_states pg_catalog.text[] := ARRAY['idtypes_sql_pg_idtypes_sql_key_timeid', 'idtypes_sql_pg_idtypes_sql_key_tbsl',
		'idtypes_sql_pg_idtypes_sql_key_uid11', 'idtypes_sql_pg_idtypes_sql_key_scru160'];
BEGIN
	IF generator OPERATOR(pg_catalog.<) 1 OR generator OPERATOR(pg_catalog.>) 4 THEN
		RAISE EXCEPTION USING ERRCODE = '22003', MESSAGE = pg_catalog.format('generator must be between 1 and 4, got %s', generator);
	END IF;
	IF generator OPERATOR(pg_catalog.<=) 2 THEN
		ident := pg_idtypes_sql_unbound.idtypes_sql_installed_identity(generator);
	END IF;
	IF pg_catalog.current_setting('synchronous_commit') OPERATOR(pg_catalog.=) 'off' THEN
		PERFORM pg_catalog.set_config('synchronous_commit', 'local', true);
	END IF;
	LOOP
		us := pg_catalog.round(pg_catalog.date_part('epoch', pg_catalog.clock_timestamp()) OPERATOR(pg_catalog.*) 1000000::double precision)::bigint;
		unit := CASE WHEN generator OPERATOR(pg_catalog.<=) 2 THEN us
			WHEN generator OPERATOR(pg_catalog.=) 3 THEN us OPERATOR(pg_catalog./) 1000 OPERATOR(pg_catalog.-) 1321009871111
			ELSE us OPERATOR(pg_catalog./) 1000 END;
		BEGIN -- a subtransaction: the lock is released when it ends, here or on any error or cancel
			LOCK TABLE pg_idtypes_sql_unbound.idtypes_sql_installation IN SHARE UPDATE EXCLUSIVE MODE;
			last := pg_catalog.pg_sequence_last_value(CASE generator
				WHEN 1 THEN 'pg_idtypes_sql_unbound.timeid_state'::pg_catalog.regclass
				WHEN 2 THEN 'pg_idtypes_sql_unbound.tbsl_state'::pg_catalog.regclass
				WHEN 3 THEN 'pg_idtypes_sql_unbound.uid11_state'::pg_catalog.regclass
				ELSE 'pg_idtypes_sql_unbound.scru160_state'::pg_catalog.regclass END);
			first := GREATEST((unit OPERATOR(pg_catalog.>>) shift) OPERATOR(pg_catalog.<<) shift,
				COALESCE(last OPERATOR(pg_catalog.+) 1, 0));
			behind := CASE WHEN generator OPERATOR(pg_catalog.=) 2 THEN first OPERATOR(pg_catalog.-) unit ELSE 0 END;
			IF behind OPERATOR(pg_catalog.<=) 1000000 THEN
				PERFORM pg_catalog.setval(CASE generator
					WHEN 1 THEN 'pg_idtypes_sql_unbound.timeid_state'::pg_catalog.regclass
					WHEN 2 THEN 'pg_idtypes_sql_unbound.tbsl_state'::pg_catalog.regclass
					WHEN 3 THEN 'pg_idtypes_sql_unbound.uid11_state'::pg_catalog.regclass
					ELSE 'pg_idtypes_sql_unbound.scru160_state'::pg_catalog.regclass END,
					(((first OPERATOR(pg_catalog.>>) shift) OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.<<) shift) OPERATOR(pg_catalog.-) 1);
			END IF;
			RAISE SQLSTATE 'IDT00'; -- ends the subtransaction, and the lock with it
		EXCEPTION WHEN SQLSTATE 'IDT00' THEN
			NULL;
		END;
		EXIT WHEN behind OPERATOR(pg_catalog.<=) 1000000;
		IF max_wait IS NULL THEN -- idtypes.clock_backward = 'error'
			RAISE EXCEPTION USING ERRCODE = '55000',
				MESSAGE = pg_catalog.format('the clock is %s microseconds behind the last TBSL generated', behind),
				HINT = 'Set idtypes.clock_backward = ''wait'' to wait for the clock instead.';
		END IF;
		started := COALESCE(started, pg_catalog.clock_timestamp());
		IF pg_catalog.clock_timestamp() OPERATOR(pg_catalog.-) started OPERATOR(pg_catalog.>) pg_catalog.make_interval(secs =>
				max_wait::double precision OPERATOR(pg_catalog./) 1000::double precision) THEN
			RAISE EXCEPTION USING ERRCODE = '55000',
				MESSAGE = pg_catalog.format('gave up waiting for the clock after %s ms', max_wait),
				DETAIL = pg_catalog.format('The clock is %s microseconds behind the last TBSL generated.', behind);
		END IF;
		PERFORM pg_catalog.pg_sleep(0.001::double precision);
	END LOOP;
	first := GREATEST(first, unit);
	state := CASE generator
		WHEN 1 THEN (first OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) ident
		WHEN 2 THEN first OPERATOR(pg_catalog.*) 100 OPERATOR(pg_catalog.+) ident
		-- uid11: the xid value less 2^63 (a bigint in the same order), its random field drawn
		WHEN 3 THEN ((first OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (pg_catalog.random() OPERATOR(pg_catalog.*) 4194303::double precision)::bigint)
			OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1)
		-- scru160: timestamp<<16 | counter, the counter from 15 random bits
		ELSE (first OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (pg_catalog.random() OPERATOR(pg_catalog.*) 32767::double precision)::bigint END;
	-- The session's four temporary sequences, and the setting that tells the generators they exist (so they
	-- need not look them up by name for every ID); both are undone together if the transaction aborts.
	-- After DISCARD ALL or RESET ALL they are made again; after DISCARD TEMP alone, RESET the setting.
	-- (START 0: scru160_generate's first nextval of a sequence no block was put in yet gives a head that
	-- no block holds, so it asks for one.)
	IF COALESCE(pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true), '') OPERATOR(pg_catalog.<>) 'on' THEN
		FOR i IN 1 .. 4 LOOP
			EXECUTE pg_catalog.format('CREATE TEMPORARY SEQUENCE IF NOT EXISTS pg_temp.%I AS bigint MINVALUE -9223372036854775808 START 0;'
				' GRANT SELECT, UPDATE ON SEQUENCE pg_temp.%I TO PUBLIC', session_states[i], session_states[i]);
		END LOOP;
		PERFORM pg_catalog.set_config('idtypes_sql.spg_idtypes_sql_key', 'on', false);
	END IF;
	RETURN pg_catalog.setval(pg_catalog.format('pg_temp.%I', session_states[generator])::pg_catalog.regclass, state);
END $$;
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
RETURN idtypes_sql_timestamptz((timeid_decode(id) OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 18014398509481983);

CREATE FUNCTION timeid_micros(id timeid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (timeid_decode(id) OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.&) 18014398509481983;

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
CREATE FUNCTION timeid_generate(clock_id int DEFAULT NULL) RETURNS timeid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	v bigint;
	hi bigint;
BEGIN
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on' THEN -- the session's state is set up
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_timeid'::pg_catalog.regclass);
	END IF;
	v := GREATEST(pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint, (last OPERATOR(pg_catalog.>>) 10) OPERATOR(pg_catalog.+) 1);
	IF (v OPERATOR(pg_catalog.>>) 11) OPERATOR(pg_catalog.=) (last OPERATOR(pg_catalog.>>) 21) THEN -- still in the block
		v := pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_timeid'::pg_catalog.regclass,
			(v OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) (last OPERATOR(pg_catalog.&) 1023));
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(1);
	END IF;
	IF clock_id IS NOT NULL THEN
		v := (v OPERATOR(pg_catalog.&) -1024) OPERATOR(pg_catalog.|) pg_idtypes_sql_unbound.idtypes_sql_check_range(
			'clock_id'::pg_catalog.text, clock_id::bigint, 0::bigint, 1023::bigint);
	END IF;
	-- timeid_encode(v), in two groups of symbols (5 and 8) made at once
	hi := pg_idtypes_sql_unbound.idtypes_sql_spread40((v OPERATOR(pg_catalog.>>) 40) OPERATOR(pg_catalog.&) 16777215);
	v := pg_idtypes_sql_unbound.idtypes_sql_spread40(v OPERATOR(pg_catalog.&) 1099511627775);
	RETURN pg_catalog.encode(pg_catalog.substr(pg_idtypes_sql_unbound.timeid_symbols8(hi), 4, 5)
		OPERATOR(pg_catalog.||) pg_idtypes_sql_unbound.timeid_symbols8(v), 'escape');
END $$;

-- An ID carrying a given time, the clock id as the generator's (backfill); not from the state.
CREATE FUNCTION timeid_generate_at(ts timestamptz) RETURNS timeid
LANGUAGE sql STABLE STRICT PARALLEL SAFE
RETURN timeid_encode((idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 9007199254740991::bigint, 0::bigint,
	'generator issues IDs with'::pg_catalog.text) OPERATOR(pg_catalog.<<) 10) OPERATOR(pg_catalog.|) idtypes_sql_installed_identity(1));
-- timeid's times and ranges (src/sql_edition/type.sql.in, instantiated for each type by the Makefile): its
-- time units are 1 microseconds since Unix microsecond 0, 0 .. 18014398509481983.

-- The smallest / largest timeid at an instant (the instant truncated to the unit); outside the type's times: 22008.
CREATE FUNCTION timeid_min(ts timestamptz) RETURNS timeid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_first_of_unit(idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 18014398509481983::bigint));

CREATE FUNCTION timeid_max(ts timestamptz) RETURNS timeid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN timeid_last_of_unit(idtypes_sql_units(ts, 'timeid'::pg_catalog.text, 0::bigint, 1::bigint, 18014398509481983::bigint));

-- `id <@ tstzrange`: the IDs from the window's first unit's smallest to its last unit's largest, as two
-- comparisons of the column with expressions of the range alone; the function is inlined, so a btree on
-- the column answers them (`Index Cond`), for constants, parameters and now()-relative windows alike.
-- An empty window gives bounds no text lies between ('~' sorts after every symbol).
CREATE FUNCTION timeid_window_lo(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 18014398509481983::bigint)) THEN '~'::pg_catalog.text
	ELSE timeid_first_of_unit(pg_catalog.lower(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 18014398509481983::bigint))) END;

CREATE FUNCTION timeid_window_hi(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 18014398509481983::bigint)) THEN ''::pg_catalog.text
	ELSE timeid_last_of_unit(pg_catalog.upper(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 18014398509481983::bigint)) OPERATOR(pg_catalog.-) 1::bigint) END;

CREATE FUNCTION timeid_in_window(id timeid, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (timeid_window_lo(w) COLLATE "C") AND id OPERATOR(pg_catalog.<=) (timeid_window_hi(w) COLLATE "C");

CREATE OPERATOR <@ (LEFTARG = timeid, RIGHTARG = tstzrange, FUNCTION = timeid_in_window);

-- `id ^@ prefix` (a prefix of type text): the canonical texts from the prefix's symbols padded with the
-- alphabet's first symbol to those padded with its last, the same inlined form as the windows.
CREATE FUNCTION timeid_starts_with(id timeid, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (pg_catalog.rpad(timeid_prefix_symbols(prefix), 13, '2') COLLATE "C")
	AND id OPERATOR(pg_catalog.<=) (pg_catalog.rpad(timeid_prefix_symbols(prefix), 13, 'z') COLLATE "C");

CREATE OPERATOR ^@ (LEFTARG = timeid, RIGHTARG = text, FUNCTION = timeid_starts_with);
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
CREATE FUNCTION tbsl_generate(machine_id int DEFAULT NULL, sequenced boolean DEFAULT false) RETURNS tbsl
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	us bigint;
	v bigint;
BEGIN
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on' THEN -- the session's state is set up
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_tbsl'::pg_catalog.regclass);
	END IF;
	us := GREATEST(pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint, (last OPERATOR(pg_catalog./) 100) OPERATOR(pg_catalog.+) 1);
	IF (us OPERATOR(pg_catalog.>>) 11) OPERATOR(pg_catalog.=) ((last OPERATOR(pg_catalog./) 100) OPERATOR(pg_catalog.>>) 11) THEN -- still in the block
		v := pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_tbsl'::pg_catalog.regclass,
			(us OPERATOR(pg_catalog.*) 100) OPERATOR(pg_catalog.+) (last OPERATOR(pg_catalog.%) 100));
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(2);
	END IF;
	IF machine_id IS NOT NULL THEN
		v := (v OPERATOR(pg_catalog.-) (v OPERATOR(pg_catalog.%) 100)) OPERATOR(pg_catalog.+) pg_idtypes_sql_unbound.idtypes_sql_check_range(
			'machine_id'::pg_catalog.text, machine_id::bigint, 0::bigint, 99::bigint);
	END IF;
	RETURN pg_idtypes_sql_unbound.tbsl_encode(v, CASE WHEN sequenced THEN 0
		ELSE (pg_catalog.random() OPERATOR(pg_catalog.*) 1048576::double precision)::bigint OPERATOR(pg_catalog.&) 1048575 END);
END $$;

-- A TBSL carrying a given time, the machine id as the generator's (backfill); not from the state.
CREATE FUNCTION tbsl_generate_at(ts timestamptz, machine_id int DEFAULT NULL) RETURNS tbsl
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN tbsl_encode(idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, 0::bigint, 1::bigint, 9999999999999999::bigint) OPERATOR(pg_catalog.*) 100
	OPERATOR(pg_catalog.+) CASE WHEN machine_id IS NULL THEN idtypes_sql_installed_identity(2)
		ELSE idtypes_sql_check_range('machine_id'::pg_catalog.text, machine_id::bigint, 0::bigint, 99::bigint) END,
	(pg_catalog.random() OPERATOR(pg_catalog.*) 1048576::double precision)::bigint OPERATOR(pg_catalog.&) 1048575);
-- tbsl's times and ranges (src/sql_edition/type.sql.in, instantiated for each type by the Makefile): its
-- time units are 1 microseconds since Unix microsecond 0, 0 .. 9999999999999999.

-- The smallest / largest tbsl at an instant (the instant truncated to the unit); outside the type's times: 22008.
CREATE FUNCTION tbsl_min(ts timestamptz) RETURNS tbsl
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_first_of_unit(idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, 0::bigint, 1::bigint, 9999999999999999::bigint));

CREATE FUNCTION tbsl_max(ts timestamptz) RETURNS tbsl
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN tbsl_last_of_unit(idtypes_sql_units(ts, 'tbsl'::pg_catalog.text, 0::bigint, 1::bigint, 9999999999999999::bigint));

-- `id <@ tstzrange`: the IDs from the window's first unit's smallest to its last unit's largest, as two
-- comparisons of the column with expressions of the range alone; the function is inlined, so a btree on
-- the column answers them (`Index Cond`), for constants, parameters and now()-relative windows alike.
-- An empty window gives bounds no text lies between ('~' sorts after every symbol).
CREATE FUNCTION tbsl_window_lo(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 9999999999999999::bigint)) THEN '~'::pg_catalog.text
	ELSE tbsl_first_of_unit(pg_catalog.lower(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 9999999999999999::bigint))) END;

CREATE FUNCTION tbsl_window_hi(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 9999999999999999::bigint)) THEN ''::pg_catalog.text
	ELSE tbsl_last_of_unit(pg_catalog.upper(idtypes_sql_window_units(w, 0::bigint, 1::bigint, 9999999999999999::bigint)) OPERATOR(pg_catalog.-) 1::bigint) END;

CREATE FUNCTION tbsl_in_window(id tbsl, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (tbsl_window_lo(w) COLLATE "C") AND id OPERATOR(pg_catalog.<=) (tbsl_window_hi(w) COLLATE "C");

CREATE OPERATOR <@ (LEFTARG = tbsl, RIGHTARG = tstzrange, FUNCTION = tbsl_in_window);

-- `id ^@ prefix` (a prefix of type text): the canonical texts from the prefix's symbols padded with the
-- alphabet's first symbol to those padded with its last, the same inlined form as the windows.
CREATE FUNCTION tbsl_starts_with(id tbsl, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (pg_catalog.rpad(tbsl_prefix_symbols(prefix), 20, '0') COLLATE "C")
	AND id OPERATOR(pg_catalog.<=) (pg_catalog.rpad(tbsl_prefix_symbols(prefix), 20, 'F') COLLATE "C");

CREATE OPERATOR ^@ (LEFTARG = tbsl, RIGHTARG = text, FUNCTION = tbsl_starts_with);
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
RETURN idtypes_sql_timestamptz((pg_catalog.div(uid11_decode(id), 4194304::numeric)::bigint OPERATOR(pg_catalog.+) 1321009871111) OPERATOR(pg_catalog.*) 1000);

CREATE FUNCTION uid11_xid_random(id uid11) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN pg_catalog.mod(uid11_decode(id), 4194304::numeric)::int;

CREATE FUNCTION make_uid11_xid(unix_ms bigint, random int) RETURNS uid11
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_encode(((idtypes_sql_check_range('unix_ms'::pg_catalog.text, unix_ms, 1321009871111::bigint, (1321009871111 OPERATOR(pg_catalog.+) 4398046511103)::bigint)
	OPERATOR(pg_catalog.-) 1321009871111)::numeric OPERATOR(pg_catalog.*) 4194304::numeric)
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
CREATE FUNCTION uid11_generate() RETURNS uid11
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	last bigint;
	ms bigint := (pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint OPERATOR(pg_catalog./) 1000) OPERATOR(pg_catalog.-) 1321009871111;
	rnd bigint := (pg_catalog.random() OPERATOR(pg_catalog.*) 4194304::double precision)::bigint;
	v bigint;
	x bigint;
BEGIN
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on' THEN -- the session's state is set up
		last := pg_catalog.pg_sequence_last_value('pg_temp.idtypes_sql_pg_idtypes_sql_key_uid11'::pg_catalog.regclass);
	END IF;
	v := CASE WHEN last IS NULL OR ms OPERATOR(pg_catalog.>) ((last OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.+) 2199023255552)
		THEN ((ms OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (rnd OPERATOR(pg_catalog.&) 4194303)) OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1)
		ELSE (last OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.+) (rnd OPERATOR(pg_catalog.&) 15) END;
	IF (v OPERATOR(pg_catalog.>>) 23) OPERATOR(pg_catalog.=) (last OPERATOR(pg_catalog.>>) 23) THEN -- still in the block
		v := pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_uid11'::pg_catalog.regclass, v);
	ELSE
		v := pg_idtypes_sql_unbound.idtypes_sql_reserve(3);
	END IF;
	v := v OPERATOR(pg_catalog.#) (-9223372036854775807 OPERATOR(pg_catalog.-) 1); -- the xid value, while below 2^63 (until 2081)
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

-- random(): PARALLEL RESTRICTED.
CREATE FUNCTION uid11_generate_at(ts timestamptz) RETURNS uid11
LANGUAGE sql VOLATILE PARALLEL RESTRICTED
RETURN uid11_encode((idtypes_sql_units(ts, 'uid11'::pg_catalog.text, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint)::numeric
	OPERATOR(pg_catalog.*) 4194304::numeric) OPERATOR(pg_catalog.+) (pg_catalog.random() OPERATOR(pg_catalog.*) 4194303::double precision)::bigint::numeric);
-- uid11's times and ranges (src/sql_edition/type.sql.in, instantiated for each type by the Makefile): its
-- time units are 1000 microseconds since Unix microsecond 1321009871111000, 0 .. 4398046511103.

-- The smallest / largest uid11 at an instant (the instant truncated to the unit); outside the type's times: 22008.
CREATE FUNCTION uid11_min(ts timestamptz) RETURNS uid11
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_first_of_unit(idtypes_sql_units(ts, 'uid11'::pg_catalog.text, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint));

CREATE FUNCTION uid11_max(ts timestamptz) RETURNS uid11
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN uid11_last_of_unit(idtypes_sql_units(ts, 'uid11'::pg_catalog.text, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint));

-- `id <@ tstzrange`: the IDs from the window's first unit's smallest to its last unit's largest, as two
-- comparisons of the column with expressions of the range alone; the function is inlined, so a btree on
-- the column answers them (`Index Cond`), for constants, parameters and now()-relative windows alike.
-- An empty window gives bounds no text lies between ('~' sorts after every symbol).
CREATE FUNCTION uid11_window_lo(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint)) THEN '~'::pg_catalog.text
	ELSE uid11_first_of_unit(pg_catalog.lower(idtypes_sql_window_units(w, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint))) END;

CREATE FUNCTION uid11_window_hi(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint)) THEN ''::pg_catalog.text
	ELSE uid11_last_of_unit(pg_catalog.upper(idtypes_sql_window_units(w, 1321009871111000::bigint, 1000::bigint, 4398046511103::bigint)) OPERATOR(pg_catalog.-) 1::bigint) END;

CREATE FUNCTION uid11_in_window(id uid11, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (uid11_window_lo(w) COLLATE "C") AND id OPERATOR(pg_catalog.<=) (uid11_window_hi(w) COLLATE "C");

CREATE OPERATOR <@ (LEFTARG = uid11, RIGHTARG = tstzrange, FUNCTION = uid11_in_window);

-- `id ^@ prefix` (a prefix of type text): the canonical texts from the prefix's symbols padded with the
-- alphabet's first symbol to those padded with its last, the same inlined form as the windows.
CREATE FUNCTION uid11_starts_with(id uid11, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (pg_catalog.rpad(uid11_prefix_symbols(prefix), 11, '1') COLLATE "C")
	AND id OPERATOR(pg_catalog.<=) (pg_catalog.rpad(uid11_prefix_symbols(prefix), 11, 'z') COLLATE "C");

CREATE OPERATOR ^@ (LEFTARG = uid11, RIGHTARG = text, FUNCTION = uid11_starts_with);
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
CREATE FUNCTION scru160_generate() RETURNS scru160
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	ms bigint := pg_catalog.round(pg_catalog.date_part('epoch'::pg_catalog.text, pg_catalog.clock_timestamp())
		OPERATOR(pg_catalog.*) 1000000::double precision)::bigint OPERATOR(pg_catalog./) 1000;
	head bigint;
	u pg_catalog.uuid := pg_catalog.gen_random_uuid();
	g bigint;
BEGIN
	IF pg_catalog.current_setting('idtypes_sql.spg_idtypes_sql_key', true) OPERATOR(pg_catalog.=) 'on' THEN -- the session's state is set up
		-- the last head plus one, the same millisecond's next counter, in one step (the common case); a new
		-- millisecond's counter from 15 random bits (of the UUID); NULL past the session's block
		head := pg_catalog.nextval('pg_temp.idtypes_sql_pg_idtypes_sql_key_scru160'::pg_catalog.regclass);
		head := CASE WHEN ms OPERATOR(pg_catalog.>) (head OPERATOR(pg_catalog.>>) 16) THEN
				CASE WHEN (ms OPERATOR(pg_catalog.>>) 1) OPERATOR(pg_catalog.=) ((head OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.>>) 17)
				THEN pg_catalog.setval('pg_temp.idtypes_sql_pg_idtypes_sql_key_scru160'::pg_catalog.regclass,
					(ms OPERATOR(pg_catalog.<<) 16) OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 3::bigint) OPERATOR(pg_catalog.&) 32767)) END
			WHEN (head OPERATOR(pg_catalog.>>) 17) OPERATOR(pg_catalog.<>) ((head OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.>>) 17) THEN NULL
			ELSE head END;
	END IF;
	IF head IS NULL THEN -- no block yet, or past it: a new one
		head := pg_idtypes_sql_unbound.idtypes_sql_reserve(4);
	END IF;
	g := pg_idtypes_sql_unbound.idtypes_sql_spread40(((head OPERATOR(pg_catalog.&) 16777215) OPERATOR(pg_catalog.<<) 16)
		OPERATOR(pg_catalog.|) (pg_catalog.uuid_hash_extended(u, 2::bigint) OPERATOR(pg_catalog.&) 65535));
	head := pg_idtypes_sql_unbound.idtypes_sql_spread40(head OPERATOR(pg_catalog.>>) 24);
	RETURN pg_idtypes_sql_unbound.scru160_text(head, g, u);
END $$;

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
-- scru160's times and ranges (src/sql_edition/type.sql.in, instantiated for each type by the Makefile): its
-- time units are 1000 microseconds since Unix microsecond 0, 0 .. 281474976710655.

-- The smallest / largest scru160 at an instant (the instant truncated to the unit); outside the type's times: 22008.
CREATE FUNCTION scru160_min(ts timestamptz) RETURNS scru160
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_first_of_unit(idtypes_sql_units(ts, 'scru160'::pg_catalog.text, 0::bigint, 1000::bigint, 281474976710655::bigint));

CREATE FUNCTION scru160_max(ts timestamptz) RETURNS scru160
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN scru160_last_of_unit(idtypes_sql_units(ts, 'scru160'::pg_catalog.text, 0::bigint, 1000::bigint, 281474976710655::bigint));

-- `id <@ tstzrange`: the IDs from the window's first unit's smallest to its last unit's largest, as two
-- comparisons of the column with expressions of the range alone; the function is inlined, so a btree on
-- the column answers them (`Index Cond`), for constants, parameters and now()-relative windows alike.
-- An empty window gives bounds no text lies between ('~' sorts after every symbol).
CREATE FUNCTION scru160_window_lo(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1000::bigint, 281474976710655::bigint)) THEN '~'::pg_catalog.text
	ELSE scru160_first_of_unit(pg_catalog.lower(idtypes_sql_window_units(w, 0::bigint, 1000::bigint, 281474976710655::bigint))) END;

CREATE FUNCTION scru160_window_hi(w tstzrange) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN pg_catalog.isempty(idtypes_sql_window_units(w, 0::bigint, 1000::bigint, 281474976710655::bigint)) THEN ''::pg_catalog.text
	ELSE scru160_last_of_unit(pg_catalog.upper(idtypes_sql_window_units(w, 0::bigint, 1000::bigint, 281474976710655::bigint)) OPERATOR(pg_catalog.-) 1::bigint) END;

CREATE FUNCTION scru160_in_window(id scru160, w tstzrange) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (scru160_window_lo(w) COLLATE "C") AND id OPERATOR(pg_catalog.<=) (scru160_window_hi(w) COLLATE "C");

CREATE OPERATOR <@ (LEFTARG = scru160, RIGHTARG = tstzrange, FUNCTION = scru160_in_window);

-- `id ^@ prefix` (a prefix of type text): the canonical texts from the prefix's symbols padded with the
-- alphabet's first symbol to those padded with its last, the same inlined form as the windows.
CREATE FUNCTION scru160_starts_with(id scru160, prefix text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN id OPERATOR(pg_catalog.>=) (pg_catalog.rpad(scru160_prefix_symbols(prefix), 32, '0') COLLATE "C")
	AND id OPERATOR(pg_catalog.<=) (pg_catalog.rpad(scru160_prefix_symbols(prefix), 32, 'V') COLLATE "C");

CREATE OPERATOR ^@ (LEFTARG = scru160, RIGHTARG = text, FUNCTION = scru160_starts_with);
-- The installation's bindings (see 00_common.sql's header): the PL/pgSQL bodies name the edition's own
-- objects in the placeholder schema pg_idtypes_sql_unbound (no role can create a pg_ schema, so until this
-- step they fail rather than find anything) and its sessions' temporary sequences with the placeholder
-- pg_idtypes_sql_key. Both are bound here, at installation: the schema the edition went into, quoted
-- (format %I), and a key of that schema's name (distinct for two installations in one database; kept by a
-- dump and restore). The same step runs under psql -f, CREATE EXTENSION and pg_tle; pg_dump then writes the
-- bound bodies as they are. It also refuses a schema another role owns (below).
DO $$
DECLARE
	schema_name pg_catalog.text := pg_catalog.current_schema();
	f pg_catalog.oid;
BEGIN
	IF schema_name OPERATOR(pg_catalog.~) '[''$\\]' THEN
		RAISE EXCEPTION USING ERRCODE = '42602', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s', schema_name),
			DETAIL = 'Its name would be written into the bodies of its functions; a quote, a dollar sign or a backslash is not allowed.';
	END IF;
	-- The schema must be the installing role's (or a superuser's, or the database owner's public schema
	-- installed by the database owner): a schema's owner may drop or rename anything in it, and make a new
	-- schema of its name, so every name the bodies qualify would then be the owner's, called by the
	-- edition's functions with their callers' rights, and by its SECURITY DEFINER ones with the installer's.
	IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) n.nspowner
			WHERE n.nspname OPERATOR(pg_catalog.=) schema_name AND (r.rolsuper OR r.rolname OPERATOR(pg_catalog.=) current_user
				OR (r.rolname OPERATOR(pg_catalog.=) 'pg_database_owner' AND EXISTS (SELECT FROM pg_catalog.pg_database d
					WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database() AND d.datdba OPERATOR(pg_catalog.=) current_user::pg_catalog.regrole::pg_catalog.oid)))) THEN
		RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('the SQL edition cannot go into schema %s, which %s owns',
				schema_name, (SELECT n.nspowner::pg_catalog.regrole FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) schema_name)),
			DETAIL = 'The owner of a schema can drop or rename what is in it, and put its own functions in their place for the edition''s functions to call with other roles'' rights.',
			HINT = pg_catalog.format('Install it as the schema''s owner, or into a schema of the installing role (CREATE SCHEMA ... AUTHORIZATION %I).', current_user);
	END IF;
	FOR f IN SELECT p.oid FROM pg_catalog.pg_proc p
		WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_name::pg_catalog.regnamespace::pg_catalog.oid
		AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0
	LOOP
		EXECUTE pg_catalog.replace(pg_catalog.replace(pg_catalog.pg_get_functiondef(f),
			'pg_idtypes_sql_unbound', pg_catalog.format('%I', schema_name)),
			'pg_idtypes_sql_key', pg_catalog.left(pg_catalog.md5(schema_name), 16));
	END LOOP;
	IF EXISTS (SELECT FROM pg_catalog.pg_proc p WHERE p.pronamespace OPERATOR(pg_catalog.=) schema_name::pg_catalog.regnamespace::pg_catalog.oid
			AND pg_catalog.strpos(p.prosrc, 'pg_idtypes_sql_') OPERATOR(pg_catalog.>) 0) THEN
		RAISE EXCEPTION 'the SQL edition''s bodies were not all bound to schema %', schema_name;
	END IF;
END $$;
