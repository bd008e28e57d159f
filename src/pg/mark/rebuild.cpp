// How a missing mark is rebuilt, with no step asked of anyone. The session that finds the origin
// idtypes_high_water missing or without progress starts ONE dynamic background worker, the launcher, unless
// one runs, and waits for it on a condition variable, bounded; a cancel or statement_timeout ends that
// session's wait, never the launcher, so the next attempt finds it further on or done. When that happens
// (docs/generators.md#across-failover-point-in-time-restores-and-pg_upgrade): after pg_upgrade (which carries
// no origin) and on a new server, but also when a superuser dropped the origin on this server, the same
// rebuild, since it loses nothing there: it never goes below the mark this server's generators published.
// The launcher connects to the starting session's database for the shared catalogs only: it reads every
// database's carrier without connecting to it (datallowconn = false included) as CREATE DATABASE reads its
// template (database_carrier.cpp: the extension's own member relation, never one found by its name), one
// database at a time, its progress in shared memory. A database another session holds a lock on (an ALTER
// DATABASE in an open transaction) is read last, after every other, its wait bounded (held_lock_wait_us),
// within the launcher's deadline; a carrier more than a day ahead of the clock is refused. Only when every
// database answered is the origin created (if missing) and committed with no progress, then written by the
// writer (writer.cpp): under its lock, past the carriers, the clock and the published mark, flushed and
// confirmed. A database it cannot read is named in its error, in the log and in the sessions' errors, with
// what to do, and no mark is written. It then exits: no worker outlives the rebuild.
// Not on a standby: in recovery nothing can be created or written; a promoted standby rebuilds at its first ID
// if its primary's origin was missing.
#include "pg/mark/rebuild.hpp"

#include "pg/common/settings.hpp"
#include "pg/mark/carrier.hpp"
#include "pg/mark/database_carrier.hpp"
#include "pg/mark/server_state.hpp"
#include "pg/mark/worker.hpp"
#include "pg/mark/writer.hpp"

#include <cstring>

extern "C" {
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_database.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"
#include "utils/wait_event.h" // PG_WAIT_EXTENSION: 19's pgstat.h no longer includes it

PGDLLEXPORT void idtypes_upgrade_rebuild_main(Datum);
}

