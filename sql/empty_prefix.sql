-- The empty prefix behaves as PostgreSQL's own `text ^@ ''` and starts_with(x, ''): true for every ID, and
-- its range is the whole type. The index rewrite still applies (a range over every ID).
CREATE TEMP TABLE prefix_ids (t timeid, b tbsl, u uid11, s scru160, n int);
INSERT INTO prefix_ids VALUES
	('2222222222222', '00000000000000000000', '11111111111', '00000000000000000000000000000000', 1),
	('3kxmtyqiinc23', '25BF6196C8D6107ABCDE', '4u5w7n6xTft', '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4', 2),
	('jzzzzzzzzzzzz', 'DE0B6B3A763FFFFFFFFF', 'jpXCZedGfVQ', 'VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV', 3);
SELECT t ^@ '' AS timeid, b ^@ '' AS tbsl, u ^@ '' AS uid11, s ^@ '' AS scru160, t::text ^@ '' AS as_text
FROM prefix_ids ORDER BY n;
-- dashes are ignored in timeid prefixes, so '---' is empty too
SELECT count(*) FROM prefix_ids WHERE t ^@ '---';
SELECT timeid_prefix_range(''), tbsl_prefix_range('');
SELECT uid11_prefix_range(''), scru160_prefix_range('');
-- a prefix given at run time, empty or not
PREPARE by_prefix(text) AS SELECT count(*) FROM prefix_ids WHERE t ^@ $1 AND b ^@ $1 AND u ^@ $1 AND s ^@ $1;
EXECUTE by_prefix('');
EXECUTE by_prefix('2');
DEALLOCATE by_prefix;

-- from an index: the rewrite gives the whole range
CREATE INDEX ON prefix_ids (t);
CREATE INDEX ON prefix_ids (s);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM prefix_ids WHERE t ^@ '';
EXPLAIN (COSTS OFF) SELECT * FROM prefix_ids WHERE s ^@ '';
SELECT count(*) FROM prefix_ids WHERE t ^@ '';
SELECT count(*) FROM prefix_ids WHERE s ^@ '';
RESET enable_seqscan;
RESET enable_bitmapscan;
