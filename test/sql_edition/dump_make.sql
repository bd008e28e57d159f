-- A database using the SQL edition, for the dump check (run as the ordinary role, search_path ids).
CREATE TABLE events (id timeid PRIMARY KEY DEFAULT timeid_generate(), t tbsl DEFAULT tbsl_generate(),
	u uid11 DEFAULT uid11_generate(), s scru160 DEFAULT scru160_generate(), n int);
CREATE INDEX ON events (s);
INSERT INTO events (n) SELECT g FROM generate_series(1, 2000) g;
INSERT INTO events (id, n) SELECT timeid_generate_at(timestamptz '2024-01-01 UTC' + g * interval '1 minute'), -g FROM generate_series(1, 2000) g;
ANALYZE events;
