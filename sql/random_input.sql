-- Every SQL input path under random and mutated input (seeded, so reproducible): the only acceptable
-- outcomes are a value (for text input, one that prints back as the same canonical text) or an error of
-- SQLSTATE class 22 (for input of a type, with a message naming the type). Never another class, an
-- internal error, or a lost connection. Each path reports how many inputs it tried and how many outcomes
-- broke the rule (`bad`, which must be 0).
SELECT setseed(0.4242);

-- a random text: pieces of valid IDs, their alphabets in both cases, dashes, odd bytes; 0 to 45 characters
CREATE FUNCTION random_text() RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT string_agg(substr(pool, 1 + floor(random() * length(pool))::int, 1), '')
	FROM (SELECT '3kxmtyqiinc2325BF6196C8D6107ABCDE4u5w7n6xTft05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'
	             || 'jzzzzzzzzzzzzDE0B6B3A763FFFFFFFFFjpXCZedGfVQVVVVVVVV0OIl-_ .,+/\é€' || chr(1) || chr(127) AS pool) p,
	     generate_series(1, floor(random() * 46)::int)
$$;
-- a valid ID's text with one character replaced, inserted or removed, or its case changed
CREATE FUNCTION mutated(v text) RETURNS text LANGUAGE sql VOLATILE AS $$
	SELECT CASE floor(random() * 4)::int
		WHEN 0 THEN overlay(v PLACING substr(random_text() || 'x', 1, 1) FROM 1 + floor(random() * length(v))::int FOR 1)
		WHEN 1 THEN overlay(v PLACING substr(random_text() || 'x', 1, 1) FROM 1 + floor(random() * length(v))::int FOR 0)
		WHEN 2 THEN overlay(v PLACING '' FROM 1 + floor(random() * length(v))::int FOR 1)
		ELSE CASE WHEN random() < 0.5 THEN upper(v) ELSE lower(v) END END
$$;

-- runs `q` (with $1 = arg); returns NULL when the outcome is acceptable, else what happened
CREATE FUNCTION outcome(q text, arg text, type_name text, round_trip boolean) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	result text;
	again text;
BEGIN
	EXECUTE q INTO result USING arg;
	IF round_trip AND result IS NOT NULL THEN
		EXECUTE format('SELECT %L::%s::text', result, type_name) INTO again;
		IF again IS DISTINCT FROM result THEN
			RETURN format('%L read as %s prints as %s', arg, result, again);
		END IF;
	END IF;
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	IF SQLSTATE NOT LIKE '22%' THEN
		RETURN format('%L: SQLSTATE %s: %s', arg, SQLSTATE, SQLERRM);
	ELSIF round_trip AND position(type_name IN SQLERRM) = 0 THEN
		RETURN format('%L: message without the type: %s', arg, SQLERRM);
	END IF;
	RETURN NULL;
END $$;