namespace idtypes::pg {

namespace {

// The launcher ends by this long after its start, done or not; a session waits for it a little longer, so
// that it sees the launcher's own error.
constexpr std::int64_t rebuild_deadline_us = 30000000;
constexpr std::int64_t rebuild_wait_us = rebuild_deadline_us + 5000000;
// How long it waits, once every other database was read, for the locks that other sessions held on the
// databases it could not read at once (a DROP DATABASE waits 5 s for the database's sessions to leave); a
// lock held longer (an ALTER DATABASE left in an open transaction) fails the rebuild, naming the database.
constexpr std::int64_t held_lock_wait_us = 10000000;

constexpr const char *set_by_hand =
    "Or set the mark by hand, above every ID any database issued (the largest of the old server's marks): SELECT "
    "pg_replication_origin_create('idtypes_high_water') (if missing); SELECT "
    "pg_replication_origin_advance('idtypes_high_water', '0/0'::pg_lsn + MICROSECONDS);";

std::int64_t now_us() { return clock_now_us(); }

bool has_mark(OriginId id) { return id != no_origin && origin_progress(id) != 0; }

// Starts the launcher unless one runs: one at work (launcher_pid, set by the launcher itself, cleared at its
// exit), or one registered less than the sessions' wait ago that has not started yet (one that never starts,
// e.g. when the postmaster could not fork, is forgotten then; should it start after all, it finds the other
// at work and exits: idtypes_upgrade_rebuild_main). Raises when no worker slot is free.
void start_launcher(RebuildProgress &r)
{
	std::uint32_t idle = 0;
	if (!pg_atomic_compare_exchange_u32(&r.running, &idle, 1)) {
		std::uint64_t started = pg_atomic_read_u64(&r.started_us);
		if (pg_atomic_read_u32(&r.launcher_pid) != 0 ||
		    now_us() - static_cast<std::int64_t>(started) <= rebuild_wait_us ||
		    !pg_atomic_compare_exchange_u64(&r.started_us, &started, static_cast<std::uint64_t>(now_us())))
			return;
	}
	pg_atomic_write_u64(&r.started_us, static_cast<std::uint64_t>(now_us()));
	BackgroundWorker worker = mark_worker("idtypes_upgrade_rebuild_main", "idtypes mark rebuild");
	if (RegisterDynamicBackgroundWorker(&worker, nullptr))
		return;
	pg_atomic_write_u32(&r.running, 0);
	ereport(ERROR,
	        (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
	         errmsg("idtypes could not start a background worker to rebuild its replicated high-water mark"),
	         errdetail("The replication origin \"%s\" is missing or has no progress (pg_upgrade does not carry it): "
	                   "before any ID is issued, one worker reads the mark every database carries.",
	                   mark_origin_name),
	         errhint("Raise max_worker_processes (every slot is in use), or try again when a worker ends.")));
}

// Waits until a launcher ends (started here if none runs), at most rebuild_wait_us. A cancel raises out of
// the wait (ConditionVariableTimedSleep), leaving the launcher running.
void wait_for_launcher(RebuildProgress &r)
{
	const std::uint32_t ended_before = pg_atomic_read_u32(&r.ended);
	const std::int64_t give_up = now_us() + rebuild_wait_us;
	for (;;) {
		ConditionVariablePrepareToSleep(&r.launcher_ended);
		if (pg_atomic_read_u32(&r.ended) != ended_before)
			break;
		start_launcher(r);
		if (now_us() > give_up) {
			ConditionVariableCancelSleep();
			ereport(ERROR,
			        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			         errmsg("idtypes is still rebuilding its replicated high-water mark: %u of %u databases read",
			                pg_atomic_read_u32(&r.databases_read), pg_atomic_read_u32(&r.databases)),
			         errhint("Try again: the rebuild goes on without this session.")));
		}
		(void)ConditionVariableTimedSleep(&r.launcher_ended, 1000, PG_WAIT_EXTENSION);
	}
	ConditionVariableCancelSleep();
}

// The launcher's failure, kept for the sessions' error (and logged by the launcher's own error).
void record_failure(RebuildProgress &r, const char *text)
{
	SpinLockAcquire(&r.failure_lock);
	snprintf(r.failure, sizeof r.failure, "%s", text);
	SpinLockRelease(&r.failure_lock);
}

void launcher_exit(int, Datum)
{
	RebuildProgress &r = attached_state().rebuild;
	pg_atomic_write_u32(&r.launcher_pid, 0);
	pg_atomic_write_u32(&r.running, 0);
	pg_atomic_fetch_add_u32(&r.ended, 1);
	ConditionVariableBroadcast(&r.launcher_ended);
}

struct Database {
	Oid oid;
	char name[NAMEDATALEN];
};

// Every database, those that refuse connections included; not one left invalid by an interrupted DROP.
List *every_database()
{
	List *databases = NIL;
	Relation catalog = table_open(DatabaseRelationId, AccessShareLock);
	TableScanDesc scan = table_beginscan_catalog(catalog, 0, nullptr);
	HeapTuple tuple;
	while ((tuple = heap_getnext(scan, ForwardScanDirection)) != nullptr) {
		auto form = reinterpret_cast<Form_pg_database>(GETSTRUCT(tuple));
		if (form->datconnlimit == -2)
			continue;
		auto *db = static_cast<Database *>(palloc(sizeof(Database)));
		db->oid = form->oid;
		snprintf(db->name, sizeof db->name, "%s", NameStr(form->datname));
		databases = lappend(databases, db);
	}
	table_endscan(scan);
	table_close(catalog, AccessShareLock);
	return databases;
}

// The launcher's error: kept for the sessions' error, then raised (and logged).
[[noreturn]] void fail(RebuildProgress &r, int sqlstate, const char *text, const char *hint)
{
	record_failure(r, text);
	ereport(ERROR, (errcode(sqlstate), errmsg("idtypes could not rebuild its mark: %s", text), errhint("%s", hint)));
	pg_unreachable();
}

// The time left before the launcher's deadline, its statement timeout armed again for it (an earlier step may
// have spent the one-shot timeout: a cancel that a wait took as its end); fails when none is left.
void within_deadline(RebuildProgress &r, std::int64_t deadline)
{
	const std::int64_t left_ms = (deadline - now_us()) / 1000;
	if (left_ms <= 0)
		fail(r, ERRCODE_QUERY_CANCELED,
		     psprintf("it did not end within its %d s", static_cast<int>(rebuild_deadline_us / 1000000)),
		     "Generate again: the next ID starts a new rebuild.");
	disable_timeout(STATEMENT_TIMEOUT, false);
	enable_timeout_after(STATEMENT_TIMEOUT, static_cast<int>(left_ms));
}

// One database's carrier: without waiting for a lock another session holds (`until` 0: then `held` says
// which), or waiting for it until `until` (lock_timeout); its error, named and kept.
DatabaseCarrier read_carrier_of(RebuildProgress &r, const Database &db, std::int64_t until)
{
	if (until != 0) {
		const std::int64_t left_ms = (until - now_us()) / 1000;
		SetConfigOption("lock_timeout", psprintf("%lld", static_cast<long long>(left_ms > 1 ? left_ms : 1)), PGC_SUSET,
		                PGC_S_OVERRIDE);
	}
	MemoryContext context = CurrentMemoryContext;
	const char *waiting_for = "";
	DatabaseCarrier carrier{0, nullptr};
	ErrorData *error = nullptr;
	PG_TRY();
	{
		carrier = read_database_carrier(db.oid, until != 0, &waiting_for);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(context);
		error = CopyErrorData();
		FlushErrorState();
	}
	PG_END_TRY();
	if (error != nullptr && error->sqlerrcode == ERRCODE_LOCK_NOT_AVAILABLE)
		fail(r, ERRCODE_LOCK_NOT_AVAILABLE,
		     // the sessions' error carries this text (RebuildProgress::failure: 511 bytes, 505 at most here)
		     psprintf("the database \"%s\" could not be read within %d s, every other one read: a session holds a lock "
		              "on %s (ALTER DATABASE, DROP DATABASE, VACUUM FULL, REFRESH), or a prepared transaction (no pid; "
		              "pg_prepared_xacts). End it, then generate again; it is: SELECT pid, state, query FROM pg_locks "
		              "LEFT JOIN pg_stat_activity USING (pid) WHERE granted AND (database = %u OR (classid = "
		              "'pg_database'::regclass AND objid = %u))",
		              db.name, static_cast<int>(held_lock_wait_us / 1000000), waiting_for, db.oid, db.oid),
		     psprintf("COMMIT or ROLLBACK in that session, or SELECT pg_terminate_backend(pid); a prepared transaction "
		              "(a row without pid): COMMIT PREPARED or ROLLBACK PREPARED it (pg_prepared_xacts gives its gid). "
		              "The next ID starts a new rebuild. %s",
		              set_by_hand));
	if (error != nullptr)
		fail(r, error->sqlerrcode,
		     psprintf("the carrier of database \"%s\" could not be read: %s", db.name, error->message),
		     psprintf("Generate again: the next ID starts a new rebuild. %s", set_by_hand));
	// as the generators judge the origin's mark (server_state.cpp): idtypes.mark_ahead = continue takes it
	if (carrier.mark > now_us() + mark_ahead_limit_us && mark_ahead_setting != mark_ahead_continue)
		fail(r, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
		     psprintf("the carrier of database \"%s\" holds a mark more than a day ahead of the clock "
		              "(%lld µs since 1970)",
		              db.name, static_cast<long long>(carrier.mark)),
		     psprintf("Check this server's clock: the carriers hold the old server's ID times. If the clock is right "
		              "and those IDs were dated ahead of it, continue above them: ALTER SYSTEM SET idtypes.mark_ahead "
		              "= 'continue'; SELECT pg_reload_conf(); then generate again. %s",
		              set_by_hand));
	return carrier;
}

// The origin, made (and committed, with no progress yet) if missing. Its replication state is first
// written by write_rebuilt_mark in a later transaction: a crash in between leaves an origin without
// progress, which the next ID rebuilds, never a replication state without its catalog row (which the next
// origin given that id, a subscription's, would take as its own progress).
void create_origin_committed()
{
	if (find_origin(mark_origin_name) == no_origin)
		(void)replorigin_create(mark_origin_name);
	CommitTransactionCommand();
	StartTransactionCommand();
}

// The rebuilt mark written as every mark is, by the writer: under its lock, never below the published mark,
// flushed, confirmed by the synchronous standbys, then published.
void write_result(RebuildProgress &r, std::int64_t largest)
{
	const OriginId id = find_origin(mark_origin_name);
	Outcome outcome;
	outcome.what = Durable::origin_dropped;
	if (id != no_origin)
		outcome = write_rebuilt_mark(attached_state(), largest, id);
	switch (outcome.what) {
	case Durable::ok: return;
	case Durable::origin_dropped:
		fail(r, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
		     psprintf("the replication origin \"%s\" was dropped during the rebuild", mark_origin_name),
		     "Generate again: the next ID starts a new rebuild.");
	case Durable::busy:
	case Durable::interrupted:
		fail(r, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
		     psprintf("another session (PID %u) was writing the mark for more than the rebuild could wait",
		              pg_atomic_read_u32(&attached_state().mark_writer_pid)),
		     "Generate again: the next ID starts a new rebuild.");
	default:
		fail(r, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
		     "the rebuilt mark was not confirmed (its WAL flush, or the synchronous standbys)",
		     "Check that the synchronous standbys are running and connected (pg_stat_replication), then generate "
		     "again.");
	}
}

} // namespace

