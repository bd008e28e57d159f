
-- ==================================================================================== adoption (docs/adopting.md)
-- Moving a live table's key, and every foreign key that references it, onto timeid or a UUIDv7: a shadow column
-- per key column, kept equal to a mapping of the old key by a trigger, filled in batches that commit, indexed
-- (by the idtypes CLI: CREATE INDEX CONCURRENTLY cannot run in a procedure), constrained, verified, then
-- swapped in one short transaction per try. The old column stays in sync the other way until finish.
--
-- Who runs it: the table's owner, with its own rights (nothing here is SECURITY DEFINER). The state lives in
-- the schema idtypes_adopt, which the application does not own; row-level security lets a role read and write
-- only the rows of the tables it owns, so the owner's role, through these procedures, is its one writer.
-- Code that runs with another role's rights (the sync triggers run as whoever writes the table) pins
-- search_path and calls the extension's functions by their schema, found from its membership at the time the
-- code is generated. The procedures cannot carry SET search_path (they COMMIT), so each transaction of theirs
-- pins it with set_config first.
--
-- Mappings (idtypes_adopt_map_sql): keep (bigint -> timeid, the same 64 bits: order kept, old IDs found by
-- number, invertible); v7 (uuid -> uuid: a UUIDv7 at a fixed instant before the start carrying 74 bits of the
-- old uuid, pure, so children need no join; the old uuid stays findable in the kept column); time (bigint ->
-- timeid or uuid -> uuid: the time from a column of the row, so children look their key up in the parent).
-- Phases: starting, started, backfilled, constrained, cut_over, rolled_back, finished.

CREATE SCHEMA idtypes_adopt;
COMMENT ON SCHEMA idtypes_adopt IS 'idtypes'' adoption state, kept out of the application''s schemas: one row per table being moved, readable and writable only by its owner';
GRANT USAGE ON SCHEMA idtypes_adopt TO PUBLIC;

CREATE TABLE idtypes_adopt.migration (
	relid regclass PRIMARY KEY,
	to_type regtype NOT NULL,
	mapping text NOT NULL CHECK (mapping IN ('keep', 'v7', 'time')),
	time_column name,
	t0 timestamptz,
	phase text NOT NULL,
	started timestamptz NOT NULL DEFAULT pg_catalog.now(),
	backfill_started timestamptz,
	backfill_seconds double precision NOT NULL DEFAULT 0,
	rows_total bigint,
	rows_done bigint NOT NULL DEFAULT 0,
	verified timestamptz,
	tries integer NOT NULL DEFAULT 0,
	last_error text
);
COMMENT ON TABLE idtypes_adopt.migration IS 'one row per table whose key is being moved: its mapping, phase and backfill counts';
CREATE TABLE idtypes_adopt.member (
	relid regclass NOT NULL REFERENCES idtypes_adopt.migration ON DELETE CASCADE,
	tab regclass NOT NULL,
	old_att smallint NOT NULL,
	new_att smallint,
	base name NOT NULL,
	old_con name,
	new_con name,
	actions text,
	sync text, -- the sync function's signature, qualified: as text, for pg_upgrade refuses a regprocedure column in any table (function OIDs change)
	PRIMARY KEY (relid, tab, old_att)
);
COMMENT ON TABLE idtypes_adopt.member IS 'the key column and every column referencing it: its shadow column, constraints and sync function';
CREATE TABLE idtypes_adopt.cursor (
	relid regclass NOT NULL REFERENCES idtypes_adopt.migration ON DELETE CASCADE,
	leaf regclass NOT NULL,
	next_block bigint NOT NULL DEFAULT 0,
	PRIMARY KEY (relid, leaf)
);
COMMENT ON TABLE idtypes_adopt.cursor IS 'the backfill''s next block in each table holding rows, committed with each batch';
CREATE TABLE idtypes_adopt.log (
	relid regclass NOT NULL REFERENCES idtypes_adopt.migration ON DELETE CASCADE,
	at timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	step text NOT NULL,
	detail text
);
COMMENT ON TABLE idtypes_adopt.log IS 'every step and every cut-over try, with its outcome';
ALTER TABLE idtypes_adopt.migration ENABLE ROW LEVEL SECURITY;
ALTER TABLE idtypes_adopt.member ENABLE ROW LEVEL SECURITY;
ALTER TABLE idtypes_adopt.cursor ENABLE ROW LEVEL SECURITY;
ALTER TABLE idtypes_adopt.log ENABLE ROW LEVEL SECURITY;
-- the owner read from the catalog, not kept here: a role OID kept in a row would not survive a dump restored
-- in another cluster (the owner would see no adoption), nor an ALTER TABLE ... OWNER TO
CREATE POLICY owner_only ON idtypes_adopt.migration
	USING (pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) relid::oid), 'USAGE'));
CREATE POLICY owner_only ON idtypes_adopt.member
	USING (EXISTS (SELECT FROM idtypes_adopt.migration m WHERE m.relid::oid OPERATOR(pg_catalog.=) member.relid::oid));
CREATE POLICY owner_only ON idtypes_adopt.cursor
	USING (EXISTS (SELECT FROM idtypes_adopt.migration m WHERE m.relid::oid OPERATOR(pg_catalog.=) cursor.relid::oid));
CREATE POLICY owner_only ON idtypes_adopt.log
	USING (EXISTS (SELECT FROM idtypes_adopt.migration m WHERE m.relid::oid OPERATOR(pg_catalog.=) log.relid::oid));
GRANT SELECT, INSERT, UPDATE, DELETE ON idtypes_adopt.migration, idtypes_adopt.member, idtypes_adopt.cursor,
	idtypes_adopt.log TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('idtypes_adopt.migration', '');
SELECT pg_catalog.pg_extension_config_dump('idtypes_adopt.member', '');
SELECT pg_catalog.pg_extension_config_dump('idtypes_adopt.cursor', '');
SELECT pg_catalog.pg_extension_config_dump('idtypes_adopt.log', '');

-- A UUIDv7 at the instant t (its millisecond) carrying the last 74 bits of u but the version and variant: the v7
-- mapping. Distinct v4s collide only when those 74 random bits agree (n^2/2^75: 3e-5 for 1e9 rows).
CREATE FUNCTION uuid_v7_from(t timestamptz, u uuid) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	ms numeric := floor(extract(epoch FROM t) * 1000);
	h text := replace(u::text, '-', '');
BEGIN
	IF ms < 0 OR ms >= 281474976710656 THEN
		RAISE EXCEPTION 'uuid_v7_from: % is outside the 48-bit milliseconds of a UUIDv7 (1970 to 10889)', t
			USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	RETURN (lpad(to_hex(ms::bigint), 12, '0') || '7' || substr(h, 14, 3)
	        || to_hex((('x' || substr(h, 17, 1))::bit(4)::integer & 3) | 8) || substr(h, 18))::uuid;
END
$function$;
COMMENT ON FUNCTION uuid_v7_from(timestamptz, uuid) IS 'UUIDv7 at the millisecond of the time, carrying the uuid''s last 74 bits (its version and variant replaced): the v7 mapping of adoption';

-- The schema of this extension, from its membership (never from a name the session can change).
CREATE FUNCTION idtypes_adopt_schema() RETURNS name
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT n.nspname FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_extension e ON e.extnamespace OPERATOR(pg_catalog.=) n.oid
	JOIN pg_catalog.pg_depend d ON d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
		AND d.refobjid OPERATOR(pg_catalog.=) e.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
		AND d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		AND d.objid OPERATOR(pg_catalog.=) '@extschema@.uuid_v7_from(timestamptz, uuid)'::pg_catalog.regprocedure
$function$;
COMMENT ON FUNCTION idtypes_adopt_schema() IS 'the schema of the idtypes extension, found from its membership: what generated code qualifies its calls with';

-- A table and its partitions (pg_partition_tree, which has no row for a table outside any partition tree).
CREATE FUNCTION idtypes_adopt_tree(tab regclass) RETURNS TABLE (relid regclass, isleaf boolean, level integer)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT t.relid, t.isleaf, t.level FROM pg_partition_tree(tab) t
	UNION ALL SELECT tab, true, 0 WHERE NOT EXISTS (SELECT FROM pg_partition_tree(tab))
$function$;
COMMENT ON FUNCTION idtypes_adopt_tree(regclass) IS 'a table and its partitions, with the levels of pg_partition_tree';

-- An operator of a column's type, qualified by the schema it lives in (pg_catalog for bigint and uuid, the
-- extension's for timeid), found from the catalog: generated code runs with search_path pinned to pg_catalog.
CREATE FUNCTION idtypes_adopt_op(tab regclass, att smallint, op text) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT format('OPERATOR(%I.%s)', n.nspname, o.oprname) FROM pg_attribute a
	JOIN pg_operator o ON o.oprleft = a.atttypid AND o.oprright = a.atttypid AND o.oprname = op
	JOIN pg_namespace n ON n.oid = o.oprnamespace
	WHERE a.attrelid = tab AND a.attnum = att
	ORDER BY n.nspname <> 'pg_catalog' LIMIT 1
$function$;
COMMENT ON FUNCTION idtypes_adopt_op(regclass, smallint, text) IS 'an operator on the type of a column of an adopted table, qualified by its schema';

