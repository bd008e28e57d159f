-- Soft input errors: on PostgreSQL 16 and later every input function reports bad text to a caller that asks
-- for it (pg_input_is_valid, pg_input_error_info, COPY ... ON_ERROR on 17+) instead of raising it, with the
-- same message, DETAIL and SQLSTATE as the error. 15 has no such callers: the file only checks that.
SELECT current_setting('server_version_num')::int >= 170000 AS has_soft_errors \gset
\if :has_soft_errors
SELECT pg_input_is_valid('3kxmtyqiinc23', 'timeid') AS valid, pg_input_is_valid('3kxm', 'timeid') AS too_short;
SELECT t, pg_input_is_valid(v, t) AS valid, e.*
FROM (VALUES ('timeid', '3KXMTYQIINC23'), ('timeid', 'k222222222222'), ('tbsl', '25bf6196c8d6107abcde'),
             ('tbsl', 'FFFFFFFFFFFFFFFFFFFF'), ('uid11', 'jpXCZedGfVR'), ('uid11', '0u5w7n6xTft'),
             ('scru160', '05TTUP1HNCPNH30VEK64KDQT9BSNU4CW'), ('scru160', '017bdf6431bb33750751eb63beb3c3f8c5969d8'),
             ('tbsl', '25BF6196C8D6107ABCDE')) AS x(t, v),
     LATERAL pg_input_error_info(v, t) e;
-- COPY skips the rows it cannot read
CREATE TEMP TABLE soft_rows (t timeid, b tbsl, u uid11, s scru160);
COPY soft_rows FROM STDIN (ON_ERROR ignore);
3kxmtyqiinc23	25BF6196C8D6107ABCDE	4u5w7n6xTft	05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
3kxm	25BF6196C8D6107ABCDE	4u5w7n6xTft	05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
3kxmtyqiinc23	25bf6196c8d6107abcde	4u5w7n6xTft	05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
3kxmtyqiinc23	25BF6196C8D6107ABCDE	jpXCZedGfVR	05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
3kxmtyqiinc23	25BF6196C8D6107ABCDE	4u5w7n6xTft	W5TTUP1HNCPNH30VEK64KDQT9BSNU4C4
2222222222222	00000000000000000000	11111111111	00000000000000000000000000000000
\.
SELECT * FROM soft_rows ORDER BY t;
-- without ON_ERROR the first bad row is still an error
COPY soft_rows FROM STDIN;
3kxm	25BF6196C8D6107ABCDE	4u5w7n6xTft	05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
\.
\endif
