-- Public forms' text with a character outside ASCII (the line sql/public_ids.sql had, moved here so that
-- that suite runs on a database of any encoding): its length is counted in bytes. The character is written
-- as a Unicode escape, which only a UTF8 database can hold; on any other encoding the suite stops here, as
-- PostgreSQL's own suites that need UTF8 do (expected/public_ids_utf8_1.out).
SELECT getdatabaseencoding() <> 'UTF8' AS skip_test \gset
\if :skip_test
\quit
\endif

SELECT timeid_from_public(E'2\u00e93kxmtyqiinc2', 'k');
