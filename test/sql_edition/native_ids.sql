-- :n IDs of type :t from the native edition (half from its generator, half random values across the type's
-- range), as `text <TAB> Unix microseconds of T_timestamp` lines.
SELECT format($q$COPY (SELECT id::text, (extract(epoch FROM %1$s_timestamp(id)) * 1000000)::bigint
	FROM (SELECT %1$s_generate() AS id FROM generate_series(1, %2$s / 2)
		UNION ALL SELECT %3$s FROM generate_series(1, %2$s - %2$s / 2)) s) TO STDOUT$q$, :'t', :n,
	CASE :'t'
		WHEN 'timeid' THEN $$substring(decode(md5(random()::text), 'hex') FROM 1 FOR 8)::timeid$$
		WHEN 'uid11' THEN $$substring(decode(md5(random()::text), 'hex') FROM 1 FOR 8)::uid11$$
		WHEN 'scru160' THEN $$decode(md5(random()::text) || substr(md5(random()::text), 1, 8), 'hex')::scru160$$
		ELSE $$tbsl_generate_at(timestamptz '1970-01-01 UTC' + random() * interval '316 years', (random() * 99)::int)$$ END) \gexec