CREATE TEMP TABLE findings (path text, input_kind text, problem text);
CREATE FUNCTION try_paths(n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	t text;
	valid text;
	arg text;
	problem text;
	times text[] := ARRAY['infinity', '-infinity', '294276-12-31', '4713-01-01 BC', '1969-12-31 23:59:59.999999+00',
	                      '2011-11-11 11:11:11.110+00', '2286-11-20 17:46:40+00', '2255-06-05+00', '10889-08-02+00'];
BEGIN
	FOR i IN 1..n LOOP
		FOREACH t IN ARRAY ARRAY['timeid', 'tbsl', 'uid11', 'scru160'] LOOP
			valid := CASE t WHEN 'timeid' THEN timeid_generate()::text WHEN 'tbsl' THEN tbsl_generate()::text
			                WHEN 'uid11' THEN uid11_generate_random()::text ELSE scru160_generate()::text END;
			arg := CASE WHEN random() < 0.5 THEN random_text() ELSE mutated(valid) END;
			INSERT INTO findings VALUES
				(t || ' text input', 'text', outcome(format('SELECT $1::%s::text', t), arg, t, true)),
				(t || ' ^@ prefix', 'text', outcome(format('SELECT %L::%s ^@ $1', valid, t), arg, t, false)),
				(t || '_prefix_range', 'text', outcome(format('SELECT %s_prefix_range($1)::text', t), arg, t, false)),
				(t || ' from bytea', 'bytea', outcome(format('SELECT $1::bytea::%s::text', t),
					'\x' || substr(md5(arg) || md5(valid), 1, 2 * floor(random() * 26)::int), t, true)),
				(t || '_min/_max and <@', 'timestamp', outcome(format(
					'SELECT %1$s_min($1::timestamptz)::text || %1$s_max($1::timestamptz)::text || (%2$L::%1$s <@ tstzrange($1::timestamptz, NULL))::text', t, valid),
					times[1 + floor(random() * 9)::int], t, false)),
				(t || '_generate_at', 'timestamp', outcome(format('SELECT %s_generate_at($1::timestamptz)::text', t),
					times[1 + floor(random() * 9)::int], t, false));
		END LOOP;
		valid := gen_random_uuid()::text;
		arg := CASE WHEN random() < 0.5 THEN random_text() ELSE mutated(valid) END;
		INSERT INTO findings VALUES
			('uuid ^@ prefix', 'text', outcome(format('SELECT %L::uuid ^@ $1', valid), arg, 'uuid', false)),
			('uuid_v7_min/_max and <@', 'timestamp', outcome(format(
				'SELECT uuid_v7_min($1::timestamptz)::text || uuid_v7_max($1::timestamptz)::text || (%L::uuid <@ tstzrange($1::timestamptz, NULL))::text', valid),
				times[1 + floor(random() * 9)::int], 'uuid', false));
		arg := (ARRAY['-1', '0', '1.5', '1e30', '18446744073709551615', '18446744073709551616', '1208925819614629174706175',
		              '1208925819614629174706176', '999999999999999999000000', 'NaN', '-0'])[1 + floor(random() * 11)::int];
		INSERT INTO findings VALUES
			('numeric::tbsl', 'numeric', outcome('SELECT $1::numeric::tbsl::text', arg, 'tbsl', false)),
			('numeric::uid11', 'numeric', outcome('SELECT $1::numeric::uid11::text', arg, 'uid11', false)),
			('bigint::timeid', 'bigint', outcome('SELECT $1::bigint::timeid::text',
				(ARRAY['-1', '0', '1', '9223372036854775807', '-9223372036854775808'])[1 + floor(random() * 5)::int], 'timeid', false)),
			('tbsl_from_base', 'text', outcome(format('SELECT tbsl_from_base($1, %s)::text',
				(ARRAY[16, 32, 36, 58, 62, 10, 0, -1])[1 + floor(random() * 8)::int]), random_text(), 'tbsl', false)),
			('tbsl_to_base', 'int', outcome('SELECT tbsl_to_base(tbsl_generate(), $1::int)', (floor(random() * 70) - 2)::text, 'tbsl', false)),
			('make_timeid', 'int', outcome('SELECT make_timeid($1::bigint, ($1::numeric % 2000)::int)::text',
				(ARRAY['-1', '0', '9007199254740991', '9007199254740992', '9223372036854775807', '-9223372036854775808'])[1 + floor(random() * 6)::int], 'timeid', false)),
			('make_tbsl', 'int', outcome('SELECT make_tbsl($1::bigint, 999999, 99, 1048575)::text',
				(ARRAY['-1', '0', '9999999999', '10000000000', '9223372036854775807'])[1 + floor(random() * 5)::int], 'tbsl', false)),
			('make_uid11_xid', 'int', outcome('SELECT make_uid11_xid($1::bigint, 4194303)::text',
				(ARRAY['1321009871110', '1321009871111', '5719056382214', '5719056382215', '-9223372036854775808'])[1 + floor(random() * 5)::int], 'uid11', false)),
			('make_scru160', 'int', outcome('SELECT make_scru160($1::bigint, 65535, 0, ''\x00112233445566778899'')::text',
				(ARRAY['-1', '0', '281474976710655', '281474976710656'])[1 + floor(random() * 4)::int], 'scru160', false)),
			('generators', 'int', outcome('SELECT timeid_generate($1::int)::text || tbsl_generate(($1::bigint % 200)::int, random() < 0.5)::text',
				(floor(random() * 2200) - 100)::text, 'timeid', false));
	END LOOP;
END $$;
SELECT try_paths(500); -- 18,000 inputs
SELECT path, count(*) AS tried, count(problem) AS bad FROM findings GROUP BY path ORDER BY path;
-- what broke the rule, if anything
SELECT path, problem FROM findings WHERE problem IS NOT NULL ORDER BY path LIMIT 20;
DROP FUNCTION try_paths(int), outcome(text, text, text, boolean), mutated(text), random_text();
