-- The SQL edition's own suite, run by test/sql_edition/run.sh as a role without superuser (search_path ids).
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SELECT '3jzfcijpj2z2a'::timeid, timeid_timestamp('3jzfcijpj2z2a');
