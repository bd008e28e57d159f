// The text of the file pg_idtypes_high_water in the data directory (src/pg/mark/key_file.cpp reads and
// writes it): the fullrand key of uid11_generate_random with the data directory instance it belongs to. It
// holds no mark (the mark is the replication origin idtypes_high_water, replicated and
// crash-safe through WAL); the mark of an older file is still read, as a floor (mark_floors.hpp).
//
// Layout 3 (idtypes 1.5), one item per line:
//   idtypes high-water mark layout 3
//   key <k0, 16 hex digits> <k1, 16 hex digits>
//   owner <system identifier> <device> <inode> <birth time, ns>   (the instance that drew the key)
// Layout 2 (idtypes 1.2 to 1.4), one item per line:
//   idtypes high-water mark layout 2
//   mark <Unix µs>
//   key <k0, 16 hex digits> <k1, 16 hex digits>                    (optional)
//   owner <system identifier> <device> <inode> <birth time, ns>   (the instance that drew the key; a
//                                   layout 1 key not yet checked by a 1.2 server is written without it)
// Layout 1 (idtypes 1.0 and 1.1), one line: "<mark>" or "<mark> <k0> <k1>" (16 hex digits each), with no
// owner. A later layout keeps its first line's form, so that this version refuses it rather than misread it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/uid11.hpp"

namespace idtypes::key_file_text {

inline constexpr int layout = 3;

// What tells one data directory instance from its copies (see src/pg/mark/key_file.cpp for why these).
struct Instance {
	std::uint64_t system_id;
	std::uint64_t device;
	std::uint64_t inode;
	std::int64_t birth_ns; // 0: the file system does not say
};
// The same instance: the same cluster, directory (inode) and, where both know it, the directory's birth
// time, which no copy can carry (device numbers may change between boots, so they count only without it).
bool same_instance(const Instance &a, const Instance &b) noexcept;

struct Contents {
	std::int64_t mark = 0; // layouts 1 and 2 only: the mark an older idtypes wrote (0 otherwise)
	bool has_key = false;
	uid11::FullrandKey key{};
	bool has_owner = false; // layout 1 keys have none
	Instance owner{};
};

enum class Parse : std::uint8_t { ok, garbled, newer_layout };
struct Parsed {
	Parse status;
	int layout; // of an ok or newer file
	Contents contents;
};
[[nodiscard]] Parsed parse(std::string_view text) noexcept;

inline constexpr std::size_t max_text = 256;
// Layout 3 (the key and its owner; the mark is not written); returns the length written.
std::size_t format(const Contents &contents, char (&out)[max_text]) noexcept;

// A key record: the name of a replication origin, kept with no progress, that carries a key of this server's
// history through WAL to its standbys (src/pg/mark/key_records.cpp says why an origin's name):
//   idtypes_fullrand_key <after, 16 hex digits> <k0, 16 hex digits> <k1, 16 hex digits>   (k0 k1 wrapped)
// The key issued tickets above `after` only, from the time the record was written.
inline constexpr std::string_view record_prefix = "idtypes_fullrand_key ";
struct Record {
	uid11::FullrandKey key; // unwrapped
	std::uint64_t after;
};
inline constexpr std::size_t max_record = 80;
std::size_t format_record(const Record &record, const uid11::Wrap &wrap, char (&out)[max_record]) noexcept;
// False for any other text (another origin's name, or one garbled).
[[nodiscard]] bool parse_record(std::string_view text, const uid11::Wrap &wrap, Record &record) noexcept;

// What the records say to a server about to issue with `current`, all its tickets above `floor` (at or
// above every ticket its history issued up to its mark): the range of every other key, a record's key up to
// the next record's `after` (sorted here), the last one's up to `floor`, one range per key (from its first
// record's tickets to its last: a key that came back, or the copies of one record that idtypes 1.6 wrote,
// count once; the range may then hold tickets of other keys too, which are skipped as well); and whether
// the latest record is `current`'s (else the server records it before its first value: a later successor
// must skip its range). At most `cap` keys, the latest: `beyond` counts the older ones left out.
struct Lineage {
	std::size_t ranges;
	bool recorded;
	std::size_t beyond;
};
Lineage lineage(Record *records, std::size_t count, const uid11::FullrandKey &current, std::uint64_t floor,
                uid11::KeyRange *out, std::size_t cap) noexcept;

} // namespace idtypes::key_file_text