-- a IS DISTINCT FROM b, with the operator <> given qualified (IS DISTINCT FROM finds its = by search_path).
CREATE FUNCTION idtypes_adopt_distinct_sql(a text, b text, ne text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT format('CASE WHEN (%1$s) IS NULL OR (%2$s) IS NULL THEN ((%1$s) IS NULL) <> ((%2$s) IS NULL) ELSE (%1$s) %3$s (%2$s) END', a, b, ne)
$function$;
COMMENT ON FUNCTION idtypes_adopt_distinct_sql(text, text, text) IS 'SQL text of a IS DISTINCT FROM b with a qualified <> operator';

-- The mapping of one column as SQL text: old -> new (forward) or new -> old (reverse). Every function, operator
-- and non-keyword type in it is qualified: the backfill runs it under its caller's search_path, where an
-- exact-match operator planted in a schema of that path (numeric * integer) would beat pg_catalog's.
-- x is the source column's
-- expression, r the row's alias (time mode reads the time column there). A key column maps by itself; a
-- referencing column maps by itself where the mapping is pure (keep, v7, and keep's inverse), else by a lookup
-- in the parent.
CREATE FUNCTION idtypes_adopt_map_sql(parent regclass, is_key boolean, forward boolean, x text, r text)
RETURNS text LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record;
	ext text := quote_ident(@extschema@.idtypes_adopt_schema());
	k record;
	old_name name;
	new_name name;
BEGIN
	SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = parent;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'table % is not being adopted', parent USING ERRCODE = 'undefined_object';
	END IF;
	IF m.mapping = 'keep' THEN
		RETURN CASE WHEN forward THEN format('%s.bigint_to_timeid(%s)', ext, x) ELSE format('%s.timeid_to_bigint(%s)', ext, x) END;
	END IF;
	IF forward AND m.mapping = 'v7' THEN
		RETURN format('%s.uuid_v7_from(%L::pg_catalog.timestamptz, %s)', ext, m.t0, x);
	END IF;
	IF is_key AND forward THEN -- time mode
		IF m.to_type = 'uuid'::regtype THEN
			RETURN format('%s.uuid_v7_from(%s.%I, %s)', ext, r, m.time_column, x);
		END IF;
		RETURN format('%s.make_timeid(pg_catalog.floor(extract(epoch FROM %s.%I) OPERATOR(pg_catalog.*) 1000000)::bigint, (%s OPERATOR(pg_catalog.&) 1023)::integer)',
		              ext, r, m.time_column, x);
	END IF;
	IF is_key THEN -- reverse for new rows: the new key itself where the old type holds it
		RETURN CASE WHEN m.to_type = 'uuid'::regtype THEN x ELSE format('%s.timeid_to_bigint(%s)', ext, x) END;
	END IF;
	SELECT * INTO k FROM idtypes_adopt.member WHERE relid = parent AND tab = parent AND old_con IS NULL;
	SELECT a.attname INTO old_name FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum = k.old_att;
	SELECT a.attname INTO new_name FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum = k.new_att;
	RETURN format('(SELECT p.%I FROM %s p WHERE p.%I %s %s)',
	              CASE WHEN forward THEN new_name ELSE old_name END, parent,
	              CASE WHEN forward THEN old_name ELSE new_name END,
	              @extschema@.idtypes_adopt_op(parent, CASE WHEN forward THEN k.old_att ELSE k.new_att END, '='), x);
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_map_sql(regclass, boolean, boolean, text, text) IS 'the adoption mapping of a column as SQL text, old to new or back: by itself, or by a lookup in the parent';

-- The plan: the cluster (the key and every foreign key referencing it), what blocks the move, the disk it needs.
CREATE FUNCTION idtypes_adopt_plan(relation regclass, to_type regtype, mapping text DEFAULT 'keep',
	time_column name DEFAULT NULL)
RETURNS TABLE (kind text, object text, detail text, blocking boolean)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	pk record;
	key_type regtype;
	r record;
	members oid[];
	bytes numeric := 0;
BEGIN
	IF relation IS NULL OR to_type IS NULL OR mapping IS NULL THEN
		RAISE EXCEPTION 'idtypes_adopt_plan: relation, to_type and mapping must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	SELECT c.conname, c.conkey, c.conindid INTO pk FROM pg_constraint c WHERE c.conrelid = relation AND c.contype = 'p';
	kind := 'key'; blocking := false;
	IF pk IS NULL THEN
		object := relation::text; detail := 'no primary key'; blocking := true; RETURN NEXT; RETURN;
	END IF;
	IF cardinality(pk.conkey) <> 1 THEN
		object := format('%s.%I', relation, pk.conname); detail := 'composite primary key: move one column at a time is not supported';
		blocking := true; RETURN NEXT; RETURN;
	END IF;
	SELECT a.atttypid::regtype INTO key_type FROM pg_attribute a WHERE a.attrelid = relation AND a.attnum = pk.conkey[1];
	object := format('%s.%I', relation, (SELECT attname FROM pg_attribute WHERE attrelid = relation AND attnum = pk.conkey[1]));
	detail := format('%s -> %s by %s', key_type, to_type, mapping);
	blocking := NOT ((mapping = 'keep' AND key_type = 'bigint'::regtype AND to_type::text ~ '(^|\.)timeid$')
	                 OR (mapping = 'v7' AND key_type = 'uuid'::regtype AND to_type = 'uuid'::regtype)
	                 OR (mapping = 'time' AND time_column IS NOT NULL
	                     AND ((key_type = 'bigint'::regtype AND to_type::text ~ '(^|\.)timeid$')
	                          OR (key_type = 'uuid'::regtype AND to_type = 'uuid'::regtype))));
	IF blocking THEN
		detail := detail || ': not a mapping offered (keep: bigint -> timeid; v7: uuid -> uuid; time: bigint -> timeid or uuid -> uuid, with time_column)';
	END IF;
	RETURN NEXT;
	IF mapping = 'time' AND time_column IS NOT NULL AND NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = relation
	   AND a.attname = time_column AND NOT a.attisdropped AND a.atttypid IN ('timestamptz'::regtype, 'timestamp'::regtype)) THEN
		object := format('%s.%I', relation, time_column); detail := 'no timestamptz column of that name'; blocking := true; RETURN NEXT;
	END IF;
	IF (SELECT c.relkind FROM pg_class c WHERE c.oid = relation) = 'p' THEN
		kind := 'partitions'; object := relation::text; blocking := true;
		detail := 'a partitioned parent: ADD PRIMARY KEY USING INDEX is not possible on a partitioned table'; RETURN NEXT;
	END IF;
	members := ARRAY[relation::oid];
	-- the referencing columns (top-level constraints: a partitioned child's partitions inherit them)
	FOR r IN SELECT c.conname, c.conrelid::regclass AS tab, c.conkey, c.confupdtype, c.confdeltype, c.condeferrable,
	                (SELECT relkind FROM pg_class WHERE oid = c.conrelid) AS relkind
	         FROM pg_constraint c WHERE c.confrelid = relation AND c.contype = 'f' AND c.conparentid = 0 ORDER BY c.conrelid, c.conname LOOP
		kind := 'foreign key'; object := format('%s.%I', r.tab, r.conname); blocking := cardinality(r.conkey) <> 1;
		detail := concat_ws(', ', CASE WHEN blocking THEN 'composite: not supported' END,
		                    CASE WHEN r.tab = relation THEN 'self reference' END,
		                    CASE WHEN r.confupdtype = 'c' THEN 'ON UPDATE CASCADE (the sync triggers follow it)' END,
		                    CASE WHEN r.relkind = 'p' THEN 'partitioned: indexes built per partition' END,
		                    CASE WHEN r.condeferrable THEN 'deferrable' END);
		IF EXISTS (SELECT FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid WHERE i.inhparent = r.tab AND k.relkind = 'p') THEN
			detail := concat_ws(', ', detail, 'sub-partitioned: not supported'); blocking := true;
		END IF;
		RETURN NEXT;
		members := members || r.tab::oid;
	END LOOP;
	-- what depends on the key columns of the cluster
	FOR r IN
		SELECT DISTINCT d.classid, d.objid, d.refobjid, d.refobjsubid
		FROM pg_depend d
		JOIN pg_constraint f ON f.conrelid = d.refobjid AND d.refobjsubid = ANY (f.conkey)
		     AND ((f.contype = 'f' AND f.confrelid = relation AND f.conparentid = 0) OR (f.contype = 'p' AND f.conrelid = relation))
		WHERE d.refclassid = 'pg_class'::regclass AND d.deptype IN ('n', 'a')
		  AND NOT (d.classid = 'pg_attrdef'::regclass AND EXISTS (SELECT FROM pg_attrdef ad WHERE ad.oid = d.objid AND ad.adnum = d.refobjsubid))
		  AND d.classid IN ('pg_rewrite'::regclass, 'pg_policy'::regclass, 'pg_attrdef'::regclass, 'pg_trigger'::regclass,
		                    'pg_publication_rel'::regclass)
	LOOP
		object := pg_describe_object(r.classid, r.objid, 0);
		IF r.classid = 'pg_rewrite'::regclass THEN
			SELECT CASE WHEN w.rulename = '_RETURN' AND v.relkind = 'v' THEN 'view' ELSE 'rule' END,
			       CASE WHEN w.rulename = '_RETURN' AND v.relkind = 'v' THEN v.oid::regclass::text END
			INTO kind, detail FROM pg_rewrite w JOIN pg_class v ON v.oid = w.ev_class WHERE w.oid = r.objid;
			IF kind = 'view' THEN
				object := detail;
				blocking := EXISTS (SELECT FROM pg_depend d2 JOIN pg_rewrite w2 ON w2.oid = d2.objid
				                    WHERE d2.classid = 'pg_rewrite'::regclass AND d2.refclassid = 'pg_class'::regclass
				                      AND d2.refobjid = object::regclass AND w2.ev_class <> object::regclass);
				detail := CASE WHEN blocking THEN 'other views depend on it: recreate them by hand' ELSE 'recreated in the cut-over''s transaction' END;
			ELSE
				detail := 'a rule on the key: rewrite it by hand first'; blocking := true;
			END IF;
		ELSIF r.classid = 'pg_policy'::regclass THEN
			kind := 'policy'; detail := 'recreated in the cut-over''s transaction'; blocking := false;
		ELSIF r.classid = 'pg_attrdef'::regclass THEN
			kind := 'generated column'; detail := 'a generated column or a default reads the key: drop it before, add it after'; blocking := true;
		ELSIF r.classid = 'pg_trigger'::regclass THEN
			kind := 'trigger'; detail := 'a trigger on the key column: it runs before the sync trigger only if its name sorts first'; blocking := false;
		ELSE
			kind := 'publication'; detail := 'published column'; blocking := true;
		END IF;
		RETURN NEXT;
	END LOOP;
	FOR r IN SELECT p.pubname, c.relid::regclass AS tab FROM pg_publication p,
	         LATERAL pg_get_publication_tables(p.pubname) c WHERE c.relid = ANY (members) LOOP
		kind := 'publication'; object := format('%I: %s', r.pubname, r.tab); blocking := true;
		detail := 'published: subscribers need the new column, and a new replica identity, before the cut-over; remove it from the publication first';
		RETURN NEXT;
	END LOOP;
	FOR r IN SELECT c.oid::regclass AS tab, c.relreplident FROM pg_class c WHERE c.oid = relation AND c.relreplident IN ('d', 'i') LOOP
		kind := 'replica identity'; object := r.tab::text; blocking := false;
		detail := 'the replica identity (the primary key) becomes the new key at the cut-over: change data consumers see the new key from then on';
		RETURN NEXT;
	END LOOP;
	FOR r IN SELECT t.tgname, t.tgrelid::regclass AS tab FROM pg_trigger t WHERE t.tgrelid = ANY (members) AND NOT t.tgisinternal
	         AND t.tgparentid = 0 AND (t.tgtype & 1) = 1 AND t.tgname > 'zz_idtypes_adopt' LOOP
		kind := 'trigger'; object := format('%s: %I', r.tab, r.tgname); blocking := false;
		detail := 'a row trigger that runs after the sync trigger: if it changes the key, verify finds the rows';
		RETURN NEXT;
	END LOOP;
	FOR r IN SELECT t.tgname, t.tgrelid::regclass AS tab FROM pg_trigger t WHERE t.tgrelid = ANY (members) AND NOT t.tgisinternal
	         AND t.tgparentid = 0 AND (t.tgtype & 1) = 1 AND (t.tgtype & 16) = 16 AND t.tgname <> 'zz_idtypes_adopt' AND t.tgenabled <> 'D' LOOP
		kind := 'trigger'; object := format('%s: %I', r.tab, r.tgname); blocking := false;
		detail := 'a row UPDATE trigger: the backfill''s UPDATE (the key set to itself) fires it for every row, under the search_path of the role calling the backfill';
		RETURN NEXT;
	END LOOP;
	IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL OR to_regclass('pg_dist_partition') IS NOT NULL THEN
		FOR r IN EXECUTE 'SELECT logicalrelid::regclass AS tab FROM pg_catalog.pg_dist_partition WHERE logicalrelid = ANY ($1)' USING members LOOP
			kind := 'citus'; object := r.tab::text; blocking := true;
			detail := 'a Citus distributed table: its distribution column cannot change type in place (citus #2919)';
			RETURN NEXT;
		END LOOP;
	END IF;
	-- the role must own every table of the cluster (ADD COLUMN, the foreign keys) and create its sync function
	-- in the table's schema: else start would stop half way, at the first table it cannot change
	FOR r IN SELECT c.oid::regclass AS tab, c.relowner, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	         WHERE c.oid = ANY (members) AND (NOT pg_has_role(c.relowner, 'USAGE') OR NOT has_schema_privilege(n.oid, 'CREATE')) ORDER BY 1 LOOP
		kind := 'owner'; object := r.tab::text; blocking := true;
		detail := CASE WHEN NOT pg_has_role(r.relowner, 'USAGE') THEN format('owned by %I: the adoption is run by the owner of every table of the cluster', r.relowner::regrole)
		               ELSE format('no CREATE on schema %I, where its sync function goes', r.nspname) END;
		RETURN NEXT;
	END LOOP;
	-- a function already named as a table's sync function (planted by the schema's owner, or left behind):
	-- start would stop half way at its CREATE FUNCTION
	FOR r IN SELECT c.oid::regclass AS tab, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	         WHERE c.oid = ANY (members) AND to_regprocedure(format('%I.%I()', n.nspname, 'idtypes_adopt_sync_' || c.oid)) IS NOT NULL LOOP
		kind := 'name'; object := format('%I.%I()', r.nspname, 'idtypes_adopt_sync_' || r.tab::oid); blocking := true;
		detail := format('a function of the name of the sync function of %s exists: drop it, or ask the schema''s owner to', r.tab);
		RETURN NEXT;
	END LOOP;
	-- names the shadow columns will take
	FOR r IN SELECT a.attrelid::regclass AS tab, a.attname FROM pg_attribute a WHERE a.attrelid = ANY (members)
	         AND EXISTS (SELECT FROM pg_attribute b WHERE b.attrelid = a.attrelid AND NOT b.attisdropped
	                     AND b.attname IN (left(a.attname, 59) || '_new', left(a.attname, 59) || '_old'))
	         AND (a.attnum = pk.conkey[1] AND a.attrelid = relation
	              OR a.attnum IN (SELECT unnest(conkey) FROM pg_constraint f WHERE f.conrelid = a.attrelid AND f.contype = 'f' AND f.confrelid = relation)) LOOP
		kind := 'name'; object := format('%s.%I', r.tab, r.attname); blocking := true;
		detail := 'a column named as its shadow column (_new or _old) exists';
		RETURN NEXT;
	END LOOP;
	-- what the new columns do not take from the old ones (dropped with them at finish): a CHECK naming the
	-- column, a referencing column's DEFAULT, an index on it other than a plain one on it alone (composite,
	-- partial, unique, an expression; the key's own index aside). A unique one on a column finish drops (a
	-- referencing column; the key in keep mode, the others keep it as id_old) blocks: it is a rule the rows
	-- keep (a join table's primary key, a one-to-one reference), not a speed-up to make again later
	FOR r IN
		SELECT format('%s.%I', t.tab, a.attname) AS col, x.what, x.is_unique AND (NOT t.is_key OR mapping = 'keep') AS is_unique
		FROM (SELECT relation AS tab, pk.conkey[1] AS att, true AS is_key
		      UNION ALL SELECT f.conrelid, f.conkey[1], false FROM pg_constraint f
		      WHERE f.confrelid = relation AND f.contype = 'f' AND f.conparentid = 0 AND cardinality(f.conkey) = 1) t
		JOIN pg_attribute a ON a.attrelid = t.tab AND a.attnum = t.att,
		LATERAL (SELECT 'DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), false FROM pg_attrdef d WHERE d.adrelid = t.tab AND d.adnum = t.att AND NOT t.is_key
		         UNION ALL SELECT format('CHECK %I', c.conname), false FROM pg_constraint c WHERE c.conrelid = t.tab AND c.contype = 'c' AND t.att = ANY (c.conkey)
		         UNION ALL SELECT format('index %s', i.indexrelid::regclass), i.indisunique FROM pg_index i WHERE i.indrelid = t.tab AND t.att = ANY (i.indkey)
		                   AND i.indexrelid <> pk.conindid AND (i.indnatts > 1 OR i.indpred IS NOT NULL OR i.indexprs IS NOT NULL OR i.indisunique)) x(what, is_unique)
		ORDER BY 1, 2 LOOP
		kind := 'not kept'; object := r.col; blocking := r.is_unique;
		detail := CASE WHEN r.is_unique
		               THEN r.what || ': a unique index (a primary key or UNIQUE constraint too) on the column: not supported, finish would drop it with the old column'
		               ELSE r.what || ': not carried to the new column (dropped with the old one at finish): make it again after the cut-over' END;
		RETURN NEXT;
	END LOOP;
	-- the disk: each row rewritten once (until VACUUM reuses the space), the new key index and the old key's
	SELECT sum(pg_table_size(l.relid)) INTO bytes FROM unnest(members) t, LATERAL @extschema@.idtypes_adopt_tree(t) l WHERE l.isleaf;
	bytes := coalesce(bytes, 0) + 2 * pg_relation_size(pk.conindid);
	kind := 'disk'; object := pg_size_pretty(bytes); blocking := false;
	detail := 'about: each table once more until VACUUM, the new key index and the old key''s unique index';
	RETURN NEXT;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_plan(regclass, regtype, text, name) IS 'adoption plan of a table''s key: its cluster of foreign keys, what blocks the move, the disk it needs; changes nothing';

-- The state tables locked ROW EXCLUSIVE for the rest of the caller's transaction (no later statement of it then
-- waits for them: a stronger lock asked for meanwhile queues behind this one), waiting at most the caller's
-- lock_timeout, or 1 s when it has none or a longer one. Any role may LOCK them (PUBLIC writes them: row-level
-- security keeps the rows apart, not the tables) and hold the lock in a long transaction, which would make
-- every adoption in the database wait behind it: the step ends instead, naming the holder. The SET clause
-- gives the caller its lock_timeout back. Every step calls it before it reads the state, and declares its
-- state variables as record: PL/pgSQL compiles a variable of a table's row type by opening the table, which
-- would wait before the step's first statement.
CREATE FUNCTION idtypes_adopt_lock_state(caller_wait text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET lock_timeout = '1s'
AS $function$
DECLARE
	who text;
BEGIN
	IF caller_wait::interval > interval '0' AND caller_wait::interval < interval '1s' THEN
		PERFORM set_config('lock_timeout', caller_wait, true);
	END IF;
	LOCK TABLE idtypes_adopt.migration, idtypes_adopt.member, idtypes_adopt.cursor, idtypes_adopt.log IN ROW EXCLUSIVE MODE;
EXCEPTION WHEN lock_not_available THEN
	-- the modes that conflict with ROW EXCLUSIVE, held or asked for ahead of this session; a prepared
	-- transaction's have no pid (it outlives every session and a restart): named by its gid
	SELECT string_agg(format('%s is locked by %s in %s%s', l.relation::regclass,
	                         CASE WHEN l.pid IS NOT NULL THEN format('pid %s (role %s)', l.pid, coalesce(a.usename::text, '?'))
	                              ELSE format('the prepared transaction %L (owner %s)', x.gid, x.owner) END, l.mode,
	                         CASE WHEN l.granted THEN '' ELSE ' (waiting)' END), '; ' ORDER BY NOT l.granted, l.pid)
	INTO who FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
	LEFT JOIN LATERAL (SELECT p.gid, p.owner FROM pg_prepared_xacts p JOIN pg_locks t ON t.locktype = 'transactionid'
	                   AND t.transactionid = p.transaction AND t.virtualtransaction = l.virtualtransaction WHERE l.pid IS NULL) x ON true
	WHERE l.locktype = 'relation' AND l.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
	  AND l.relation IN ('idtypes_adopt.migration'::regclass, 'idtypes_adopt.member'::regclass, 'idtypes_adopt.cursor'::regclass,
	                     'idtypes_adopt.log'::regclass)
	  AND l.pid IS DISTINCT FROM pg_backend_pid() AND l.mode IN ('ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock');
	RAISE EXCEPTION 'the adoption state cannot be written: %', coalesce(who, 'another session locked it') USING ERRCODE = 'lock_not_available',
		DETAIL = 'The tables of the schema idtypes_adopt are writable by every role (row-level security keeps the rows apart), so any role may lock them.',
		HINT = 'End that session (pg_terminate_backend), or ROLLBACK PREPARED that prepared transaction, then call the step again: it goes on where it stopped.';
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_lock_state(text) IS 'locks the adoption state tables for the caller''s transaction, ending at lock_timeout (1 s at most) with an error naming the holder';

-- Pins search_path for the rest of the calling procedure's transaction (a procedure that COMMITs cannot carry
-- SET search_path), locks the state tables, and returns the adoption's row, refusing a role that does not own
-- the table.
CREATE FUNCTION idtypes_adopt_row(parent regclass) RETURNS idtypes_adopt.migration
LANGUAGE plpgsql VOLATILE
AS $function$
DECLARE
	m record;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
	IF NOT pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) parent::oid), 'USAGE') THEN
		RAISE EXCEPTION 'must be the owner of table % to adopt its key', parent USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT * INTO m FROM idtypes_adopt.migration WHERE relid OPERATOR(pg_catalog.=) parent;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'table % is not being adopted', parent USING ERRCODE = 'undefined_object',
			HINT = 'Start with CALL @extschema@.idtypes_adopt_start(...).';
	END IF;
	RETURN m;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_row(regclass) IS 'the adoption state of a table, for its owner only; pins search_path for the rest of the transaction';

