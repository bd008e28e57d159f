// Another database's carrier of the high-water mark, read without connecting to it (for the launcher of
// rebuild.cpp). See database_carrier.cpp.
#pragma once

#include <cstdint>

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// What reading one database's carrier gave: its largest mark (Unix µs; 0 when it has none: idtypes not
// installed there, the database dropped meanwhile), or, when a lock was held by another session and the
// read was not to wait, `held` naming what that lock is on ("the database itself", "its pg_class", ...).
struct DatabaseCarrier {
	std::int64_t mark;
	const char *held;
};

// The carrier of `database`: the extension's own member relation, found through pg_depend, never by its
// name. Needs a transaction; takes and releases its locks (AccessShareLock on the database, then on its
// pg_class, pg_extension and pg_depend, then on the carrier, each taken before the file it locks is located).
// `wait` false: a lock held by another session is not waited for (`held` says which); true: waited for up
// to lock_timeout, `waiting_for` naming it meanwhile (for the caller's error). May raise.
DatabaseCarrier read_database_carrier(Oid database, bool wait, const char **waiting_for);

} // namespace idtypes::pg
