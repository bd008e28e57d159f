-- Reads `text <TAB> Unix microseconds` lines of type :t from stdin into the edition at hand (each text must
-- be valid there): prints the count, how many times differ from T_timestamp, and the md5 of the texts in
-- the type's order (one per line).
SET search_path = ids, public;
SELECT format('CREATE TEMP TABLE ids_in (id %s, us bigint)', :'t') \gexec
\copy ids_in FROM pstdin
SELECT format($q$SELECT count(*),
	count(*) FILTER (WHERE (extract(epoch FROM %1$s_timestamp(id)) * 1000000)::bigint <> us),
	md5(string_agg(id::text, E'\n' ORDER BY id) || E'\n') FROM ids_in$q$, :'t') \gexec
