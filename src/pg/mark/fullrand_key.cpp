// The fullrand key: a value of uid11_generate_random is a keyed permutation of the server's next ticket
// (uid11.hpp), so the key must survive restarts (a new key could map a new ticket onto a value issued
// before) and must not be shared by a copy of the data directory (its tickets overlap). So it is drawn at
// first use unless the file pg_idtypes_high_water holds this instance's key, and written there (durably,
// with its owner) before any value made with it. That file holds nothing else since idtypes 1.5.
#include "pg/mark/fullrand_key.hpp"

#include "pg/mark/key_file.hpp"
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
	pg_atomic_write_u32(&s.fullrand_key_state, key_saved);
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
	if (key_state == key_unchecked) {
		bool adopt = key.has_owner ? key_file_text::same_instance(key.owner, me) : !in_recovery;
		// a file of an older layout (with a mark) is written again in this one
		const bool current = s.key_file_layout == key_file_text::layout;
		key_state = adopt && key.has_owner && current ? key_saved : adopt ? key_unsaved : key_missing;
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
	return key_state == key_saved ? Outcome{} : write_key(s);
}

} // namespace

// The server's fullrand key, settled and written to its file first if need be.
const uid11::FullrandKey &fullrand_key(ServerState &s)
{
	if (pg_atomic_read_u32(&s.fullrand_key_state) != key_saved) {
		// what may raise, before the lock
		const key_file_text::Instance me = this_instance();
		const bool in_recovery = RecoveryInProgress();
		uid11::FullrandKey drawn;
		strong_random(&drawn, sizeof drawn);
		Outcome outcome;
		outcome.what = take_mark_lock(s);
		if (outcome.what == Durable::ok) {
			// the file first: one read again only now may hold the key
			if (key_file_usable(s, outcome))
				outcome = settle_key(s, me, in_recovery, drawn);
			release_mark_lock(s);
		}
		if (outcome.what != Durable::ok)
			report_not_durable(s, outcome);
	}
	pg_read_barrier();
	return s.fullrand_key.key;
}

} // namespace idtypes::pg
