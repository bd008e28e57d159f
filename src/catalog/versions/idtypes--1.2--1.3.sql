-- idtypes 1.2 -> 1.3. Every SQL object that 1.3 adds or changes is here as well as in the full script
-- (generated from src/catalog/); test/upgrade/run.sh proves an updated catalog equals a fresh 1.3 one.
-- A catalog file that 1.3 adds whole is appended by the Makefile (ADDS_1.2--1.3), as in the full script:
-- src/catalog/high_water.sql, the table of the high-water mark replicated through WAL (issue 37).
\echo Use "ALTER EXTENSION idtypes UPDATE TO '1.3'" to load this file. \quit

-- The replicated high-water mark (src/pg/mark_wal.cpp): one row, whose mark (Unix µs) every write of the
-- server's mark file also writes in place by a generic WAL record, so that a standby, a point-in-time
-- restore and pg_upgrade carry it; a promoted or started server's generators start past it. `writer` is a
-- random number of the generator state that wrote it, so that a state never takes its own mark (up to
-- 200 ms ahead of the clock) for one of another server or of an earlier start. Written only
-- by the generators: no privilege but reading it is granted. Not extension configuration: pg_dump leaves the
-- row out, and a restored database starts from its new server's own mark.
CREATE TABLE idtypes_high_water (mark bigint NOT NULL, writer bigint NOT NULL);
INSERT INTO idtypes_high_water VALUES (0, 0);
REVOKE ALL ON idtypes_high_water FROM PUBLIC;
GRANT SELECT ON idtypes_high_water TO PUBLIC;
COMMENT ON TABLE idtypes_high_water IS 'the generators'' high-water mark (Unix microseconds), replicated through WAL: a promoted standby, a restored or upgraded server generates past it; written only by the generators';
