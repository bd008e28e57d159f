// The durability of the high-water mark: the lock one writer holds, the condition variable the others
// sleep on, the writes (the mark file, then the replicated mark) and their errors. See mark_writer.cpp.
#pragma once

#include <cstdint>

#include "pg/generate/mark_file.hpp"
#include "pg/generate/shared_state.hpp"
#include "pg/replicate/origins.hpp"

namespace idtypes::pg {

// How far ahead of the IDs that need it a mark is written: the cost is one write per 200 ms at most.
inline constexpr std::int64_t reserve_ahead_us = 200000;

// Why a session could not move the mark (or get the key), returned up to where it is raised
// (report_not_durable): never kept in a static. needs_wal: the mark's origin write must be prepared first,
// where errors may be raised (the tbsl stepper cannot).
enum class Durable : std::uint8_t { ok, write_failed, busy, interrupted, unusable_file, needs_wal };
struct Outcome {
	Durable what = Durable::ok;
	WriteFailure write{WriteStep::none, 0}; // write_failed: which step, which errno
	FileRead file{FileState::ok, 0, 0, {}}; // unusable_file: the file's state then (the shared one may change)
};

// A write of the replicated mark (the origin idtypes_high_water), prepared where errors may be raised:
// the origin looked up (created first when missing: upgrade_rebuild.cpp) and kept from being dropped until
// finish_mark_record. Empty (nothing to write) in recovery, where no WAL can be written.
struct MarkRecord {
	OriginId origin = no_origin;
};
MarkRecord prepare_mark_record();
void finish_mark_record(MarkRecord &record);

// Every generator past the IDs a mark covers, whatever it issued already.
void raise_generators(ServerState &s, std::int64_t mark);
// The generators past the file's mark, the fullrand key it holds taken (at the state's start).
void start_past_mark(ServerState *s, const FileRead &file);

// mark_lock, taken waiting asleep (at most 10 s; a cancel ends the wait); never raises.
Durable take_mark_lock(ServerState &s);
void release_mark_lock(ServerState &s);
// Under mark_lock: whether the mark file can be used (an unusable one: `outcome` says why).
bool file_usable(ServerState &s, Outcome &outcome);
// Under mark_lock: the mark written (file, then origin) and published.
Outcome write_mark(ServerState &s, std::int64_t mark, const MarkRecord &record);
// IDs allowed up to `until_us`: the mark moved first if need be. Never raises with `record` null.
Outcome make_durable(ServerState &s, std::int64_t until_us, const MarkRecord *record);
// The error of a mark that could not be moved (or a key that could not be settled).
[[noreturn]] void report_not_durable(ServerState &s, const Outcome &outcome);
// make_durable with the record prepared, raising its failure.
void durable_or_error(ServerState &s, std::int64_t until_us);

} // namespace idtypes::pg
