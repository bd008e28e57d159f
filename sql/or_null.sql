-- T_or_null(text): the ID a text is, or NULL where the type's input raises; never an error, so it can
-- stand in a generated column and an index expression, on 15 too.
SELECT v, timeid_or_null(v) FROM (VALUES ('3kxmtyqiinc23'), ('c222222222222'), ('3KXMTYQIINC23'),
	('3kxm-tyq-iinc-23'), ('3kxm'), ('k222222222222'), ('self'), (''), (' 3kxmtyqiinc23'), (NULL)) x(v);
SELECT v, tbsl_or_null(v) FROM (VALUES ('25BF6196C8D6107ABCDE'), ('DE0B6B3A763FFFFFFFFF'), ('DE0B6B3A7640000000000'),
	('DE0B6B3A764000000000'), ('25bf6196c8d6107abcde'), ('25BF6196C8D6107ABCD')) x(v);
SELECT v, uid11_or_null(v) FROM (VALUES ('4u5w7n6xTft'), ('jpXCZedGfVQ'), ('jpXCZedGfVR'), ('0u5w7n6xTft'),
	('4u5w7n6xTf')) x(v);
SELECT v, scru160_or_null(v) FROM (VALUES ('05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'), ('05ttup1hncpnh30vek64kdqt9bsnu4c4'),
	('017bdf6431bb33750751eb63beb3c3f8c5969d86'), ('W5TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
	('017bdf6431bb33750751eb63beb3c3f8c5969d8')) x(v);

-- The same reading as the input function, for every type, on 6,000 seeded random and mutated texts: where the
-- cast gives a value T_or_null gives the same one, and where the cast raises (22P02) T_or_null gives NULL.
SELECT setseed(0.45);
CREATE TEMP TABLE or_null_inputs AS
SELECT t, CASE k % 3
	WHEN 0 THEN g
	WHEN 1 THEN overlay(g placing substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_ ', (random() * 64)::int + 1, 1)
	                from (random() * (length(g) - 1))::int + 1 for 1)
	ELSE left(g, (random() * length(g))::int) END AS v
FROM generate_series(1, 1500) k,
     LATERAL (VALUES ('timeid', timeid_generate()::text), ('tbsl', tbsl_generate()::text),
                     ('uid11', uid11_generate_random()::text), ('scru160', scru160_generate()::text)) g(t, g);
CREATE FUNCTION or_null_agrees(t text, v text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE cast_value text; or_null text;
BEGIN
	EXECUTE format('SELECT %I_or_null($1)::text', t) INTO or_null USING v;
	BEGIN
		EXECUTE format('SELECT $1::%I::text', t) INTO cast_value USING v;
	EXCEPTION WHEN invalid_text_representation THEN
		RETURN or_null IS NULL;
	END;
	RETURN or_null = cast_value;
END $$;
SELECT t, count(*) AS inputs, count(*) FILTER (WHERE NOT or_null_agrees(t, v)) AS disagree
FROM or_null_inputs GROUP BY t ORDER BY t;

-- What the recipes do with it: a generated column beside a text key that is an ID only sometimes, and an
-- index on the expression.
CREATE TABLE or_null_records (rkey text PRIMARY KEY, tid timeid GENERATED ALWAYS AS (timeid_or_null(rkey)) STORED);
INSERT INTO or_null_records (rkey) VALUES ('3kxmtyqiinc23'), ('self'), ('3kxmv4ivlnc27'), ('3jzfcijpj2z2a');
SELECT rkey, tid, tid::timestamptz AS at FROM or_null_records ORDER BY tid NULLS LAST;
CREATE INDEX ON or_null_records (timeid_or_null(rkey));
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT rkey FROM or_null_records WHERE timeid_or_null(rkey) < '3kxm222222222';
SELECT rkey FROM or_null_records WHERE timeid_or_null(rkey) < '3kxm222222222';
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel FROM pg_proc p
WHERE p.proname LIKE '%\_or\_null' AND p.pronamespace = (SELECT extnamespace FROM pg_extension WHERE extname = 'idtypes')
ORDER BY 1;
DROP TABLE or_null_records;
DROP FUNCTION or_null_agrees(text, text);