-- A step's end, in the caller's transaction: the phase it reaches (only from from_phase where given: a
-- backfill run again later leaves the phase as it is) and its line in the log.
CREATE FUNCTION idtypes_adopt_reached(relation regclass, phase text, detail text DEFAULT NULL, from_phase text DEFAULT NULL)
RETURNS void LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
	UPDATE idtypes_adopt.migration m SET phase = idtypes_adopt_reached.phase
	WHERE m.relid = relation AND (from_phase IS NULL OR m.phase = from_phase);
	INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, idtypes_adopt_reached.phase, detail);
$function$;
COMMENT ON FUNCTION idtypes_adopt_reached(regclass, text, text, text) IS 'the end of an adoption step: its phase and its line in the log';

-- The current names of a member's columns (they swap at the cut-over; the attnums do not).
CREATE FUNCTION idtypes_adopt_col(tab regclass, att smallint) RETURNS name
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$ SELECT a.attname FROM pg_catalog.pg_attribute a WHERE a.attrelid = tab AND a.attnum = att AND NOT a.attisdropped $function$;
COMMENT ON FUNCTION idtypes_adopt_col(regclass, smallint) IS 'the current name of a column of an adopted table';

-- The name of the CHECK (<new column> IS NOT NULL) that constrain adds where the old column is NOT NULL.
CREATE FUNCTION idtypes_adopt_nn_name(tab regclass, base name) RETURNS name
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$ SELECT format('%s_%s_idn_nn', left(c.relname, 30), left(base, 20))::name FROM pg_catalog.pg_class c WHERE c.oid = tab $function$;
COMMENT ON FUNCTION idtypes_adopt_nn_name(regclass, name) IS 'the name of the CHECK proving an adopted column''s new column NOT NULL';

-- The sync trigger's function for one table: forward (old -> new) before the cut-over, reverse after it.
CREATE FUNCTION idtypes_adopt_sync_sql(parent regclass, member_tab regclass, forward boolean) RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record;
	k record;
	body text := '';
	src name;
	dst name;
	is_key boolean;
	always boolean;
BEGIN
	SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = parent;
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = parent AND tab = member_tab ORDER BY old_att LOOP
		is_key := k.old_con IS NULL AND k.tab = parent;
		src := @extschema@.idtypes_adopt_col(k.tab, CASE WHEN forward THEN k.old_att ELSE k.new_att END);
		dst := @extschema@.idtypes_adopt_col(k.tab, CASE WHEN forward THEN k.new_att ELSE k.old_att END);
		-- always: a pure mapping that every row must satisfy; else only where the source changed or the
		-- target is empty (a lookup, or the old key of a row made after the cut-over)
		always := m.mapping = 'keep' OR (forward AND (is_key OR m.mapping = 'v7'));
		-- after the cut-over a row inserted with its values in the old column order (INSERT ... VALUES or COPY
		-- without a column list) gives the old column, now *_old, and leaves the new one, last, empty: its
		-- value is mapped forward first, so the reverse assignment below keeps it (it emptied it before)
		IF NOT forward THEN
			body := body || format(E'\tIF TG_OP = ''INSERT'' AND NEW.%1$I IS NULL AND NEW.%2$I IS NOT NULL THEN\n\t\tNEW.%1$I := %3$s;\n\tEND IF;\n',
			                       src, dst, @extschema@.idtypes_adopt_map_sql(parent, is_key, true, format('NEW.%I', dst), 'NEW'));
		END IF;
		IF always THEN
			body := body || format(E'\tNEW.%I := %s;\n', dst, @extschema@.idtypes_adopt_map_sql(parent, is_key, forward, format('NEW.%I', src), 'NEW'));
		ELSE
			body := body || format(E'\tIF TG_OP = ''INSERT'' AND NEW.%2$I IS NULL OR TG_OP = ''UPDATE'' AND (%4$s OR NEW.%2$I IS NULL) THEN\n\t\tNEW.%2$I := %3$s;\n\tEND IF;\n',
			                       src, dst, @extschema@.idtypes_adopt_map_sql(parent, is_key, forward, format('NEW.%I', src), 'NEW'),
			                       @extschema@.idtypes_adopt_distinct_sql(format('NEW.%I', src), format('OLD.%I', src),
			                           @extschema@.idtypes_adopt_op(k.tab, CASE WHEN forward THEN k.old_att ELSE k.new_att END, '<>')));
		END IF;
	END LOOP;
	RETURN format(E'CREATE OR REPLACE FUNCTION %s RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $sync$\nBEGIN\n%s\tRETURN NEW;\nEND\n$sync$',
	              (SELECT sync FROM idtypes_adopt.member WHERE relid = parent AND tab = member_tab AND sync IS NOT NULL LIMIT 1), body);
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_sync_sql(regclass, regclass, boolean) IS 'the CREATE OR REPLACE FUNCTION of an adopted table''s sync trigger, old to new or back';

