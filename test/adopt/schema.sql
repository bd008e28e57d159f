-- The cluster of test/adopt/run.sh: a parent, three children (one partitioned, one ON UPDATE CASCADE),
-- a self reference, a view and a policy on the key. :rows parent rows; :kind is bigint or uuid, :default the
-- key's default, :gen the key of row i (the same in every run: runs compare).
\set ON_ERROR_STOP 1
CREATE SEQUENCE seq_s START 100000000;
CREATE TABLE parent (id :kind PRIMARY KEY DEFAULT :default, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                     up :kind REFERENCES parent (id), n integer NOT NULL DEFAULT 0,
                     seq bigint NOT NULL DEFAULT nextval('seq_s') UNIQUE);
CREATE TABLE child_a (id bigserial PRIMARY KEY, parent_id :kind NOT NULL REFERENCES parent (id), n integer NOT NULL DEFAULT 0);
CREATE INDEX ON child_a (parent_id);
CREATE TABLE child_b (id bigserial PRIMARY KEY, parent_id :kind REFERENCES parent (id) ON UPDATE CASCADE ON DELETE CASCADE, n integer NOT NULL DEFAULT 0);
CREATE INDEX ON child_b (parent_id);
CREATE TABLE child_p (id bigserial, k integer NOT NULL, parent_id :kind NOT NULL REFERENCES parent (id), n integer NOT NULL DEFAULT 0,
                      PRIMARY KEY (id, k)) PARTITION BY LIST (k);
CREATE TABLE child_p0 PARTITION OF child_p FOR VALUES IN (0);
CREATE TABLE child_p1 PARTITION OF child_p FOR VALUES IN (1);
CREATE INDEX ON child_p (parent_id);
-- the same rows in every run (:gen of i), so that runs compare; two children reference a tenth of the parent's rows each, the partitioned one a fifth
-- (the parent's size is what the test is about; the children's rows only add to its time)
INSERT INTO parent (id, created_at, seq) SELECT :gen, timestamptz '2020-01-01' + i * interval '1 ms', i FROM generate_series(1, :rows) i;
UPDATE parent SET up = (SELECT p.id FROM parent p WHERE p.seq = 1) WHERE seq BETWEEN 2 AND 101;
INSERT INTO child_a (parent_id) SELECT id FROM parent WHERE seq % 10 = 0 ORDER BY seq;
INSERT INTO child_b (parent_id) SELECT id FROM parent WHERE seq % 10 = 1 ORDER BY seq;
INSERT INTO child_p (k, parent_id) SELECT seq % 2, id FROM parent WHERE seq % 10 IN (2, 3) ORDER BY seq;
CREATE VIEW parent_view AS SELECT p.id, p.n FROM parent p;
ALTER TABLE child_a ENABLE ROW LEVEL SECURITY;
CREATE POLICY child_a_seen ON child_a USING (parent_id IS NOT NULL);
VACUUM ANALYZE parent, child_a, child_b, child_p;
