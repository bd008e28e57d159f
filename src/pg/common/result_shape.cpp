#include "pg/common/result_shape.hpp"

#include "lib/stringinfo.h"

namespace idtypes::pg {

namespace {

bool has_shape(TupleDesc desc, ResultColumns columns)
{
	if (desc->natts != static_cast<int>(columns.size()))
		return false;
	int i = 0;
	for (Oid type : columns) {
		const Form_pg_attribute a = TupleDescAttr(desc, i++);
		if (a->attisdropped || a->atttypid != type)
			return false;
	}
	return true;
}

} // namespace

int result_shape(TupleDesc desc, const char *function, std::initializer_list<ResultColumns> shapes)
{
	int index = 0;
	for (ResultColumns columns : shapes) {
		if (has_shape(desc, columns))
			return index;
		index++;
	}
	StringInfoData declared, filled;
	initStringInfo(&declared);
	initStringInfo(&filled);
	for (int i = 0; i < desc->natts; i++)
		appendStringInfo(&declared, "%s%s", i > 0 ? ", " : "", format_type_be(TupleDescAttr(desc, i)->atttypid));
	for (ResultColumns columns : shapes) {
		appendStringInfo(&filled, "%s(", filled.len > 0 ? " or " : "");
		int i = 0;
		for (Oid type : columns)
			appendStringInfo(&filled, "%s%s", i++ > 0 ? ", " : "", format_type_be(type));
		appendStringInfoChar(&filled, ')');
	}
	ereport(ERROR,
	        (errcode(ERRCODE_DATATYPE_MISMATCH),
	         errmsg("%s is declared to return (%s), which idtypes library %s does not fill", function, declared.data,
	                IDTYPES_VERSION),
	         errdetail("This library fills %s. The extension's SQL in this database and the library this session "
	                   "loaded are of different versions.",
	                   filled.data),
	         errhint("Run ALTER EXTENSION idtypes UPDATE in this database once the new library is installed; a "
	                 "session keeps the library it loaded: reconnect (where idtypes is in shared_preload_libraries, "
	                 "restart the server).")));
	pg_unreachable();
}

} // namespace idtypes::pg
