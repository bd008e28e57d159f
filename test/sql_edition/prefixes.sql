-- `id ^@ prefix` in one edition (run in each, the answers compared by run.sh): for each type, 4 IDs and a list
-- of prefixes made from them (valid, in another case, dashed, too long, with symbols outside the alphabet), each
-- written 7 ways, and prints `type|prefix|form|answer` (answer: how many of the 4 IDs start with the prefix, or
-- the SQLSTATE raised):
--   typed          id ^@ 'p'::text
--   varchar        id ^@ 'p'::varchar
--   untyped        id ^@ 'p'
--   param_text     PREPARE q(text) AS ... id ^@ $1; EXECUTE q('p')
--   param_varchar  PREPARE q(varchar) AS ... id ^@ $1; EXECUTE q('p')   (JDBC's setString)
--   param_unknown  PREPARE q AS ... id ^@ $1; EXECUTE q('p')   (a parameter of no type, as libpq, psycopg 3
--                  and node-postgres send a string)
--   param_cast     PREPARE q AS ... id ^@ $1::text; EXECUTE q('p')   (the same, cast in the query)
-- and a fifth answer, `text`: how many of the IDs' canonical texts start with the prefix as written
-- (pg_catalog's text ^@ text), what the SQL edition answers for an untyped prefix (docs/sql-edition.md).
SET search_path = ids, public;
CREATE TEMP TABLE prefix_ids (t text, id text);
INSERT INTO prefix_ids VALUES
	('timeid', '3hwpvqh3vi2ly'), ('timeid', '3m6nyoxc6224p'), ('timeid', '3n3dvhooiczcf'), ('timeid', '3n3dvhoojaqcf'),
	('tbsl', '23DB454819CDF004E32B'), ('tbsl', '272CE5E56D6400067C63'), ('tbsl', '27E02CDA9731708A0FC0'), ('tbsl', '27E02CDA97421D4BDADE'),
	('uid11', '3rvJK49gwqv'), ('uid11', '5KKexTh4Rh9'), ('uid11', '5d8cG4NePpG'), ('uid11', '5d8cG4P3yS3'),
	('scru160', '05RVN87Q30LUJ0MJVVSL6S4T8LU7RATB'), ('scru160', '06DCH7HA00KCRMSHATT1RNOAT12CBJOH'),
	('scru160', '06H20UDDDLOI9IST3VGDF1EI4EVTVVLT'), ('scru160', '06H20UDDDOLIBBB8O4RF2P3SF8QSPHI2');
CREATE TEMP TABLE prefix_list AS
	SELECT DISTINCT i.t, p.p
	FROM (SELECT t, max(id) AS x FROM prefix_ids GROUP BY t) i,
		LATERAL (VALUES (''), (left(x, 1)), (left(x, 7)), (x), (lower(left(x, 7))), (upper(left(x, 7))),
			(left(x, 3) || '-' || substr(x, 4, 4)), ('-' || left(x, 3)), (left(x, 3) || '!'), (x || left(x, 1)),
			(' ' || left(x, 2)), ('zz!'), ('0'), ('O'), ('l'), ('k'), ('F'), ('W'), ('w'), ('é')) p(p);
CREATE FUNCTION pg_temp.answer(t text, p text, form text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
	st text;
	q text := format('SELECT count(*) FROM pg_temp.prefix_ids WHERE t = %L AND id::%s ^@ ', t, t);
BEGIN
	DEALLOCATE ALL;
	IF form = 'typed' THEN
		EXECUTE q || format('%L::text', p) INTO r;
	ELSIF form = 'varchar' THEN
		EXECUTE q || format('%L::varchar', p) INTO r;
	ELSIF form = 'untyped' THEN
		EXECUTE q || format('%L', p) INTO r;
	ELSIF form LIKE 'param_%' THEN
		EXECUTE CASE form WHEN 'param_text' THEN 'PREPARE q(text) AS ' || q || '$1' WHEN 'param_varchar' THEN 'PREPARE q(varchar) AS ' || q || '$1'
			WHEN 'param_unknown' THEN 'PREPARE q AS ' || q || '$1' ELSE 'PREPARE q AS ' || q || '$1::text' END;
		EXECUTE format('EXECUTE q(%L)', p) INTO r;
	ELSE
		SELECT count(*) INTO r FROM pg_temp.prefix_ids i WHERE i.t = answer.t AND starts_with(i.id, p);
	END IF;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
	RETURN st;
END $$;
SELECT l.t, l.p, f.form, pg_temp.answer(l.t, l.p, f.form)
FROM prefix_list l, (VALUES ('typed'), ('varchar'), ('untyped'), ('param_text'), ('param_varchar'), ('param_unknown'), ('param_cast'),
	('text')) f(form)
ORDER BY l.t, l.p COLLATE "C", f.form;
