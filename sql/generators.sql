-- Generators across the whole server: where their state lives, identity settings and arguments, and the
-- clock going backwards (shifted with the superuser-only, test-only setting idtypes.test_clock_offset).

-- one state for the server, preloaded or not
SELECT idtypes_generator_mode() LIKE 'shared (%)' AS server_wide;

-- identities are checked when set, and arguments when given
SET idtypes.tbsl_machine_id = 100;
SET idtypes.tbsl_machine_id = -1;
SET idtypes.timeid_clock_id = 1024;
SET idtypes.timeid_clock_id = -2;
SHOW idtypes.tbsl_machine_id;
SHOW idtypes.timeid_clock_id;
SELECT tbsl_generate(100);
SELECT tbsl_generate(-1);
SELECT timeid_generate(1024);
SELECT timeid_generate(-1);
SET idtypes.tbsl_machine_id = 99;
SET idtypes.timeid_clock_id = 1023;
SELECT tbsl_machine_id(tbsl_generate()) AS machine, tbsl_machine_id(tbsl_generate(4, true)) AS argument,
       timeid_clock_id(timeid_generate()) AS clock, timeid_clock_id(timeid_generate(4)) AS argument;
RESET idtypes.tbsl_machine_id;
RESET idtypes.timeid_clock_id;
-- clock id -1: the server's one clock id, drawn at random once
SELECT timeid_clock_id(timeid_generate()) = timeid_clock_id(timeid_generate()) AS one_clock_id;

SHOW idtypes.test_clock_offset;
-- not listed among the settings
SELECT count(*) FROM pg_settings WHERE name = 'idtypes.test_clock_offset';
-- not for ordinary roles
CREATE ROLE idtypes_plain_user;
SET ROLE idtypes_plain_user;
SET idtypes.test_clock_offset = '-1s';
RESET ROLE;
DROP ROLE idtypes_plain_user;

-- TBSL carries the real time: a clock 2 s behind the last TBSL issued is an error at once with `error`,
-- and with `wait` an error after the wait limit (how far behind varies, so digits are masked)
CREATE FUNCTION generate_tbsl_or_say_why() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN tbsl_generate()::text;
EXCEPTION WHEN object_not_in_prerequisite_state THEN
	RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '[0-9]+ microseconds', 'N microseconds');
END $$;
CREATE TEMP TABLE issued AS SELECT tbsl_generate() AS t;
SET idtypes.test_clock_offset = '-2s';
SET idtypes.clock_backward = 'error';
SELECT generate_tbsl_or_say_why();
SET idtypes.clock_backward = 'wait';
SET idtypes.clock_backward_max_wait = '50ms';
SELECT generate_tbsl_or_say_why();
-- a clock 1 ms behind: `wait` waits it out and issues a TBSL no earlier than the last one
RESET idtypes.test_clock_offset;
SET idtypes.clock_backward_max_wait = '1s';
SELECT tbsl_generate() AS t2 \gset
SET idtypes.test_clock_offset = '-1ms';
SELECT tbsl_generate()::timestamptz >= :'t2'::tbsl::timestamptz AS not_earlier;
RESET idtypes.clock_backward;
RESET idtypes.clock_backward_max_wait;

-- timeid, scru160 and uid11 stay increasing by their own rules (last + 1; the counter) when the clock steps back
RESET idtypes.test_clock_offset;
SELECT timeid_generate() AS a, scru160_generate() AS b, uid11_generate() AS c \gset
SET idtypes.test_clock_offset = '-5s';
SELECT timeid_generate() > :'a'::timeid AS timeid_increases,
       scru160_generate() > :'b'::scru160 AS scru160_increases,
       uid11_generate() > :'c'::uid11 AS uid11_increases;
RESET idtypes.test_clock_offset;

-- markings: all VOLATILE and PARALLEL RESTRICTED (each may write the mark's WAL record)
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE proname IN ('timeid_generate', 'tbsl_generate', 'scru160_generate', 'uid11_generate', 'uid11_generate_random')
ORDER BY proname;
