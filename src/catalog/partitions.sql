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
-- An update from a version with the 4-argument form (no `since`) drops that form first and takes this file whole.
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
