-- What a user attaches to every function of the extension (found by its membership) that a view can call:
-- a grant of EXECUTE to :"role", a comment, a view and a SQL function (BEGIN ATOMIC) calling it with NULL
-- arguments, named attached_v_<n> and attached_f_<n>, n the function's signature's rank; except those listed in
-- :'except' (signatures, separated by ;); on every function, EXECUTE revoked from PUBLIC. Prints the
-- statements; attached.sh runs them.
WITH fn AS (
	SELECT p.oid, p.oid::regprocedure AS f, p.proretset, p.prorettype, p.proallargtypes, p.proargtypes,
	       rank() OVER (ORDER BY p.oid::regprocedure::text) AS n
	FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
	WHERE p.prokind = 'f' AND p.provariadic = 0
), callable AS (
	SELECT fn.*, (SELECT string_agg('NULL::' || format_type(t, NULL), ', ' ORDER BY i)
	              FROM unnest(proargtypes::oid[]) WITH ORDINALITY a(t, i)) AS args
	FROM fn
	WHERE NOT EXISTS (SELECT FROM unnest(proargtypes::oid[]) a(t) JOIN pg_type ty ON ty.oid = a.t WHERE ty.typtype = 'p')
	  AND ((SELECT typtype FROM pg_type WHERE oid = prorettype) <> 'p' OR (prorettype = 'record'::regtype AND proallargtypes IS NOT NULL))
	  AND f::text <> ALL (string_to_array(:'except', ';'))
)
SELECT format('GRANT EXECUTE ON FUNCTION %s TO %I;', f, :'role') FROM fn
UNION ALL SELECT format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC;', f) FROM fn
UNION ALL SELECT format('COMMENT ON FUNCTION %s IS %L;', f, 'a user''s note on ' || f::text) FROM fn
UNION ALL SELECT format('CREATE VIEW attached_v_%s AS SELECT * FROM %s(%s);', n, f::regproc, coalesce(args, '')) FROM callable
UNION ALL SELECT format('CREATE FUNCTION attached_f_%s() RETURNS bigint BEGIN ATOMIC SELECT count(*) FROM %s(%s); END;', n, f::regproc, coalesce(args, '')) FROM callable;
