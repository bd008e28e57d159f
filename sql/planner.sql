-- How the planner sees ID columns: row estimates as good as a timestamptz column's (interpolated inside
-- histogram buckets; `^@`, `<@`, BETWEEN and T_min/T_max bounds estimated as one range), and every form of
-- right-hand side that can be computed before the scan (constants, parameters, now(), scalar subqueries,
-- a join's outer row) reaching the index. Statistics are deterministic: each table has fewer rows than
-- ANALYZE samples at this statistics target, so ANALYZE reads it whole.
SET default_statistics_target = 1000;
-- one row every 157.68 s over a year (200,000 rows), the same instants in a timestamptz column, and in
-- columns whose types are domains over the ID types
CREATE DOMAIN timeid_d AS timeid;
CREATE DOMAIN tbsl_d AS tbsl;
CREATE DOMAIN uid11_d AS uid11;
CREATE DOMAIN scru160_d AS scru160;
CREATE TABLE spread (n int, at timestamptz, t timeid, b tbsl, u uid11, s scru160,
	dt timeid_d, db tbsl_d, du uid11_d, ds scru160_d) WITH (autovacuum_enabled = off);
INSERT INTO spread
SELECT g, at, timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at), timeid_min(at), tbsl_min(at), uid11_min(at), scru160_min(at)
FROM generate_series(1, 200000) g, LATERAL (SELECT timestamptz '2023-11-14 22:13:20+00' + g * interval '157.68 s' AS at) a;
CREATE INDEX ON spread (at);
CREATE INDEX ON spread (t);
CREATE INDEX ON spread (b);
CREATE INDEX ON spread (u);
CREATE INDEX ON spread (s);
ANALYZE spread;

-- every estimate within 1.5x of the actual rows
CREATE FUNCTION within_target(q text) RETURNS text LANGUAGE sql AS $$ SELECT estimate_within(q, 1.5) $$;

