-- idtypes, SQL edition: 1.1 -> 1.2 (ALTER EXTENSION idtypes_sql UPDATE, pgtle.install_update_path, or psql -1 -f
-- with search_path set to the edition's schema alone). The Makefile writes the update script: installer.sql,
-- this file, every part of the sources marked [1.2] (functions made again with CREATE OR REPLACE), then
-- 90_bind.sql. Every statement passes a publication FOR ALL TABLES (issue 66).
-- * The identity table gets a key, always true (one row at most), which is also its replica identity, and a
--   trigger that skips what logical replication writes into it and refuses TRUNCATE (00_common.sql).
-- * idtypes_sql_set_identity: one INSERT ... ON CONFLICT, refused under session_replication_role = replica.
-- * The generators refuse in a read-only transaction (25006), also right after an ID.
-- * The state sequences get an INCREMENT of the installation's own, which PostgreSQL 19's synchronization
--   of a subscription FOR ALL SEQUENCES refuses to match to another installation's (00_common.sql).
-- Two rows (a 1.1 subscriber that took its publisher's row beside its own) cannot be told apart: both go, and
-- the generators of timeid and tbsl refuse until the owner sets the identity again (a WARNING says so). So
-- does the one row of a table a subscription of this database still copies: 1.1 took a publisher's row into a
-- subscriber that had none, and that row cannot be told from the subscriber's own either.
ALTER TABLE idtypes_sql_installation REPLICA IDENTITY FULL; -- for the DELETE below (1.1's table has no key)
DO $$
BEGIN
	IF (SELECT pg_catalog.count(*) FROM idtypes_sql_installation) OPERATOR(pg_catalog.>) 1
			OR (EXISTS (SELECT FROM idtypes_sql_installation)
				AND EXISTS (SELECT FROM pg_catalog.pg_subscription_rel r
					WHERE r.srrelid OPERATOR(pg_catalog.=) 'idtypes_sql_installation'::pg_catalog.regclass::pg_catalog.oid)) THEN
		DELETE FROM idtypes_sql_installation;
		RAISE WARNING USING MESSAGE = pg_catalog.format('the SQL edition in schema %s had two identity rows, or one a subscription copies: removed', pg_catalog.current_schema()),
			DETAIL = 'Logical replication carried another installation''s identity here (1.1 let it); which row was this installation''s own cannot be told.',
			HINT = 'Its owner sets its identity again: SELECT idtypes_sql_set_identity(timeid_clock_id => 0..1023, tbsl_machine_id => 0..99).';
	END IF;
END $$;
ALTER TABLE idtypes_sql_installation ADD COLUMN installation boolean NOT NULL DEFAULT true
	CONSTRAINT idtypes_sql_installation_one CHECK (installation) CONSTRAINT idtypes_sql_installation_pkey PRIMARY KEY;
ALTER TABLE idtypes_sql_installation REPLICA IDENTITY DEFAULT;
