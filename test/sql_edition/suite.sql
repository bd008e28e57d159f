-- The SQL edition's own suite, run by test/sql_edition/run.sh as a role without superuser (search_path ids);
-- the answers are compared with expected/suite.out. Plans shown set what they depend on.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
-- the installation's identity: the generators that carry one refuse until its owner sets it (55000, naming
-- the function); out of range: 22003
SELECT timeid_generate();
SELECT tbsl_generate_at(now());
SELECT idtypes_sql_set_identity(timeid_clock_id => 1024);
SELECT idtypes_sql_set_identity(timeid_clock_id => 3, tbsl_machine_id => 7);
SELECT timeid_clock_id(timeid_generate()), tbsl_machine_id(tbsl_generate());
-- canonical text in, the same text out; the time at each format's precision
SELECT '3jzfcijpj2z2a'::timeid, timeid_timestamp('3jzfcijpj2z2a'), timeid_micros('3jzfcijpj2z2a'), timeid_clock_id('3jzfcijpj2z2a');
SELECT '25BF6196C8D6107ABCDE'::tbsl, tbsl_timestamp('25BF6196C8D6107ABCDE'), tbsl_machine_id('25BF6196C8D6107ABCDE'), tbsl_suffix('25BF6196C8D6107ABCDE');
SELECT 'jpXCZedGfVQ'::uid11, uid11_timestamp('jpXCZedGfVQ'), uid11_xid_random('jpXCZedGfVQ');
SELECT '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160, scru160_timestamp('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
	scru160_counter('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'), scru160_random16('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'), scru160_to_hex('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4');
SELECT make_timeid(1721382046481000, 1), make_tbsl(1700000000, 123456, 7, 703710), make_uid11_xid(1700000000000, 12345);
SELECT scru160_canonical('017bdf6431bb33750751eb63beb3c3f8c5969d86'), scru160_canonical('05ttup1hncpnh30vek64kdqt9bsnu4c4');
-- non-canonical text: 22P02 with the type's name and why (NULL passes, as for any type)
\set VERBOSITY default
SELECT 'zzzzzzzzzzzzz'::timeid;
SELECT '3JZFCIJPJ2Z2A'::timeid;
SELECT '3jzf-cij-pj2z-2a'::timeid;
SELECT 'DE0B6B3A764000000000'::tbsl;
SELECT '25bf6196c8d6107abcde'::tbsl;
SELECT 'jpXCZedGfVR'::uid11;
SELECT 'jpXCZedGfV0'::uid11;
SELECT '05ttup1hncpnh30vek64kdqt9bsnu4c4'::scru160;
SELECT '017bdf6431bb33750751eb63beb3c3f8c5969d86'::scru160;
SELECT 'é'::scru160;
SELECT NULL::timeid IS NULL;
CREATE TABLE typed (id timeid);
INSERT INTO typed VALUES ('3jzfcijpj2z2b'), ('not a timeid');
SELECT make_timeid(-1, 0);
SELECT make_tbsl(0, 0, 100, 0);
-- smallest and largest ID of an instant; outside a format's times: 22008
SELECT timeid_min('2024-07-19 09:40:46.481+00'), timeid_max('2024-07-19 09:40:46.481+00');
SELECT tbsl_min('2024-07-19 09:40:46.481+00'), tbsl_max('2024-07-19 09:40:46.481+00');
SELECT uid11_min('2024-07-19 09:40:46.481+00'), uid11_max('2024-07-19 09:40:46.481999+00');
SELECT scru160_min('2024-07-19 09:40:46.481+00'), scru160_max('2024-07-19 09:40:46.481999+00');
SELECT uid11_min('2011-11-11 11:11:11.110+00');
SELECT timeid_max('infinity');
SELECT scru160_min('1969-12-31 23:59:59.999+00');
-- storage: the canonical text in a varlena (1-byte header), against 8, 10, 8, 20 bytes natively
CREATE TABLE sizes AS SELECT 'jpXCZedGfVQ'::uid11 AS u, '3jzfcijpj2z2a'::timeid AS t, '25BF6196C8D6107ABCDE'::tbsl AS b,
	'05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'::scru160 AS s;
SELECT pg_column_size(t) AS timeid, pg_column_size(b) AS tbsl, pg_column_size(u) AS uid11, pg_column_size(s) AS scru160 FROM sizes;
-- a table as applications write it: the generator as the column default, a btree on the column
CREATE TABLE posts (id timeid PRIMARY KEY DEFAULT timeid_generate(), s scru160 DEFAULT scru160_generate(),
	t tbsl DEFAULT tbsl_generate(), u uid11 DEFAULT uid11_generate(), body text);
