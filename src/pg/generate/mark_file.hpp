// The high-water mark file in the data directory (its text: src/core/high_water.hpp): read at the start of
// the generator state, written durably before an ID passes the mark. Neither raises (but see OpenTransientFile
// in mark_file.cpp) nor logs: the state may be set up in the postmaster, and writes happen where the caller
// decides what to report.
#pragma once

#include "core/high_water.hpp"

namespace idtypes::pg {

// Relative to the data directory, every server process's working directory.
inline constexpr const char *high_water_file = "pg_idtypes_high_water";
inline constexpr const char *high_water_temp = "pg_idtypes_high_water.tmp";

// Only a missing file means "no mark"; a file that cannot be read or understood stops generation.
enum class FileState : unsigned char { missing, ok, unreadable, garbled, newer_layout };

struct FileRead {
	FileState state;
	int error_number; // unreadable: errno
	int layout;       // ok or newer_layout
	high_water::Contents contents;
};
FileRead read_high_water_file();

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
bool write_high_water_file(const high_water::Contents &contents, WriteFailure &failure);

// This data directory instance (in a backend: it needs the control file's system identifier). Raises when the
// directory's identity cannot be read.
high_water::Instance this_instance();

} // namespace idtypes::pg
