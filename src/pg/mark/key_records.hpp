// The records of the uid11_generate_random keys of this server's history, replicated through WAL: what a
// promoted standby (or any copy) skips so that its own key never gives a value its predecessors issued
// (key_records.cpp says where they are kept and why).
#pragma once

#include <cstddef>

#include "core/key_file_text.hpp"

namespace idtypes::pg {

// Every key record this server has (up to `cap` of them copied into `out`); the count, which may be more
// than `cap`. Needs a transaction.
std::size_t read_key_records(key_file_text::Record *out, std::size_t cap);

// The record made (by a background worker: committed whatever this transaction does), flushed and confirmed
// by the synchronous standbys before it returns. Raises when it cannot be made, or on a cancel.
void write_key_record(const key_file_text::Record &record);

} // namespace idtypes::pg
