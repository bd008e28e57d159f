-- Every SQL object of the extension explains itself in \df+, \do+, \dT+, \dAc+: each member (types, range
-- and multirange types and their constructors, functions, aggregates, operators, operator classes and
-- families, casts, the schema idtypes_internal and its materialized view high_water) has a one-line
-- comment.
CREATE TEMP VIEW idtypes_members AS
SELECT d.classid::regclass AS catalog, pg_describe_object(d.classid, d.objid, d.objsubid) AS object,
       obj_description(d.objid, d.classid::regclass::name) AS comment
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'idtypes' AND d.deptype = 'e'
  -- array types and the row type of a table: implicit (PostgreSQL 17 and later also record them as
  -- members), never commented
  AND NOT EXISTS (SELECT FROM pg_type t WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
                  AND (t.typcategory = 'A' OR t.typrelid <> 0));

-- Members without a comment, or with an empty or multi-line one: none.
SELECT object, comment FROM idtypes_members
WHERE comment IS NULL OR comment = '' OR comment ~ '\n'
ORDER BY object;

-- No member is a shared object (its comment would be in pg_shdescription, which obj_description does not read).
SELECT count(*) AS shared_members FROM idtypes_members m JOIN pg_class c ON c.oid = m.catalog
WHERE c.relisshared;

-- The commented members per catalog: a vanished object (or one left out of the extension) changes a count.
SELECT catalog, count(comment) AS commented FROM idtypes_members GROUP BY catalog ORDER BY catalog::text;
