// The mark: how it is written ahead (one process at a time, under mark_lock), how a session waits for it
// when an ID needs it, and its errors. See writer.cpp.
#pragma once

#include <cstdint>

#include "pg/mark/key_file.hpp"
#include "pg/mark/origin.hpp"
#include "pg/mark/server_state.hpp"

namespace idtypes::pg {

// How far past the clock (or the ID that needs it) a mark is written; a new one is written once an ID passes
// the mark minus half of it, so in steady state no ID waits for a write.
inline constexpr std::int64_t reserve_ahead_us = 200000;

// Why a session could not move the mark (or settle the uid11_generate_random key), returned up to where it
// is raised (report_not_durable): never kept in a static. needs_wal: the mark must be written where errors
// may be raised (the tbsl stepper cannot); origin_dropped: the origin was dropped (and perhaps made again)
// between its lookup and its write, so it is looked up again; not_replicated: a cancel or a termination
// request ended the wait for the synchronous standbys.
enum class Durable : std::uint8_t {
	ok,
	write_failed,
	busy,
	interrupted,
	unusable_key_file,
	needs_wal,
	origin_dropped,
	not_replicated
};
struct Outcome {
	Durable what = Durable::ok;
	WriteFailure write{WriteStep::none, 0}; // write_failed: which step, which errno (the key's file)
	KeyFileRead file{
	    KeyFileState::ok, 0, 0, {}}; // unusable_key_file: the file's state then (the shared one may change)
};

// Every generator past the IDs a mark covers, whatever it issued already.
void raise_generators(ServerState &s, std::int64_t mark);
// At the state's start: the uid11_generate_random key the file holds taken, and the generators past the
// mark a file of idtypes 1.4 or earlier still holds (a floor; the mark itself is the origin's).
void start_from_key_file(ServerState *s, const KeyFileRead &file);

// What the holder of mark_lock waits for (ServerState::mark_writer_step): named in the error of a session that
// gave up waiting for it.
enum class MarkStep : std::uint32_t { none, origin_lock, wal_flush, standbys, key_file };
void set_step(ServerState &s, MarkStep step);

// Whether the synchronous standbys confirmed the WAL up to `end` (the server's synchronous_standby_names
// decides, whatever this session's synchronous_commit); false when a cancel or termination ended the wait.
bool confirmed_by_standbys(XLogRecPtr end);

// mark_lock, taken waiting asleep (at most 10 s; a cancel ends the wait); never raises. Released by
// release_mark_lock, or by the end of the (sub)transaction or process that an error ends.
Durable take_mark_lock(ServerState &s);
void release_mark_lock(ServerState &s);
// Under mark_lock: whether the file of the uid11_generate_random key can be used (an unusable one:
// `outcome` says why).
bool key_file_usable(ServerState &s, Outcome &outcome);
// IDs allowed up to `until_us`: the mark moved first if need be, waiting for another session's write.
// Never raises with no_origin (needs_wal then).
Outcome make_durable(ServerState &s, std::int64_t until_us, OriginId origin);
// The rebuild's result (rebuild.cpp): the origin `origin`, found without progress, written past `mark`, the
// clock and the published mark, as make_durable writes it (under mark_lock, flushed, confirmed, published).
Outcome write_rebuilt_mark(ServerState &s, std::int64_t mark, OriginId origin);
// The error of a mark that could not be moved (or a key that could not be settled).
[[noreturn]] void report_not_durable(ServerState &s, const Outcome &outcome);
// make_durable with the origin looked up (made first when missing), raising its failure.
void durable_or_error(ServerState &s, std::int64_t until_us);
// After an ID of time `id_time_us` was issued under the mark: when it passed the mark minus half the reserve,
// the next mark written by this session if no other one is writing it (never waits for another). May raise.
void write_ahead(ServerState &s, std::int64_t id_time_us);

} // namespace idtypes::pg
