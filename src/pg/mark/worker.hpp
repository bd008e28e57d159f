// A dynamic background worker of idtypes' own (the mark's rebuild, a key's record): never restarted, run
// once recovery has finished, connected to a database for the shared catalogs.
#pragma once

#include <cstdio>

#include "pg/common/postgres.hpp"

extern "C" {
#include "postmaster/bgworker.h"
#include "tcop/tcopprot.h"
}

namespace idtypes::pg {

inline BackgroundWorker mark_worker(const char *function, const char *name)
{
	BackgroundWorker worker{};
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	std::snprintf(worker.bgw_library_name, sizeof worker.bgw_library_name, "idtypes");
	std::snprintf(worker.bgw_function_name, sizeof worker.bgw_function_name, "%s", function);
	std::snprintf(worker.bgw_name, sizeof worker.bgw_name, "%s", name);
	std::snprintf(worker.bgw_type, sizeof worker.bgw_type, "%s", name);
	worker.bgw_main_arg = ObjectIdGetDatum(MyDatabaseId);
	return worker;
}

// The first call of such a worker's main function: SIGTERM handled by `die`, as PostgreSQL's own
// database-connected workers do (autovacuum, logical replication), not by the default bgworker_die, which
// raises FATAL from within the signal handler wherever the worker is (holding a buffer lock, inside
// malloc): the termination is then taken at the worker's next CHECK_FOR_INTERRUPTS, its waits (a lock, the
// synchronous standbys, a condition variable) ended, its cleanup run. Then the signals unblocked.
inline void start_mark_worker()
{
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
}

} // namespace idtypes::pg
