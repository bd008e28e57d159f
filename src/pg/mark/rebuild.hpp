// A missing replicated mark (the origin idtypes_high_water: after pg_upgrade, which does not carry origins,
// on a fresh server, or dropped by a superuser), rebuilt from every database's carrier before any ID is
// issued. See src/pg/mark/rebuild.cpp.
#pragma once

#include "pg/mark/origin.hpp"

namespace idtypes::pg {

// The origin idtypes_high_water's id, the origin guaranteed to exist with progress (none, or a progress of 0,
// counts as missing): else rebuilt first by the launcher, which this session starts if none runs and waits
// for (at most rebuild_wait_us; a cancel or statement_timeout ends the wait, not the rebuild). Not in
// recovery. Raises when it cannot be done, naming the database whose carrier could not be read or was
// implausible (more than a day ahead), and what to do.
OriginId ensure_mark_origin();

} // namespace idtypes::pg
