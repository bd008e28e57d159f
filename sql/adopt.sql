-- Adoption (docs/adopting.md) against planted objects and other roles: the sync triggers run with the
-- rights and search_path of whoever writes the table, so a writer whose search_path puts its own functions
-- and operators first (before pg_catalog) must not reach them; another role sees and changes no adoption
-- state of tables it does not own; the v7 mapping's known answers; collisions refused before any index;
-- writes that bypass the trigger counted by verify.
SET client_min_messages = warning;
\set VERBOSITY terse
CREATE ROLE regress_adopt_owner;
CREATE ROLE regress_adopt_writer;
CREATE ROLE regress_adopt_other;
GRANT CREATE ON SCHEMA public TO regress_adopt_owner;
-- the cut-over's guard reads other roles' sessions (a VACUUM, an old transaction): without this it refuses
GRANT pg_read_all_stats TO regress_adopt_owner;
SET ROLE regress_adopt_owner;
CREATE TABLE adopt_p (id bigint PRIMARY KEY, at timestamptz NOT NULL, n int NOT NULL DEFAULT 0);
CREATE TABLE adopt_c (id int PRIMARY KEY, p bigint REFERENCES adopt_p (id) ON UPDATE CASCADE);
INSERT INTO adopt_p SELECT i, timestamptz '2024-01-01' + i * interval '1 s' FROM generate_series(1, 100) i;
INSERT INTO adopt_c SELECT i, i FROM generate_series(1, 100) i;
GRANT SELECT, INSERT, UPDATE ON adopt_p, adopt_c TO regress_adopt_writer;
RESET ROLE;

-- the writer's planted look-alikes, first on its search_path: each raises if it is ever called
CREATE SCHEMA regress_adopt_evil AUTHORIZATION regress_adopt_writer;
SET ROLE regress_adopt_writer;
CREATE FUNCTION regress_adopt_evil.bigint_to_timeid(bigint) RETURNS timeid LANGUAGE plpgsql AS
	$$BEGIN RAISE EXCEPTION 'planted bigint_to_timeid called'; END$$;
CREATE FUNCTION regress_adopt_evil.timeid_to_bigint(timeid) RETURNS bigint LANGUAGE plpgsql AS
	$$BEGIN RAISE EXCEPTION 'planted timeid_to_bigint called'; END$$;
CREATE FUNCTION regress_adopt_evil.eq(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN RAISE EXCEPTION 'planted = called'; END$$;
CREATE OPERATOR regress_adopt_evil.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = regress_adopt_evil.eq);
CREATE FUNCTION regress_adopt_evil.ne(timeid, timeid) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN RAISE EXCEPTION 'planted <> called'; END$$;
CREATE OPERATOR regress_adopt_evil.<> (LEFTARG = timeid, RIGHTARG = timeid, FUNCTION = regress_adopt_evil.ne);
RESET ROLE;

-- another role: no adoption of a table it does not own, and no state of the owner's to see or write
SET ROLE regress_adopt_other;
CALL idtypes_adopt_start('adopt_p', 'timeid');
RESET ROLE;

SET ROLE regress_adopt_owner;
SELECT kind, object, detail, blocking FROM idtypes_adopt_plan('adopt_p', 'timeid', 'keep') WHERE kind <> 'disk' ORDER BY kind, object;
SELECT kind, blocking FROM idtypes_adopt_plan('adopt_p', 'uuid', 'keep') WHERE kind = 'key';
CALL idtypes_adopt_start('adopt_p', 'timeid', 'keep');
RESET ROLE;

SET ROLE regress_adopt_other;
SELECT count(*) AS seen FROM idtypes_adopt.migration;
SELECT count(*) AS seen FROM idtypes_adopt_progress;
UPDATE idtypes_adopt.migration SET phase = 'cut_over';
INSERT INTO idtypes_adopt.migration (relid, to_type, mapping, phase)
VALUES ('adopt_c', 'timeid', 'keep', 'started');
CALL idtypes_adopt_backfill('adopt_p');
RESET ROLE;

-- the writer, its look-alikes first on its path, writes through every step
SET ROLE regress_adopt_writer;
SET search_path = regress_adopt_evil, public, pg_catalog;
INSERT INTO adopt_p VALUES (101, now());
UPDATE adopt_c SET p = 101 WHERE id = 1;
UPDATE adopt_p SET id = 1000 WHERE id = 100; -- ON UPDATE CASCADE: adopt_c's row follows, its new column too
RESET search_path;
RESET ROLE;

