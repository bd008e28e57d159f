// The fullrand key of uid11_generate_random: drawn once per data directory instance and kept in the file
// pg_idtypes_high_water (see fullrand_key.cpp and ServerState's KeyState).
#pragma once

#include "core/uid11.hpp"
#include "pg/mark/server_state.hpp"

namespace idtypes::pg {

// The server's fullrand key, settled and written to its file first if need be (raises if it cannot).
const uid11::FullrandKey &fullrand_key(ServerState &s);

} // namespace idtypes::pg
