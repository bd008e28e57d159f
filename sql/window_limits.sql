-- Time windows whose bounds lie past what any format holds, up to PostgreSQL's own limits: instants
-- from year 294276 on reach the extension as the largest representable time, and an exclusive bound
-- there must select nothing (it once wrapped around and selected every ID).
CREATE TEMP TABLE far (t timeid, b tbsl, u uid11, s scru160);
INSERT INTO far VALUES ('3kxmtyqiinc23', '25BF6196C8D6107ABCDE', '4u5w7n6xTft', '05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'),
	('jzzzzzzzzzzzz', 'DE0B6B3A763FFFFFFFFF', 'jpXCZedGfVQ', 'VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV');
SELECT label, count(*) FILTER (WHERE t <@ r) AS timeid, count(*) FILTER (WHERE b <@ r) AS tbsl,
       count(*) FILTER (WHERE u <@ r) AS uid11, count(*) FILTER (WHERE s <@ r) AS scru160
FROM far, (VALUES ('after 294276, exclusive', tstzrange('294276-12-31+00', NULL, '()')),
                  ('after 294276, inclusive', tstzrange('294276-12-31+00', NULL, '[)')),
                  ('294276 to infinity', tstzrange('294276-12-31+00', 'infinity', '()')),
                  ('before 4714 BC', tstzrange(NULL, '4714-11-24 BC+00', '()')),
                  ('4714 BC to 294276', tstzrange('4714-11-24 BC+00', '294276-12-31+00', '()'))) w(label, r)
GROUP BY label ORDER BY label;
SELECT timeid_window_lo(tstzrange('294276-12-31+00', NULL, '()')) > timeid_window_hi(tstzrange('294276-12-31+00', NULL, '()')) AS timeid_empty,
       tbsl_window_lo(tstzrange('294276-12-31+00', NULL, '()')) > tbsl_window_hi(tstzrange('294276-12-31+00', NULL, '()')) AS tbsl_empty;