-- Runs a statement (or several, with semicolons: all or none) in a short transaction of its own under lock_timeout, again with backoff on 55P03 and
-- 40P01, each wait logged under the adoption of parent (NULL: none to log to, as for redefault); the caller
-- COMMITs around it. The SET clause of lock_timeout gives the caller its own back at the
-- end (a value set here would otherwise hold for the rest of the caller's transaction).
CREATE FUNCTION idtypes_adopt_exec(parent regclass, stmt text, lock_wait interval DEFAULT '200ms') RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp SET lock_timeout = '200ms'
AS $function$
DECLARE
	try integer := 0;
BEGIN
	PERFORM set_config('lock_timeout', (extract(epoch FROM lock_wait) * 1000)::bigint::text, true);
	LOOP
		BEGIN
			EXECUTE stmt;
			RETURN;
		EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
			try := try + 1;
			IF parent IS NOT NULL THEN
				INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (parent, 'wait', format('%s: %s', SQLERRM, left(stmt, 200)));
			END IF;
			IF try >= 20 THEN
				RAISE;
			END IF;
		END;
		PERFORM pg_sleep(least(5, 0.05 * 2 ^ try) * (0.5 + random()));
	END LOOP;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_exec(regclass, text, interval) IS 'runs adoption statements under lock_timeout (below deadlock_timeout), again with backoff on lock timeouts and deadlocks (20 tries)';

-- start: the state, a shadow column per key column, the sync triggers. Resumable: each step commits with its
-- record, and a rerun does what is left.
CREATE PROCEDURE idtypes_adopt_start(relation regclass, to_type regtype, mapping text DEFAULT 'keep', time_column name DEFAULT NULL)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	m record;
	k record;
	blockers text;
	pk_att smallint;
	t regclass;
	fname text;
	caller_path text := pg_catalog.current_setting('search_path');
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	IF relation IS NULL THEN
		RAISE EXCEPTION 'idtypes_adopt_start: relation must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT pg_has_role((SELECT c.relowner FROM pg_class c WHERE c.oid = relation), 'USAGE') THEN
		RAISE EXCEPTION 'must be the owner of table % to adopt its key', relation USING ERRCODE = 'insufficient_privilege';
	END IF;
	PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
	SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = relation;
	IF FOUND AND m.phase = 'finished' THEN
		DELETE FROM idtypes_adopt.migration WHERE relid = relation;
		SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = relation; -- none now: every field NULL
	END IF;
	IF m.relid IS NOT NULL AND (m.to_type, m.mapping, m.time_column) IS DISTINCT FROM (to_type, mapping, time_column) THEN
		RAISE EXCEPTION 'the adoption of % was started to % by %, not to % by %', relation, m.to_type,
			m.mapping || coalesce(' from ' || quote_ident(m.time_column), ''), to_type, mapping || coalesce(' from ' || quote_ident(time_column), '')
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Call it again with the arguments it was started with, or abandon it with idtypes_adopt_finish first.';
	END IF;
	IF m.relid IS NULL THEN
		SELECT string_agg(format('%s %s: %s', p.kind, p.object, p.detail), '; ') INTO blockers
		FROM @extschema@.idtypes_adopt_plan(relation, to_type, mapping, time_column) p WHERE p.blocking;
		IF blockers IS NOT NULL THEN
			RAISE EXCEPTION 'cannot adopt the key of %: %', relation, blockers USING ERRCODE = 'object_not_in_prerequisite_state',
				HINT = 'SELECT * FROM @extschema@.idtypes_adopt_plan(...) lists them.';
		END IF;
		SELECT c.conkey[1] INTO pk_att FROM pg_constraint c WHERE c.conrelid = relation AND c.contype = 'p';
		INSERT INTO idtypes_adopt.migration (relid, to_type, mapping, time_column, t0, phase)
		VALUES (relation, to_type, mapping, time_column,
		        CASE WHEN mapping = 'v7' THEN date_trunc('second', now()) - interval '1 second' END, 'starting');
		INSERT INTO idtypes_adopt.member (relid, tab, old_att, base)
		VALUES (relation, relation, pk_att, @extschema@.idtypes_adopt_col(relation, pk_att));
		INSERT INTO idtypes_adopt.member (relid, tab, old_att, base, old_con, actions)
		SELECT relation, c.conrelid, c.conkey[1], @extschema@.idtypes_adopt_col(c.conrelid, c.conkey[1]), c.conname,
		       format(' ON UPDATE %s ON DELETE %s%s', a.u, a.d, CASE WHEN c.condeferrable THEN ' DEFERRABLE INITIALLY '
		              || CASE WHEN c.condeferred THEN 'DEFERRED' ELSE 'IMMEDIATE' END ELSE '' END)
		FROM pg_constraint c, LATERAL (SELECT (SELECT w FROM (VALUES ('a', 'NO ACTION'), ('r', 'RESTRICT'), ('c', 'CASCADE'), ('n', 'SET NULL'),
		                                                          ('d', 'SET DEFAULT')) v(k, w) WHERE v.k = c.confupdtype) AS u,
		                                      (SELECT w FROM (VALUES ('a', 'NO ACTION'), ('r', 'RESTRICT'), ('c', 'CASCADE'), ('n', 'SET NULL'),
		                                                          ('d', 'SET DEFAULT')) v(k, w) WHERE v.k = c.confdeltype) AS d) a WHERE c.confrelid = relation AND c.contype = 'f' AND c.conparentid = 0;
		INSERT INTO idtypes_adopt.log (relid, step) VALUES (relation, 'start');
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
		SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = relation;
	ELSIF m.phase <> 'starting' THEN
		RAISE NOTICE 'the adoption of % is started already (phase %)', relation, m.phase;
		PERFORM pg_catalog.set_config('search_path', caller_path, true); -- the caller's back: no commit ended the pin
		RETURN;
	END IF;
	-- the shadow columns, bare (a volatile default would rewrite the table): ACCESS EXCLUSIVE, catalog only
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation AND new_att IS NULL ORDER BY tab, old_att LOOP
		PERFORM @extschema@.idtypes_adopt_exec(relation, format('ALTER TABLE %s ADD COLUMN %I %s', k.tab, left(k.base, 59) || '_new', m.to_type));
		UPDATE idtypes_adopt.member SET new_att = (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = k.tab AND a.attname = left(k.base, 59) || '_new')
		WHERE relid = k.relid AND tab = k.tab AND old_att = k.old_att;
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
	END LOOP;
	-- the sync triggers, sorting last among the table's row triggers (named zz_...): BEFORE INSERT OR UPDATE
	-- (SHARE ROW EXCLUSIVE, brief)
	FOR t IN SELECT DISTINCT tab FROM idtypes_adopt.member WHERE relid = relation AND sync IS NULL LOOP
		fname := format('%I.%I()', (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = t),
		                'idtypes_adopt_sync_' || t::oid);
		EXECUTE format('CREATE FUNCTION %s RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$', fname);
		UPDATE idtypes_adopt.member SET sync = fname::regprocedure::text WHERE relid = relation AND tab = t;
		EXECUTE @extschema@.idtypes_adopt_sync_sql(relation, t, true);
		PERFORM @extschema@.idtypes_adopt_exec(relation, format('CREATE TRIGGER zz_idtypes_adopt BEFORE INSERT OR UPDATE ON %s FOR EACH ROW EXECUTE FUNCTION %s', t, fname));
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
	END LOOP;
	PERFORM @extschema@.idtypes_adopt_reached(relation, 'started');
	COMMIT;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_start(regclass, regtype, text, name) IS 'adoption step 1: shadow columns and sync triggers on the table and every table referencing its key; resumable';

-- The tables holding rows of each member (a partitioned table's leaves), the parent first: in time mode the
-- children look their new key up in the parent, so the parent is filled first.
CREATE FUNCTION idtypes_adopt_leaves(parent regclass) RETURNS TABLE (tab regclass, leaf regclass)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT DISTINCT ON (l.relid) m.tab, l.relid
	FROM idtypes_adopt.member m, LATERAL @extschema@.idtypes_adopt_tree(m.tab) l
	WHERE m.relid = parent AND l.isleaf AND (SELECT c.relkind FROM pg_class c WHERE c.oid = l.relid) = 'r'
	ORDER BY l.relid, m.tab <> parent
$function$;
COMMENT ON FUNCTION idtypes_adopt_leaves(regclass) IS 'the tables holding the rows of an adoption''s members (a partitioned table''s leaves)';

-- The rows of a leaf whose shadow column is empty or off the mapping (rows made after a cut-over that was
-- rolled back, in v7 and time mode), as a WHERE condition on the alias r.
CREATE FUNCTION idtypes_adopt_empty_sql(parent regclass, member_tab regclass) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT string_agg(format('(r.%I IS NOT NULL AND %s)', @extschema@.idtypes_adopt_col(m.tab, m.old_att),
	                         @extschema@.idtypes_adopt_distinct_sql(format('r.%I', @extschema@.idtypes_adopt_col(m.tab, m.new_att)),
	                             @extschema@.idtypes_adopt_map_sql(parent, m.old_con IS NULL AND m.tab = parent, true,
	                                 format('r.%I', @extschema@.idtypes_adopt_col(m.tab, m.old_att)), 'r'),
	                             @extschema@.idtypes_adopt_op(m.tab, m.new_att, '<>'))), ' OR ')
	FROM idtypes_adopt.member m WHERE m.relid = parent AND m.tab = member_tab
$function$;
COMMENT ON FUNCTION idtypes_adopt_empty_sql(regclass, regclass) IS 'the condition of an adopted table''s rows whose shadow column is empty or off the mapping';

-- backfill: batches of blocks (up to batch_blocks, fewer while a batch takes over 0.2 s: its rows stay locked
-- until it commits) that commit, each with its cursor; the sync trigger computes each row's new key
-- (the UPDATE sets the old key to itself). Before each batch it waits while a standby's replay is more than
-- max_lag bytes behind or a session waits for a lock on the tables. A cancel, a crash or a failover loses at
-- most the batch under way; a rerun goes on from the cursor.
CREATE PROCEDURE idtypes_adopt_backfill(relation regclass, batch_blocks integer DEFAULT 64,
	max_lag bigint DEFAULT 67108864, pause interval DEFAULT '0', max_batches bigint DEFAULT NULL)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	m record;
	l record;
	nblocks bigint;
	cur bigint;
	done bigint;
	total bigint := 0;
	batches bigint := 0;
	batch_start timestamptz;
	batch_seconds double precision;
	blocks integer := least(8, batch_blocks); -- a batch's blocks: halved when a batch takes over 0.2 s, doubled under 0.05 s
	lag numeric;
	leaves regclass[];
	-- the caller's search_path, for the batches' UPDATEs alone: they fire the tables' own row triggers, written
	-- for the application's path (their unqualified names failed under the pinned one, and the batch with them)
	caller_path text := pg_catalog.current_setting('search_path');
	stmt text;
	pass integer := 0;
BEGIN
	m := @extschema@.idtypes_adopt_row(relation);
	IF batch_blocks IS NULL OR batch_blocks NOT BETWEEN 1 AND 100000 THEN
		RAISE EXCEPTION 'batch_blocks must be between 1 and 100000' USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	IF m.phase IN ('constrained', 'cut_over', 'finished') THEN
		RAISE NOTICE 'the adoption of % is past its backfill (phase %)', relation, m.phase;
		PERFORM pg_catalog.set_config('search_path', caller_path, true); -- the caller's back: no commit ended the pin
		RETURN;
	ELSIF m.phase NOT IN ('started', 'backfilled') THEN
		RAISE EXCEPTION 'the adoption of % is in phase %, not started', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	SELECT array_agg(x.leaf) INTO leaves FROM @extschema@.idtypes_adopt_leaves(relation) x;
	IF m.rows_total IS NULL THEN
		FOR l IN SELECT * FROM @extschema@.idtypes_adopt_leaves(relation) LOOP
			EXECUTE format('SELECT count(*) FROM %s r WHERE %s', l.leaf, @extschema@.idtypes_adopt_empty_sql(relation, l.tab)) INTO done;
			total := total + done;
			INSERT INTO idtypes_adopt.cursor (relid, leaf) VALUES (relation, l.leaf) ON CONFLICT DO NOTHING;
		END LOOP;
		UPDATE idtypes_adopt.migration SET rows_total = total, backfill_started = clock_timestamp() WHERE relid = relation;
		COMMIT;
		-- pinned again (the commit ended the pin): the passes' query compares regclasses, whose operator a
		-- schema's owner could plant under the caller's path (an exact match, which pg_catalog lacks)
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM @extschema@.idtypes_adopt_lock_state(pg_catalog.current_setting('lock_timeout'));
	END IF;
	-- parent first (time mode looks children's keys up in it), then the others; again over the tables where
	-- rows are still off the mapping at the end (time mode: a row written behind the cursor while the parent
	-- row it looks up was not filled yet, such as the parent's own reference to itself)
	<<passes>>
	LOOP
	FOR l IN SELECT x.tab, x.leaf FROM @extschema@.idtypes_adopt_leaves(relation) x ORDER BY x.tab <> relation, x.leaf::oid LOOP
		LOOP
			m := @extschema@.idtypes_adopt_row(relation);
			SELECT c.next_block INTO cur FROM idtypes_adopt.cursor c WHERE c.relid = relation AND c.leaf = l.leaf;
			IF cur IS NULL THEN
				INSERT INTO idtypes_adopt.cursor (relid, leaf) VALUES (relation, l.leaf);
				cur := 0;
			END IF;
			nblocks := pg_relation_size(l.leaf) / current_setting('block_size')::bigint;
			EXIT WHEN cur >= nblocks;
			IF max_batches IS NOT NULL AND batches >= max_batches THEN
				PERFORM pg_catalog.set_config('search_path', caller_path, true);
				RETURN;
			END IF;
			-- throttle: replay lag (pg_stat_replication shows it to pg_read_all_stats) and lock waits
			LOOP
				SELECT max(pg_wal_lsn_diff(pg_current_wal_lsn(), r.replay_lsn)) INTO lag FROM pg_stat_replication r;
				EXIT WHEN coalesce(lag, 0) <= max_lag AND NOT EXISTS (SELECT FROM pg_locks k WHERE NOT k.granted AND k.relation = ANY (leaves::oid[]));
				PERFORM pg_sleep(0.05);
			END LOOP;
			batch_start := clock_timestamp();
			BEGIN
				PERFORM set_config('lock_timeout', '500', true);
				-- the old key set to itself, the new one emptied: the sync trigger computes it. The text is made
				-- under the pinned path (every name in it qualified), run under the caller's (for its triggers)
				stmt := format('UPDATE %s r SET %s WHERE ctid OPERATOR(pg_catalog.>=) $1::pg_catalog.tid AND ctid OPERATOR(pg_catalog.<) $2::pg_catalog.tid AND (%s)', l.leaf,
				               (SELECT string_agg(format('%1$I = r.%1$I, %2$I = NULL', @extschema@.idtypes_adopt_col(k.tab, k.old_att),
				                                         @extschema@.idtypes_adopt_col(k.tab, k.new_att)), ', ')
				                FROM idtypes_adopt.member k WHERE k.relid = relation AND k.tab = l.tab),
				               @extschema@.idtypes_adopt_empty_sql(relation, l.tab));
				PERFORM set_config('search_path', caller_path, true);
				EXECUTE stmt USING format('(%s,0)', cur), format('(%s,0)', cur + blocks);
				GET DIAGNOSTICS done = ROW_COUNT;
				PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
				UPDATE idtypes_adopt.cursor SET next_block = cur + blocks WHERE relid = relation AND leaf = l.leaf;
				batch_seconds := extract(epoch FROM clock_timestamp() - batch_start);
				UPDATE idtypes_adopt.migration SET rows_done = rows_done + done,
					backfill_seconds = backfill_seconds + batch_seconds WHERE relid = relation;
				-- the rows of a batch stay locked until it commits: keep it short for the writers waiting on them
				blocks := CASE WHEN batch_seconds > 0.2 THEN greatest(1, blocks / 2)
				               WHEN batch_seconds < 0.05 THEN least(batch_blocks, blocks * 2) ELSE blocks END;
				PERFORM set_config('lock_timeout', '0', true);
			EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
				INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, 'backfill wait', SQLERRM);
			END;
			COMMIT;
			batches := batches + 1;
			IF pause > interval '0' THEN
				PERFORM pg_sleep(extract(epoch FROM pause));
			END IF;
		END LOOP;
	END LOOP;
	total := 0;
	FOR l IN SELECT * FROM @extschema@.idtypes_adopt_leaves(relation) LOOP
		EXECUTE format('SELECT count(*) FROM %s r WHERE %s', l.leaf, @extschema@.idtypes_adopt_empty_sql(relation, l.tab)) INTO done;
		IF done > 0 THEN
			total := total + done;
			UPDATE idtypes_adopt.cursor SET next_block = 0 WHERE relid = relation AND leaf = l.leaf;
		END IF;
	END LOOP;
	-- at most 3 passes again: a row a later trigger of the table keeps off the mapping is verify's to report
	pass := pass + 1;
	EXIT passes WHEN total = 0 OR pass > 3;
	UPDATE idtypes_adopt.migration SET rows_total = rows_total + total WHERE relid = relation;
	INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, 'backfill again', format('%s rows off the mapping', total));
	COMMIT;
	m := @extschema@.idtypes_adopt_row(relation);
	END LOOP;
	m := @extschema@.idtypes_adopt_row(relation);
	PERFORM @extschema@.idtypes_adopt_reached(relation, 'backfilled', format('%s rows', m.rows_done), 'started');
	COMMIT;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_backfill(regclass, integer, bigint, interval, bigint) IS 'adoption step 2: fills the shadow columns in batches that commit, throttled by replay lag and lock waits; resumable';

CREATE VIEW idtypes_adopt_progress WITH (security_invoker = true) AS
SELECT m.relid AS relation, m.phase, m.mapping, m.to_type, m.rows_done, m.rows_total,
       round(100.0 * m.rows_done / nullif(m.rows_total, 0), 1) AS percent,
       round((m.rows_done / nullif(m.backfill_seconds, 0))::numeric) AS rows_per_second,
       make_interval(secs => greatest(m.rows_total - m.rows_done, 0) / nullif(m.rows_done / nullif(m.backfill_seconds, 0), 0)) AS time_left,
       m.started, m.tries, m.last_error
FROM idtypes_adopt.migration m;
COMMENT ON VIEW idtypes_adopt_progress IS 'each adoption the role may see: phase, rows done of total, rate, time left';
GRANT SELECT ON idtypes_adopt_progress TO PUBLIC;

-- Before any index is built: rows whose new keys collide, and rows whose new key sorts before the one of the
-- row before them in the old key's order (time mode: created_at not rising with the key).
CREATE FUNCTION idtypes_adopt_check(relation regclass) RETURNS TABLE (collisions bigint, inversions bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record := @extschema@.idtypes_adopt_row(relation);
	k record;
BEGIN
	SELECT * INTO k FROM idtypes_adopt.member WHERE relid = relation AND tab = relation AND old_con IS NULL;
	EXECUTE format('SELECT (SELECT count(%2$I) - count(DISTINCT %2$I) FROM %1$s),
	                       (SELECT count(*) FROM (SELECT %2$I %4$s lag(%2$I) OVER (ORDER BY %3$I) AS inv FROM %1$s) s WHERE inv)',
	               relation, @extschema@.idtypes_adopt_col(relation, k.new_att), @extschema@.idtypes_adopt_col(relation, k.old_att),
	               @extschema@.idtypes_adopt_op(relation, k.new_att, '<'))
	INTO collisions, inversions;
	INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, 'check', format('%s collisions, %s inversions', collisions, inversions));
	RETURN NEXT;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_check(regclass) IS 'collisions and order inversions of the new keys, counted before any index is built';

-- A btree index on exactly one column of a table, unique or not: its name and whether it is valid.
CREATE FUNCTION idtypes_adopt_index(tab regclass, att smallint, is_unique boolean) RETURNS TABLE (name regclass, valid boolean)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT i.indexrelid::regclass, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	WHERE i.indrelid = tab AND i.indnatts = 1 AND i.indkey[0] = att AND i.indpred IS NULL AND i.indexprs IS NULL
	  AND i.indisunique = is_unique AND c.relam = (SELECT a.oid FROM pg_am a WHERE a.amname = 'btree')
	  AND NOT EXISTS (SELECT FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype = 'p')
	ORDER BY i.indisvalid DESC, i.indexrelid LIMIT 1
$function$;
COMMENT ON FUNCTION idtypes_adopt_index(regclass, smallint, boolean) IS 'a plain btree index on one column of a table (not its primary key): its name and validity';

-- prepare: the statements that cannot run in a procedure (CREATE INDEX CONCURRENTLY), for the idtypes CLI or
-- psql's \gexec, each in a transaction of its own: the new key's unique index, a unique index on the old key
-- (lookups of old keys, and the primary key again after a rollback), and an index on each referencing column
-- where the old one had one (per partition, attached to the partitioned table's). An index a failed build
-- left INVALID is dropped and built again. Nothing when all are there and valid. Refuses while new keys collide.
CREATE FUNCTION idtypes_adopt_prepare(relation regclass) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record := @extschema@.idtypes_adopt_row(relation);
	k record;
	ix record;
	leaf record;
	leaf_ix record;
	c record;
	att smallint;
	is_key boolean;
	want_unique boolean;
	iname text;
	nsp name;
BEGIN
	IF m.phase IN ('cut_over', 'finished') THEN
		RETURN;
	ELSIF m.phase NOT IN ('backfilled', 'constrained') THEN
		RAISE EXCEPTION 'the adoption of % is in phase %: backfill it first', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	IF m.mapping <> 'keep' THEN
		SELECT * INTO c FROM @extschema@.idtypes_adopt_check(relation);
		IF c.collisions > 0 THEN
			RAISE EXCEPTION 'the new keys of % collide: % rows share a new key', relation, c.collisions USING ERRCODE = 'unique_violation',
				HINT = 'Choose another mapping (or a time column with more precision), then start again.';
		END IF;
	END IF;
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation ORDER BY tab <> relation, tab::oid, old_att LOOP
		is_key := k.old_con IS NULL AND k.tab = relation;
		FOREACH att IN ARRAY CASE WHEN is_key THEN ARRAY[k.new_att, k.old_att] ELSE ARRAY[k.new_att] END LOOP
			want_unique := is_key;
			-- a referencing column gets an index where its old column had one
			CONTINUE WHEN NOT is_key AND NOT EXISTS (SELECT FROM pg_index i WHERE i.indrelid = k.tab AND i.indkey[0] = k.old_att);
			SELECT n.nspname INTO nsp FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace WHERE t.oid = k.tab;
			iname := format('%s_%s_%s', left((SELECT relname FROM pg_class WHERE oid = k.tab), 30), left(k.base, 20),
			                CASE WHEN att = k.new_att THEN 'idn' ELSE 'ido' END || CASE WHEN want_unique THEN '_key' ELSE '_idx' END);
			SELECT * INTO ix FROM @extschema@.idtypes_adopt_index(k.tab, att, want_unique);
			IF (SELECT relkind FROM pg_class WHERE oid = k.tab) = 'p' THEN
				IF ix.name IS NULL THEN
					RETURN NEXT format('CREATE INDEX %I ON ONLY %s (%I)', iname, k.tab, @extschema@.idtypes_adopt_col(k.tab, att));
				ELSE
					iname := (SELECT relname FROM pg_class WHERE oid = ix.name);
				END IF;
				FOR leaf IN SELECT l.relid::regclass AS relid, (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = l.relid
				                   AND a.attname = @extschema@.idtypes_adopt_col(k.tab, att)) AS latt
				            FROM @extschema@.idtypes_adopt_tree(k.tab) l WHERE l.isleaf AND l.level = 1 LOOP
					SELECT * INTO leaf_ix FROM @extschema@.idtypes_adopt_index(leaf.relid, leaf.latt, want_unique);
					IF leaf_ix.name IS NOT NULL AND NOT leaf_ix.valid THEN
						RETURN NEXT format('DROP INDEX CONCURRENTLY %s', leaf_ix.name);
						leaf_ix.name := NULL;
					END IF;
					IF leaf_ix.name IS NULL THEN
						RETURN NEXT format('CREATE INDEX CONCURRENTLY %I ON %s (%I)', left((SELECT relname FROM pg_class WHERE oid = leaf.relid), 40) || '_' || left(k.base, 15) || '_idn_idx',
						                   leaf.relid, @extschema@.idtypes_adopt_col(k.tab, att));
						RETURN NEXT format('ALTER INDEX %I.%I ATTACH PARTITION %I.%I', nsp, iname, nsp,
						                   left((SELECT relname FROM pg_class WHERE oid = leaf.relid), 40) || '_' || left(k.base, 15) || '_idn_idx');
					ELSIF NOT EXISTS (SELECT FROM pg_inherits i WHERE i.inhrelid = leaf_ix.name AND i.inhparent = ix.name) THEN
						RETURN NEXT format('ALTER INDEX %I.%I ATTACH PARTITION %s', nsp, iname, leaf_ix.name);
					END IF;
				END LOOP;
				CONTINUE;
			END IF;
			IF ix.name IS NOT NULL AND NOT ix.valid THEN
				RETURN NEXT format('DROP INDEX CONCURRENTLY %s', ix.name);
				ix.name := NULL;
			END IF;
			IF ix.name IS NULL THEN
				RETURN NEXT format('CREATE %sINDEX CONCURRENTLY %I ON %s (%I)', CASE WHEN want_unique THEN 'UNIQUE ' ELSE '' END,
				                   iname, k.tab, @extschema@.idtypes_adopt_col(k.tab, att));
			END IF;
		END LOOP;
	END LOOP;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_prepare(regclass) IS 'adoption step 3: the CREATE INDEX CONCURRENTLY statements still to run (INVALID ones dropped first), for the idtypes CLI or psql''s \gexec';

-- The name of the foreign key that replaces old_con until the cut-over gives it old_con: old_con_idn, or, where
-- that would pass 63 bytes, old_con cut (at a character, not a byte) before _idn and the column's number: two
-- long names of one table alike in their first 59 bytes would otherwise end the same (the second foreign key
-- never made, and the cut-over failing on it).
CREATE FUNCTION idtypes_adopt_fk_name(old_con name, att smallint) RETURNS name
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp
AS $function$
	SELECT CASE WHEN octet_length(old_con) <= 59 THEN old_con || '_idn'
	       ELSE (SELECT left(old_con, n) FROM generate_series(length(old_con), 0, -1) n
	             WHERE octet_length(left(old_con, n)) + octet_length('_idn' || att) <= 63 LIMIT 1) || '_idn' || att END::name
$function$;
COMMENT ON FUNCTION idtypes_adopt_fk_name(name, smallint) IS 'the name of the new foreign key of a referencing column until the cut-over: one per column, at most 63 bytes';

-- The statements that give a referencing column its foreign key to the parent's column (the new pair, or
-- the old pair again after a rollback), as the old constraint had it (actions, deferrability), skipping what
-- is there: ADD ... NOT VALID, then VALIDATE, each brief (SHARE ROW EXCLUSIVE on both tables, then a scan under
-- SHARE UPDATE EXCLUSIVE). A partitioned table before PostgreSQL 18 takes no NOT VALID foreign key: each
-- partition gets it and validates it, then the partitioned table's, which takes them over without a scan.
-- only_add: the ADDs alone (in the rollback's transaction; the validations follow it). Every referencing
-- column's, one after another (by table and column).
CREATE FUNCTION idtypes_adopt_fk_sql(parent regclass, use_new boolean, only_add boolean)
RETURNS SETOF text LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	k record;
	key record;
	cname name;
	spec text;
	t regclass;
	con record;
	per_leaf boolean;
BEGIN
	SELECT * INTO key FROM idtypes_adopt.member m WHERE m.relid = parent AND m.tab = parent AND m.old_con IS NULL;
	FOR k IN SELECT * FROM idtypes_adopt.member m WHERE m.relid = parent AND m.old_con IS NOT NULL ORDER BY m.tab::oid, m.old_att LOOP
		cname := CASE WHEN use_new THEN @extschema@.idtypes_adopt_fk_name(k.old_con, k.old_att) ELSE k.old_con END;
		spec := format('FOREIGN KEY (%I) REFERENCES %s (%I)', @extschema@.idtypes_adopt_col(k.tab, CASE WHEN use_new THEN k.new_att ELSE k.old_att END),
		               parent, @extschema@.idtypes_adopt_col(parent, CASE WHEN use_new THEN key.new_att ELSE key.old_att END))
		        || k.actions;
		per_leaf := (SELECT relkind FROM pg_class WHERE oid = k.tab) = 'p' AND current_setting('server_version_num')::integer < 180000;
		FOR t IN SELECT l.relid FROM @extschema@.idtypes_adopt_tree(k.tab) l
		         WHERE CASE WHEN per_leaf THEN l.level = 1 ELSE l.level = 0 END ORDER BY l.relid LOOP
			SELECT c.convalidated INTO con FROM pg_constraint c WHERE c.conrelid = t AND c.conname = cname AND c.contype = 'f';
			IF NOT FOUND THEN
				-- the parent first, as the application's writes take them (a child's row, then its parent's check)
				RETURN NEXT format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE; ALTER TABLE %s ADD CONSTRAINT %I %s NOT VALID', parent, t, cname, spec);
			END IF;
			IF NOT only_add AND (NOT FOUND OR NOT con.convalidated) THEN
				RETURN NEXT format('ALTER TABLE %s VALIDATE CONSTRAINT %I', t, cname);
			END IF;
		END LOOP;
		IF per_leaf AND NOT only_add AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conrelid = k.tab AND c.conname = cname) THEN
			RETURN NEXT format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE; ALTER TABLE %s ADD CONSTRAINT %I %s', parent, k.tab, cname, spec);
		END IF;
	END LOOP;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_fk_sql(regclass, boolean, boolean) IS 'the statements still needed for the referencing columns'' foreign keys to the parent''s new (or old) key';

-- constrain: the new key proven NOT NULL, and each new referencing column whose old one is NOT NULL (a CHECK
-- added NOT VALID, then validated: the cut-over's SET NOT NULL reads it instead of scanning), each referencing
-- column's foreign key to the new key (NOT VALID, then validated), the new columns analyzed. Each statement
-- in a short transaction of its own; resumable.
CREATE PROCEDURE idtypes_adopt_constrain(relation regclass)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	m record;
	k record;
	stmt text;
	cname name;
	caller_path text := pg_catalog.current_setting('search_path');
BEGIN
	m := @extschema@.idtypes_adopt_row(relation);
	IF m.phase IN ('cut_over', 'finished') THEN
		RAISE NOTICE 'the adoption of % is past its constraints (phase %)', relation, m.phase;
		PERFORM pg_catalog.set_config('search_path', caller_path, true); -- the caller's back: no commit ended the pin
		RETURN;
	ELSIF m.phase NOT IN ('backfilled', 'constrained') THEN
		RAISE EXCEPTION 'the adoption of % is in phase %: backfill it first', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	IF EXISTS (SELECT FROM @extschema@.idtypes_adopt_prepare(relation)) THEN
		RAISE EXCEPTION 'the indexes of the adoption of % are not all built', relation USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Run the statements of SELECT @extschema@.idtypes_adopt_prepare(...) first (the idtypes CLI does, or psql''s \gexec).';
	END IF;
	m := @extschema@.idtypes_adopt_row(relation);
	-- the key always (its CHECK is its new_con); a referencing column where its old column is NOT NULL and the
	-- new one not yet (after a rollback it is)
	FOR k IN SELECT mb.* FROM idtypes_adopt.member mb WHERE mb.relid = relation
	         AND ((mb.tab = relation AND mb.old_con IS NULL)
	              OR (SELECT a.attnotnull AND NOT b.attnotnull FROM pg_attribute a, pg_attribute b
	                  WHERE a.attrelid = mb.tab AND a.attnum = mb.old_att AND b.attrelid = mb.tab AND b.attnum = mb.new_att))
	         ORDER BY mb.tab <> relation, mb.tab::oid, mb.old_att LOOP
		cname := @extschema@.idtypes_adopt_nn_name(k.tab, k.base);
		IF NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conrelid = k.tab AND c.conname = cname) THEN
			PERFORM @extschema@.idtypes_adopt_exec(relation, format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%I IS NOT NULL) NOT VALID',
			        k.tab, cname, @extschema@.idtypes_adopt_col(k.tab, k.new_att)));
			UPDATE idtypes_adopt.member SET new_con = cname WHERE relid = relation AND tab = relation AND old_con IS NULL AND k.old_con IS NULL;
			COMMIT;
			m := @extschema@.idtypes_adopt_row(relation);
		END IF;
		IF NOT (SELECT c.convalidated FROM pg_constraint c WHERE c.conrelid = k.tab AND c.conname = cname) THEN
			PERFORM @extschema@.idtypes_adopt_exec(relation, format('ALTER TABLE %s VALIDATE CONSTRAINT %I', k.tab, cname));
			COMMIT;
			m := @extschema@.idtypes_adopt_row(relation);
		END IF;
	END LOOP;
	FOR stmt IN SELECT * FROM @extschema@.idtypes_adopt_fk_sql(relation, true, false) LOOP
		PERFORM @extschema@.idtypes_adopt_exec(relation, stmt);
		COMMIT;
		m := @extschema@.idtypes_adopt_row(relation);
	END LOOP;
	UPDATE idtypes_adopt.member SET new_con = @extschema@.idtypes_adopt_fk_name(old_con, old_att) WHERE relid = relation AND old_con IS NOT NULL;
	FOR k IN SELECT DISTINCT ON (tab) * FROM idtypes_adopt.member WHERE relid = relation LOOP
		EXECUTE format('ANALYZE %s', k.tab);
	END LOOP;
	PERFORM @extschema@.idtypes_adopt_reached(relation, 'constrained');
	COMMIT;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_constrain(regclass) IS 'adoption step 4: the new key (and each new column whose old one is NOT NULL) proven NOT NULL and every referencing foreign key to it, each added NOT VALID then validated; resumable';

