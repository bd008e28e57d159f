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
-- are the one row of idtypes_sql_installation, a table of the installation's owner with no grant to anyone,
-- set only with idtypes_sql_set_identity() (EXECUTE revoked from PUBLIC; the owner or a superuser may
-- call it, or grant it), never by logical replication (its trigger skips what a subscription writes). No setting a role could SET names them any more. Two installations on one server
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
-- A dump keeps the identity and the states (the table's row and the sequences' values: the extension's
-- configuration, or ordinary objects when installed with psql -f), so a restored copy generates at once,
-- above every ID its source had handed out when the dump was taken.
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

-- The installation: its identity (one row, none until its owner sets it: the key `installation` is always
-- true, so a database never holds two), and the object whose lock serialises the reservation of blocks. Its
-- owner's alone: no grant, so no other role can read it, change it or lock it (SHARE UPDATE EXCLUSIVE). Made
-- empty: pg_dump keeps its rows (pg_extension_config_dump, below), and a restore re-creates the extension
-- before it puts them back, so a row made here would be a second one. The primary key is also its replica
-- identity, so set_identity's writes pass a publication FOR ALL TABLES.
CREATE TABLE idtypes_sql_installation (
	timeid_clock_id int CHECK (timeid_clock_id OPERATOR(pg_catalog.>=) 0 AND timeid_clock_id OPERATOR(pg_catalog.<=) 1023),
	tbsl_machine_id int CHECK (tbsl_machine_id OPERATOR(pg_catalog.>=) 0 AND tbsl_machine_id OPERATOR(pg_catalog.<=) 99),
	installation boolean NOT NULL DEFAULT true CONSTRAINT idtypes_sql_installation_one CHECK (installation)
		CONSTRAINT idtypes_sql_installation_pkey PRIMARY KEY
);
REVOKE ALL ON TABLE idtypes_sql_installation FROM PUBLIC;

-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
-- Logical replication never carries an identity (issue 66). A publication FOR ALL TABLES publishes this
-- table like any other; what arrives is refused here, where it is written: the apply and table
-- synchronisation workers of a subscription run with session_replication_role = replica, under which only
-- triggers ENABLE ALWAYS (or REPLICA) fire, and this one, ENABLE ALWAYS, skips a row they insert, update or
-- delete, with a WARNING in the subscriber's log saying why: a subscriber keeps the identity its own owner
-- set (or none), whatever its publisher sets. (Every other write comes from idtypes_sql_set_identity, which
-- refuses to run under session_replication_role = replica, or from a restore, which does not set it.)
-- TRUNCATE is refused outright (a statement trigger cannot skip it): the edition never truncates, so no
-- publisher of 1.2 ever sends one. A dump keeps the row as before (a restore writes it as origin).
CREATE FUNCTION idtypes_sql_installation_local() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP OPERATOR(pg_catalog.=) 'TRUNCATE' THEN
		-- a subscription's TRUNCATE (from a publisher of 1.1, or one whose owner set the trigger aside) stops
		-- its apply worker here, which retries it: the hint gives the two ways on. SKIP drops the whole
		-- transaction, whatever else it changed (a TRUNCATE of several tables, other writes with it); with
		-- this trigger disabled the transaction applies whole, this identity removed with it
		RAISE EXCEPTION USING ERRCODE = '55000', MESSAGE = pg_catalog.format('%I.idtypes_sql_installation is not truncated', TG_TABLE_SCHEMA),
			HINT = CASE WHEN pg_catalog.current_setting('session_replication_role') OPERATOR(pg_catalog.=) 'replica'
				THEN pg_catalog.format('A subscription applies its publisher''s TRUNCATE of it. To apply that transaction whole, the owner runs ALTER TABLE %1$I.idtypes_sql_installation DISABLE TRIGGER idtypes_sql_installation_truncate until it is applied (this installation''s identity goes with it), then ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate and sets the identity again; or ALTER SUBSCRIPTION ... SKIP (lsn = the LSN at which the context below says it finished) skips the transaction, every other change in it too.', TG_TABLE_SCHEMA)
				ELSE 'Its one row is the installation''s identity: change it with idtypes_sql_set_identity().' END;
	END IF;
	IF pg_catalog.current_setting('session_replication_role') OPERATOR(pg_catalog.=) 'replica' THEN
		RAISE WARNING USING MESSAGE = pg_catalog.format('the SQL edition in schema %s takes no identity from replication: a replicated %s of its identity skipped',
				TG_TABLE_SCHEMA, TG_OP),
			DETAIL = 'Each installation generates with its own identity, which only its owner sets; a copy of another''s would repeat its IDs.',
			HINT = pg_catalog.format('Its owner sets it: SELECT %I.idtypes_sql_set_identity(timeid_clock_id => 0..1023, tbsl_machine_id => 0..99).', TG_TABLE_SCHEMA);
		RETURN NULL;
	END IF;
	-- the table has no grant, but a member of pg_write_all_data writes every table: only the owner (or a
	-- member of it, or a superuser: those who may call idtypes_sql_set_identity) writes the identity
	IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) TG_RELID), 'USAGE') THEN
		RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = pg_catalog.format('only the owner of %I.idtypes_sql_installation writes the identity', TG_TABLE_SCHEMA),
			HINT = 'Its owner sets it with idtypes_sql_set_identity().';
	END IF;
	IF TG_OP OPERATOR(pg_catalog.=) 'DELETE' THEN
		RETURN OLD;
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER idtypes_sql_installation_local BEFORE INSERT OR UPDATE OR DELETE ON idtypes_sql_installation
	FOR EACH ROW EXECUTE FUNCTION idtypes_sql_installation_local();
