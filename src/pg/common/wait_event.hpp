// The wait events a session shows in pg_stat_activity while idtypes makes it wait: the extension's own
// names where PostgreSQL has custom wait events (17 and later: wait_event_type 'Extension'), else
// PostgreSQL's generic one for extensions (15, 16: 'Extension' / 'Extension'). The one place that knows
// which versions have which.
#pragma once

#include <cstdint>

namespace idtypes::pg {

// While another session writes the high-water mark.
inline constexpr const char *mark_write_wait_name = "IdtypesMarkWrite";
// While uid11_generate_random's key is recorded: its maker's worker, the maker, the synchronous standbys.
inline constexpr const char *key_record_wait_name = "IdtypesKeyRecord";
// While tbsl_generate waits for the clock to pass its last TBSL (idtypes.clock_backward = 'wait').
inline constexpr const char *clock_wait_name = "IdtypesClock";

// Each registers its event in this process the first time (which may raise: call them where an error may
// be raised); later calls only return it.
std::uint32_t mark_write_wait_event();
std::uint32_t clock_wait_event();
std::uint32_t key_record_wait_event();

} // namespace idtypes::pg
