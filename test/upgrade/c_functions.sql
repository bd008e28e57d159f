-- Every C-language function of the idtypes extension in this database (found by its membership), one line
-- each: its C symbol, its SQL signature, then its shape as the C code sees it: the argument types, STRICT, what
-- it returns and its result columns' names and types (two columns of one type swapped change what a session on
-- an earlier library reads under each name); the extension's own types by their storage (ext<length>v
-- by value, r by reference), which several types share (their C functions too). Read by shapes.sh.
WITH ext_type AS (
	SELECT t.oid, 'ext' || t.typlen || CASE WHEN t.typbyval THEN 'v' ELSE 'r' END AS shape
	FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
), fn AS (
	SELECT p.* FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'
	WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
)
SELECT p.prosrc, p.oid::regprocedure::text,
	'(' || coalesce((SELECT string_agg(coalesce(x.shape, format_type(a.t, NULL)), ',' ORDER BY a.i)
	                 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(t, i) LEFT JOIN ext_type x ON x.oid = a.t), '') || ')'
	|| CASE WHEN p.proisstrict THEN ' strict' ELSE '' END
	|| ' -> ' || CASE WHEN p.proretset THEN 'setof ' ELSE '' END
	|| coalesce((SELECT x.shape FROM ext_type x WHERE x.oid = p.prorettype), format_type(p.prorettype, NULL))
	|| coalesce(' (' || (SELECT string_agg(a.name || ' ' || coalesce(x.shape, format_type(a.t, NULL)), ',' ORDER BY a.i)
	                     FROM unnest(p.proallargtypes, p.proargmodes, p.proargnames) WITH ORDINALITY a(t, m, name, i)
	                     LEFT JOIN ext_type x ON x.oid = a.t
	                     WHERE a.m IN ('o', 'b', 't')) || ')', '')
FROM fn p ORDER BY 1, 2;
