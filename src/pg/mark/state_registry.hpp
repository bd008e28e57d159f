// Which library's generator state a server issues from: one per server, whatever library versions its
// sessions run (state_registry.cpp). server_state.cpp claims it before it attaches to the state.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idtypes::pg {

// The layout of this library's ServerState, as the registry records it (and the state's name carries).
inline constexpr std::uint32_t state_layout = 9;

// What the registry needs of the main segment, aligned (state_registry.cpp), for a preloading library's request.
inline constexpr std::size_t registry_space = 256;

// Under AddinShmemInitLock, in any process (the postmaster too): the registry claimed for this layout in the
// main segment, and the states of earlier libraries there looked for (blocked where absent). Never raises
// for what it finds; true when this library may issue (else state_refused() holds the reason).
bool claim_in_main_segment();

// In a backend, once per process, on PostgreSQL 17 and later: the states earlier libraries keep in the DSM
// registry looked for (blocked where absent). True when this library may issue.
bool claim_in_dsm_registry();

// 55000, naming the other library's state and what to do: after a claim returned false.
[[noreturn]] void report_state_refused();

} // namespace idtypes::pg
