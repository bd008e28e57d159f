// The columns a C function returning a record fills, checked against the descriptor its SQL declaration
// gives it. The SQL of a database and the library of a session are updated apart (ALTER EXTENSION UPDATE
// under sessions that loaded an earlier library, or a new library under a database not yet updated): a
// function that filled a descriptor of other columns would read values it never set. So each such function
// names the shapes it fills and refuses any other descriptor with an error naming itself, never a crash.
#pragma once

#include <initializer_list>

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// The column types of one shape, in order.
using ResultColumns = std::initializer_list<Oid>;

// The index in SHAPES of the one DESC has (same number of columns, same types in order); else 42804 naming
// FUNCTION (as SQL calls it, e.g. "idtypes_keys()"), the columns declared and those this library fills.
int result_shape(TupleDesc desc, const char *function, std::initializer_list<ResultColumns> shapes);

} // namespace idtypes::pg
