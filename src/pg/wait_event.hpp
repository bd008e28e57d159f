// The wait event a session shows in pg_stat_activity while it waits for another session's write of the
// high-water mark: the extension's own name where PostgreSQL has custom wait events (17 and later:
// wait_event_type 'Extension', wait_event 'IdtypesMarkWrite'), else PostgreSQL's generic one for extensions
// (15, 16: 'Extension' / 'Extension'). The one place that knows which versions have which.
#pragma once

#include <cstdint>

namespace idtypes::pg {

inline constexpr const char *mark_write_wait_name = "IdtypesMarkWrite";

// Registers the wait event in this process the first time (which may raise: call it where an error may be
// raised); later calls only return it.
std::uint32_t mark_write_wait_event();

} // namespace idtypes::pg
