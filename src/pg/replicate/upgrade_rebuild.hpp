// A missing replicated mark (the origin idtypes_high_water: after pg_upgrade, which does not carry origins,
// or dropped by a superuser), rebuilt from every database's carrier before any ID is issued. See
// src/pg/replicate/upgrade_rebuild.cpp.
#pragma once

#include "pg/replicate/origins.hpp"

namespace idtypes::pg {

// The origin idtypes_high_water, created first if missing: then past the largest
// mark of every connectable database's carrier. Not in recovery. Raises when it cannot be done (no
// background worker could start: max_worker_processes; a database whose carrier could not be read).
OriginId ensure_mark_origin();

} // namespace idtypes::pg
