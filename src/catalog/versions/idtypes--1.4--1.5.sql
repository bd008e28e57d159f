-- idtypes 1.4 -> 1.5. Every SQL object that 1.5 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.5 one.
-- A catalog file that 1.5 adds whole is appended by the Makefile (ADDS_1.4--1.5), as in the full script.
-- This runs as a superuser with the extension's schema, which another role may own, on the search_path:
-- every operator is qualified and every call exact.
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.5'" to load this file. \quit

-- Amended in 1.7: what users attached to the functions this step drops and makes again is kept (without
-- this, a user's REVOKE EXECUTE ... FROM PUBLIC was undone: every role could call them again; grants to roles
-- were lost): idtypes_maintain_partitions, made again with a fifth argument, and idtypes_identity() (issue
-- 65), made again with other columns. Their owner, grants, revokes and a comment of the user's (one other than
-- 1.4's), for after they are made again (a setting of this transaction: no object is created, which the
-- extension would own).
SELECT pg_catalog.set_config('idtypes_update.kept', COALESCE(pg_catalog.json_agg(pg_catalog.json_build_object(
	'new', k.new, 'owner', p.proowner, 'acl', p.proacl::text, 'note', pg_catalog.obj_description(p.oid, 'pg_proc'),
	'note_1_4', k.note_1_4)), '[]')::text, true)
FROM (VALUES ('@extschema@.idtypes_maintain_partitions(regclass, interval, integer, interval)',
              '@extschema@.idtypes_maintain_partitions(regclass, interval, integer, interval, timestamptz)',
              'creates the range partitions of a table partitioned by an idtypes column for the step holding now() and ahead steps after it (bounds T_min of UTC step boundaries); with keep, drops those wholly older than now() - keep'),
             ('@extschema@.idtypes_identity()', '@extschema@.idtypes_identity()',
              'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), the high-water mark on disk (NULL before any), and on a standby its primary''s clock id and machine id (NULL elsewhere)')) AS k (old, new, note_1_4)
JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) k.old::pg_catalog.regprocedure::pg_catalog.oid;

-- idtypes_maintain_partitions takes `since` (a backfill) and runs only as the table's owner: the 4-argument
-- form goes, and src/catalog/partitions.sql is taken whole (ADDS_1.4--1.5); every call of 1.4 still works.
DROP FUNCTION idtypes_maintain_partitions(regclass, interval, integer, interval);

-- The carrier of pg_upgrade (src/pg/replicate/upgrade_carrier.cpp): its query no longer reads the origin
-- (missing after pg_upgrade, when a REFRESH then emptied the carried mark) but carrier_value(), never below
-- what it holds; a materialized view's query cannot be replaced, so the new one is made beside it (its
-- query reads the old one's value), and takes its name. carrier_populated.sql (added whole) refuses
-- REFRESH ... WITH NO DATA.
CREATE FUNCTION idtypes_internal.carrier_value() RETURNS bigint
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE AS 'MODULE_PATHNAME', 'idtypes_carrier_value';
REVOKE ALL ON FUNCTION idtypes_internal.carrier_value() FROM PUBLIC;
COMMENT ON FUNCTION idtypes_internal.carrier_value() IS 'the carrier''s query: the server''s mark plus a margin, never below what the carrier holds';
CREATE MATERIALIZED VIEW idtypes_internal.high_water_1_5 AS
SELECT idtypes_internal.carrier_value() AS mark, 0::bigint AS writer;
DROP MATERIALIZED VIEW idtypes_internal.high_water;
ALTER MATERIALIZED VIEW idtypes_internal.high_water_1_5 RENAME TO high_water;
COMMENT ON MATERIALIZED VIEW idtypes_internal.high_water IS 'an upper bound of the IDs'' times issued in this database (Unix microseconds), carried across pg_upgrade; written only by the generators';
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT DISTINCT a.grantee
		FROM pg_catalog.pg_class AS c, pg_catalog.aclexplode(c.relacl) AS a
		WHERE c.oid OPERATOR(pg_catalog.=) 'idtypes_internal.high_water'::pg_catalog.regclass::pg_catalog.oid
		  AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON TABLE idtypes_internal.high_water FROM %s',
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN 'PUBLIC'
		                               ELSE pg_catalog.quote_ident(pg_catalog.pg_get_userbyid(g.grantee)) END);
	END LOOP;