-- verify: what the cut-over rests on, counted. Before it: rows whose new key differs from the mapping of the
-- old one (a write that bypassed the trigger: session_replication_role = replica, a replication apply),
-- referencing values without a parent row, INVALID indexes, constraints not validated. After it: the same of
-- the old columns, which the rollback rests on. All zero: the adoption is marked verified.
CREATE FUNCTION idtypes_adopt_verify(relation regclass) RETURNS TABLE (check_name text, object text, failures bigint)
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record := @extschema@.idtypes_adopt_row(relation);
	k record;
	key record;
	l record;
	after boolean := m.phase = 'cut_over';
	src smallint;
	dst smallint;
	total bigint := 0;
BEGIN
	IF m.phase NOT IN ('backfilled', 'constrained', 'cut_over') THEN
		RAISE EXCEPTION 'the adoption of % is in phase %: nothing to verify yet', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	SELECT * INTO key FROM idtypes_adopt.member WHERE relid = relation AND tab = relation AND old_con IS NULL;
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation ORDER BY tab <> relation, tab::oid, old_att LOOP
		src := CASE WHEN after THEN k.new_att ELSE k.old_att END;
		dst := CASE WHEN after THEN k.old_att ELSE k.new_att END;
		FOR l IN SELECT x.leaf FROM @extschema@.idtypes_adopt_leaves(relation) x WHERE x.tab = k.tab LOOP
			-- the mapping (after the cut-over only where it is a pure function: keep)
			IF NOT after OR m.mapping = 'keep' THEN
				check_name := 'mismatch'; object := format('%s.%I', l.leaf, @extschema@.idtypes_adopt_col(k.tab, dst));
				EXECUTE format('SELECT count(*) FROM %s r WHERE %s', l.leaf, @extschema@.idtypes_adopt_distinct_sql(
				               format('r.%I', @extschema@.idtypes_adopt_col(k.tab, dst)),
				               @extschema@.idtypes_adopt_map_sql(relation, k.old_con IS NULL AND k.tab = relation, NOT after,
				                                                 format('r.%I', @extschema@.idtypes_adopt_col(k.tab, src)), 'r'),
				               @extschema@.idtypes_adopt_op(k.tab, dst, '<>')))
				INTO failures;
				total := total + failures;
				RETURN NEXT;
			END IF;
			IF k.old_con IS NOT NULL THEN
				check_name := 'orphan'; object := format('%s.%I', l.leaf, @extschema@.idtypes_adopt_col(k.tab, dst));
				EXECUTE format('SELECT count(*) FROM %s r WHERE r.%I IS NOT NULL AND NOT EXISTS (SELECT FROM %s p WHERE p.%I %s r.%I)',
				               l.leaf, @extschema@.idtypes_adopt_col(k.tab, dst), relation,
				               @extschema@.idtypes_adopt_col(relation, CASE WHEN after THEN key.old_att ELSE key.new_att END),
				               @extschema@.idtypes_adopt_op(k.tab, dst, '='), @extschema@.idtypes_adopt_col(k.tab, dst))
				INTO failures;
				total := total + failures;
				RETURN NEXT;
			END IF;
		END LOOP;
	END LOOP;
	check_name := 'invalid index';
	object := relation::text;
	SELECT count(*) INTO failures FROM pg_index i WHERE NOT i.indisvalid
	  AND i.indrelid IN (SELECT tr.relid FROM idtypes_adopt.member mb, LATERAL @extschema@.idtypes_adopt_tree(mb.tab) tr WHERE mb.relid = relation);
	total := total + failures;
	RETURN NEXT;
	IF m.phase = 'constrained' THEN
		check_name := 'not validated';
		SELECT count(*) INTO failures FROM idtypes_adopt.member mb
		WHERE mb.relid = relation AND (NOT coalesce((SELECT c.convalidated FROM pg_constraint c WHERE c.conrelid = mb.tab AND c.conname = mb.new_con), false)
		      -- a referencing column NOT NULL, its new column neither NOT NULL nor proven so
		      OR (mb.old_con IS NOT NULL AND (SELECT a.attnotnull AND NOT b.attnotnull FROM pg_attribute a, pg_attribute b
		                                      WHERE a.attrelid = mb.tab AND a.attnum = mb.old_att AND b.attrelid = mb.tab AND b.attnum = mb.new_att)
		          AND NOT coalesce((SELECT c.convalidated FROM pg_constraint c WHERE c.conrelid = mb.tab
		                            AND c.conname = @extschema@.idtypes_adopt_nn_name(mb.tab, mb.base)), false)));
		total := total + failures;
		RETURN NEXT;
	END IF;
	IF total = 0 THEN
		UPDATE idtypes_adopt.migration SET verified = clock_timestamp() WHERE relid = relation;
	END IF;
	INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, 'verify', format('%s failures', total));
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_verify(regclass) IS 'adoption step 5: rows off the mapping, orphans, INVALID indexes, constraints not validated; all zero marks it verified';

