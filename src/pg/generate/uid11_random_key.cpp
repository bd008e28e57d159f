// The fullrand key: a value of uid11_generate_random is a keyed permutation of the server's next ticket
// (uid11.hpp), so the key must survive restarts (a new key could map a new ticket onto a value issued
// before) and must not be shared by a copy of the data directory (its tickets overlap). So it is drawn at
// first use unless the mark file holds this instance's key, and written there before any value made with it.
#include "pg/generate/uid11_random_key.hpp"

#include "pg/generate/mark_file.hpp"
#include "pg/generate/mark_writer.hpp"

extern "C" {
#include "access/xlog.h"
}

namespace idtypes::pg {

namespace {

// Under mark_lock: makes the state hold this instance's key, on disk (and the mark in `record`). A key read from the file is kept
// when its owner is this instance; a layout 1 file (idtypes 1.0, 1.1) names no owner: its key is kept by a
// server that is not in recovery (most likely the one that drew it) and replaced on a standby, which is a
// copy for certain.
Outcome settle_key(ServerState &s, const high_water::Instance &me, bool in_recovery, const uid11::FullrandKey &drawn,
                   const MarkRecord &record)
{
	high_water::Contents &key = s.fullrand_key;
	std::uint32_t key_state = pg_atomic_read_u32(&s.fullrand_key_state);
	if (key_state == key_unchecked) {
		bool adopt = key.has_owner ? high_water::same_instance(key.owner, me) : !in_recovery;
		key_state = adopt && key.has_owner ? key_saved : adopt ? key_unsaved : key_missing;
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
	if (key_state == key_saved)
		return Outcome{};
	// written with the mark as it is, or the reserve when there is none yet
	std::int64_t durable = static_cast<std::int64_t>(pg_atomic_read_u64(&s.durable_until_us));
	std::int64_t fresh = clock_now_us() + reserve_ahead_us;
	return write_mark(s, durable > fresh ? durable : fresh, record);
}

} // namespace

// The server's fullrand key, settled and written to the mark file first if need be.
const uid11::FullrandKey &fullrand_key(ServerState &s)
{
	if (pg_atomic_read_u32(&s.fullrand_key_state) != key_saved) {
		// what may raise, before the lock
		const high_water::Instance me = this_instance();
		const bool in_recovery = RecoveryInProgress();
		uid11::FullrandKey drawn;
		strong_random(&drawn, sizeof drawn);
		MarkRecord record = prepare_mark_record();
		Outcome outcome;
		outcome.what = take_mark_lock(s);
		if (outcome.what == Durable::ok) {
			// the file first: one read again only now may hold the key
			if (file_usable(s, outcome))
				outcome = settle_key(s, me, in_recovery, drawn, record);
			release_mark_lock(s);
		}
		finish_mark_record(record);
		if (outcome.what != Durable::ok)
			report_not_durable(s, outcome);
	}
	pg_read_barrier();
	return s.fullrand_key.key;
}

} // namespace idtypes::pg
