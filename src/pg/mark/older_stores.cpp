// Why the older stores are still read:
// - The key file's mark (layouts 1 and 2, idtypes 1.0 to 1.4): those versions wrote the mark there before
//   each ID. 1.4 wrote the origin beside it, so after 1.4 the origin (applied before the first ID) covers it;
//   the file's mark still covers a library updated from 1.3, which had no origin and whose per-database
//   carriers may be behind the server's mark. It is the past once the clock has passed it, so reading it at
//   every later start costs nothing.
// - 1.3's carrier table: a database whose idtypes is still 1.3 (the library updated, ALTER EXTENSION UPDATE
//   not run yet) carries the mark there, the same two columns as the view: read and written the same way
//   (carrier.cpp, database_carrier.cpp), the rows its snapshot sees only (carrier_row.cpp).
#include "pg/mark/older_stores.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
}

namespace idtypes::pg {

namespace {

// The schema idtypes is installed in (PostgreSQL 15 exports no get_extension_schema).
Oid extension_schema(Oid extension)
{
	Relation catalog = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(extension));
	SysScanDesc scan = systable_beginscan(catalog, ExtensionOidIndexId, true, nullptr, 1, &key);
	HeapTuple tuple = systable_getnext(scan);
	Oid schema =
	    HeapTupleIsValid(tuple) ? reinterpret_cast<Form_pg_extension>(GETSTRUCT(tuple))->extnamespace : InvalidOid;
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	return schema;
}

} // namespace

Oid carrier_table_1_3_oid(Oid extension)
{
	const Oid schema = extension_schema(extension);
	return OidIsValid(schema) ? get_relname_relid(carrier_table_1_3, schema) : InvalidOid;
}

std::int64_t old_file_mark(const KeyFileRead &file) { return file.state == KeyFileState::ok ? file.contents.mark : 0; }

} // namespace idtypes::pg