CREATE TRIGGER idtypes_sql_installation_truncate BEFORE TRUNCATE ON idtypes_sql_installation
	FOR EACH STATEMENT EXECUTE FUNCTION idtypes_sql_installation_local();
ALTER TABLE idtypes_sql_installation ENABLE ALWAYS TRIGGER idtypes_sql_installation_local,
	ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate;
-- [/1.2]

-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
-- Sets this installation's identity (owner or superuser only: EXECUTE is revoked from PUBLIC, and the
-- write needs the table's owner). Give every installation on the server (every database, every schema)
-- its own pair; an argument left NULL keeps its current value. The table's one row is made by the first
-- call (two first calls at once: the key makes the second update it). One statement on a table with a
-- primary key: a publication FOR ALL TABLES (any publish list) takes it.
CREATE FUNCTION idtypes_sql_set_identity(timeid_clock_id int, tbsl_machine_id int DEFAULT NULL) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	m pg_catalog.text;
	d pg_catalog.text;
BEGIN
	PERFORM pg_idtypes_sql_unbound.idtypes_sql_check_range('timeid_clock_id'::pg_catalog.text, timeid_clock_id::bigint, 0::bigint, 1023::bigint),
		pg_idtypes_sql_unbound.idtypes_sql_check_range('tbsl_machine_id'::pg_catalog.text, tbsl_machine_id::bigint, 0::bigint, 99::bigint);
	IF pg_catalog.current_setting('session_replication_role') OPERATOR(pg_catalog.=) 'replica' THEN -- the trigger would skip the write
		RAISE EXCEPTION USING ERRCODE = '55000', MESSAGE = 'idtypes_sql_set_identity() does not run with session_replication_role = replica',
			HINT = 'RESET session_replication_role first.';
	END IF;
	INSERT INTO pg_idtypes_sql_unbound.idtypes_sql_installation (timeid_clock_id, tbsl_machine_id)
		VALUES (idtypes_sql_set_identity.timeid_clock_id, idtypes_sql_set_identity.tbsl_machine_id)
		ON CONFLICT (installation) DO UPDATE
		SET timeid_clock_id = COALESCE(idtypes_sql_set_identity.timeid_clock_id, idtypes_sql_installation.timeid_clock_id),
			tbsl_machine_id = COALESCE(idtypes_sql_set_identity.tbsl_machine_id, idtypes_sql_installation.tbsl_machine_id);