SET ROLE regress_adopt_owner;
CALL idtypes_adopt_backfill('adopt_p');
SELECT s FROM idtypes_adopt_prepare('adopt_p') s \gexec
CALL idtypes_adopt_constrain('adopt_p');
SELECT check_name, object, failures FROM idtypes_adopt_verify('adopt_p') ORDER BY 1, 2;
SELECT count(*) FILTER (WHERE id_new = id::timeid) AS mapped, count(*) FROM adopt_p;
SELECT count(*) FILTER (WHERE p_new = p::timeid) AS mapped, count(*) FILTER (WHERE p IS NOT NULL) FROM adopt_c;
CALL idtypes_adopt_cutover('adopt_p');
RESET ROLE;

SET ROLE regress_adopt_writer;
SET search_path = regress_adopt_evil, public, pg_catalog;
INSERT INTO adopt_p (at) VALUES (now());
INSERT INTO adopt_c (id, p) SELECT 200, max(id) FROM adopt_p;
UPDATE adopt_p SET n = n + 1;
RESET search_path;
RESET ROLE;

SET ROLE regress_adopt_owner;
SELECT check_name, sum(failures) FROM idtypes_adopt_verify('adopt_p') GROUP BY 1 ORDER BY 1;
SELECT count(*) FILTER (WHERE id_old = id::bigint) AS in_sync, count(*) FROM adopt_p;
SELECT pg_typeof(id) AS key_type, count(*) FROM adopt_p WHERE id = 42::bigint::timeid GROUP BY 1;
CALL idtypes_adopt_finish('adopt_p');
SELECT phase FROM idtypes_adopt_progress;
SELECT attname, format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid IN ('adopt_p'::regclass, 'adopt_c'::regclass)
  AND attnum > 0 AND NOT attisdropped ORDER BY attrelid::regclass::text, attnum;
SELECT count(*) AS sync_functions_left FROM pg_proc WHERE proname ~ '^idtypes_adopt_sync_[0-9]+$';

-- the v7 mapping: the instant's millisecond, version 7, the variant, the uuid's last 74 bits
SELECT uuid_v7_from('1970-01-01 00:00:00.001+00', 'ffffffff-ffff-4fff-bfff-ffffffffffff');
SELECT uuid_v7_from('2024-07-19 09:40:46.481+00', '12345678-9abc-4def-8123-456789abcdef');
SELECT uuid_v7_from('1969-12-31 23:59:59+00', '12345678-9abc-4def-8123-456789abcdef');

-- time mode: two rows whose new keys collide (the same microsecond, the same low 10 bits) are refused before
-- any index is built; a write that bypasses the trigger is counted by verify
CREATE TABLE adopt_t (id bigint PRIMARY KEY, at timestamptz NOT NULL);
INSERT INTO adopt_t VALUES (1, '2024-01-01'), (1025, '2024-01-01'), (3, '2024-01-02');
CALL idtypes_adopt_start('adopt_t', 'timeid', 'time', 'at');
CALL idtypes_adopt_backfill('adopt_t');
SELECT * FROM idtypes_adopt_check('adopt_t');
SELECT s FROM idtypes_adopt_prepare('adopt_t') s;
UPDATE adopt_t SET at = '2024-01-03' WHERE id = 1025;
SELECT * FROM idtypes_adopt_check('adopt_t');
RESET ROLE;
SET session_replication_role = replica;
INSERT INTO adopt_t VALUES (4, '2024-01-04');
RESET session_replication_role;
SET ROLE regress_adopt_owner;
SELECT check_name, object, failures FROM idtypes_adopt_verify('adopt_t') WHERE failures > 0;
CALL idtypes_adopt_finish('adopt_t');
SELECT phase FROM idtypes_adopt.migration WHERE relid = 'adopt_t'::regclass;
SELECT count(*) AS shadow_columns_left FROM pg_attribute WHERE attrelid = 'adopt_t'::regclass AND attname LIKE '%_new' AND NOT attisdropped;
RESET ROLE;

DROP TABLE adopt_c, adopt_p, adopt_t;
DELETE FROM idtypes_adopt.migration;
DROP SCHEMA regress_adopt_evil CASCADE;
REVOKE CREATE ON SCHEMA public FROM regress_adopt_owner;
DROP ROLE regress_adopt_owner, regress_adopt_writer, regress_adopt_other;
