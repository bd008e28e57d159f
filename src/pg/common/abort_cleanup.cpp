#include "pg/common/abort_cleanup.hpp"

#include "pg/common/postgres.hpp"

extern "C" {
#include "access/xact.h"
#include "storage/ipc.h"
}

namespace idtypes::pg {

namespace {

void (*cleanups[4])() = {}; // this process's, in the order registered
int cleanup_count = 0;
bool registered = false;

void run_cleanups()
{
	for (int i = 0; i < cleanup_count; i++)
		cleanups[i]();
}
void at_abort(XactEvent event, void *)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
		run_cleanups();
}
void at_subabort(SubXactEvent event, SubTransactionId, SubTransactionId, void *)
{
	if (event == SUBXACT_EVENT_ABORT_SUB)
		run_cleanups();
}
void at_exit(int, Datum) { run_cleanups(); }

void cleanup_at_abort(void (*cleanup)())
{
	for (int i = 0; i < cleanup_count; i++)
		if (cleanups[i] == cleanup)
			return;
	if (cleanup_count == static_cast<int>(sizeof cleanups / sizeof cleanups[0]))
		elog(ERROR, "idtypes: more than %d cleanups at abort", cleanup_count);
	if (!registered) {
		RegisterXactCallback(at_abort, nullptr);
		RegisterSubXactCallback(at_subabort, nullptr);
		before_shmem_exit(at_exit, 0);
		registered = true;
	}
	cleanups[cleanup_count++] = cleanup;
}

} // namespace

bool claim_for_this_process(pg_atomic_uint32 &slot, void (*cleanup)())
{
	cleanup_at_abort(cleanup);
	std::uint32_t none = 0;
	return pg_atomic_compare_exchange_u32(&slot, &none, static_cast<std::uint32_t>(MyProcPid));
}

} // namespace idtypes::pg
