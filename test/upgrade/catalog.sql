-- Everything the idtypes extension owns, described so that two databases can be compared line by line:
-- types, functions (with volatility, strictness, parallel marking, C symbol, support function), operators,
-- operator classes and families with their members, casts, aggregates, range types, tables (columns,
-- privileges), views' queries, event triggers, and every comment.
-- Object identities are printed by name, never by OID.
\pset format unaligned
\pset tuples_only on
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'idtypes'),
members AS (SELECT classid, objid FROM pg_depend, ext WHERE refclassid = 'pg_extension'::regclass
            AND refobjid = ext.oid AND deptype = 'e')
SELECT line FROM (
	SELECT 'object ' || pg_describe_object(classid, objid, 0)
	       || coalesce(' comment=' || obj_description(objid, classid::regclass::name), '') AS line
	FROM members
	UNION ALL
	SELECT format('function %s(%s) returns %s%s volatile=%s strict=%s parallel=%s leakproof=%s cost=%s rows=%s symbol=%s support=%s',
	              p.proname, pg_get_function_identity_arguments(p.oid), CASE WHEN p.proretset THEN 'setof ' ELSE '' END,
	              p.prorettype::regtype, p.provolatile, p.proisstrict, p.proparallel, p.proleakproof, p.procost,
	              p.prorows, p.prosrc, p.prosupport::regproc)
	       || coalesce(' defaults=' || pg_get_expr(p.proargdefaults, 0), '')
	FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
	UNION ALL
	SELECT format('type %s len=%s byval=%s align=%s storage=%s in=%s out=%s recv=%s send=%s analyze=%s category=%s',
	              t.typname, t.typlen, t.typbyval, t.typalign, t.typstorage, t.typinput::regproc, t.typoutput::regproc,
	              t.typreceive::regproc, t.typsend::regproc, t.typanalyze::regproc, t.typcategory)
	FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
	UNION ALL
	SELECT format('operator %s(%s, %s) code=%s restrict=%s join=%s commutator=%s negator=%s merges=%s hashes=%s',
	              o.oprname, o.oprleft::regtype, o.oprright::regtype, o.oprcode::regproc, o.oprrest::regproc,
	              o.oprjoin::regproc, o.oprcom::regoperator, o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
	FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
	UNION ALL
	SELECT format('opclass %s using %s for %s default=%s family=%s keytype=%s', c.opcname, am.amname,
	              c.opcintype::regtype, c.opcdefault, f.opfname, c.opckeytype::regtype)
	FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
	JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
	UNION ALL
	SELECT format('opfamily %s using %s operator %s (%s, %s) %s purpose=%s sortfamily=%s', f.opfname, am.amname,
	              a.amopstrategy, a.amoplefttype::regtype, a.amoprighttype::regtype, a.amopopr::regoperator,
	              a.amoppurpose, a.amopsortfamily)
	FROM members m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
	JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amop a ON a.amopfamily = f.oid
	UNION ALL
	SELECT format('opfamily %s using %s function %s (%s, %s) %s', f.opfname, am.amname, p.amprocnum,
	              p.amproclefttype::regtype, p.amprocrighttype::regtype, p.amproc::regprocedure)
	FROM members m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
	JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amproc p ON p.amprocfamily = f.oid
	UNION ALL
	SELECT format('cast (%s as %s) function=%s context=%s method=%s', c.castsource::regtype, c.casttarget::regtype,
	              c.castfunc::regprocedure, c.castcontext, c.castmethod)
	FROM members m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT format('aggregate %s trans=%s final=%s combine=%s sortop=%s transtype=%s', a.aggfnoid::regprocedure,
	              a.aggtransfn::regproc, a.aggfinalfn::regproc, a.aggcombinefn::regproc, a.aggsortop::regoperator,
	              a.aggtranstype::regtype)
	FROM members m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid
	UNION ALL
	SELECT format('range %s subtype=%s opclass=%s diff=%s canonical=%s multirange=%s', r.rngtypid::regtype,
	              r.rngsubtype::regtype, c.opcname, r.rngsubdiff::regproc, r.rngcanonical::regproc,
	              r.rngmultitypid::regtype)
	FROM members m JOIN pg_range r ON m.classid = 'pg_type'::regclass AND r.rngtypid = m.objid
	JOIN pg_opclass c ON c.oid = r.rngsubopc
	UNION ALL
	SELECT format('table %s kind=%s persistence=%s acl=%s columns=%s', c.oid::regclass, c.relkind, c.relpersistence,
	              c.relacl, (SELECT string_agg(format('%s %s notnull=%s', a.attname, a.atttypid::regtype, a.attnotnull), ', '
	                                           ORDER BY a.attnum)
	                         FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped))
	FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
	UNION ALL
	SELECT format('query of %s: %s', c.oid::regclass, pg_get_viewdef(c.oid))
	FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid AND c.relkind IN ('v', 'm')
	UNION ALL
	SELECT format('event trigger %s on %s tags=%s function=%s enabled=%s', e.evtname, e.evtevent, e.evttags,
	              e.evtfoid::regproc, e.evtenabled)
	FROM members m JOIN pg_event_trigger e ON m.classid = 'pg_event_trigger'::regclass AND e.oid = m.objid
) lines ORDER BY line COLLATE "C";
