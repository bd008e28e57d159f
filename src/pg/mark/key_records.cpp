// Why the key records are replication origins' names:
// - A promoted standby draws a key of its own (a copy of a data directory must not share a key: its tickets
//   overlap the original's), so its values are kept apart from the old primary's by skipping, not by chance:
//   it needs the old primary's key and the tickets that key issued, which must reach it through WAL before
//   any value made with that key (docs/failover.md#what-a-failover-keeps).
// - A replication origin is a row of the shared catalog pg_replication_origin: replicated to every standby,
//   kept by pg_basebackup, across restarts and crashes, without the library on the standby, in no
//   database's schema (so no table grant, schema owner or pg_write_all_data reaches it; creating or dropping
//   one is for superusers). Its name is the record (key_file_text.hpp); it has no progress, so it takes no
//   replication state. The mark's origin is another one (origin.cpp).
// - Made once per key, in a transaction of its own, by a background worker, so that the generating session's
//   rollback cannot take it back while values made with its key exist. One session at a time is its maker
//   (ServerState::key_record_maker, taken under mark_lock): it starts the worker and waits for it; the others
//   wait for the maker. Every wait here ends at lock_timeout (the worker waits for a lock on
//   pg_replication_origin that a transaction dropping or creating an origin holds: 55P03 names it, from
//   pg_locks), statement_timeout, transaction_timeout and a cancel; a maker that gives up stops its worker,
//   so no worker outlives its maker's wait (and one that got its lock before the stop reached it makes
//   nothing). A session whose own transaction holds a lock the worker needs is refused before it waits
//   (refuse_own_locks), or as soon as the worker is seen waiting for it (refuse_waits_for_me).
// - The worker commits locally; the WAL up to the record is then confirmed by the synchronous standbys, as
//   the mark is, before any value: by every session that finds the key not confirmed yet (its LSN is in
//   ServerState::key_record_lsn), not only by the maker, so a cancel refuses and never lets values through.
// - The key is shown wrapped (cluster_wrap): pg_replication_origin is readable by every role.
// - Read by name: origins belong to no extension. A superuser may plant one; a well-formed planted record
//   only makes the server skip more values, and any other name is not a record.
#include "pg/mark/key_records.hpp"

#include "pg/common/abort_cleanup.hpp"
#include "pg/common/origin_names.hpp"
#include "pg/common/wait_event.hpp"
#include "pg/mark/origin.hpp"
#include "pg/mark/worker.hpp"
#include "pg/mark/writer.hpp"

#include <cstring>

extern "C" {
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_control.h"
#include "catalog/pg_database.h"
#include "catalog/pg_replication_origin.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

PGDLLEXPORT void idtypes_key_record_main(Datum);
}

