
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
