// The shared progress of the rebuild of a missing replicated mark (rebuild.cpp): part of the
// server's generator state, so that the sessions waiting for the launcher and the launcher see one copy.
#pragma once

extern "C" {
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"
}

namespace idtypes::pg {

struct RebuildProgress {
	pg_atomic_uint32 running;      // 1 from the launcher's registration to its exit
	pg_atomic_uint32 launcher_pid; // the launcher at work (0: none): one at a time, whoever registered it
	pg_atomic_uint64 started_us;   // its registration (one that never ran is forgotten after its deadline)
	pg_atomic_uint32 ended;        // how many launchers ended: a waiting session watches it change
	pg_atomic_uint32 databases;    // the running launcher's: databases to read, read, the largest carrier
	pg_atomic_uint32 databases_read;
	pg_atomic_uint64 largest_us;
	ConditionVariable launcher_ended;
	slock_t failure_lock;
	char failure[512]; // why the last launcher failed, for the sessions' error ("" when it did not)
};

inline void init_rebuild_progress(RebuildProgress &r)
{
	pg_atomic_init_u32(&r.running, 0);
	pg_atomic_init_u32(&r.launcher_pid, 0);
	pg_atomic_init_u64(&r.started_us, 0);
	pg_atomic_init_u32(&r.ended, 0);
	pg_atomic_init_u32(&r.databases, 0);
	pg_atomic_init_u32(&r.databases_read, 0);
	pg_atomic_init_u64(&r.largest_us, 0);
	ConditionVariableInit(&r.launcher_ended);
	SpinLockInit(&r.failure_lock);
	r.failure[0] = '\0';
}

} // namespace idtypes::pg
