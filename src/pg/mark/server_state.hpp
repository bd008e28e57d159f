// The server's one generator state (server_state.cpp says where it lives and why there is one), as the files
// that share it see it: the generators (src/pg/generate/generators.cpp), the mark's writer (writer.cpp) and
// the rebuild of a lost mark (rebuild.cpp, whose background workers attach to it too).
#pragma once

#include "core/key_file_text.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/uuid7.hpp"
#include "pg/common/postgres.hpp"
#include "pg/mark/key_file.hpp"
#include "pg/mark/rebuild_progress.hpp"

extern "C" {
#include "port/atomics.h"
#include "storage/condition_variable.h"
#include "storage/spin.h"
}

namespace idtypes::pg {

// The fullrand key. Drawn at first use unless its file holds this instance's key; written there before
// any value made with it is issued (a restart must find the same key: another one could map a new ticket
// onto a value issued before). A key the file holds is checked first: it may be the key of the server
// this data directory was copied from (see this_instance()), which a copy must not share. Then, in its
// file (key_unrecorded), the other keys' ranges are read from their records, and the key recorded if need
// be (key_records.cpp); then (key_confirming) the WAL up to its record is confirmed by the synchronous
// standbys, which every session waits for, before it is ready (key_saved).
enum KeyState : std::uint32_t { key_missing, key_unchecked, key_unsaved, key_unrecorded, key_confirming, key_saved };

// The keys of this server's history whose ranges a server skips (uid11::KeyRange), the latest ones; the
// values of older keys are apart from the current key's by chance only (fullrand_key.cpp).
inline constexpr std::size_t max_key_ranges = 64;

struct ServerState {
	pg_atomic_uint64 durable_until_us; // IDs may carry times up to here (Unix µs): the published mark, the
	                                   // origin's progress once written (and confirmed) or applied
	// mark_lock: the PID of the one process writing the mark or settling the key, 0 when none (writer.cpp
	// says why not an LWLock); what it waits for, a MarkStep, for the error of a session that gave up waiting
	pg_atomic_uint32 mark_writer_pid;
	pg_atomic_uint32 mark_writer_step;
	ConditionVariable mark_released; // broadcast when mark_lock is released: wakes the waiting sessions
	// Under mark_lock: the file of the fullrand key. One that cannot be understood stops uid11_generate_random
	// until a restart; one that could not be read is read again at each attempt (key_file_usable).
	KeyFileState key_file_state;
	int key_file_error_number;
	int key_file_layout;
	WriteFailure logged_failure; // under mark_lock: the key's write failure last logged (none after a success)
	// Whether the generators were raised past the mark (the origin idtypes_high_water) since this state
	// started or its server left recovery: done once, before any ID is issued outside recovery.
	pg_atomic_uint32 replicated_applied;
	RebuildProgress rebuild; // the rebuild of a missing origin (rebuild.cpp)
	pg_atomic_uint64 timeid_last_micros;
	pg_atomic_uint32 timeid_clock_id; // for idtypes.timeid_clock_id = -1; drawn at first use
	pg_atomic_uint64 uid11_last;
	pg_atomic_uint64 fullrand_last_ticket;
	pg_atomic_uint32 fullrand_key_state;  // a KeyState, changed under mark_lock
	key_file_text::Contents fullrand_key; // the key and its owner (its mark unused), changed under mark_lock
	bool fullrand_key_adopted;            // under mark_lock: the key was the file's, not drawn by this state
	// under mark_lock, before key_saved: the ranges of the other keys of this server's history
	std::uint32_t fullrand_range_count;
	uid11::KeyRange fullrand_ranges[max_key_ranges];
	// The current key's record (key_records.cpp): the PID of the one session making it (set under mark_lock,
	// cleared when its making ends, however it ends) and of that session's worker once it runs; the record's
	// `after`, taken once per key (under mark_lock); the WAL position at or past the record's commit, which
	// the synchronous standbys confirm before key_saved (written before key_confirming); broadcast when a
	// maker ends.
	pg_atomic_uint32 key_record_maker;
	pg_atomic_uint32 key_record_worker;
	bool key_record_after_taken;
	std::uint64_t key_record_after;
	pg_atomic_uint64 key_record_lsn;
	ConditionVariable key_record_changed;
	slock_t tbsl_lock; // held only around tbsl::step: never waits
	tbsl::State tbsl;
	pg_atomic_uint64 tbsl_issued; // TBSLs issued, changed under tbsl_lock: tells a step it was overtaken
	slock_t scru160_lock;
	scru160::State scru160;
	slock_t uuid7_lock; // held only around uuid7::next: a pure step that never waits
	uuid7::V7 uuid7_last;
};

// timeid_clock_id before the server's random clock id is drawn.
inline constexpr std::uint32_t clock_id_not_drawn = 0xFFFFFFFF;

// The state, attached in this process (created by the first process that needs it), and, outside
// recovery, raised past the replicated mark once (server_state.cpp): what every generator starts from.
ServerState &server_state();

// The state, attached in this process (created by the first process that needs it), without applying the
// replicated mark: for the rebuild's workers. Generators go through server_state() (generators.cpp).
ServerState &attached_state();

// From _PG_init while shared_preload_libraries is processed: reserves the state's memory at server start.
void reserve_generator_state();

// Where the state lives, as idtypes_generator_mode() says it: "shared (preloaded)", "shared (named DSM
// segment)" or "shared (allocated at first use)". Attaches to the state first.
const char *generator_mode();

// Raises an atomic "last issued" value to `floor` if it is below (never lowers it).
void advance_to(pg_atomic_uint64 *last, std::uint64_t floor);

} // namespace idtypes::pg
