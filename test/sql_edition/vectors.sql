-- The native tests' literals through one edition (run in each, the answers compared by run.sh): read from
-- stdin as `kind <TAB> type <TAB> text` lines. literal: the canonical text and time, or the error; instant:
-- T_min and T_max of each type; prefix: which of the literals `id ^@ prefix` keeps, or the error.
SET search_path = ids, public;
SET TimeZone = 'UTC';
CREATE TEMP TABLE vectors (kind text, t text, input text);
\copy vectors FROM pstdin
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE q INTO r;
	RETURN coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN 'ERROR ' || st || ' ' || msg || coalesce(' / ' || nullif(det, ''), '');
END $$;
-- The SQL edition keeps scru160's canonical text only; the other texts the native type reads go through
-- scru160_canonical(), which must give the native type's answer.
CREATE FUNCTION pg_temp.parse(t text, input text) RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN t = 'scru160' AND to_regtype('ids.scru160') IS NOT NULL
		AND (input ~ '^[0-9A-Va-v]{32}$' OR input ~ '^[0-9a-fA-F]{40}$')
		THEN format('scru160_canonical(%L)', input) ELSE format('%L::%s', input, t) END
$$;
CREATE TEMP TABLE literal_answers AS
	SELECT t, input, pg_temp.try(format('SELECT %1$s::text || '' '' || %2$s_timestamp(%1$s)', pg_temp.parse(t, input), t)) AS answer
	FROM vectors WHERE kind = 'literal';
SELECT 'literal', t, input, answer FROM literal_answers ORDER BY 1, 2, 3;
SELECT 'instant', t.t, v.input, pg_temp.try(format('SELECT %1$s_min(%2$L::timestamptz)::text || '' '' || %1$s_max(%2$L::timestamptz)::text', t.t, v.input))
	FROM vectors v, (VALUES ('timeid'), ('tbsl'), ('uid11'), ('scru160')) t(t) WHERE v.kind = 'instant' ORDER BY 1, 2, 3;
SELECT 'prefix', t.t, v.input, pg_temp.try(format(
		'SELECT coalesce(string_agg(split_part(answer, '' '', 1), '','' ORDER BY 1), ''none'') FROM literal_answers WHERE t = %1$L AND answer NOT LIKE ''ERROR%%'' AND split_part(answer, '' '', 1)::%1$s ^@ %2$L::text',
		t.t, v.input))
	FROM vectors v, (VALUES ('timeid'), ('tbsl'), ('uid11'), ('scru160')) t(t) WHERE v.kind = 'prefix' ORDER BY 1, 2, 3;
