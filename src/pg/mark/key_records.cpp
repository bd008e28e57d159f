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
// - Made in a transaction of its own, by a background worker, so that the generating session's rollback
//   cannot take it back while values made with its key exist; that worker commits locally and the session
//   waits for the synchronous standbys itself, as the mark's writer does (a cancel ends that wait).
// - The key is shown wrapped (cluster_wrap): pg_replication_origin is readable by every role.
// - Read by name: origins belong to no extension. A superuser may plant one; a well-formed planted record
//   only makes the server skip more values, and any other name is not a record.
#include "pg/mark/key_records.hpp"

#include "pg/mark/origin.hpp"
#include "pg/mark/worker.hpp"
#include "pg/mark/writer.hpp"

#include <cstring>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_control.h"
#include "catalog/pg_replication_origin.h"
#include "miscadmin.h"
#include "postmaster/bgworker.h"
#include "storage/lmgr.h"
#include "utils/guc.h"
#include "utils/inval.h"
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

std::size_t read_key_records(key_file_text::Record *out, std::size_t cap)
{
	const uid11::Wrap wrap = cluster_wrap();
	std::size_t count = 0;
	Relation catalog = table_open(ReplicationOriginRelationId, AccessShareLock);
	SysScanDesc scan = systable_beginscan(catalog, InvalidOid, false, nullptr, 0, nullptr);
	HeapTuple tuple;
	while ((tuple = systable_getnext(scan)) != nullptr) {
		// heap_deform_tuple, a function of the server's, not the inline heap_getattr: 17's headers from a newer
		// suite have it call a function that an older 17 server does not export
		Datum values[Natts_pg_replication_origin];
		bool nulls[Natts_pg_replication_origin];
		heap_deform_tuple(tuple, RelationGetDescr(catalog), values, nulls);
		if (nulls[Anum_pg_replication_origin_roname - 1])
			continue;
		const text *t = DatumGetTextPP(values[Anum_pg_replication_origin_roname - 1]);
		key_file_text::Record record;
		if (!key_file_text::parse_record(std::string_view(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t)), wrap, record))
			continue;
		if (count < cap)
			out[count] = record;
		count++;
	}
	systable_endscan(scan);
	table_close(catalog, AccessShareLock);
	return count;
}

void write_key_record(const key_file_text::Record &record)
{
	char name[key_file_text::max_record];
	(void)key_file_text::format_record(record, cluster_wrap(), name);
	if (find_origin(name) == no_origin) {
		BackgroundWorker worker = mark_worker("idtypes_key_record_main", "idtypes key record");
		static_assert(sizeof name <= sizeof worker.bgw_extra, "a record fits in bgw_extra");
		std::memcpy(worker.bgw_extra, name, sizeof name);
		worker.bgw_notify_pid = MyProcPid;
		BackgroundWorkerHandle *handle = nullptr;
		if (!RegisterDynamicBackgroundWorker(&worker, &handle))
			ereport(ERROR,
			        (errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
			         errmsg("idtypes could not start a background worker to record the key of uid11_generate_random"),
			         errdetail("A new key is recorded in the replication origin \"%s\", replicated to the standbys, "
			                   "before its first value.",
			                   name),
			         errhint("Raise max_worker_processes (every slot is in use), or try again when a worker ends.")));
		(void)WaitForBackgroundWorkerShutdown(handle); // a cancel ends the wait, not the worker
		AcceptInvalidationMessages();                  // the worker's commit: the syscache's negative entry
		InvalidateCatalogSnapshot();
		if (find_origin(name) == no_origin)
			ereport(ERROR,
			        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			         errmsg("idtypes could not record the key of uid11_generate_random"),
			         errdetail("Its background worker ended without making the replication origin \"%s\".", name),
			         errhint("See the server log for the worker's error; the next value tries again.")));
	}
	// replicated before any value made with the key, as the mark is: flushed, confirmed by the synchronous
	// standbys (asked again by a later call after a cancel: the record may exist unconfirmed)
	const XLogRecPtr end = GetXLogInsertRecPtr();
	XLogFlush(end);
	if (!confirmed_by_standbys(end))
		ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED),
		                errmsg("canceling the wait for the synchronous standbys to receive the key of "
		                       "uid11_generate_random"),
		                errdetail("No value is made with a key its standbys have not received.")));
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
	if (find_origin(name) == no_origin)
		(void)replorigin_create(name);
	CommitTransactionCommand();
}
