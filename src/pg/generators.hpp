// Generator state for the whole server, and what stands in for it when there is none.
// With idtypes in shared_preload_libraries, generators keep their state in shared memory (timeid and uid11:
// one 64-bit atomic each, updated by compare-and-swap; tbsl and scru160: a small struct under a spinlock,
// held only for a pure step that never waits). Otherwise every backend keeps its own state and takes a
// discriminator unique among the server's running backends (its backend id) into what the format leaves free.
#pragma once

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "port/atomics.h"
#include "storage/spin.h"
}

namespace idtypes::pg {

struct SharedGenerators {
	pg_atomic_uint64 timeid_last_micros;
	pg_atomic_uint64 uid11_last;
	slock_t tbsl_lock;
	tbsl::State tbsl;
	slock_t scru160_lock;
	scru160::State scru160;
};

// The server-wide state, or nullptr when idtypes was not preloaded.
SharedGenerators *shared_generators();

// From _PG_init while shared_preload_libraries is processed: asks for the memory and installs the hooks.
void request_shared_generators();

// This backend's slot [base, base + span) of a space of 2^bits values: slots are indexed by the backend id,
// which no two running backends (parallel workers included) share.
struct Share {
	std::uint32_t base, span;
};
Share backend_share(unsigned bits);

// The backend id plus an offset derived from the cluster's system identifier: distinct among the running
// backends of a server, and different from server to server in practice.
std::uint32_t backend_discriminator();

} // namespace idtypes::pg
