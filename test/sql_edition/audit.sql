-- An audit of the installed edition (schema ids) for names found on the search_path when its code runs
-- (issue 43), printing the offending functions (none: nothing printed):
-- 1. PL/pgSQL bodies (resolved when they run): their text, string literals, comments and the = of RAISE
--    USING and UPDATE SET taken out, must
--    hold no operator outside OPERATOR(pg_catalog.op) and no call of an unqualified name that is not SQL
--    syntax (COALESCE, GREATEST, ...; NULLIF, whose = is looked up, is not allowed);
-- 2. SQL-language bodies and domain checks (bound at creation): every function, operator and type they
--    depend on is pg_catalog's or the edition's.
WITH src AS (
	SELECT p.oid::regprocedure AS f,
		regexp_replace(regexp_replace(regexp_replace(p.prosrc, '--[^\n]*', '', 'g'), '''([^'']|'''')*''', '''''', 'g'),
			'OPERATOR\(pg_catalog\.[^)]+\)|\m(ERRCODE|MESSAGE|DETAIL|HINT)\s*=|(\mSET|,)\s*[a-z_]+\s*=(?!>)', ' $OP$ ', 'g') AS body
	FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
	WHERE p.pronamespace = 'ids'::regnamespace AND l.lanname = 'plpgsql'),
operators AS (
	SELECT f, m[1] AS what FROM src, regexp_matches(
		regexp_replace(regexp_replace(body, '(:=|::|\.\.|=>|\[|\]|;)', ' ', 'g'), '-?[0-9]+', ' ', 'g'),
		'([-+*/<>=~!@#%^&|`?]+)', 'g') m),
calls AS (
	SELECT f, m[1] AS what FROM src, regexp_matches(body, '(?:^|[^.A-Za-z0-9_"])([A-Za-z_][A-Za-z0-9_]*)\s*\(', 'g') m
	WHERE lower(m[1]) NOT IN ('coalesce', 'greatest', 'least', 'extract', 'array', 'row', 'if', 'elsif', 'exists', 'in', 'and', 'or', 'not',
		'then', 'else', 'when', 'return', 'select', 'from', 'values', 'conflict', 'bit', 'case', 'loop', 'using', 'into', 'perform', 'raise', 'execute', 'format')),
bound AS (
	SELECT coalesce(p.oid::regprocedure::text, 'domain ' || t.typname) AS f, d.classid::regclass AS kind,
		CASE d.classid WHEN 'pg_proc'::regclass THEN (SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid)
			WHEN 'pg_operator'::regclass THEN (SELECT oprnamespace FROM pg_operator WHERE oid = d.refobjid)
			WHEN 'pg_type'::regclass THEN (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid) END AS ns,
		d.refclassid, d.refobjid
	FROM pg_depend d
	LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid AND p.pronamespace = 'ids'::regnamespace
	LEFT JOIN pg_constraint c ON d.classid = 'pg_constraint'::regclass AND c.oid = d.objid
	LEFT JOIN pg_type t ON t.oid = c.contypid AND t.typnamespace = 'ids'::regnamespace
	WHERE (p.oid IS NOT NULL OR t.oid IS NOT NULL) AND d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass)),
foreign_refs AS (
	SELECT f, refclassid::regclass::text || ' ' || refobjid AS what FROM (
		SELECT b.f, b.refclassid, b.refobjid, CASE b.refclassid WHEN 'pg_proc'::regclass THEN (SELECT pronamespace FROM pg_proc WHERE oid = b.refobjid)
			WHEN 'pg_operator'::regclass THEN (SELECT oprnamespace FROM pg_operator WHERE oid = b.refobjid)
			ELSE (SELECT typnamespace FROM pg_type WHERE oid = b.refobjid) END AS refns FROM bound b) x
	WHERE refns NOT IN ('pg_catalog'::regnamespace, 'ids'::regnamespace))
SELECT 'unqualified operator', f::text, what FROM operators
UNION ALL SELECT 'unqualified call', f::text, what FROM calls
UNION ALL SELECT 'bound outside pg_catalog and the edition', f, what FROM foreign_refs
ORDER BY 1, 2, 3;