namespace idtypes::pg {

namespace {

// The cluster's secret that wraps the keys in their records (every role can read pg_replication_origin): the
// mock authentication nonce of pg_control, drawn at initdb, in every copy and standby of the data directory
// (pg_basebackup copies pg_control), shown by no SQL function (pg_controldata shows it to the server's user).
uid11::Wrap cluster_wrap()
{
	static_assert(MOCK_AUTH_NONCE_LEN >= sizeof(uid11::Wrap), "the nonce fills the wrap");
	uid11::Wrap wrap;
	std::memcpy(&wrap, GetMockAuthenticationNonce(), sizeof wrap);
	return wrap;
}

} // namespace

std::size_t read_key_records(key_file_text::Record **out)
{
	const uid11::Wrap wrap = cluster_wrap();
	std::size_t count = 0, room = 16;
	auto *records = static_cast<key_file_text::Record *>(palloc(room * sizeof(key_file_text::Record)));
	auto take = [&](std::string_view name) {
		key_file_text::Record record;
		if (!key_file_text::parse_record(name, wrap, record))
			return;
		if (count == room) {
			room *= 2;
			records = static_cast<key_file_text::Record *>(repalloc(records, room * sizeof(key_file_text::Record)));
		}
		records[count++] = record;
	};
	for_each_origin_name(take);
	*out = records;
	return count;
}

namespace {

// Whether this transaction holds `mode` or a stronger lock on the shared object (class, id).
bool holds_lock_on(Oid class_id, Oid object_id, LOCKMODE weakest)
{
	LOCKTAG tag;
	if (class_id == RelationRelationId)
		SET_LOCKTAG_RELATION(tag, InvalidOid, object_id); // a shared catalog: no database
	else
		SET_LOCKTAG_OBJECT(tag, InvalidOid, class_id, object_id, 0);
	for (LOCKMODE mode = weakest; mode <= MaxLockMode; mode++)
		if (lock_held_by_me(&tag, mode))
			return true;
	return false;
}

} // namespace

void refuse_own_locks()
{
	// the worker takes ExclusiveLock on pg_replication_origin (every mode from RowShareLock up conflicts),
	// and connects to this database (RowExclusiveLock on it: ShareLock and up conflict)
	const bool catalog = holds_lock_on(RelationRelationId, ReplicationOriginRelationId, RowShareLock);
	if (catalog || holds_lock_on(DatabaseRelationId, MyDatabaseId, ShareLock))
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("uid11_generate_random cannot record its key while this transaction holds a lock on %s",
		                catalog ? "the catalog pg_replication_origin" : "this database"),
		         errdetail("A new key is recorded, before its first value, by a background worker that needs that "
		                   "lock (%s): it would wait for this transaction, which would wait for it.",
		                   catalog ? "a transaction that creates or drops a replication origin, or locks that catalog, "
		                             "holds it until it ends"
		                           : "a transaction that alters this database holds it until it ends"),
		         errhint("Commit or roll back first, or call uid11_generate_random in another transaction once.")));
}

namespace {

// This process's making of the key's record: ended by end_making, or by the abort of the (sub)transaction
// or the exit of the process that an error causes, which also stops the worker.
ServerState *making = nullptr;
BackgroundWorkerHandle *making_worker = nullptr; // in TopMemoryContext

void stop_making()
{
	if (making == nullptr)
		return;
	ServerState &s = *making;
	if (making_worker != nullptr) {
		TerminateBackgroundWorker(making_worker); // one not yet started never starts; one ended stays so
		pfree(making_worker);
		making_worker = nullptr;
	}
	making = nullptr;
	pg_atomic_write_u32(&s.key_record_worker, 0);
	std::uint32_t me = static_cast<std::uint32_t>(MyProcPid);
	(void)pg_atomic_compare_exchange_u32(&s.key_record_maker, &me, 0);
	ConditionVariableBroadcast(&s.key_record_changed);
}

// What the record's worker `pid` waits for (from pg_locks: the lock and its mode) and who holds it ("PID n",
// "a prepared transaction", or "no one now" when it was released between the two reads), in the current memory
// context; false when it waits for no lock.
bool worker_lock(std::uint32_t pid, char **what, char **holders)
{
	const MemoryContext outer = CurrentMemoryContext;
	*what = *holders = nullptr;
	if (SPI_connect() != SPI_OK_CONNECT)
		return false;
	Oid types[1] = {INT4OID};
	Datum args[1] = {Int32GetDatum(static_cast<int32>(pid))};
	const int rc = SPI_execute_with_args(
	    "SELECT pg_catalog.concat(CASE WHEN l.relation IS NOT NULL THEN pg_catalog.concat('relation ', "
	    "l.relation::pg_catalog.regclass) WHEN l.classid IS NOT NULL THEN pg_catalog.pg_describe_object(l.classid, "
	    "l.objid, l.objsubid) ELSE l.locktype END, ' (', l.mode, ')'), "
	    "COALESCE((SELECT pg_catalog.string_agg(CASE WHEN b OPERATOR(pg_catalog.=) 0 THEN 'a prepared "
	    "transaction (pg_prepared_xacts)' ELSE pg_catalog.concat('PID ', b) END, ', ') "
	    "FROM pg_catalog.unnest(pg_catalog.pg_blocking_pids(l.pid)) b), 'no one now') "
	    "FROM pg_catalog.pg_locks l WHERE l.pid OPERATOR(pg_catalog.=) $1 AND NOT l.granted",
	    1, types, args, nullptr, true, 1);
	if (rc == SPI_OK_SELECT && SPI_processed == 1) {
		*what = MemoryContextStrdup(outer, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
		*holders = MemoryContextStrdup(outer, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2));
	}
	SPI_finish();
	return *what != nullptr;
}

// The error of a wait that passed lock_timeout while the record's worker `pid` waits for a lock (from
// pg_locks: what it waits for, and who holds it); returns when the worker waits for no lock (lock_timeout
// is then not what bounds the wait).
void report_lock_timeout(std::uint32_t pid)
{
	char *what, *holders;
	if (pid == 0 || !worker_lock(pid, &what, &holders))
		return;
	ereport(ERROR, (errcode(ERRCODE_LOCK_NOT_AVAILABLE),
	                errmsg("idtypes gave up waiting for the record of uid11_generate_random's key (lock_timeout)"),
	                errdetail("Its background worker (PID %u) waits for a lock on %s held by %s.", pid, what, holders),
	                errhint("A transaction that creates or drops a replication origin, or locks pg_replication_origin, "
	                        "holds it until it ends: end it (pg_locks), then generate again.")));
}

// Raises when the record's worker `pid` waits for a lock this session holds (one refuse_own_locks does not
// know, such as a LOCK on a catalog the worker reads as it connects): it would wait for this transaction,
// which waits for it, and no deadlock check sees a wait on a latch.
void refuse_waits_for_me(std::uint32_t pid)
{
	if (pid == 0)
		return;
	ArrayType *pids = DatumGetArrayTypeP(DirectFunctionCall1(pg_blocking_pids, Int32GetDatum(static_cast<int32>(pid))));
	Datum *elements;
	int count;
	deconstruct_array(pids, INT4OID, sizeof(int32), true, TYPALIGN_INT, &elements, nullptr, &count);
	bool mine = false;
	for (int i = 0; i < count; i++)
		mine = mine || DatumGetInt32(elements[i]) == MyProcPid;
	pfree(elements);
	pfree(pids);
	char *what, *holders;
	if (!mine || !worker_lock(pid, &what, &holders))
		return;
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("uid11_generate_random cannot record its key while this transaction holds a lock that its "
	                "background worker waits for"),
	         errdetail("A new key is recorded, before its first value, by a background worker (PID %u); it waits for "
	                   "a lock on %s, which this transaction's lock keeps it from: it would wait for this "
	                   "transaction, which would wait for it.",
	                   pid, what),
	         errhint("Commit or roll back first, or call uid11_generate_random in another transaction once.")));
}