-- The constraints of the referencing columns' foreign keys under their names of before the adoption
-- (member.old_con), with those of their partitions (inherited: partitioning clones them, each under a name of
-- its own, which a RENAME CONSTRAINT of the partitioned table's leaves as it is): each one's table and name.
CREATE FUNCTION idtypes_adopt_fk_tree(parent regclass) RETURNS TABLE (fk name, tab regclass, conname name, inherited boolean)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	WITH RECURSIVE t AS (
		SELECT m.old_con AS fk, c.oid, false AS inherited FROM idtypes_adopt.member m
		JOIN pg_constraint c ON c.conrelid = m.tab AND c.conname = m.old_con AND c.contype = 'f'
		WHERE m.relid = parent AND m.old_con IS NOT NULL
		UNION ALL
		SELECT t.fk, c.oid, true FROM t JOIN pg_constraint c ON c.conparentid = t.oid)
	SELECT t.fk, c.conrelid::regclass, c.conname, t.inherited FROM t JOIN pg_constraint c ON c.oid = t.oid
$function$;
COMMENT ON FUNCTION idtypes_adopt_fk_tree(regclass) IS 'the referencing foreign keys named as before the adoption, with their partitions'' constraints and names';

-- The swap, in the caller's transaction (the cut-over's try, or the rollback's): every table of the cluster
-- locked in one fixed order (the parent, then the others by OID) before anything else, so that no lock is
-- taken later in the transaction (dropping a foreign key locks both of its tables); the old foreign keys and
-- primary key dropped, the new key made primary key from its unique index (no scan: the validated CHECK proves
-- NOT NULL), the columns renamed (id <-> id_new/id_old), the new foreign keys given the old names, the sync
-- triggers turned around, and the views and policies reading the key made again from their text (they are
-- bound to the column, not its name). to_new = false undoes it: the old key back as primary key, the old
-- foreign keys added NOT VALID (the rollback validates them after its transaction).
CREATE FUNCTION idtypes_adopt_swap(relation regclass, to_new boolean) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp
AS $function$
DECLARE
	m record := @extschema@.idtypes_adopt_row(relation);
	key record;
	k record;
	r record;
	stmt text;
	pk name;
	uix regclass;
	views text[] := '{}';
	recreate text[] := '{}';
	ext text := quote_ident(@extschema@.idtypes_adopt_schema());
	part_rel oid[];
	part_fk name[];
	part_name name[];
	nn name[];
	cname name;
	was record;
BEGIN
	IF m.phase <> (CASE WHEN to_new THEN 'constrained' ELSE 'cut_over' END) THEN
		RAISE EXCEPTION 'the adoption of % is in phase %', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	PERFORM set_config('client_min_messages', 'warning', true); -- not the NOTICE of each index renamed
	EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', (SELECT string_agg(t::text, ', ' ORDER BY t <> relation, t::oid)
	               FROM (SELECT DISTINCT tab AS t FROM idtypes_adopt.member WHERE relid = relation) s));
	-- the phase again under the locks, the adoption's row locked too: another session's cut-over (or rollback)
	-- may have committed while this one waited for them, or a finish begun (it holds the row while it drops
	-- a table's columns, and abandoning unmarks verified first)
	PERFORM FROM idtypes_adopt.migration WHERE relid = relation FOR UPDATE;
	m := @extschema@.idtypes_adopt_row(relation);
	IF m.phase <> (CASE WHEN to_new THEN 'constrained' ELSE 'cut_over' END) OR (to_new AND m.verified IS NULL) THEN
		RAISE EXCEPTION 'the adoption of % is in phase % (another session''s step ended first)', relation,
			m.phase || CASE WHEN to_new AND m.phase = 'constrained' THEN ', not verified' ELSE '' END USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	-- a publication added since the start (the plan refused one before it): its subscribers would get the
	-- swapped key unannounced; ALTER PUBLICATION ... ADD TABLE waits for the lock just taken
	SELECT string_agg(DISTINCT format('%I: %s', p.pubname, x.relid::regclass), ', ') INTO stmt
	FROM pg_publication p, LATERAL pg_get_publication_tables(p.pubname) x
	WHERE x.relid IN (SELECT l.relid FROM idtypes_adopt.member mb, LATERAL @extschema@.idtypes_adopt_tree(mb.tab) l WHERE mb.relid = relation);
	IF stmt IS NOT NULL THEN
		RAISE EXCEPTION 'the tables of % are published (%)', relation, stmt USING ERRCODE = 'object_not_in_prerequisite_state',
			HINT = 'Remove them from the publication first (docs/adopting.md), or finish the adoption before the cut-over to abandon it.';
	END IF;
	SELECT * INTO key FROM idtypes_adopt.member WHERE relid = relation AND tab = relation AND old_con IS NULL;
	SELECT c.conname INTO pk FROM pg_constraint c WHERE c.conrelid = relation AND c.contype = 'p';
	SELECT name INTO uix FROM @extschema@.idtypes_adopt_index(relation, CASE WHEN to_new THEN key.new_att ELSE key.old_att END, true) WHERE valid;
	IF uix IS NULL THEN
		RAISE EXCEPTION 'no valid unique index on the % key of %', CASE WHEN to_new THEN 'new' ELSE 'old' END, relation
			USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Run the statements of @extschema@.idtypes_adopt_prepare(...) first.';
	END IF;
	-- views and policies bound to a key column of the cluster: their text now, under the pinned search_path
	-- (so that every name in it is qualified), made again after the renames
	FOR r IN SELECT DISTINCT w.ev_class::regclass AS v FROM idtypes_adopt.member mb JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass
	         AND d.refobjid = mb.tab AND d.refobjsubid IN (mb.old_att, mb.new_att) AND d.classid = 'pg_rewrite'::regclass
	         JOIN pg_rewrite w ON w.oid = d.objid WHERE mb.relid = relation AND w.ev_class <> mb.tab LOOP
		recreate := recreate || format('CREATE VIEW %s%s AS %s', r.v,
		            coalesce(' WITH (' || (SELECT array_to_string(c.reloptions, ', ') FROM pg_class c WHERE c.oid = r.v) || ')', ''),
		            pg_get_viewdef(r.v, false))
		         || format('ALTER VIEW %s OWNER TO %I', r.v, (SELECT c.relowner::regrole::name FROM pg_class c WHERE c.oid = r.v))
		         || coalesce((SELECT array_agg(format('GRANT %s ON %s TO %s', a.privilege_type, r.v,
		                                              CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(a.grantee::regrole::name) END))
		                      FROM pg_class c, LATERAL aclexplode(c.relacl) a WHERE c.oid = r.v AND a.grantee <> c.relowner), '{}');
		views := views || r.v::text;
	END LOOP;
	IF views <> '{}' THEN
		EXECUTE format('DROP VIEW %s', array_to_string(views, ', '));
	END IF;
	FOR r IN SELECT DISTINCT p.oid, p.polname, p.polrelid::regclass AS tab, p.polcmd, p.polpermissive, p.polroles,
	                pg_get_expr(p.polqual, p.polrelid) AS qual, pg_get_expr(p.polwithcheck, p.polrelid) AS wc
	         FROM idtypes_adopt.member mb JOIN pg_depend d ON d.refclassid = 'pg_class'::regclass AND d.refobjid = mb.tab
	         AND d.refobjsubid IN (mb.old_att, mb.new_att) AND d.classid = 'pg_policy'::regclass JOIN pg_policy p ON p.oid = d.objid
	         WHERE mb.relid = relation LOOP
		recreate := recreate || format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', r.polname, r.tab,
		            CASE WHEN r.polpermissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END,
		            CASE r.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END,
		            (SELECT string_agg(CASE WHEN x = 0 THEN 'PUBLIC' ELSE quote_ident(x::regrole::name) END, ', ') FROM unnest(r.polroles) x),
		            ' USING (' || r.qual || ')', ' WITH CHECK (' || r.wc || ')');
		EXECUTE format('DROP POLICY %I ON %s', r.polname, r.tab);
	END LOOP;
	-- the foreign keys that rest on the primary key, their partitions' names kept for the ones that replace them
	SELECT array_agg(f.tab::oid), array_agg(f.fk), array_agg(f.conname) INTO part_rel, part_fk, part_name
	FROM @extschema@.idtypes_adopt_fk_tree(relation) f WHERE f.inherited;
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation AND old_con IS NOT NULL ORDER BY tab::oid, old_att LOOP
		EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', k.tab, k.old_con);
	END LOOP;
	-- the primary key: the old column stays NOT NULL (for a rollback) as a constraint of its own
	EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', relation, @extschema@.idtypes_adopt_col(relation, CASE WHEN to_new THEN key.old_att ELSE key.new_att END));
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', relation, pk);
	EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', relation, @extschema@.idtypes_adopt_col(relation, CASE WHEN to_new THEN key.new_att ELSE key.old_att END));
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', relation, pk, (SELECT relname FROM pg_class WHERE oid = uix));
	-- each new column NOT NULL where constrain proved it (the key's, and each referencing column whose old
	-- column is NOT NULL): SET NOT NULL reads the validated CHECK instead of scanning; then the CHECK goes.
	-- The old columns stay NOT NULL until finish (the sync trigger fills them, for a rollback)
	IF to_new THEN
		FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation ORDER BY tab::oid, old_att LOOP
			cname := @extschema@.idtypes_adopt_nn_name(k.tab, k.base);
			CONTINUE WHEN NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conrelid = k.tab AND c.conname = cname AND c.contype = 'c');
			EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', k.tab, @extschema@.idtypes_adopt_col(k.tab, k.new_att));
			EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', k.tab, cname);
		END LOOP;
	END IF;
	-- 18 and later name NOT NULL constraints: each name goes with its column's name (the old and the new
	-- column's names swapped), as a dump of the table before the adoption has it. Through a fixed ASCII name:
	-- a name of 63 bytes in 58 characters or fewer (a table named in CJK) with _swap appended was cut back to
	-- itself
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation ORDER BY tab::oid, old_att LOOP
		SELECT array_agg(c.conname ORDER BY c.conkey[1] = k.new_att) INTO nn FROM pg_constraint c
		WHERE c.conrelid = k.tab AND c.contype = 'n' AND c.conkey[1] IN (k.old_att, k.new_att);
		IF cardinality(nn) = 2 THEN
			EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO idtypes_adopt_swap', k.tab, nn[1]);
			EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', k.tab, nn[2], nn[1]);
			EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT idtypes_adopt_swap TO %I', k.tab, nn[2]);
		END IF;
	END LOOP;
	-- the names: id and id_new become id_old and id (to_new), or back
	FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation LOOP
		IF to_new THEN
			EXECUTE format('ALTER TABLE %s RENAME COLUMN %I TO %I', k.tab, @extschema@.idtypes_adopt_col(k.tab, k.old_att), left(k.base, 59) || '_old');
			EXECUTE format('ALTER TABLE %s RENAME COLUMN %I TO %I', k.tab, @extschema@.idtypes_adopt_col(k.tab, k.new_att), k.base);
		ELSE
			EXECUTE format('ALTER TABLE %s RENAME COLUMN %I TO %I', k.tab, @extschema@.idtypes_adopt_col(k.tab, k.new_att), left(k.base, 59) || '_new');
			EXECUTE format('ALTER TABLE %s RENAME COLUMN %I TO %I', k.tab, @extschema@.idtypes_adopt_col(k.tab, k.old_att), k.base);
		END IF;
	END LOOP;
	IF to_new THEN
		EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', relation, key.base,
		               CASE WHEN m.to_type = 'uuid'::regtype THEN ext || '.uuid_v7_generate()' ELSE ext || '.timeid_generate()' END);
	ELSE
		EXECUTE format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT', relation, left(key.base, 59) || '_new');
	END IF;
	-- what the application set on each old column and reads under its name: its comment, its column
	-- privileges (granted again, by the owner), its statistics target. A rollback finds them on the old one.
	IF to_new THEN
		FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation LOOP
			SELECT col_description(k.tab, k.old_att) AS note, o.attstattarget AS stat INTO was FROM pg_attribute o WHERE o.attrelid = k.tab AND o.attnum = k.old_att;
			IF was.note IS NOT NULL THEN
				EXECUTE format('COMMENT ON COLUMN %s.%I IS %L', k.tab, k.base, was.note);
			END IF;
			IF was.stat >= 0 THEN
				EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET STATISTICS %s', k.tab, k.base, was.stat);
			END IF;
			FOR was IN SELECT x.privilege_type, x.grantee, x.is_grantable FROM pg_attribute o, LATERAL aclexplode(o.attacl) x
			         WHERE o.attrelid = k.tab AND o.attnum = k.old_att LOOP
				EXECUTE format('GRANT %s (%I) ON %s TO %s%s', was.privilege_type, k.base, k.tab,
				               CASE WHEN was.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(was.grantee::regrole::name) END,
				               CASE WHEN was.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
			END LOOP;
		END LOOP;
	END IF;
	-- the foreign keys of the referencing columns
	IF to_new THEN
		FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation AND old_con IS NOT NULL ORDER BY tab::oid, old_att LOOP
			EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', k.tab, k.new_con, k.old_con);
		END LOOP;
	ELSE
		FOR stmt IN SELECT * FROM @extschema@.idtypes_adopt_fk_sql(relation, false, true) LOOP
			EXECUTE stmt;
		END LOOP;
	END IF;
	-- the partitions' constraints named as those they replace (before 18 the rollback adds a partitioned
	-- table's foreign key after this transaction, and names its partitions' back after that)
	FOR r IN SELECT f.tab, f.conname, n.was FROM @extschema@.idtypes_adopt_fk_tree(relation) f
	         JOIN unnest(part_rel, part_fk, part_name) n(rel, fk, was) ON n.rel = f.tab::oid AND n.fk = f.fk
	         WHERE f.inherited AND f.conname <> n.was LOOP
		EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', r.tab, r.conname, r.was);
	END LOOP;
	UPDATE idtypes_adopt.member SET new_con = NULL WHERE relid = relation;
	-- the sync triggers, the other way
	FOR k IN SELECT DISTINCT ON (tab) * FROM idtypes_adopt.member WHERE relid = relation LOOP
		EXECUTE @extschema@.idtypes_adopt_sync_sql(relation, k.tab, NOT to_new);
	END LOOP;
	FOREACH stmt IN ARRAY recreate LOOP
		EXECUTE stmt;
	END LOOP;
	-- undone in v7 and time mode, the rows made since the cut-over have new keys off the mapping: backfill again
	UPDATE idtypes_adopt.migration SET phase = CASE WHEN to_new THEN 'cut_over' WHEN m.mapping = 'keep' THEN 'backfilled' ELSE 'started' END,
		verified = NULL, rows_total = CASE WHEN to_new OR m.mapping = 'keep' THEN rows_total END,
		rows_done = CASE WHEN to_new OR m.mapping = 'keep' THEN rows_done ELSE 0 END
	WHERE relid = relation;
	IF NOT to_new AND m.mapping <> 'keep' THEN
		DELETE FROM idtypes_adopt.cursor WHERE relid = relation;
	END IF;
