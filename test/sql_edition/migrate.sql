-- Moving a table between the editions with one ALTER TABLE per direction (native types in schema native,
-- the SQL edition in ids): every value kept, the index rebuilt and used. Each line answers t.
SET search_path = public;
SET enable_seqscan = off;
-- whether the plan of a query reads an index range
CREATE FUNCTION pg_temp.index_cond(query text) RETURNS boolean LANGUAGE plpgsql AS $f$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line LIKE '%Index Cond%' THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END $f$;
CREATE TABLE moved (id native.timeid PRIMARY KEY DEFAULT native.timeid_generate(), t native.tbsl DEFAULT native.tbsl_generate(),
	u native.uid11 DEFAULT native.uid11_generate(), s native.scru160 DEFAULT native.scru160_generate());
CREATE INDEX moved_t ON moved (t);
CREATE INDEX moved_u ON moved (u);
CREATE INDEX moved_s ON moved (s);
INSERT INTO moved SELECT FROM generate_series(1, 3000);
CREATE TABLE before AS SELECT id::text AS id, t::text AS t, u::text AS u, s::text AS s FROM moved;
-- native -> SQL edition
ALTER TABLE moved ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ids.timeid USING id::text, ALTER COLUMN id SET DEFAULT ids.timeid_generate(),
	ALTER COLUMN t DROP DEFAULT, ALTER COLUMN t TYPE ids.tbsl USING t::text, ALTER COLUMN t SET DEFAULT ids.tbsl_generate(),
	ALTER COLUMN u DROP DEFAULT, ALTER COLUMN u TYPE ids.uid11 USING u::text, ALTER COLUMN u SET DEFAULT ids.uid11_generate(),
	ALTER COLUMN s DROP DEFAULT, ALTER COLUMN s TYPE ids.scru160 USING s::text, ALTER COLUMN s SET DEFAULT ids.scru160_generate();
SELECT (SELECT count(*) FROM moved m JOIN before b ON m.id = b.id AND m.t = b.t AND m.u = b.u AND m.s = b.s) = 3000;
SELECT count(*) = 4 FROM pg_index WHERE indrelid = 'moved'::regclass AND indisvalid;
SELECT format_type(atttypid, NULL) = 'ids.timeid' FROM pg_attribute WHERE attrelid = 'moved'::regclass AND attname = 'id';
SELECT (SELECT count(*) FROM moved WHERE id OPERATOR(ids.<@) tstzrange(now() - interval '1 day', null)) = 3000;
SELECT (SELECT count(*) FROM moved WHERE s OPERATOR(ids.<@) tstzrange(now() - interval '1 day', null)) = 3000;
SELECT pg_temp.index_cond($$SELECT * FROM moved WHERE u OPERATOR(ids.<@) tstzrange(now() - interval '1 hour', now())$$);
-- SQL edition -> native
ALTER TABLE moved ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE native.timeid USING id::native.timeid, ALTER COLUMN id SET DEFAULT native.timeid_generate(),
	ALTER COLUMN t DROP DEFAULT, ALTER COLUMN t TYPE native.tbsl USING t::native.tbsl, ALTER COLUMN t SET DEFAULT native.tbsl_generate(),
	ALTER COLUMN u DROP DEFAULT, ALTER COLUMN u TYPE native.uid11 USING u::native.uid11, ALTER COLUMN u SET DEFAULT native.uid11_generate(),
	ALTER COLUMN s DROP DEFAULT, ALTER COLUMN s TYPE native.scru160 USING s::native.scru160, ALTER COLUMN s SET DEFAULT native.scru160_generate();
SELECT (SELECT count(*) FROM moved m JOIN before b ON m.id::text = b.id AND m.t::text = b.t AND m.u::text = b.u AND m.s::text = b.s) = 3000;
SELECT count(*) = 4 FROM pg_index WHERE indrelid = 'moved'::regclass AND indisvalid;
SELECT format_type(atttypid, NULL) = 'native.timeid' FROM pg_attribute WHERE attrelid = 'moved'::regclass AND attname = 'id';
SELECT pg_temp.index_cond($$SELECT * FROM moved WHERE id OPERATOR(native.<@) tstzrange(now() - interval '1 hour', now())$$);
INSERT INTO moved DEFAULT VALUES RETURNING id::text > (SELECT max(id) FROM before);