// One look of a key record's wait, started at `start`: raises at a cancel, statement_timeout,
// transaction_timeout or a termination request (CHECK_FOR_INTERRUPTS), when the worker waits for this
// session, and at lock_timeout when the worker waits for a lock.
void check_wait(ServerState &s, TimestampTz start)
{
	CHECK_FOR_INTERRUPTS();
	const std::uint32_t worker = pg_atomic_read_u32(&s.key_record_worker);
	refuse_waits_for_me(worker);
	if (LockTimeout > 0 && TimestampDifferenceExceeds(start, GetCurrentTimestamp(), LockTimeout))
		report_lock_timeout(worker);
}

// The longest sleep between two looks: the worker's end sets the maker's latch (bgw_notify_pid) and the
// maker's end wakes the others at once; this bounds lock_timeout's lateness.
constexpr long look_ms = 50;

} // namespace

bool begin_making(ServerState &s)
{
	if (!claim_for_this_process(s.key_record_maker, stop_making))
		return false;
	making = &s;
	return true;
}

void end_making(ServerState &s)
{
	if (making == &s)
		stop_making();
}

void make_key_record(ServerState &s, const key_file_text::Record &record)
{
	char name[key_file_text::max_record];
	(void)key_file_text::format_record(record, cluster_wrap(), name);
	if (find_origin(name) != no_origin)
		return;
	BackgroundWorker worker = mark_worker("idtypes_key_record_main", "idtypes key record");
	static_assert(sizeof name <= sizeof worker.bgw_extra, "a record fits in bgw_extra");
	std::memcpy(worker.bgw_extra, name, sizeof name);
	worker.bgw_notify_pid = MyProcPid;
	const MemoryContext old = MemoryContextSwitchTo(TopMemoryContext); // the handle, for the abort's stop
	const bool registered = RegisterDynamicBackgroundWorker(&worker, &making_worker);
	MemoryContextSwitchTo(old);
	if (!registered)
		ereport(ERROR,
		        (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
		         errmsg("idtypes could not start a background worker to record the key of uid11_generate_random"),
		         errdetail("A new key is recorded in the replication origin \"%s\", replicated to the standbys, "
		                   "before its first value.",
		                   name),
		         errhint("Raise max_worker_processes (every slot is in use), or try again when a worker ends.")));
	const TimestampTz start = GetCurrentTimestamp();
	for (;;) {
		pid_t pid = 0;
		const BgwHandleStatus status = GetBackgroundWorkerPid(making_worker, &pid);
		if (status == BGWH_STOPPED)
			break;
		if (status == BGWH_STARTED)
			pg_atomic_write_u32(&s.key_record_worker, static_cast<std::uint32_t>(pid));
		check_wait(s, start);
		(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, look_ms, key_record_wait_event());
		ResetLatch(MyLatch);
	}
	pfree(making_worker);
	making_worker = nullptr;
	pg_atomic_write_u32(&s.key_record_worker, 0);
	AcceptInvalidationMessages(); // the worker's commit: the syscache's negative entry
	InvalidateCatalogSnapshot();
	if (find_origin(name) == no_origin)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("idtypes could not record the key of uid11_generate_random"),
		                errdetail("Its background worker ended without making the replication origin \"%s\".", name),
		                errhint("See the server log for the worker's error; the next value tries again.")));
}

