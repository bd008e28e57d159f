-- :n IDs of type :t from the SQL edition (half from its generator, half from T_generate_at across the
-- type's range), as `text <TAB> Unix microseconds of T_timestamp` lines.
SELECT format($q$COPY (SELECT id::text, (extract(epoch FROM %1$s_timestamp(id)) * 1000000)::bigint
	FROM (SELECT %1$s_generate() AS id FROM generate_series(1, %2$s / 2)
		UNION ALL SELECT %1$s_generate_at(timestamptz %3$L + random() * interval '%4$s') FROM generate_series(1, %2$s - %2$s / 2)) s) TO STDOUT$q$,
	:'t', :n, CASE :'t' WHEN 'uid11' THEN '2011-11-11 11:11:11.111 UTC' ELSE '1970-01-01 UTC' END,
	CASE :'t' WHEN 'uid11' THEN '139 years' WHEN 'tbsl' THEN '316 years' ELSE '280 years' END) \gexec