EXCEPTION WHEN invalid_column_reference THEN
	-- PostgreSQL refuses an UPDATE of a table that a publication of updates takes with a row filter or a
	-- column list naming more than its replica identity (the key `installation`): only the table's owner
	-- can publish it so; the error names neither the publication nor the way out
	GET STACKED DIAGNOSTICS m := MESSAGE_TEXT, d := PG_EXCEPTION_DETAIL;
	RAISE EXCEPTION USING ERRCODE = 'invalid_column_reference', MESSAGE = m, DETAIL = d,
		HINT = pg_catalog.format('Publication %s takes the identity with a row filter or a column list: ALTER PUBLICATION ... DROP TABLE pg_idtypes_sql_unbound.idtypes_sql_installation (no subscriber takes an identity), or give its filter and list the column installation alone.',
			COALESCE((SELECT pg_catalog.string_agg(pg_catalog.quote_ident(p.pubname), ', ' ORDER BY p.pubname)
				FROM pg_catalog.pg_publication_rel r JOIN pg_catalog.pg_publication p ON p.oid OPERATOR(pg_catalog.=) r.prpubid
				WHERE r.prrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.idtypes_sql_installation'::pg_catalog.regclass
					AND (r.prqual IS NOT NULL OR r.prattrs IS NOT NULL) AND p.pubupdate), '(none found)'));
END $$;
-- [/1.2]
REVOKE ALL ON FUNCTION idtypes_sql_set_identity(int, int) FROM PUBLIC;

-- The identity for generator 1 (timeid: the clock id) or 2 (tbsl: the machine id); 55000 naming the
-- function that sets it while the owner has not. SECURITY DEFINER: the table has no grant.
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
-- Read only while both triggers of the table are ENABLE ALWAYS: a data-only restore with --disable-triggers
-- (pg_dump's DISABLE then ENABLE TRIGGER ALL) or ALTER TABLE ... ENABLE TRIGGER leaves them firing for
-- local writes alone, and a subscription then writes its publisher's identity here. Its queries name no
-- argument: one with a parameter is planned again at every call (a custom plan, 2-3 times the cost of this
-- whole function; idtypes_sql_reserve calls it for every block).
CREATE FUNCTION idtypes_sql_installed_identity(generator int) RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	ident bigint;
	machine bigint;
BEGIN
	IF (SELECT pg_catalog.count(t.oid) FROM pg_catalog.pg_trigger t
			WHERE t.tgrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.idtypes_sql_installation'::pg_catalog.regclass
				AND t.tgfoid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.idtypes_sql_installation_local()'::pg_catalog.regprocedure
				AND t.tgenabled OPERATOR(pg_catalog.=) 'A') OPERATOR(pg_catalog.<>) 2 THEN
		RAISE EXCEPTION USING ERRCODE = '55000',
			MESSAGE = pg_catalog.format('the triggers of %s.idtypes_sql_installation are not ENABLE ALWAYS', 'pg_idtypes_sql_unbound'),
			DETAIL = 'Without them a subscription writes its publisher''s identity here (a data-only restore that disables triggers, or ALTER TABLE ... ENABLE TRIGGER, changes them).',
			HINT = pg_catalog.format('Its owner runs ALTER TABLE %1$s.idtypes_sql_installation ENABLE ALWAYS TRIGGER idtypes_sql_installation_local, ENABLE ALWAYS TRIGGER idtypes_sql_installation_truncate; then checks TABLE %1$s.idtypes_sql_installation and sets its own identity if need be.',
				'pg_idtypes_sql_unbound');
	END IF;
	SELECT i.timeid_clock_id, i.tbsl_machine_id INTO ident, machine FROM pg_idtypes_sql_unbound.idtypes_sql_installation i;
	IF generator OPERATOR(pg_catalog.<>) 1 THEN
		ident := machine;
	END IF;
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
-- [/1.2]

-- The generators' states: the last time unit handed out in a block (microseconds for timeid and tbsl,
-- milliseconds since the xid epoch for uid11, Unix milliseconds for scru160); no grant.
CREATE SEQUENCE timeid_state AS bigint MINVALUE 0;
CREATE SEQUENCE tbsl_state AS bigint MINVALUE 0;
CREATE SEQUENCE uid11_state AS bigint MINVALUE 0;
CREATE SEQUENCE scru160_state AS bigint MINVALUE 0;
REVOKE ALL ON SEQUENCE timeid_state, tbsl_state, uid11_state, scru160_state FROM PUBLIC;
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
-- Each installation's states have an INCREMENT of their own, drawn here (the edition never calls nextval on
-- them): PostgreSQL 19's sequence synchronization refuses a subscriber's sequence whose parameters differ
-- from its publisher's, so a subscription FOR ALL SEQUENCES never sets these states to another
-- installation's. (It set them back, and once the subscription was dropped the subscriber issued its own
-- IDs again.) Two installations draw the same one at odds of 1 in 2^31.
DO $$
DECLARE
	increment pg_catalog.int8 := 2 OPERATOR(pg_catalog.+) (pg_catalog.random() OPERATOR(pg_catalog.*) 2147483645::double precision)::pg_catalog.int8;