OriginId ensure_mark_origin()
{
	OriginId id = find_origin(mark_origin_name);
	if (has_mark(id))
		return id;
	require_origins();
	// the launcher reads this database's carrier: a lock on it held by this transaction would hold it up until
	// its deadline, this session waiting for it
	if (carrier_locked_here())
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("idtypes cannot rebuild its replicated high-water mark \"%s\" while this transaction holds "
		                "a lock on this database's carrier",
		                mark_origin_name),
		         errdetail("The mark is missing (as after pg_upgrade): before any ID, the rebuild reads every "
		                   "database's carrier, which this transaction's REFRESH, CLUSTER, VACUUM FULL or ALTER of "
		                   "it keeps locked."),
		         errhint("Commit or roll back this transaction, then generate.")));
	RebuildProgress &r = attached_state().rebuild;
	wait_for_launcher(r);
	// the launcher committed the origin: its invalidations (the syscache's negative entry) taken in, and a
	// new catalog snapshot
	AcceptInvalidationMessages();
	InvalidateCatalogSnapshot();
	id = find_origin(mark_origin_name);
	if (has_mark(id))
		return id;
	char failure[sizeof r.failure];
	SpinLockAcquire(&r.failure_lock);
	snprintf(failure, sizeof failure, "%s", r.failure);
	SpinLockRelease(&r.failure_lock);
	ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	                errmsg("idtypes could not rebuild its replicated high-water mark \"%s\"", mark_origin_name),
	                errdetail("%s", failure[0] != '\0' ? failure : "Its background worker ended without a result."),
	                errhint("See the server log for the worker's error and what to do; the next ID tries again.")));
	pg_unreachable();
}

} // namespace idtypes::pg

