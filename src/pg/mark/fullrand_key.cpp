// The fullrand key: a value of uid11_generate_random is a keyed permutation of the server's next ticket
// (uid11.hpp), so the key must survive restarts (a new key could map a new ticket onto a value issued
// before) and must not be shared by a copy of the data directory (its tickets overlap). So it is drawn at
// first use unless the file pg_idtypes_high_water holds this instance's key, and written there (durably,
// with its owner) before any value made with it. That file holds nothing else since idtypes 1.5. Then the
// keys of this server's history other than its own are read from their records, with the tickets each
// issued, which the generator skips; and its own key is recorded, replicated to the standbys, unless the
// latest record is its own: by one session, its maker, while the others wait for it (key_records.cpp), with
// the record's `after` taken once. Last, every session waits until the synchronous standbys confirmed the
// WAL up to the record (key_confirming) before its first value: a promoted standby must have it.
// docs/internals/generator-state.md tells the record's whole life.
#include "pg/mark/fullrand_key.hpp"

#include "pg/mark/key_file.hpp"
#include "pg/mark/key_records.hpp"
#include "pg/mark/writer.hpp"

extern "C" {
#include "access/xlog.h"
}

namespace idtypes::pg {

namespace {

// Under mark_lock: the key written to its file, then marked saved. While writes keep failing, each distinct
// failure is logged once.
Outcome write_key(ServerState &s)
{
	Outcome outcome;
	set_step(s, MarkStep::key_file);
	if (!write_key_file(s.fullrand_key, outcome.write)) {
		if (!(outcome.write == s.logged_failure)) {
			elog(LOG, "idtypes could not write the key of uid11_generate_random: %s: %s", describe(outcome.write.step),
			     strerror(outcome.write.error_number));
			s.logged_failure = outcome.write;
		}
		outcome.what = Durable::write_failed;
		return outcome;
	}
	if (s.logged_failure.step != WriteStep::none) {
		elog(LOG, "idtypes wrote the key of uid11_generate_random again");
		s.logged_failure = WriteFailure{WriteStep::none, 0};
	}
	pg_write_barrier(); // the key was stored before
	pg_atomic_write_u32(&s.fullrand_key_state, key_unrecorded);
	return outcome;
}

// Under mark_lock: makes the state hold this instance's key, on disk. A key read from the file is kept
// when its owner is this instance; a layout 1 file (idtypes 1.0, 1.1) names no owner: its key is kept by a
// server that is not in recovery (most likely the one that drew it) and replaced on a standby, which is a
// copy for certain.
Outcome settle_key(ServerState &s, const key_file_text::Instance &me, bool in_recovery, const uid11::FullrandKey &drawn)
{
	key_file_text::Contents &key = s.fullrand_key;
	std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	if (key_state >= key_unrecorded)
		return Outcome{};
	if (key_state == key_unchecked) {
		bool adopt = key.has_owner ? key_file_text::same_instance(key.owner, me) : !in_recovery;
		s.fullrand_key_adopted = adopt;
		// a file of an older layout (with a mark) is written again in this one
		const bool current = s.key_file_layout == key_file_text::layout;
		key_state = adopt && key.has_owner && current ? key_unrecorded : adopt ? key_unsaved : key_missing;
		if (adopt && !key.has_owner) { // written again with its owner
			key.owner = me;
			key.has_owner = true;
		}
	}
	if (key_state == key_missing) {
		key.key = drawn;
		key.owner = me;
		key.has_key = key.has_owner = true;
		key_state = key_unsaved;
	}
	pg_write_barrier(); // the key before its state
	pg_atomic_write_u32(&s.fullrand_key_state, key_state);
	return key_state == key_unrecorded ? Outcome{} : write_key(s);
}

// The first ticket this instance may have issued with a key it had before key records existed (idtypes
// 1.5 and earlier): its cluster's initdb, the high 32 bits of the system identifier (seconds).
std::uint64_t first_possible_ticket()
{
	const std::int64_t initdb_us = static_cast<std::int64_t>(GetSystemIdentifier() >> 32) * 1000000;
	return static_cast<std::uint64_t>(initdb_us) << uid11::ticket_sequence_bits;
}

// Under mark_lock, the key in its file: the other keys' ranges from `records`, up to the tickets issued so
// far or the clock (the floor: at or above every ticket of the mark this server replayed or wrote, so at or
// above every ticket its predecessors issued before it took over). True when the latest record is the
// key's own; else `pending` is its record: the tickets it issues from now on (taken once per key), or, for
// a key of an earlier idtypes that wrote no records, from its cluster's initdb.
bool plan_ranges(ServerState &s, key_file_text::Record *records, std::size_t count, key_file_text::Record &pending)
{
	const uid11::FullrandKey key = s.fullrand_key.key;
	// the tickets raised to this clock's first (as the next one would be), so that a new server's first key
	// records the time it starts, not 1970: no ticket is issued by this, and every later one is above it
	const std::int64_t now_us = clock_now_us();
	if (now_us > 0)
		advance_to(&s.fullrand_last_ticket, uid11::last_ticket_of(now_us - 1));
	const std::uint64_t floor = pg_atomic_read_u64(&s.fullrand_last_ticket);
	const key_file_text::Lineage l =
	    key_file_text::lineage(records, count, key, floor, s.fullrand_ranges, max_key_ranges);
	s.fullrand_range_count = static_cast<std::uint32_t>(l.ranges);
	if (l.beyond > 0)
		ereport(WARNING,
		        (errmsg("uid11_generate_random skips the values of the latest %zu keys of this server's history; "
		                "the values of %zu older ones are apart from its own by chance only",
		                max_key_ranges, l.beyond),
		         errdetail("Each key is recorded in replication origins named \"%s...\", made when a server (a "
		                   "promoted standby among them) began generating with a key of its own.",
		                   key_file_text::record_prefix.data())));
	if (!s.key_record_after_taken) {
		const std::uint64_t since = first_possible_ticket();
		s.key_record_after = count == 0 && s.fullrand_key_adopted && since < floor ? since : floor;
		s.key_record_after_taken = true;
	}
	pending = key_file_text::Record{key, s.key_record_after};
	return l.recorded;
}

// Under mark_lock: the record committed at or below `lsn`; every session now waits for its confirmation.
void confirming(ServerState &s, XLogRecPtr lsn)
{
	pg_atomic_write_u64(&s.key_record_lsn, lsn);
	pg_write_barrier(); // the ranges and the LSN before the state
	pg_atomic_write_u32(&s.fullrand_key_state, key_confirming);
}

// What a session does next for a key that is not confirmed: look again, make the record, or wait for its
// maker.
enum class Next { again, make, wait };

// The key settled (written to its file) and its ranges planned, under mark_lock; `pending` the record to
// make. Raises when the key cannot be settled.
Next settle_and_plan(ServerState &s, key_file_text::Record &pending)
{
	// what may raise, before the lock
	const key_file_text::Instance me = this_instance();
	const bool in_recovery = RecoveryInProgress();
	uid11::FullrandKey drawn;
	strong_random(&drawn, sizeof drawn);
	key_file_text::Record *records = nullptr;
	const std::size_t count = read_key_records(&records);
	Next next = Next::again;
	Outcome outcome;
	outcome.what = take_mark_lock(s);
	if (outcome.what == Durable::ok) {
		// the file first: one read again only now may hold the key
		if (key_file_usable(s, outcome))
			outcome = settle_key(s, me, in_recovery, drawn);
		if (outcome.what == Durable::ok && pg_atomic_read_u32(&s.fullrand_key_state) == key_unrecorded) {
			if (plan_ranges(s, records, count, pending)) // recorded, not known to be confirmed (a restart)
				confirming(s, wal_insert_end());
			else
				next = begin_making(s) ? Next::make : Next::wait;
		}
		release_mark_lock(s);
	}
	pfree(records);
	if (outcome.what != Durable::ok)
		report_not_durable(s, outcome);
	return next;
}

} // namespace

// The server's fullrand key, settled, recorded and confirmed first if need be.
const uid11::FullrandKey &fullrand_key(ServerState &s)
{
	for (;;) {
		const std::uint32_t state = pg_atomic_read_u32(&s.fullrand_key_state);
		if (state == key_saved)
			break;
		if (state == key_confirming) {
			pg_read_barrier();
			confirm_key_record(pg_atomic_read_u64(&s.key_record_lsn)); // raises unless confirmed
			std::uint32_t expected = key_confirming;
			(void)pg_atomic_compare_exchange_u32(&s.fullrand_key_state, &expected, key_saved);
			continue;
		}
		key_file_text::Record pending{};
		const Next next = settle_and_plan(s, pending);
		if (next == Next::again)
			continue;
		refuse_own_locks(); // the maker's worker would wait for this transaction
		if (next == Next::wait) {
			wait_for_key_maker(s);
			continue;
		}
		make_key_record(s, pending); // raises or waits: outside mark_lock, this session the maker
		const Outcome outcome{take_mark_lock(s)};
		if (outcome.what != Durable::ok)
			report_not_durable(s, outcome); // the maker's end by the error's abort
		if (pg_atomic_read_u32(&s.fullrand_key_state) == key_unrecorded)
			confirming(s, wal_insert_end());
		end_making(s);
		release_mark_lock(s);
	}
	pg_read_barrier();
	return s.fullrand_key.key;
}

} // namespace idtypes::pg