-- windows from 10 minutes to 30 days, written every way, beside the same window on the timestamptz column
SELECT w, within_target(format('SELECT * FROM spread WHERE at >= %1$L AND at < %1$L::timestamptz + %2$L::interval', t0, w)) AS timestamptz,
       within_target(format('SELECT * FROM spread WHERE t <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)) AS timeid,
       within_target(format('SELECT * FROM spread WHERE b <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)) AS tbsl,
       within_target(format('SELECT * FROM spread WHERE u <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)) AS uid11,
       within_target(format('SELECT * FROM spread WHERE s <@ tstzrange(%1$L, %1$L::timestamptz + %2$L::interval)', t0, w)) AS scru160,
       within_target(format('SELECT * FROM spread WHERE t BETWEEN timeid_min(%1$L) AND timeid_max(%1$L::timestamptz + %2$L::interval)', t0, w)) AS timeid_between,
       within_target(format('SELECT * FROM spread WHERE s >= scru160_min(%1$L) AND s < scru160_min(%1$L::timestamptz + %2$L::interval)', t0, w)) AS scru160_by_hand,
       within_target(format('SELECT * FROM spread WHERE timeid_in_window(t, tstzrange(%1$L, %1$L::timestamptz + %2$L::interval))', t0, w)) AS as_function
FROM (VALUES ('2024-02-01 10:07:00+00')) v(t0), unnest(ARRAY['1 hour', '3 hours', '1 day', '7 days', '30 days']) w;
-- one-sided bounds
SELECT within_target('SELECT * FROM spread WHERE t > timeid_min(''2024-06-01'')') AS after,
       within_target('SELECT * FROM spread WHERE b <= tbsl_max(''2024-01-01'')') AS before,
       within_target('SELECT * FROM spread WHERE timeid_min(''2024-06-01'') < t') AS commuted;
-- prefixes that match from a few dozen to thousands of rows
SELECT p, within_target(format('SELECT * FROM spread WHERE t ^@ %L', p)) AS estimate,
       (plan_rows(format('SELECT * FROM spread WHERE t ^@ %L', p))).actual
FROM unnest(ARRAY['3kk', '3kkg', '3kkgb']) p;
SELECT p, within_target(format('SELECT * FROM spread WHERE b ^@ %L', p)) AS estimate,
       (plan_rows(format('SELECT * FROM spread WHERE b ^@ %L', p))).actual
FROM unnest(ARRAY['25C', '25C4', '25C47']) p;
SELECT within_target('SELECT * FROM spread WHERE timeid_starts_with(t, ''3kkg'')') AS as_function;

-- a domain over an ID type is estimated as the type (its column reaches the operators relabeled)
SELECT within_target('SELECT * FROM spread WHERE dt <@ tstzrange(''2024-02-01 10:07+00'', ''2024-02-02 10:07+00'')') AS timeid_window,
       within_target('SELECT * FROM spread WHERE dt > timeid_min(''2024-10-15'')') AS timeid_after,
       within_target('SELECT * FROM spread WHERE db <@ tstzrange(''2024-02-01 10:07+00'', ''2024-02-02 10:07+00'')') AS tbsl_window,
       within_target('SELECT * FROM spread WHERE du BETWEEN uid11_min(''2024-02-01 10:07+00'') AND uid11_max(''2024-02-02 10:07+00'')') AS uid11_between,
       within_target('SELECT * FROM spread WHERE ds ^@ left(scru160_min(''2024-02-01 10:07+00'')::text, 4)') AS scru160_prefix,
       within_target('SELECT * FROM spread WHERE ds <= scru160_max(''2024-01-01'')') AS scru160_before;
-- windows inside OR arms: each arm's two bounds estimated as one range, as at the top level
SELECT c, within_target(format('SELECT * FROM spread WHERE %1$I <@ tstzrange(''2024-02-01 10:07+00'', ''2024-02-02 10:07+00'')
		OR %1$I <@ tstzrange(''2024-05-01'', ''2024-05-08'')', c)) AS two_windows,
       within_target(format('SELECT * FROM spread WHERE (%1$I <@ tstzrange(''2024-02-01 10:07+00'', ''2024-02-02 10:07+00'') AND n %% 2 = 0)
		OR %1$I <@ tstzrange(''2024-05-01'', ''2024-05-02'')', c)) AS arm_with_filter
FROM unnest(ARRAY['t', 'b', 'u', 's', 'dt']) c;
-- any number of bounds on one column, in any order, estimated as the one range they make: two upper bounds
-- (the tighter carries), bounds repeated on both sides, inside an OR arm, on a domain
SELECT c, within_target(format('SELECT * FROM spread WHERE %1$I <= %2$s_min(''2024-06-01'') AND %1$I <= %2$s_min(''2024-03-01'')', c, ty)) AS two_upper,
       within_target(format('SELECT * FROM spread WHERE %1$I > %2$s_min(''2024-06-01'') AND %1$I >= %2$s_min(''2024-09-01'')', c, ty)) AS two_lower,
       within_target(format('SELECT * FROM spread WHERE %1$I < %2$s_min(''2024-03-02'') AND %1$I >= %2$s_min(''2024-02-01'')
		AND %1$I <= %2$s_max(''2024-05-01'') AND %1$I > %2$s_min(''2024-01-01'') AND %1$I <@ tstzrange(''2024-02-15'', NULL)', c, ty)) AS five_bounds,
       within_target(format('SELECT * FROM spread WHERE (%1$I <= %2$s_min(''2024-02-02'') AND %1$I <= %2$s_min(''2024-02-03'') AND %1$I >= %2$s_min(''2024-02-01''))
		OR %1$I <@ tstzrange(''2024-05-01'', ''2024-05-02'')', c, ty)) AS or_arm
FROM (VALUES ('t', 'timeid'), ('b', 'tbsl'), ('u', 'uid11'), ('s', 'scru160'), ('dt', 'timeid')) v(c, ty);
-- generic plans: a window whose bounds are parameters is estimated as PostgreSQL estimates a pair of unknown
-- bounds on a timestamptz column (DEFAULT_RANGE_INEQ_SEL, 0.5 %), not as two independent inequalities
SET plan_cache_mode = force_generic_plan;
PREPARE ts_window(timestamptz, timestamptz) AS SELECT * FROM spread WHERE at >= $1 AND at < $2;
PREPARE id_window(timestamptz, timestamptz) AS SELECT * FROM spread WHERE t <@ tstzrange($1, $2);
PREPARE tbsl_window(timestamptz, timestamptz) AS SELECT * FROM spread WHERE b <@ tstzrange($1, $2);
PREPARE uid11_by_hand(timestamptz, timestamptz) AS SELECT * FROM spread WHERE u >= uid11_min($1) AND u < uid11_min($2);
PREPARE scru160_prefix(text) AS SELECT * FROM spread WHERE s ^@ $1;
SELECT estimated_rows('EXECUTE ts_window(''2024-02-01'', ''2024-02-02'')') AS timestamptz,
       estimated_rows('EXECUTE id_window(''2024-02-01'', ''2024-02-02'')') AS timeid,
       estimated_rows('EXECUTE tbsl_window(''2024-02-01'', ''2024-02-02'')') AS tbsl,
       estimated_rows('EXECUTE uid11_by_hand(''2024-02-01'', ''2024-02-02'')') AS uid11_by_hand,
       estimated_rows('EXECUTE scru160_prefix(''0u'')') AS scru160_prefix;
-- one bound a parameter, the other a constant: DEFAULT_RANGE_INEQ_SEL on timestamptz too (clauselist_selectivity
-- pairs them, and a bound it cannot estimate makes the pair the default); one side only: the tighter of the
-- known bound and DEFAULT_INEQ_SEL
PREPARE ts_half(timestamptz) AS SELECT * FROM spread WHERE at >= $1 AND at <= '2024-06-01';
PREPARE id_half(timestamptz) AS SELECT * FROM spread WHERE t >= timeid_min($1) AND t <= timeid_max('2024-06-01');
PREPARE ts_uppers(timestamptz) AS SELECT * FROM spread WHERE at <= $1 AND at <= '2024-02-01';
PREPARE id_uppers(timestamptz) AS SELECT * FROM spread WHERE s <= scru160_max($1) AND s <= scru160_max('2024-02-01');
PREPARE ts_wide_uppers(timestamptz) AS SELECT * FROM spread WHERE at <= $1 AND at <= '2024-11-01';
PREPARE id_wide_uppers(timestamptz) AS SELECT * FROM spread WHERE b <= tbsl_max($1) AND b <= tbsl_max('2024-11-01');
SELECT estimated_rows('EXECUTE ts_half(''2024-02-01'')') AS timestamptz_half,
       estimated_rows('EXECUTE id_half(''2024-02-01'')') AS timeid_half,
       estimated_rows('EXECUTE ts_uppers(''2024-02-01'')') AS timestamptz_uppers,
       estimated_rows('EXECUTE id_uppers(''2024-02-01'')') AS scru160_uppers,
       estimated_rows('EXECUTE ts_wide_uppers(''2024-02-01'')') AS timestamptz_wide,
       estimated_rows('EXECUTE id_wide_uppers(''2024-02-01'')') AS tbsl_wide;
DEALLOCATE ALL;
RESET plan_cache_mode;

-- the right-hand side computed before the scan reaches the index: a scalar subquery (an initplan)
CREATE TABLE report_windows (name text, r tstzrange, p text);
INSERT INTO report_windows VALUES ('w5', tstzrange('2024-02-01 10:00+00', '2024-02-01 11:00+00'), '3kkg'),
	('empty', 'empty', ''), ('none', NULL, NULL);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT reads_by_index_range('SELECT n FROM spread WHERE t <@ (SELECT r FROM report_windows WHERE name = ''w5'')', 'spread') AS window_subquery,
       reads_by_index_range('SELECT n FROM spread WHERE s ^@ (SELECT p FROM report_windows WHERE name = ''w5'')', 'spread') AS prefix_subquery,
       reads_by_index_range('SELECT n FROM spread WHERE b <@ (SELECT r FROM report_windows WHERE name = ''w5'')', 'spread') AS tbsl,
       reads_by_index_range('SELECT n FROM spread WHERE u ^@ (SELECT ''4'')', 'spread') AS uid11;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT name, (SELECT count(*) FROM spread WHERE t <@ (SELECT r FROM report_windows w WHERE w.name = o.name)) AS by_subquery,
       (SELECT count(*) FROM spread WHERE timeid_timestamp(t) <@ o.r) AS by_definition,
       (SELECT count(*) FROM spread WHERE t ^@ (SELECT p FROM report_windows w WHERE w.name = o.name)) AS prefix_by_subquery,
       (SELECT count(*) FROM spread WHERE starts_with(t::text, o.p)) AS prefix_by_definition
FROM report_windows o ORDER BY name;
-- and the outer row of a join
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT reads_by_index_range('SELECT w.name, count(*) FROM report_windows w JOIN spread ON t <@ w.r GROUP BY w.name', 'spread') AS join_row;
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT w.name, count(*) FROM report_windows w JOIN spread ON t <@ w.r GROUP BY w.name ORDER BY 1;
DROP TABLE spread, report_windows;
DROP DOMAIN timeid_d, tbsl_d, uid11_d, scru160_d;
DROP FUNCTION within_target(text);
RESET default_statistics_target;
