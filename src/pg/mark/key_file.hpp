// The key file pg_idtypes_high_water in the data directory (the name is idtypes 1.0's; it holds
// uid11_generate_random's key, its text in src/core/key_file_text.hpp): read at the start of the generator
// state, written durably before a value is made with a new key. Neither raises (but see OpenTransientFile in
// key_file.cpp) nor logs: the state may be set up in the postmaster, and writes happen where the caller
// decides what to report.
#pragma once

#include "core/key_file_text.hpp"

namespace idtypes::pg {

// Relative to the data directory, every server process's working directory.
inline constexpr const char *key_file_name = "pg_idtypes_high_water";
inline constexpr const char *key_file_temp = "pg_idtypes_high_water.tmp";

// Only a missing file means "no mark"; a file that cannot be read or understood stops generation.
enum class KeyFileState : unsigned char { missing, ok, unreadable, garbled, newer_layout };

struct KeyFileRead {
	KeyFileState state;
	int error_number; // unreadable: errno
	int layout;       // ok or newer_layout
	key_file_text::Contents contents;
};
KeyFileRead read_key_file();

// Which step of a write failed, and why (errno). Plain values: kept in shared memory too.
enum class WriteStep : unsigned char { none, create, write, rename };
struct WriteFailure {
	WriteStep step;
	int error_number;
	bool operator==(const WriteFailure &o) const { return step == o.step && error_number == o.error_number; }
};
// What failed, as a message would say it: `could not rename file "a" to "b"`.
const char *describe(WriteStep step);
// Writes the file durably: a temporary file (mode pg_file_create_mode), then PostgreSQL's durable_rename (fsync,
// rename, fsync of the directory). False with the failure filled in.
bool write_key_file(const key_file_text::Contents &contents, WriteFailure &failure);

// This data directory instance (in a backend: it needs the control file's system identifier). Raises when the
// directory's identity cannot be read.
key_file_text::Instance this_instance();

} // namespace idtypes::pg
