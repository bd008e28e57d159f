// How a missing origin is rebuilt, with no step asked of anyone: the session that finds it missing (its
// first generator call after pg_upgrade) starts one dynamic background worker per connectable database,
// one after another (a process connects to one database only; RegisterDynamicBackgroundWorker needs no
// preloading), each reading its database's carrier (upgrade_carrier.cpp) into the shared state; the worker of the
// session's own database, started last, creates the origins in a transaction of its own (so that the
// session's read-only transaction or its rollback does not matter) and advances it to the largest
// carrier. The session waits for each on its latch; the generators are then raised past the origin
// (server_state() in generators.cpp) before any ID is issued. One session rebuilds at a time; the others
// wait for it.
// Not on a standby: in recovery nothing can be created or written, and a standby generates nothing that
// rests on the mark (standby_rule.cpp); a promoted standby rebuilds at its first ID if its primary's origin
// was missing.
#include "pg/replicate/upgrade_rebuild.hpp"

#include "pg/generate/shared_state.hpp"
#include "pg/replicate/upgrade_carrier.hpp"

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_database.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/inval.h"
#include "utils/snapmgr.h"

PGDLLEXPORT void idtypes_mark_rebuild_main(Datum database);
}

namespace idtypes::pg {

namespace {

// bgw_extra's first byte: whether the worker creates the origins after reading its carrier.
constexpr char creates_origins = 'c';

// The connectable databases (pg_database.datallowconn; not one left invalid by an interrupted DROP).
List *connectable_databases()
{
	List *databases = NIL;
	Relation catalog = table_open(DatabaseRelationId, AccessShareLock);
	TableScanDesc scan = table_beginscan_catalog(catalog, 0, nullptr);
	HeapTuple tuple;
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != nullptr) {
		auto db = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple));
		if (db->datallowconn && db->datconnlimit != -2 && db->oid != MyDatabaseId)
			databases = lappend_oid(databases, db->oid);
	}
	table_endscan(scan);
	table_close(catalog, AccessShareLock);
	return lappend_oid(databases, MyDatabaseId); // the session's own last: its worker creates the origins
}

// Runs one worker to its end. False when it could not be started.
bool run_worker(Oid database, bool create)
{
	BackgroundWorker worker{};
	worker.bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
	worker.bgw_start_time = BgWorkerStart_RecoveryFinished;
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_library_name, sizeof worker.bgw_library_name, "idtypes");
	snprintf(worker.bgw_function_name, sizeof worker.bgw_function_name, "idtypes_mark_rebuild_main");
	snprintf(worker.bgw_name, sizeof worker.bgw_name, "idtypes mark rebuild (database %u)", database);
	snprintf(worker.bgw_type, sizeof worker.bgw_type, "idtypes mark rebuild");
	worker.bgw_main_arg = ObjectIdGetDatum(database);
	worker.bgw_extra[0] = create ? creates_origins : '\0';
	worker.bgw_notify_pid = MyProcPid;
	BackgroundWorkerHandle *handle = nullptr;
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		return false;
	if (WaitForBackgroundWorkerShutdown(handle) == BGWH_POSTMASTER_DIED)
		ereport(FATAL, (errcode(ERRCODE_ADMIN_SHUTDOWN), errmsg("postmaster exited during idtypes' mark rebuild")));
	return true;
}

void end_rebuild(int, Datum arg)
{
	auto *s = reinterpret_cast<ServerState *>(DatumGetPointer(arg));
	pg_atomic_write_u32(&s->rebuild_pid, 0);
}

void rebuild(ServerState &s)
{
	List *databases = connectable_databases();
	pg_atomic_write_u64(&s.rebuild_max, 0);
	pg_atomic_write_u32(&s.rebuild_done, 0);
	int started = 0;
	ListCell *cell;
	foreach (cell, databases) {
		const Oid database = lfirst_oid(cell);
		if (!run_worker(database, database == MyDatabaseId))
			ereport(ERROR,
			        (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			         errmsg("idtypes could not start a background worker to rebuild its replicated high-water mark"),
			         errdetail("The replication origin \"%s\" is missing (pg_upgrade does not carry it): before any "
			                   "ID is issued, one worker per database reads the mark that database carries.",
			                   mark_origin_name),
			         errhint("Raise max_worker_processes (every slot is in use), or try again when a worker ends.")));
		++started;
	}
	if (pg_atomic_read_u32(&s.rebuild_done) != static_cast<std::uint32_t>(started))
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("idtypes could not read the high-water mark carried by every database"),
		         errdetail("The replication origin \"%s\" is missing, and %d of %d databases' workers failed.",
		                   mark_origin_name, started - static_cast<int>(pg_atomic_read_u32(&s.rebuild_done)), started),
		         errhint("See the server log for the workers' errors; generation is tried again at the next ID.")));
}

} // namespace

OriginId ensure_mark_origin()
{
	OriginId id = find_origin(mark_origin_name);
	if (id != no_origin)
		return id;
	require_origins();
	ServerState &s = attached_state();
	std::uint32_t none = 0;
	if (pg_atomic_compare_exchange_u32(&s.rebuild_pid, &none, static_cast<std::uint32_t>(MyProcPid))) {
		PG_ENSURE_ERROR_CLEANUP(end_rebuild, PointerGetDatum(&s));
		{
			rebuild(s);
		}
		PG_END_ENSURE_ERROR_CLEANUP(end_rebuild, PointerGetDatum(&s));
		end_rebuild(0, PointerGetDatum(&s));
	} else {
		while (pg_atomic_read_u32(&s.rebuild_pid) != 0) { // another session rebuilds: wait for it
			(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 100, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
	}
	// the worker committed the origins: its invalidations (the syscache's negative entry) taken in, and a
	// new catalog snapshot
	AcceptInvalidationMessages();
	InvalidateCatalogSnapshot();
	id = find_origin(mark_origin_name);
	if (id == no_origin)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("idtypes could not create the replication origin \"%s\"", mark_origin_name),
		                errhint("See the server log for its background worker's error.")));
	return id;
}

} // namespace idtypes::pg

using namespace idtypes::pg;

// A rebuild's worker: reads its database's carrier into the shared state; the last one also creates the
// origins (committed) and advances the mark's to the largest carrier.
void idtypes_mark_rebuild_main(Datum database)
{
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(database), InvalidOid, 0);
	ServerState &s = attached_state();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	advance_to(&s.rebuild_max, static_cast<std::uint64_t>(read_carrier()));
	PopActiveSnapshot();
	CommitTransactionCommand();
	if (MyBgworkerEntry->bgw_extra[0] == creates_origins) {
		StartTransactionCommand();
		if (find_origin(mark_origin_name) == no_origin)
			(void)replorigin_create(mark_origin_name);
		CommitTransactionCommand();
		StartTransactionCommand();
		const OriginId id = find_origin(mark_origin_name);
		const std::uint64_t mark = pg_atomic_read_u64(&s.rebuild_max);
		if (id != no_origin && mark > origin_progress(id)) {
			lock_origin(id);
			XLogFlush(advance_origin(id, mark));
			release_origin(id);
		}
		CommitTransactionCommand();
		ereport(LOG, (errmsg("idtypes rebuilt its replicated high-water mark \"%s\" from the databases' carriers",
		                     mark_origin_name)));
	}
	pg_atomic_fetch_add_u32(&s.rebuild_done, 1);
}
