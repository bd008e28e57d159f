// A process's hold on shared state that an error must give back: the abort of the (sub)transaction the error
// ends, or the exit of the process (FATAL, a termination), runs its cleanup.
#pragma once

#include "pg/common/postgres.hpp"

extern "C" {
#include "port/atomics.h"
}

namespace idtypes::pg {

// Claims `slot` for this process (its PID, where the slot holds 0); false when another process holds it.
// First, once per process and function, registers `cleanup`, which gives the slot back, to run at every
// abort of a transaction or subtransaction and at the process's exit (before_shmem_exit); that first
// registration may raise (out of memory), before anything is held.
bool claim_for_this_process(pg_atomic_uint32 &slot, void (*cleanup)());

} // namespace idtypes::pg