void wait_for_key_maker(ServerState &s)
{
	const std::uint32_t maker = pg_atomic_read_u32(&s.key_record_maker);
	const TimestampTz start = GetCurrentTimestamp();
	ConditionVariablePrepareToSleep(&s.key_record_changed);
	while (maker != 0 && pg_atomic_read_u32(&s.key_record_maker) == maker) {
		check_wait(s, start);
		(void)ConditionVariableTimedSleep(&s.key_record_changed, look_ms, key_record_wait_event());
	}
	ConditionVariableCancelSleep();
}

void confirm_key_record(XLogRecPtr lsn)
{
	XLogFlush(lsn);
	if (confirmed_by_standbys(lsn))
		return;
	CHECK_FOR_INTERRUPTS(); // a termination request, transaction_timeout
	ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
	                errmsg("canceling the wait for the synchronous standbys to confirm the record of "
	                       "uid11_generate_random's key"),
	                errdetail("No value is made with a key its synchronous standbys have not received: a promoted "
	                          "standby could not skip its values.")));
}

} // namespace idtypes::pg

using namespace idtypes::pg;

// The worker: the record named in bgw_extra, made unless it exists, committed (locally: the session that
// started it waits for the standbys).
void idtypes_key_record_main(Datum database)
{
	start_mark_worker();
	BackgroundWorkerInitializeConnectionByOid(DatumGetObjectId(database), InvalidOid, BGWORKER_BYPASS_ALLOWCONN);
	char name[idtypes::key_file_text::max_record];
	std::memcpy(name, MyBgworkerEntry->bgw_extra, sizeof name);
	name[sizeof name - 1] = '\0';
	SetConfigOption("synchronous_commit", "local", PGC_SUSET, PGC_S_OVERRIDE);
	StartTransactionCommand();
	LockRelationOid(ReplicationOriginRelationId, ExclusiveLock); // one maker at a time: a name is made once
	// Made only while the session that started this worker is still its maker: one that gave up (an error, a
	// cancel, its own lock refused) ends its making at its abort, before its locks are released, and its
	// request to stop this worker may come after this worker got the lock it waited for.
	ServerState &s = attached_state();
	const bool maker_waits =
	    pg_atomic_read_u32(&s.key_record_maker) == static_cast<std::uint32_t>(MyBgworkerEntry->bgw_notify_pid);
	if (maker_waits && find_origin(name) == no_origin)
		(void)replorigin_create(name);
	CommitTransactionCommand();
}