END
$function$;
COMMENT ON FUNCTION idtypes_adopt_swap(regclass, boolean) IS 'the cut-over (or its undoing) in the caller''s transaction: locks, keys, names, triggers, views and policies';

-- Why a cut-over or rollback try must not start now, or NULL: an anti-wraparound VACUUM of one of the tables
-- (it would not give way to the ACCESS EXCLUSIVE lock, which would then wait behind it; a VACUUM whose text the
-- role may not read counts as one: grant it pg_read_all_stats), or a transaction older than max_age holding a
-- lock on one of them (the lock would queue behind it, and every later statement behind the lock).
CREATE FUNCTION idtypes_adopt_guard(relation regclass, max_age interval) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $function$
	WITH rels AS (SELECT l.relid FROM idtypes_adopt.member k, LATERAL @extschema@.idtypes_adopt_tree(k.tab) l WHERE k.relid = relation)
	SELECT coalesce(
		(SELECT format('an anti-wraparound VACUUM of %s (pid %s)', v.relid::regclass, v.pid)
		 FROM pg_stat_progress_vacuum v JOIN pg_stat_activity a ON a.pid = v.pid
		 WHERE v.relid IN (SELECT relid FROM rels)
		   AND (a.query LIKE '%to prevent wraparound%' OR a.query IS NULL OR a.query LIKE '<insufficient privilege>')
		 LIMIT 1),
		(SELECT format('a transaction open since %s (pid %s) holds a lock on %s', a.xact_start, a.pid, l.relation::regclass)
		 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		 WHERE l.relation IN (SELECT relid FROM rels) AND l.granted AND l.pid <> pg_backend_pid()
		   AND a.xact_start < clock_timestamp() - max_age
		 ORDER BY a.xact_start LIMIT 1))