END
$$;

-- The identity origin is gone: a standby generates nothing that uses an identity (standby_rule.cpp), so
-- nothing reads it. Dropped where it exists (the origin is the server's: the first database updated drops it).
SELECT pg_catalog.pg_replication_origin_drop(o.roname)
FROM pg_catalog.pg_replication_origin AS o
WHERE o.roname OPERATOR(pg_catalog.=) 'idtypes_identity'::pg_catalog.text;

-- idtypes_identity() loses its primary's identity columns: made again by identity.sql (ADDS_1.4--1.5);
-- what users attached to it is kept (above).
DROP FUNCTION @extschema@.idtypes_identity();

-- uid11_generate_random may write WAL (the mark) and a file (its key).
ALTER FUNCTION @extschema@.uid11_generate_random() PARALLEL RESTRICTED;
-- ---------------------------------------------------------------------------------- time partitions
-- idtypes_maintain_partitions: range partitions of a table partitioned by an idtypes column, one per step
-- of time, bounded by T_min of the step boundaries; created ahead of time, dropped past retention.
-- Step boundaries are in UTC (an ID's time has no time zone), and are a pure function of the step, so
-- every run, in any session time zone, computes the same ones:
--   steps of months (1..12): the first day of the months counted from 1970-01 in multiples of the step
--     (1 month: every month; 3: quarters; 6: halves; 12: years);
--   fixed steps (days, hours, minutes, seconds; 1 minute to 365 days, a day being 24 hours): multiples of
--     the step from Monday 1970-01-05 00:00 UTC (1 day: midnights; 7 days: Mondays; 15 minutes: :00, :15,
--     :30, :45 of every hour).
-- Partitions are named <parent>_pYYYYMMDD for steps of whole days or months, <parent>_pYYYYMMDD_HH24MISS
-- otherwise (the parent's name is shortened so that the name fits in 63 bytes), in the parent's schema.
-- Written in PL/pgSQL: a handful of catalog statements per run, nothing that needs C. The extension's schema
-- is the installer's choice, so its functions are found from the partition key's type (they live in its schema), and
-- search_path is pinned so that no object of the caller's can stand in for a built-in one.
-- The owner's code: making a partition runs code of the table's owner (a domain over the key's type
-- checks each bound; the parent's defaults, indexes, triggers are copied), with the caller's rights.
-- PostgreSQL's own maintenance (VACUUM, REINDEX) switches to the owner in a security-restricted
-- operation, which SQL cannot enter; SET ROLE is no substitute (the owner's code could SET ROLE back to a
-- session user's role). So a run goes ahead only where that code can gain nothing: the caller is the
-- owner, both as the current role and as the role the session logged in as (SET ROLE and SET SESSION
-- AUTHORIZATION leave the login role, which the owner's code could return to), or the owner is a
-- superuser (its code has every right already). Anything else is refused (42501) before the table is read.
-- Upgrades from 1.4 drop the 4-argument form first (1.5 added `since`) and take this file whole.
CREATE FUNCTION idtypes_maintain_partitions(parent regclass, step interval, ahead integer DEFAULT 4,
	keep interval DEFAULT NULL, since timestamptz DEFAULT NULL)
RETURNS TABLE (action text, partition text)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	parent_nsp name;
	parent_name name;
	tablespace text;       -- the parent's, as PARTITION OF would use it
	key_type regtype;
	type_nsp name;         -- the schema of the key's type: the extension's
	min_fn text;           -- the qualified name of T_min
	step_months integer;
	step_seconds numeric;  -- when step_months = 0
	time_part interval;
	with_time boolean;     -- partition names carry the time of day
	now_utc timestamp := now() AT TIME ZONE 'UTC';
	first bigint;          -- index of the step holding now(): in months, or in steps of step_seconds
	back bigint := 0;      -- steps before it to create (since)
	since_utc timestamp := since AT TIME ZONE 'UTC';
	owner_oid oid;
	owner_name name;
	bound_lo timestamp;
	bound_hi timestamp;
	lo text;
	hi text;
	cutoff text;
	child_name text;
	suffix text;
	child record;
	found_overlap text;
	kids_name text[];      -- the existing partitions other than DEFAULT: name, bounds (NULL: MINVALUE /
	kids_lo text[];        -- MAXVALUE), relkind
	kids_hi text[];
	kids_kind "char"[];
BEGIN
	IF parent IS NULL OR step IS NULL OR ahead IS NULL THEN
		RAISE EXCEPTION 'idtypes_maintain_partitions: parent, step and ahead must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;

	-- The parent: partitioned by RANGE on one column of an idtypes type.
	SELECT n.nspname, c.relname, coalesce(' TABLESPACE ' || quote_ident(s.spcname), ''), c.relowner, c.relowner::regrole::name
	INTO parent_nsp, parent_name, tablespace, owner_oid, owner_name
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_tablespace s ON s.oid = c.reltablespace
	WHERE c.oid = parent;
	-- Who runs it (see above): the owner, logged in as it; or anyone, for a superuser's table.
	IF owner_oid IS NOT NULL AND NOT (SELECT r.rolsuper FROM pg_roles r WHERE r.oid = owner_oid)
	   AND NOT (owner_name = current_user
	            AND owner_oid = (SELECT a.usesysid FROM pg_stat_get_activity(pg_backend_pid()) a)) THEN
		RAISE EXCEPTION 'only the owner of table %, logged in as %, may maintain its partitions', parent, quote_ident(owner_name)
			USING ERRCODE = 'insufficient_privilege',
			DETAIL = 'Making partitions runs code of the table''s owner (a CHECK of a domain over the key''s type, the copied defaults and indexes) with the rights of the role running it.',
			HINT = format('Connect as %I to run it (pg_cron: a job scheduled by %I). SET ROLE and SET SESSION AUTHORIZATION are not enough: the owner''s code could set them back.',
			              owner_name, owner_name);
	END IF;
	SELECT CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END INTO key_type
	FROM pg_partitioned_table p
	JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
	JOIN pg_type t ON t.oid = a.atttypid
	WHERE p.partrelid = parent AND p.partstrat = 'r' AND p.partnatts = 1;
	SELECT n.nspname, format('%I.%I', n.nspname, t.typname || '_min') INTO type_nsp, min_fn
	FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
	JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
		AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
	WHERE t.oid = key_type AND t.typtype = 'b';
	IF min_fn IS NULL OR to_regprocedure(min_fn || '(timestamptz)') IS NULL THEN
		RAISE EXCEPTION 'table % is not partitioned by RANGE on one column of an idtypes type', parent
			USING ERRCODE = 'wrong_object_type',
			HINT = 'Create it with PARTITION BY RANGE (id), id being a column of type timeid, tbsl, uid11 or scru160.';
	END IF;

	-- The step: months, or a fixed length; never both.
	step_months := extract(year FROM step)::integer * 12 + extract(month FROM step)::integer;
	time_part := step - date_trunc('day', step);
	IF step_months <> 0 AND (extract(day FROM step) <> 0 OR time_part <> interval '0') THEN
		RAISE EXCEPTION 'step % mixes months with days or time', step
			USING ERRCODE = 'invalid_parameter_value',
			HINT = 'Use a whole number of months (1 to 12), or a fixed step from 1 minute to 365 days.';
	END IF;
	IF step_months <> 0 THEN
		IF step_months NOT BETWEEN 1 AND 12 THEN
			RAISE EXCEPTION 'step % is outside 1 minute .. 1 year', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		with_time := false;
		first := floor(((extract(year FROM now_utc) - 1970) * 12 + extract(month FROM now_utc) - 1) / step_months)
			* step_months;
	ELSE
		step_seconds := extract(day FROM step) * 86400 + extract(epoch FROM time_part);
		IF step_seconds NOT BETWEEN 60 AND 365 * 86400 THEN
			RAISE EXCEPTION 'step % is outside 1 minute .. 1 year', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF step_seconds <> trunc(step_seconds) THEN
			RAISE EXCEPTION 'step % is not a whole number of seconds', step USING ERRCODE = 'invalid_parameter_value';
		END IF;
		with_time := step_seconds % 86400 <> 0;
		first := floor(extract(epoch FROM now_utc - timestamp '1970-01-05') / step_seconds);
	END IF;
	IF ahead NOT BETWEEN 0 AND 10000 THEN
		RAISE EXCEPTION 'ahead must be between 0 and 10000, not %', ahead USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF keep < interval '0' THEN
		RAISE EXCEPTION 'keep must not be negative (%)', keep USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- since: the steps from the one holding it up to now() as well (a backfill); none when it is later.
	IF since IS NOT NULL AND since < now() THEN
		IF NOT isfinite(since) THEN
			RAISE EXCEPTION 'since must be a finite time, not %', since USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF keep IS NOT NULL AND since < now() - keep THEN
			RAISE EXCEPTION 'since is older than now() - keep: its partitions would be dropped in the same run'
				USING ERRCODE = 'invalid_parameter_value', HINT = 'Give a later since, or a longer keep.';
		END IF;
		IF step_months <> 0 THEN
			back := first - floor(((extract(year FROM since_utc) - 1970) * 12 + extract(month FROM since_utc) - 1) / step_months)
				* step_months;
			back := back / step_months;
		ELSE
			back := first - floor(extract(epoch FROM since_utc - timestamp '1970-01-05') / step_seconds);
		END IF;
		IF back > 10000 THEN
			RAISE EXCEPTION 'since is % steps before now(), at most 10000', back
				USING ERRCODE = 'invalid_parameter_value', HINT = 'Give a longer step, or run it for parts of the time, latest first.';
		END IF;
	END IF;

	-- One run at a time per parent: SHARE UPDATE EXCLUSIVE conflicts with itself (and with VACUUM, ANALYZE,
	-- CREATE INDEX CONCURRENTLY on the parent), not with reads or writes. A second run waits here, then
	-- sees the partitions the first one made.
	EXECUTE format('LOCK TABLE %I.%I IN SHARE UPDATE EXCLUSIVE MODE', parent_nsp, parent_name);

	-- The existing partitions and their bounds (identified by bounds, whatever their names).
	SELECT array_agg(k.relname ORDER BY k.relname), array_agg(b[1] ORDER BY k.relname),
	       array_agg(b[2] ORDER BY k.relname), array_agg(k.relkind ORDER BY k.relname)
	INTO kids_name, kids_lo, kids_hi, kids_kind
	FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid,
	LATERAL (SELECT ARRAY(SELECT CASE WHEN v IN ('MINVALUE', 'MAXVALUE') THEN NULL
	                                  ELSE replace(substr(v, 2, length(v) - 2), '''''', '''') END
	                      FROM unnest(regexp_match(pg_get_expr(k.relpartbound, k.oid),
	                                               '^FOR VALUES FROM \((.*)\) TO \((.*)\)$')) v) AS b) bb
	WHERE i.inhparent = parent AND pg_get_expr(k.relpartbound, k.oid) <> 'DEFAULT';

	-- Create: the step holding now(), `ahead` steps after it, and `back` steps before it.
	FOR i IN -back..ahead LOOP
		IF step_months <> 0 THEN
			bound_lo := timestamp '1970-01-01' + make_interval(months => (first + i * step_months)::integer);
			bound_hi := bound_lo + make_interval(months => step_months);
		ELSE
			bound_lo := timestamp '1970-01-05' + make_interval(secs => (first + i) * step_seconds);
			bound_hi := bound_lo + make_interval(secs => step_seconds);
		END IF;
		EXECUTE format('SELECT %s($1)::text, %s($2)::text', min_fn, min_fn)
			INTO lo, hi USING bound_lo AT TIME ZONE 'UTC', bound_hi AT TIME ZONE 'UTC';
		suffix := to_char(bound_lo, CASE WHEN with_time THEN '"_p"YYYYMMDD"_"HH24MISS' ELSE '"_p"YYYYMMDD' END);
		child_name := parent_name;
		WHILE octet_length(child_name || suffix) > 63 LOOP
			child_name := left(child_name, -1);
		END LOOP;
		child_name := child_name || suffix;
		partition := format('%I.%I', parent_nsp, child_name);

		IF EXISTS (SELECT FROM unnest(kids_lo, kids_hi) k(l, h) WHERE l = lo AND h = hi) THEN
			CONTINUE; -- already there, under this name or another
		END IF;
		EXECUTE format('SELECT n FROM unnest($1, $2, $3) k(n, l, h) WHERE (l IS NULL OR l::%1$s OPERATOR(%2$I.<) $5::%1$s)
		                AND (h IS NULL OR h::%1$s OPERATOR(%2$I.>) $4::%1$s) LIMIT 1', key_type, type_nsp)
			INTO found_overlap USING kids_name, kids_lo, kids_hi, lo, hi;
		IF found_overlap IS NOT NULL THEN
			action := format('skipped (overlaps %I.%I)', parent_nsp, found_overlap);
			RETURN NEXT;
			CONTINUE;
		END IF;
		IF to_regclass(partition) IS NOT NULL THEN
			action := 'skipped (name in use)';
			RETURN NEXT;
			CONTINUE;
		END IF;
		-- A table like the parent, then attached (as pg_partman does): ATTACH PARTITION takes SHARE UPDATE
		-- EXCLUSIVE on the parent where CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE, which
		-- waits for every running query on the table and blocks every new one meanwhile. ATTACH adds the
		-- parent's indexes, foreign keys and triggers, and takes over the CHECK constraints LIKE copied
		-- (inherited from then on, as PARTITION OF makes them); identity stays the parent's.
		BEGIN
			EXECUTE format('CREATE TABLE %I.%I (LIKE %I.%I INCLUDING ALL EXCLUDING INDEXES EXCLUDING IDENTITY)%s',
			               parent_nsp, child_name, parent_nsp, parent_name, tablespace);
			EXECUTE format('ALTER TABLE %I.%I ATTACH PARTITION %I.%I FOR VALUES FROM (%L) TO (%L)',
			               parent_nsp, parent_name, parent_nsp, child_name, lo, hi);
			action := 'created';
		EXCEPTION
			WHEN check_violation THEN -- moving the rows out is the DBA's call
				action := 'skipped (DEFAULT partition has rows in its range)';
			WHEN lock_not_available THEN -- lock_timeout: try again next run
				action := 'skipped (lock not available)';
		END;
		RETURN NEXT;
	END LOOP;

	IF keep IS NULL THEN
		RETURN;
	END IF;
	-- Drop: partitions whose every ID is older than now() - keep (upper bound at or before it). Never the
	-- DEFAULT partition (it has no bounds), nor a partitioned or foreign one (dropping those would not
	-- remove the rows, or would remove more than one range).
	EXECUTE format('SELECT %s($1)::text', min_fn) INTO cutoff USING (now_utc - keep) AT TIME ZONE 'UTC';
	FOR child IN EXECUTE format('SELECT n, kind FROM unnest($1, $2, $3, $4) k(n, l, h, kind)
	                             WHERE h::%1$s OPERATOR(%2$I.<=) $5::%1$s ORDER BY h::%1$s', key_type, type_nsp)
		USING kids_name, kids_lo, kids_hi, kids_kind, cutoff
	LOOP
		partition := format('%I.%I', parent_nsp, child.n);
		IF child.kind <> 'r' THEN
			action := CASE child.kind WHEN 'p' THEN 'skipped (partitioned)' ELSE 'skipped (foreign table)' END;
		ELSE
			BEGIN
				EXECUTE format('DROP TABLE %I.%I', parent_nsp, child.n);
				action := 'dropped';
			EXCEPTION
				WHEN dependent_objects_still_exist THEN
					action := 'skipped (other objects depend on it)';
				WHEN lock_not_available THEN
					action := 'skipped (lock not available)';
			END;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$function$;
COMMENT ON FUNCTION idtypes_maintain_partitions(regclass, interval, integer, interval, timestamptz) IS
	'creates the range partitions of a table partitioned by an idtypes column for the step holding now() and ahead steps after it (with since, from the step holding since; bounds T_min of UTC step boundaries); with keep, drops those wholly older than now() - keep; run by the table''s owner';
-- The server's identity (src/pg/generate/identity.cpp): what it generates with, for a fleet to check that no two
-- nodes share an identity. (A standby generates nothing that uses an identity: standby_rule.cpp.)
CREATE FUNCTION idtypes_identity(OUT timeid_clock_id integer, OUT timeid_clock_id_source text,
                                 OUT tbsl_machine_id integer, OUT tbsl_machine_id_source text,
                                 OUT generator_state text, OUT high_water_mark timestamptz)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION idtypes_identity() IS 'what this server generates with: timeid clock id (NULL while the random one is not drawn) and tbsl machine id, each with its source (configuration, session, random or default), idtypes_generator_mode(), and the generators'' mark (NULL before any)';
-- Amended in 1.7: idtypes_maintain_partitions and idtypes_identity() (issue 65) made again with what the user
-- had attached to the ones dropped above: the owner, the ACL (grants given again; EXECUTE revoked from PUBLIC
-- again where the user had revoked it; a NULL ACL is the default, as made again), a comment of the user's
-- own. The initial privileges stay the extension's own (none), so that pg_dump dumps the user's grants and
-- revokes as it does any user's.
DO $keep$
DECLARE
	kept pg_catalog.json;
	f pg_catalog.regprocedure;
	owner pg_catalog.oid;
	acl pg_catalog.aclitem[];
	note text;
	g record;
BEGIN
	FOR kept IN SELECT e FROM pg_catalog.json_array_elements(pg_catalog.current_setting('idtypes_update.kept')::pg_catalog.json) AS e LOOP
		f := pg_catalog.json_extract_path_text(kept, 'new')::pg_catalog.regprocedure;
		owner := pg_catalog.json_extract_path_text(kept, 'owner')::pg_catalog.oid;
		acl := pg_catalog.json_extract_path_text(kept, 'acl')::pg_catalog.aclitem[];
		note := pg_catalog.json_extract_path_text(kept, 'note');
		IF note IS NULL OR note OPERATOR(pg_catalog.<>) pg_catalog.json_extract_path_text(kept, 'note_1_4') THEN
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f, note);
		END IF;
		IF owner OPERATOR(pg_catalog.<>) (SELECT p.proowner FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) f::pg_catalog.oid) THEN
			EXECUTE pg_catalog.format('ALTER FUNCTION %s OWNER TO %s', f, owner::pg_catalog.regrole);
		END IF;
		IF acl IS NOT NULL THEN
			IF NOT EXISTS (SELECT FROM pg_catalog.aclexplode(acl) a
			               WHERE a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text) THEN
				EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
			END IF;
			FOR g IN SELECT a.grantee, a.is_grantable FROM pg_catalog.aclexplode(acl) a
			         WHERE a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text AND a.grantee OPERATOR(pg_catalog.<>) owner
			           AND a.grantee OPERATOR(pg_catalog.<>) 0::pg_catalog.oid LOOP
				EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO %s%s', f, g.grantee::pg_catalog.regrole,
				        CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
			END LOOP;
			IF EXISTS (SELECT FROM pg_catalog.aclexplode(acl) a
			           WHERE a.grantee OPERATOR(pg_catalog.=) 0::pg_catalog.oid AND a.privilege_type OPERATOR(pg_catalog.=) 'EXECUTE'::pg_catalog.text AND a.is_grantable) THEN
				EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO PUBLIC WITH GRANT OPTION', f);
			END IF;
		END IF;
		DELETE FROM pg_catalog.pg_init_privs
		WHERE objoid OPERATOR(pg_catalog.=) f::pg_catalog.oid AND classoid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
		  AND objsubid OPERATOR(pg_catalog.=) 0;
	END LOOP;
END
$keep$;
-- REFRESH MATERIALIZED VIEW idtypes_internal.high_water WITH NO DATA would empty the carrier of pg_upgrade
-- (high_water.sql): its owner, or on 17 and later a member of pg_maintain, could do it. An event trigger of
-- the extension (a superuser's: no other role can alter, disable or drop it; ENABLE ALWAYS, so
-- session_replication_role does not skip it) refuses any REFRESH that leaves it unpopulated.
CREATE FUNCTION idtypes_internal.keep_carrier_populated() RETURNS event_trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
	IF EXISTS (SELECT FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
	           WHERE n.nspname OPERATOR(pg_catalog.=) 'idtypes_internal'::pg_catalog.name
	             AND c.relname OPERATOR(pg_catalog.=) 'high_water'::pg_catalog.name AND NOT c.relispopulated) THEN
		RAISE EXCEPTION USING ERRCODE = '55000',
			MESSAGE = 'idtypes_internal.high_water must stay populated',
			DETAIL = 'It carries the upper bound of this database''s IDs across pg_upgrade: empty, the IDs issued here could be issued again after an upgrade.',
			HINT = 'REFRESH MATERIALIZED VIEW idtypes_internal.high_water (WITH DATA) keeps it.';
	END IF;
END
$$;
REVOKE ALL ON FUNCTION idtypes_internal.keep_carrier_populated() FROM PUBLIC;
CREATE EVENT TRIGGER idtypes_keep_carrier_populated ON ddl_command_end WHEN TAG IN ('REFRESH MATERIALIZED VIEW')
EXECUTE FUNCTION idtypes_internal.keep_carrier_populated();
ALTER EVENT TRIGGER idtypes_keep_carrier_populated ENABLE ALWAYS;
COMMENT ON FUNCTION idtypes_internal.keep_carrier_populated() IS 'refuses a REFRESH that leaves idtypes_internal.high_water unpopulated';
COMMENT ON EVENT TRIGGER idtypes_keep_carrier_populated IS 'keeps the carrier of pg_upgrade (idtypes_internal.high_water) populated';

-- ==================================================================================== public forms of uuids
-- UUIDv7s in plain uuid columns (docs/public-ids.md): FF1 over the 122 bits that are neither version nor
-- variant, so the public form is a version-4-looking uuid. It has no room for the key's version:
-- uuid_from_public decodes with the newest version, uuid_from_public_candidates with every version the
-- keyring holds (newest first) for forms made before a rotation. The C symbols are uuid_v7_*, apart from
-- PostgreSQL's and libuuid's. The T_to_public / T_from_public of the four types are in public.type.sql.in.
CREATE FUNCTION uuid_to_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_to_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_public(uuid, text) IS 'the UUIDv7''s public form (a version 4 uuid) under the newest version of the named key of the keyring (idtypes.keyring)';
REVOKE EXECUTE ON FUNCTION uuid_to_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public(uuid, key text) RETURNS uuid
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public(uuid, text) IS 'the UUIDv7 a public uuid stands for under the newest version of the named key; forms made before a rotation: uuid_from_public_candidates';
REVOKE EXECUTE ON FUNCTION uuid_from_public(uuid, text) FROM PUBLIC;
CREATE FUNCTION uuid_from_public_candidates(uuid, key text) RETURNS uuid[]
	AS 'MODULE_PATHNAME', 'uuid_v7_from_public_candidates' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_public_candidates(uuid, text) IS 'the UUIDv7s a public uuid stands for under each version of the named key in the keyring, newest first: WHERE id = ANY(...) finds the row';
REVOKE EXECUTE ON FUNCTION uuid_from_public_candidates(uuid, text) FROM PUBLIC;

-- The keyring as this session read it: names, versions, fingerprints (the first 8 bytes of a SHA-256 of
-- the key, to tell keys apart between servers), never a key byte.
CREATE FUNCTION idtypes_keys(OUT name text, OUT version integer, OUT fingerprint text, OUT current boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE ROWS 4;
COMMENT ON FUNCTION idtypes_keys() IS 'the keys of the keyring file (idtypes.keyring): name, version, fingerprint, whether it is the version that makes public forms; never key bytes';
REVOKE EXECUTE ON FUNCTION idtypes_keys() FROM PUBLIC;

-- ==================================================================================== public form
-- (instantiated for every format: timeid is its name)
-- The keyed public form (docs/public-ids.md): FF1 with the key `key` of the keyring file (idtypes.keyring)
-- over the ID's variable bits, written as the symbol of the key's version and then timeid text, so it never
-- parses as a timeid. STABLE: the keyring may change at a reload. EXECUTE is the DBA's to grant, to the roles
-- that serve the public.
CREATE FUNCTION timeid_to_public(timeid, key text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_to_public(timeid, text) IS 'the timeid''s public form under the newest version of the named key of the keyring (idtypes.keyring): reversible, hides its time and order';
REVOKE EXECUTE ON FUNCTION timeid_to_public(timeid, text) FROM PUBLIC;
CREATE FUNCTION timeid_from_public(text, key text) RETURNS timeid
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION timeid_from_public(text, text) IS 'the timeid a public form stands for, under the version of the named key its first symbol names; 22P02 for malformed text';
REVOKE EXECUTE ON FUNCTION timeid_from_public(text, text) FROM PUBLIC;

-- ==================================================================================== public form
-- (instantiated for every format: uid11 is its name)
-- The keyed public form (docs/public-ids.md): FF1 with the key `key` of the keyring file (idtypes.keyring)
-- over the ID's variable bits, written as the symbol of the key's version and then uid11 text, so it never
-- parses as a uid11. STABLE: the keyring may change at a reload. EXECUTE is the DBA's to grant, to the roles
-- that serve the public.
CREATE FUNCTION uid11_to_public(uid11, key text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_to_public(uid11, text) IS 'the uid11''s public form under the newest version of the named key of the keyring (idtypes.keyring): reversible, hides its time and order';
REVOKE EXECUTE ON FUNCTION uid11_to_public(uid11, text) FROM PUBLIC;
CREATE FUNCTION uid11_from_public(text, key text) RETURNS uid11
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid11_from_public(text, text) IS 'the uid11 a public form stands for, under the version of the named key its first symbol names; 22P02 for malformed text';
REVOKE EXECUTE ON FUNCTION uid11_from_public(text, text) FROM PUBLIC;

-- ==================================================================================== public form
-- (instantiated for every format: tbsl is its name)
-- The keyed public form (docs/public-ids.md): FF1 with the key `key` of the keyring file (idtypes.keyring)
-- over the ID's variable bits, written as the symbol of the key's version and then tbsl text, so it never
-- parses as a tbsl. STABLE: the keyring may change at a reload. EXECUTE is the DBA's to grant, to the roles
-- that serve the public.
CREATE FUNCTION tbsl_to_public(tbsl, key text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_to_public(tbsl, text) IS 'the tbsl''s public form under the newest version of the named key of the keyring (idtypes.keyring): reversible, hides its time and order';
REVOKE EXECUTE ON FUNCTION tbsl_to_public(tbsl, text) FROM PUBLIC;
CREATE FUNCTION tbsl_from_public(text, key text) RETURNS tbsl
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tbsl_from_public(text, text) IS 'the tbsl a public form stands for, under the version of the named key its first symbol names; 22P02 for malformed text';
REVOKE EXECUTE ON FUNCTION tbsl_from_public(text, text) FROM PUBLIC;

-- ==================================================================================== public form
-- (instantiated for every format: scru160 is its name)
-- The keyed public form (docs/public-ids.md): FF1 with the key `key` of the keyring file (idtypes.keyring)
-- over the ID's variable bits, written as the symbol of the key's version and then scru160 text, so it never
-- parses as a scru160. STABLE: the keyring may change at a reload. EXECUTE is the DBA's to grant, to the roles
-- that serve the public.
CREATE FUNCTION scru160_to_public(scru160, key text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_to_public(scru160, text) IS 'the scru160''s public form under the newest version of the named key of the keyring (idtypes.keyring): reversible, hides its time and order';
REVOKE EXECUTE ON FUNCTION scru160_to_public(scru160, text) FROM PUBLIC;
CREATE FUNCTION scru160_from_public(text, key text) RETURNS scru160
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION scru160_from_public(text, text) IS 'the scru160 a public form stands for, under the version of the named key its first symbol names; 22P02 for malformed text';
REVOKE EXECUTE ON FUNCTION scru160_from_public(text, text) FROM PUBLIC;
