// The records of the uid11_generate_random keys of this server's history, replicated through WAL: what a
// promoted standby (or any copy) skips so that its own key never gives a value its predecessors issued
// (key_records.cpp says where they are kept and why), and how the current key's record is made once and
// confirmed by the synchronous standbys before any value (fullrand_key.cpp decides who makes it).
#pragma once

#include <cstddef>

#include "core/key_file_text.hpp"
#include "pg/mark/server_state.hpp"

namespace idtypes::pg {

// Every key record this server has, in an array allocated in the current memory context (*out), and the
// count. Needs a transaction.
std::size_t read_key_records(key_file_text::Record **out);

// Raises at once when this session's own transaction holds a lock that the record's background worker
// needs (on the catalog pg_replication_origin, or one that keeps it from connecting to this database): it
// would wait for this transaction, which waits for it.
void refuse_own_locks();

// Under mark_lock: this session becomes the maker of the current key's record (false when another one
// is). Until end_making, an error or the process's exit ends its making (and stops its worker).
bool begin_making(ServerState &s);
// Under mark_lock: the making ended (the maker's PID cleared, the waiting sessions woken).
void end_making(ServerState &s);

// The maker's: `record` made by a background worker (committed whatever this transaction does), waited
// for; committed locally on return (the caller then has it confirmed). Raises when it cannot be made; a
// lock_timeout (55P03 naming the lock the worker waits for, from pg_locks), statement_timeout,
// transaction_timeout or a cancel ends the wait with an error, and the error's abort stops the worker.
void make_key_record(ServerState &s, const key_file_text::Record &record);

// Another session's: waits until the maker it found ends, bounded as make_key_record's wait is.
void wait_for_key_maker(ServerState &s);

// Returns once the synchronous standbys confirmed the WAL up to `lsn` (the server's synchronous_standby_names
// decides); a cancel, statement_timeout or transaction_timeout ends the wait with an error: no value then.
void confirm_key_record(XLogRecPtr lsn);

} // namespace idtypes::pg
