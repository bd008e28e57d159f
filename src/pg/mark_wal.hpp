// The high-water mark, replicated: besides the mark file (src/pg/high_water.cpp), which is the server's own
// and stays behind on a standby, every write of the mark also writes it into the one row of the table
// idtypes_high_water that the extension creates in each database, by a generic WAL record, so that a
// standby (and a point-in-time restore, and pg_upgrade, which carries the table's file) holds the mark of
// every ID its primary issued, and a promoted standby starts past it. Why generic WAL on a row of our own
// and what each database sees: src/pg/mark_wal.cpp.
#pragma once

#include <cstdint>

#include "pg/glue.hpp"

extern "C" {
#include "access/generic_xlog.h"
#include "storage/buf.h"
#include "utils/relcache.h"
}

namespace idtypes::pg {

// A write of the mark into this database's row, prepared where errors may be raised (finding and locking
// the table, pinning its page, checking the row, allocating the record) so that the write itself, under
// the mark's lock, raises none. Empty (nothing to write) in recovery, where no WAL can be written, and in a
// database whose idtypes has no such table (SQL of version 1.2 or earlier, not yet updated).
struct MarkWal {
	Relation relation = nullptr;
	Buffer buffer = InvalidBuffer;
	GenericXLogState *record = nullptr;
};
MarkWal prepare_mark_wal();
// Under the mark's lock, before the mark is published: raises none (the record is inserted in a critical
// section, where a failure is a PANIC as for any WAL record). The row's mark never goes back; `writer`
// names the generator state that wrote it.
void write_mark_wal(MarkWal &wal, std::int64_t mark_us, std::int64_t writer) noexcept;
// Releases what prepare_mark_wal took (the table's lock is kept until the end of the transaction).
void finish_mark_wal(MarkWal &wal);

// The mark in this database's row (Unix µs; 0 when there is none: no such table) and its writer. May raise.
struct ReplicatedMark {
	std::int64_t mark_us;
	std::int64_t writer;
};
ReplicatedMark read_replicated_mark();

} // namespace idtypes::pg
