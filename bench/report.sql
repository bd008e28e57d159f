-- The benchmark report as Markdown: every figure with its ratios to PostgreSQL's own types and, where the
-- issue sets one, the target and whether it is met. Run by bench/types.sh after types.sql and pgbench.
\pset format unaligned
\pset tuples_only on
\pset footer off
WITH r AS (SELECT section, subject, unit, value FROM results),
-- what each figure is compared with, and the target (ours / theirs must be <= max_ratio, or >= min_ratio)
comparisons(section_like, subject_like, baseline, max_ratio, min_ratio) AS (VALUES
	('1 generation%', '%', 'nextval()', 1.0, NULL),
	('1 generation%', '%', 'gen_random_uuid()', NULL, NULL),
	('1 generation%', '%', 'clock_timestamp()', NULL, NULL),
	('2 text input%', '%', 'uuid', 0.5, NULL),
	('2 text input%', 'timeid', 'bigint', 2.0, NULL),
	('2 text input%', 'uid11', 'bigint', 2.0, NULL),
	('2 text input%', 'tbsl', 'bigint', NULL, NULL),
	('2 text input%', 'scru160', 'bigint', NULL, NULL),
	('2 text output%', '%', 'uuid', 1.0, NULL),
	('2 text output%', 'timeid', 'bigint', 1.5, NULL),
	('2 text output%', 'uid11', 'bigint', 1.5, NULL),
	('2 text output%', 'tbsl', 'bigint', NULL, NULL),
	('2 text output%', 'scru160', 'bigint', NULL, NULL),
	('3 sort%', 'timeid', 'bigint', 1.05, NULL),
	('3 sort%', 'uid11', 'bigint', 1.05, NULL),
	('3 sort%', 'tbsl', 'uuid', 1.1, NULL),
	('3 sort%', 'scru160', 'uuid', 1.1, NULL),
	('3 sort%', 'timeid', 'uuid', NULL, NULL),
	('3 sort%', 'uid11', 'uuid', NULL, NULL),
	('3 sort%', 'tbsl', 'bigint', NULL, NULL),
	('3 sort%', 'scru160', 'bigint', NULL, NULL),
	('4 CREATE INDEX%', '%', 'bigint', NULL, NULL),
	('4 CREATE INDEX%', '%', 'uuid', NULL, NULL),
	('4 btree index%', 'timeid', 'bigint', 1.0, NULL),
	('4 btree index%', 'uid11', 'bigint', 1.0, NULL),
	('4 btree index%', 'tbsl', 'uuid', 1.0, NULL),
	('4 btree index%', 'scru160', 'uuid', NULL, NULL),
	('4 table bytes%', '%', 'bigint', NULL, NULL),
	('4 table bytes%', '%', 'uuid', NULL, NULL),
	('5 inserts%', 'timeid%', 'bigint identity', NULL, 0.95),
	('5 inserts%', 'tbsl%', 'bigint identity', NULL, 0.95),
	('5 inserts%', 'scru160%', 'bigint identity', NULL, 0.95),
	('5 inserts%', 'uid11%', 'uuid gen_random_uuid()', NULL, 1.0),
	('5 inserts%', '%', 'uuid gen_random_uuid()', NULL, NULL),
	('6 %', '%', 'by hand', 1.1, NULL),
	-- PostgreSQL 18's own time-ordered uuids, where the server has uuidv7(); uuid_v7_generate() (issue 29):
	-- at most half its time
	('1 generation%', 'uuid_v7%', 'uuidv7()', 0.5, NULL),
	('1 generation%', '%', 'uuidv7()', NULL, NULL),
	('2 %', '%', 'uuidv7', NULL, NULL),
	('3 sort%', '%', 'uuidv7', NULL, NULL),
	('4 %', '%', 'uuidv7', NULL, NULL),
	('5 inserts%', '%', 'uuid uuidv7()', NULL, NULL)),
ours AS (SELECT * FROM r WHERE subject ~ '^(timeid|tbsl|uid11|scru160|uuid_v7|uuid DEFAULT uuid_v7)'),
paired AS (
	SELECT DISTINCT ON (o.section, o.subject, c.baseline) o.section, o.subject, o.unit, o.value, c.baseline,
	       b.value AS base_value, c.max_ratio, c.min_ratio
	FROM ours o JOIN comparisons c ON o.section LIKE c.section_like AND o.subject LIKE c.subject_like
	JOIN r b ON b.section = o.section AND (b.subject = c.baseline OR (c.baseline = 'by hand' AND b.subject = o.subject || ' by hand'))
	WHERE o.subject NOT LIKE '% by hand'
	ORDER BY o.section, o.subject, c.baseline, (c.max_ratio IS NULL AND c.min_ratio IS NULL))
SELECT '| figure | ours | value | PostgreSQL | value | ours / theirs | target | met |' UNION ALL
SELECT '|---|---|---:|---|---:|---:|---|---|' UNION ALL
(SELECT format('| %s | %s | %s %s | %s | %s | %s | %s | %s |', section, subject, round(value::numeric, 1), unit,
	baseline, round(base_value::numeric, 1), round((value / nullif(base_value, 0))::numeric, 2),
	coalesce('≤ ' || max_ratio, '≥ ' || min_ratio, ''),
	CASE WHEN max_ratio IS NOT NULL THEN CASE WHEN value / base_value <= max_ratio THEN 'yes' ELSE '**no**' END
	     WHEN min_ratio IS NOT NULL THEN CASE WHEN value / base_value >= min_ratio THEN 'yes' ELSE '**no**' END
	     ELSE '' END)
 FROM paired ORDER BY section, subject, baseline);