using namespace idtypes::pg;

// The launcher: every database's carrier read (those another session holds a lock on last, the wait for them
// bounded), then the origin created and committed, then its mark written by the writer.
void idtypes_upgrade_rebuild_main(Datum database)
{
	start_mark_worker();
	// connected to the starting session's database only for the catalogs that every database shares (the
	// relation cache needs a database to load pg_replication_origin's descriptor); the other databases'
	// carriers are read without connecting (database_carrier.cpp)
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(database), InvalidOid, BGWORKER_BYPASS_ALLOWCONN);
	RebuildProgress &r = attached_state().rebuild;
	// one launcher at work: one registered again while this one was slow to start finds it here and leaves
	std::uint32_t none = 0;
	if (!pg_atomic_compare_exchange_u32(&r.launcher_pid, &none, static_cast<std::uint32_t>(MyProcPid))) {
		ereport(LOG, (errmsg("idtypes mark rebuild: another launcher (PID %u) is at work; this one leaves", none)));
		return;
	}
	before_shmem_exit(launcher_exit, 0);
	record_failure(r, "");
	pg_atomic_write_u32(&r.databases_read, 0);
	pg_atomic_write_u64(&r.largest_us, 0);
	const std::int64_t start = now_us();
	const std::int64_t deadline = start + rebuild_deadline_us;
	// the whole rebuild within its deadline, whatever it waits for (a lock, the writer's lock, the synchronous
	// standbys): its statement timeout, armed again after each step that may have spent it. Its commits wait
	// for no standby (the origin's creation needs no confirmation: an origin without progress counts as
	// missing), so the only wait for the standbys is the mark's own (confirmed_by_standbys), which a timeout
	// ends as a failure.
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_OVERRIDE);
	enable_timeout_after(STATEMENT_TIMEOUT, static_cast<int>(rebuild_deadline_us / 1000));
	StartTransactionCommand();
	(void)GetTransactionSnapshot();
	List *databases = every_database();
	pg_atomic_write_u32(&r.databases, static_cast<std::uint32_t>(list_length(databases)));
	MemoryContext each = AllocSetContextCreate(CurrentMemoryContext, "idtypes rebuild", ALLOCSET_DEFAULT_SIZES);
	MemoryContext outer = MemoryContextSwitchTo(each);
	List *held = NIL; // of Database, in the outer context
	std::int64_t until = 0;
	for (int pass = 0; pass < 2; pass++) {
		ListCell *cell;
		foreach (cell, pass == 0 ? databases : held) {
			const Database &db = *static_cast<Database *>(lfirst(cell));
			const DatabaseCarrier carrier = read_carrier_of(r, db, until);
			MemoryContextReset(each);
			if (carrier.held != nullptr) { // pass 0 only: pass 1 waits
				MemoryContextSwitchTo(outer);
				held = lappend(held, lfirst(cell));
				MemoryContextSwitchTo(each);
				continue;
			}
			advance_to(&r.largest_us, static_cast<std::uint64_t>(carrier.mark));
			pg_atomic_fetch_add_u32(&r.databases_read, 1);
		}
		if (held == NIL)
			break;
		const std::int64_t by_deadline = start + rebuild_deadline_us - 1000000;
		until = now_us() + held_lock_wait_us;
		if (until > by_deadline)
			until = by_deadline;
	}
	MemoryContextSwitchTo(outer);
	SetConfigOption("lock_timeout", "0", PGC_SUSET, PGC_S_OVERRIDE); // the statement timeout bounds what follows
	within_deadline(r, deadline);
	create_origin_committed();
	within_deadline(r, deadline);
	write_result(r, static_cast<std::int64_t>(pg_atomic_read_u64(&r.largest_us)));
	CommitTransactionCommand();
	disable_timeout(STATEMENT_TIMEOUT, false);
	ereport(LOG, (errmsg("idtypes rebuilt its replicated high-water mark \"%s\" from %d databases' carriers in %lld ms",
	                     mark_origin_name, list_length(databases), static_cast<long long>((now_us() - start) / 1000))));
}
