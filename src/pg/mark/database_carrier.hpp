// Another database's carrier of the high-water mark, read without connecting to it (for the launcher of
// rebuild.cpp). See database_carrier.cpp.
#pragma once

#include <cstdint>

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// The largest mark (Unix µs) that the carrier of `database` (default tablespace `tablespace`) holds: 0 when
// it has none (idtypes not installed there, or dropped) or was dropped meanwhile. Needs a transaction; takes
// and releases its locks (the database's, then its catalogs' and its carrier's, AccessShareLock; waits
// for them up to lock_timeout). May raise.
std::int64_t read_database_carrier(Oid database, Oid tablespace);

} // namespace idtypes::pg
