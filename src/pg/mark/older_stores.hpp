// The stores of the mark that older versions of idtypes kept, still read so that an update from them never
// repeats an ID: 1.3's carrier table and the mark the key file held up to 1.4. See older_stores.cpp.
#pragma once

#include <cstdint>

#include "pg/common/postgres.hpp"
#include "pg/mark/key_file.hpp"

namespace idtypes::pg {

// 1.3's carrier: a table of this name in the extension's schema (1.4 replaced it with the materialized view
// idtypes_internal.high_water, carrier_row.hpp).
inline constexpr const char *carrier_table_1_3 = "idtypes_high_water";

// 1.3's carrier table of the extension `extension` in this database, by its name in the extension's schema;
// InvalidOid when there is none. Needs a transaction.
Oid carrier_table_1_3_oid(Oid extension);

// The mark that a key file of idtypes 1.4 or earlier (layouts 1 and 2) holds; 0 for a file of a later layout.
std::int64_t old_file_mark(const KeyFileRead &file);

} // namespace idtypes::pg
