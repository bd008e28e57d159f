#include "pg/common/origin_names.hpp"

#include "pg/common/postgres.hpp"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_replication_origin.h"
}

namespace idtypes::pg {

void for_each_origin_name(void (*each)(std::string_view name, void *context), void *context)
{
	Relation catalog = table_open(ReplicationOriginRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(catalog, InvalidOid, false, nullptr, 0, nullptr);
	HeapTuple tuple;
	while ((tuple = systable_getnext(scan)) != nullptr) {
		// heap_deform_tuple, a function of the server's, not the inline heap_getattr: 17's headers from a newer
		// suite have it call a function that an older 17 server does not export
		Datum values[Natts_pg_replication_origin];
		bool nulls[Natts_pg_replication_origin];
		heap_deform_tuple(tuple, RelationGetDescr(catalog), values, nulls);
		if (nulls[Anum_pg_replication_origin_roname - 1])
			continue;
		const text *t = DatumGetTextPP(values[Anum_pg_replication_origin_roname - 1]);
		each(std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)), context);
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
}

} // namespace idtypes::pg