BEGIN
	EXECUTE pg_catalog.format('ALTER SEQUENCE timeid_state INCREMENT BY %1$s; ALTER SEQUENCE tbsl_state INCREMENT BY %1$s;'
		' ALTER SEQUENCE uid11_state INCREMENT BY %1$s; ALTER SEQUENCE scru160_state INCREMENT BY %1$s', increment);
END $$;
-- [/1.2]
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
-- [1.2] (what the update script from 1.1 takes, from here to the closing mark)
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
	subscribed pg_catalog.oid[];
	started pg_catalog.timestamptz;
	max_wait int := CASE WHEN generator OPERATOR(pg_catalog.=) 2 THEN pg_idtypes_sql_unbound.idtypes_sql_clock_wait() END;
	session_states pg_catalog.text[] := ARRAY['idtypes_sql_pg_idtypes_sql_key_timeid', 'idtypes_sql_pg_idtypes_sql_key_tbsl',
		'idtypes_sql_pg_idtypes_sql_key_uid11', 'idtypes_sql_pg_idtypes_sql_key_scru160'];
BEGIN
	IF generator OPERATOR(pg_catalog.<) 1 OR generator OPERATOR(pg_catalog.>) 4 THEN
		RAISE EXCEPTION USING ERRCODE = '22003', MESSAGE = pg_catalog.format('generator must be between 1 and 4, got %s', generator);
	END IF;
	-- every generator comes here in a read-only transaction (hot standbys too): refused before anything moves
	IF pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on' THEN
		RAISE EXCEPTION USING ERRCODE = '25006', MESSAGE = pg_catalog.format('cannot execute %s_generate() in a read-only transaction',
				(ARRAY['timeid', 'tbsl', 'uid11', 'scru160'])[generator]),
			DETAIL = 'A generator moves the installation''s state, which a read-only transaction and a standby cannot write.';
	END IF;
	IF generator OPERATOR(pg_catalog.<=) 2 THEN
		ident := pg_idtypes_sql_unbound.idtypes_sql_installed_identity(generator);
	END IF;
	-- PostgreSQL 19's publications FOR ALL SEQUENCES carry sequences, and a subscription's sync sets them to the
	-- publisher's values, back too: a state written by a subscription could hand out its own IDs again, so a
	-- generator refuses while one does (checked for each block, not for each ID; the query names no argument,
	-- so it is planned once: see idtypes_sql_installed_identity)
	subscribed := ARRAY(SELECT r.srrelid FROM pg_catalog.pg_subscription_rel r
		WHERE r.srrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.timeid_state'::pg_catalog.regclass::pg_catalog.oid
			OR r.srrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.tbsl_state'::pg_catalog.regclass::pg_catalog.oid
			OR r.srrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.uid11_state'::pg_catalog.regclass::pg_catalog.oid
			OR r.srrelid OPERATOR(pg_catalog.=) 'pg_idtypes_sql_unbound.scru160_state'::pg_catalog.regclass::pg_catalog.oid);
	IF pg_catalog.array_position(subscribed, (CASE generator
			WHEN 1 THEN 'pg_idtypes_sql_unbound.timeid_state'::pg_catalog.regclass
			WHEN 2 THEN 'pg_idtypes_sql_unbound.tbsl_state'::pg_catalog.regclass
			WHEN 3 THEN 'pg_idtypes_sql_unbound.uid11_state'::pg_catalog.regclass
			ELSE 'pg_idtypes_sql_unbound.scru160_state'::pg_catalog.regclass END)::pg_catalog.oid) IS NOT NULL THEN
		RAISE EXCEPTION USING ERRCODE = '55000', MESSAGE = pg_catalog.format('cannot execute %s_generate() while a subscription writes its state',
				(ARRAY['timeid', 'tbsl', 'uid11', 'scru160'])[generator]),
			DETAIL = 'A subscription to a publication FOR ALL SEQUENCES sets the generators'' states to the publisher''s, which can move them back.',
			HINT = 'Generate on the publisher; on this server, after the cutover of docs/sql-edition.md, once the subscription is dropped.';
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
-- [/1.2]