$function$;
COMMENT ON FUNCTION idtypes_adopt_guard(regclass, interval) IS 'why a cut-over try must wait: an anti-wraparound VACUUM or an old transaction on the tables; NULL when none';

-- Tries the swap in one short transaction per try: the guard first, then lock_timeout and statement_timeout for
-- the try; on 55P03 (lock not available) or 40P01 (deadlock) the try is rolled back whole and made again
-- after an exponential backoff with jitter. Every try is logged. After the last one it raises: never counted
-- a success, never half done.
CREATE PROCEDURE idtypes_adopt_try_swap(relation regclass, forward boolean, lock_wait interval, max_tries integer, max_age interval)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	m record;
	why text;
	done boolean := false;
	step text := CASE WHEN forward THEN 'cut-over' ELSE 'rollback' END;
BEGIN
	IF max_tries IS NULL OR max_tries NOT BETWEEN 1 AND 10000 OR lock_wait IS NULL OR lock_wait <= interval '0' OR max_age IS NULL THEN
		RAISE EXCEPTION 'tries must be 1 to 10000, lock_wait positive, max_age not NULL' USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	-- the guard reads other roles' sessions (a VACUUM's table, a transaction's start), which pg_stat_activity
	-- and pg_stat_progress_vacuum show only to members of pg_read_all_stats: without it the guard would see none
	IF NOT pg_catalog.pg_has_role('pg_read_all_stats', 'USAGE') THEN
		RAISE EXCEPTION '% of % needs the rights of pg_read_all_stats', step, relation USING ERRCODE = 'insufficient_privilege',
			DETAIL = 'Without them an anti-wraparound VACUUM or an old transaction of another role on the tables is invisible, and the swap would queue behind it.',
			HINT = format('GRANT pg_read_all_stats TO %I;', current_user);
	END IF;
	FOR i IN 1..max_tries LOOP
		m := @extschema@.idtypes_adopt_row(relation);
		why := @extschema@.idtypes_adopt_guard(relation, max_age);
		IF why IS NULL THEN
			BEGIN
				PERFORM pg_catalog.set_config('lock_timeout', (extract(epoch FROM lock_wait) * 1000)::bigint::text, true);
				PERFORM pg_catalog.set_config('statement_timeout', '5000', true);
				PERFORM @extschema@.idtypes_adopt_swap(relation, forward);
				PERFORM pg_catalog.set_config('lock_timeout', '0', true);
				PERFORM pg_catalog.set_config('statement_timeout', '0', true);
				done := true;
			EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
				why := SQLSTATE || ' ' || SQLERRM;
			END;
		END IF;
		UPDATE idtypes_adopt.migration SET tries = tries + 1, last_error = why WHERE relid = relation;
		INSERT INTO idtypes_adopt.log (relid, step, detail) VALUES (relation, step, coalesce('try ' || i || ': ' || why, 'try ' || i || ': done'));
		COMMIT;
		EXIT WHEN done; -- unpinned: the caller's statements after the step run under its own path
		-- pinned again before the backoff's arithmetic (integer ^ integer: an operator pg_catalog lacks, which a
		-- schema's owner could plant under the caller's path)
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
		PERFORM pg_catalog.pg_sleep(least(10, 0.1 * 2 ^ least(i, 10)) * (0.5 + pg_catalog.random()));
	END LOOP;
	IF NOT done THEN
		RAISE EXCEPTION '% of % not done after % tries: %', step, relation, max_tries, why USING ERRCODE = 'lock_not_available',
			HINT = 'Nothing was changed. Call it again at a quieter time, or with more tries.';
	END IF;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_try_swap(regclass, boolean, interval, integer, interval) IS 'the cut-over or rollback, one short transaction per try, with backoff on lock timeouts and deadlocks';

CREATE PROCEDURE idtypes_adopt_cutover(relation regclass, lock_wait interval DEFAULT '200ms', tries integer DEFAULT 50,
	max_age interval DEFAULT '10s')
LANGUAGE plpgsql
AS $procedure$
DECLARE
	caller_path text := pg_catalog.current_setting('search_path');
	m record := @extschema@.idtypes_adopt_row(relation);
BEGIN
	IF m.phase = 'cut_over' THEN
		RAISE NOTICE 'the key of % is cut over already', relation;
		PERFORM pg_catalog.set_config('search_path', caller_path, true); -- the caller's back: no commit ended the pin
		RETURN;
	END IF;
	IF m.phase <> 'constrained' OR m.verified IS NULL THEN
		RAISE EXCEPTION 'the adoption of % is in phase %', relation, m.phase || CASE WHEN m.phase = 'constrained' THEN ', not verified' ELSE '' END
			USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Constrain it, then SELECT * FROM @extschema@.idtypes_adopt_verify(...) must find no failure.';
	END IF;
	COMMIT;
	CALL @extschema@.idtypes_adopt_try_swap(relation, true, lock_wait, tries, max_age);
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_cutover(regclass, interval, integer, interval) IS 'adoption step 6: the new key becomes the primary key, in one short transaction per try (fixed lock order, lock_timeout, backoff)';

-- rollback: the swap undone (the old columns were kept in sync by the reverse trigger), then the old foreign
-- keys validated. The new columns stay, synced again: cut over again after prepare and constrain (in v7 and
-- time mode after a backfill, which gives the rows made since the cut-over their mapped keys), or finish.
CREATE PROCEDURE idtypes_adopt_rollback(relation regclass, lock_wait interval DEFAULT '200ms', tries integer DEFAULT 50,
	max_age interval DEFAULT '10s')
LANGUAGE plpgsql
AS $procedure$
DECLARE
	m record := @extschema@.idtypes_adopt_row(relation);
	stmt text;
	r record;
	part_rel oid[];
	part_fk name[];
	part_name name[];
BEGIN
	IF m.phase = 'cut_over' THEN
		-- the partitions' foreign keys' names now (those of before the adoption): before 18 a partitioned
		-- table's foreign key is added per partition under its own name, and theirs are given back below
		SELECT array_agg(f.tab::oid), array_agg(f.fk), array_agg(f.conname) INTO part_rel, part_fk, part_name
		FROM @extschema@.idtypes_adopt_fk_tree(relation) f WHERE f.inherited;
		COMMIT;
		CALL @extschema@.idtypes_adopt_try_swap(relation, false, lock_wait, tries, max_age);
	ELSIF m.phase NOT IN ('backfilled', 'started') THEN
		RAISE EXCEPTION 'the adoption of % is in phase %, not cut over', relation, m.phase USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	m := @extschema@.idtypes_adopt_row(relation);
	FOR stmt IN SELECT * FROM @extschema@.idtypes_adopt_fk_sql(relation, false, false) LOOP
		PERFORM @extschema@.idtypes_adopt_exec(relation, stmt);
		COMMIT;
		m := @extschema@.idtypes_adopt_row(relation);
	END LOOP;
	FOR r IN SELECT f.tab, f.conname, n.was FROM @extschema@.idtypes_adopt_fk_tree(relation) f
	         JOIN unnest(part_rel, part_fk, part_name) n(rel, fk, was) ON n.rel = f.tab::oid AND n.fk = f.fk
	         WHERE f.inherited AND f.conname <> n.was LOOP
		PERFORM @extschema@.idtypes_adopt_exec(relation, format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', r.tab, r.conname, r.was));
		COMMIT;
		m := @extschema@.idtypes_adopt_row(relation);
	END LOOP;
	INSERT INTO idtypes_adopt.log (relid, step) VALUES (relation, 'rolled back');
	COMMIT;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_rollback(regclass, interval, integer, interval) IS 'adoption: the cut-over undone (the old key primary key again, its foreign keys validated); the new columns stay in sync';

-- finish: after the cut-over, the sync triggers and the old columns dropped (in v7 and time mode the old key
-- stays as <key>_old with its unique index: old keys are found there, and new rows leave it NULL); before it,
-- the adoption abandoned (the triggers and new columns dropped). Each drop is brief (ACCESS EXCLUSIVE, catalog
-- only) and in a transaction of its own; resumable.
CREATE PROCEDURE idtypes_adopt_finish(relation regclass)
LANGUAGE plpgsql
AS $procedure$
DECLARE
	caller_path text := pg_catalog.current_setting('search_path');
	m record := @extschema@.idtypes_adopt_row(relation);
	k record;
	after boolean := m.phase = 'cut_over';
	t regclass;
	stmts text;
	col name;
BEGIN
	IF m.phase = 'finished' THEN
		PERFORM pg_catalog.set_config('search_path', caller_path, true); -- the caller's back: no commit ended the pin
		RETURN;
	END IF;
	-- per table, in one transaction: its sync trigger and its old (or, abandoning, new) columns, so that no
	-- write sees the one without the other (a NOT NULL old column without the trigger that fills it). The
	-- parent's key last: abandoning after constrain (done or failed half way), the new foreign keys reference
	-- the new key, and each goes with its referencing column (a drop of the key first would fail on them)
	FOR t IN SELECT s.tab FROM (SELECT DISTINCT tab FROM idtypes_adopt.member WHERE relid = relation) s ORDER BY s.tab = relation, s.tab LOOP
		-- the phase again, the adoption's row locked until this table's drop commits: a cut-over or rollback
		-- (which locks the row under its table locks) cannot commit between the phase read and the drop, which
		-- would then drop the key in use. Abandoning, verified is unmarked first: no cut-over after a part of
		-- the new columns is gone.
		SELECT * INTO m FROM idtypes_adopt.migration WHERE relid = relation FOR UPDATE;
		IF (m.phase = 'cut_over') <> after THEN
			RAISE EXCEPTION 'the adoption of % is in phase % (another session''s step ended first)', relation, m.phase
				USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'Finish again to finish it as it now stands, or roll it back first.';
		END IF;
		IF NOT after THEN
			UPDATE idtypes_adopt.migration SET verified = NULL WHERE relid = relation;
		END IF;
		stmts := '';
		IF EXISTS (SELECT FROM pg_trigger g WHERE g.tgrelid = t AND g.tgname = 'zz_idtypes_adopt' AND g.tgparentid = 0) THEN
			stmts := format('DROP TRIGGER zz_idtypes_adopt ON %s;', t);
		END IF;
		FOR k IN SELECT * FROM idtypes_adopt.member WHERE relid = relation AND tab = t ORDER BY old_con IS NULL, old_att LOOP
			col := @extschema@.idtypes_adopt_col(k.tab, CASE WHEN after THEN k.old_att ELSE k.new_att END);
			CONTINUE WHEN col IS NULL;
			IF after AND m.mapping <> 'keep' AND k.tab = relation AND k.old_con IS NULL THEN
				IF (SELECT a.attidentity FROM pg_attribute a WHERE a.attrelid = k.tab AND a.attnum = k.old_att) <> '' THEN
					stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY;', k.tab, col);
				END IF;
				stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT, ALTER COLUMN %I DROP NOT NULL;', k.tab, col, col);
			ELSE
				stmts := stmts || format('ALTER TABLE %s DROP COLUMN %I;', k.tab, col);
			END IF;
		END LOOP;
		IF stmts <> '' THEN
			PERFORM @extschema@.idtypes_adopt_exec(relation, stmts);
		END IF;
		COMMIT;
		m := @extschema@.idtypes_adopt_row(relation);
	END LOOP;
	FOR k IN SELECT DISTINCT ON (sync) * FROM idtypes_adopt.member WHERE relid = relation AND sync IS NOT NULL LOOP
		EXECUTE format('DROP FUNCTION IF EXISTS %s', k.sync);
	END LOOP;
	UPDATE idtypes_adopt.member SET sync = NULL WHERE relid = relation;
	PERFORM @extschema@.idtypes_adopt_reached(relation, 'finished', CASE WHEN after THEN 'old columns dropped' ELSE 'abandoned: new columns dropped' END);
	COMMIT;
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_finish(regclass) IS 'adoption step 7: after the cut-over, the sync triggers and old columns dropped; before it, the adoption abandoned';

-- uuid v4 -> v7 by re-default (no copy): new rows get UUIDv7s, old rows keep their v4s. Cheap, but the key's
-- index grows where new keys land among old ones (docs/adopting.md).
CREATE PROCEDURE idtypes_adopt_redefault(relation regclass, key_column name)
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $procedure$
BEGIN
	IF (SELECT a.atttypid FROM pg_catalog.pg_attribute a WHERE a.attrelid = relation AND a.attname = key_column AND NOT a.attisdropped)
	   IS DISTINCT FROM 'pg_catalog.uuid'::pg_catalog.regtype THEN
		RAISE EXCEPTION 'column % of % is not a uuid column', key_column, relation USING ERRCODE = 'wrong_object_type';
	END IF;
	-- no adoption to log its waits under (the log's rows belong to one)
	PERFORM @extschema@.idtypes_adopt_exec(NULL, pg_catalog.format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %I.uuid_v7_generate()',
	        relation, key_column, @extschema@.idtypes_adopt_schema()));
END
$procedure$;
COMMENT ON PROCEDURE idtypes_adopt_redefault(regclass, name) IS 'uuid v4 to v7 by default only: new rows get uuid_v7_generate(), old rows keep their keys';