CREATE INDEX ON posts (s);
CREATE INDEX ON posts (t);
CREATE INDEX ON posts (u);
INSERT INTO posts (body) SELECT 'now ' || g FROM generate_series(1, 500) g;
INSERT INTO posts (id, s, t, u, body) SELECT timeid_generate_at(ts), scru160_generate_at(ts), tbsl_generate_at(ts), uid11_generate_at(ts), 'then ' || g
	FROM generate_series(1, 1440) g, LATERAL (SELECT timestamptz '2024-07-19 00:00+00' + g * interval '1 minute' AS ts) t;
VACUUM (ANALYZE) posts;
SELECT count(DISTINCT id), count(DISTINCT s), count(DISTINCT t), count(DISTINCT u) FROM posts;
SELECT count(*) FROM posts WHERE timeid_timestamp(id) > now() - interval '1 hour';
SELECT count(*) FROM posts WHERE body LIKE 'then%' AND (timeid_timestamp(id), tbsl_timestamp(t)) = (scru160_timestamp(s), uid11_timestamp(u));
-- a 1-hour window and a prefix, from the index (the plan: no sequential or bitmap scan to choose instead)
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM posts WHERE id <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00');
SELECT count(*) FROM posts WHERE id <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00');
SELECT count(*) FROM posts WHERE s <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00', '[]');
SELECT count(*) FROM posts WHERE t <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00', '(]');
SELECT count(*) FROM posts WHERE u <@ tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00');
EXPLAIN (COSTS OFF) SELECT count(*) FROM posts WHERE id <@ tstzrange(now() - interval '1 hour', now());
SELECT count(*) FROM posts WHERE id <@ tstzrange(now() - interval '1 hour', now());
SELECT count(*) FROM posts WHERE u <@ tstzrange(now() - interval '1 hour', NULL);
PREPARE window_of(tstzrange) AS SELECT count(*) FROM posts WHERE s <@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE window_of(tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00'));
EXECUTE window_of(tstzrange('2024-07-19 10:00+00', '2024-07-19 11:00+00'));
RESET plan_cache_mode;
SELECT count(*) FROM posts WHERE id <@ 'empty'::tstzrange;
SELECT count(*) FROM posts WHERE id <@ tstzrange('-infinity', 'infinity');
SELECT count(*) FROM posts WHERE id <@ tstzrange(NULL, '2024-07-19 00:30+00');
-- a prefix written as a literal is PostgreSQL's text ^@ over the canonical text (C collation: an index range)
EXPLAIN (COSTS OFF) SELECT count(*) FROM posts WHERE id ^@ '3kxmty';
-- a prefix typed text is the edition's: the native rules (timeid dashes, scru160 either case, 22P02)
EXPLAIN (COSTS OFF) SELECT count(*) FROM posts WHERE id ^@ '3kxmty'::text;
SELECT (SELECT count(*) FROM posts WHERE id ^@ '3kxm'), (SELECT count(*) FROM posts WHERE id ^@ '3kxm'::text);
SELECT (SELECT count(*) FROM posts WHERE id ^@ '3kx-m'::text), (SELECT count(*) FROM posts WHERE s ^@ '068c'::text),
	(SELECT count(*) FROM posts WHERE s ^@ '068C'), (SELECT count(*) FROM posts WHERE t ^@ ''::text), (SELECT count(*) FROM posts WHERE id ^@ 'k'::text);
SELECT count(*) FROM posts WHERE id ^@ '3k!'::text;
SELECT count(*) FROM posts WHERE u ^@ '0'::text;
SELECT count(*) FROM posts WHERE t ^@ repeat('0', 21)::text;
PREPARE prefixed(text) AS SELECT count(*) FROM posts WHERE u ^@ $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE prefixed('5c');
RESET plan_cache_mode;
-- generators: increasing, sequenced TBSLs count from 0 in a microsecond, arguments checked
SELECT bool_and(a < b) FROM (SELECT timeid_generate() AS a, timeid_generate() AS b FROM generate_series(1, 100)) s;
SELECT timeid_clock_id(timeid_generate(5)), tbsl_machine_id(tbsl_generate(42)), tbsl_suffix(tbsl_generate(1, true)) < 16;
SELECT timeid_generate(1024);
SELECT tbsl_generate(100);
SET idtypes.tbsl_machine_id = 9; -- no setting chooses the identity any more: still 7
SELECT tbsl_machine_id(tbsl_generate()), tbsl_machine_id(tbsl_generate_at(now()));
SELECT timeid_generate_at('1969-12-31 23:59:59+00');
