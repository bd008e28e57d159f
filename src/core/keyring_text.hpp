// The text of the keyring file of the public forms (docs/public-ids.md; src/pg/public/keyring.cpp reads the
// file and keeps the result in shared memory). One key version per line, `#` to the end of a line a comment:
//   name version key [active|decrypt] [databases=a,b] [roles=r,s]     key: 64 hex digits (AES-256)
//   name version retired
// What this file decides: the fields of a line, and what lines of one file may not say together (a version
// twice, two versions with one symbol, two scopes for one key). What it reports names a line, a field's
// position and versions (numbers), never a byte of a field: a malformed line may hold a key anywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/public_id.hpp"

namespace idtypes::keyring_text {

inline constexpr std::size_t key_bytes = 32;
inline constexpr std::size_t max_scope = 256; // databases=… or roles=…: the names, commas between
inline constexpr int max_scope_names = 32;    // names in one scope
inline constexpr int max_entries = 1024;      // versions in a file (every file of 64 KiB that 1.5 read fits)
inline constexpr std::size_t max_file = 64 * 1024;

enum class Stage : std::uint8_t { decrypt, active, retired };

struct Entry {
	char name[public_id::max_key_name + 1];
	std::int32_t version;
	Stage stage;
	std::int32_t line; // where the file gives it
	std::uint8_t key[key_bytes];
	char databases[max_scope]; // empty: every database
	char roles[max_scope];     // empty: every role granted EXECUTE
};

enum class Problem : std::uint8_t {
	none,
	too_few_fields,
	too_many_fields,
	name,           // field 1
	version,        // field 2
	key,            // field 3
	retired_fields, // a retired line with more fields
	unknown_field,  // a field after the key that is neither a stage nor a scope
	scope,          // a malformed or repeated scope
	duplicate,      // the same version of a key twice (other_line)
	same_symbol,    // versions of a key equal modulo 16 (other_line, other_version)
	other_scope,    // another scope than another line of the key (other_line)
	too_many,       // more than max_entries versions
	too_large,      // more than max_file bytes
};

struct Result {
	Problem problem = Problem::none;
	int line = 0;  // 1-based
	int field = 0; // 1-based position of the field at fault, 0 when the line as a whole is
	int other_line = 0;
	std::int32_t version = 0;
	std::int32_t other_version = 0;
	int count = 0; // entries written
};

// The whole file into entries[0..count), up to `cap`; stops at the first problem.
[[nodiscard]] Result parse(std::string_view text, Entry *entries, int cap) noexcept;

// Whether two entries may stand in one keyring: the checks across lines (same name: not the same version, not
// the same symbol, the same scope unless either is retired). `r` gets the problem for entry `later`.
[[nodiscard]] bool compatible(const Entry &earlier, const Entry &later, Result &r) noexcept;

// The names of a scope, one at a time: `at` starts at 0; false at the end.
bool next_name(const char *scope, std::size_t &at, std::string_view &name) noexcept;

// Whether a text holds 16 consecutive hexadecimal digits (so may be a key's part: never written to a message).
[[nodiscard]] bool key_like(std::string_view s) noexcept;
// Whether a name given to be looked up (a scope's role or database) holds 8 consecutive hexadecimal digits: a
// name that does not exist is then shown by its position only (15 digits of a key pasted in are never echoed).
[[nodiscard]] bool hex_in_name(std::string_view s) noexcept;
// How many hexadecimal digits a text holds, in runs or not: the names a scope's WARNINGs would show together
// are shown only while they hold fewer than key_like's 16 (a key written 0x12,0x34,… or 12:34:… spreads over
// names, or within one, in runs shorter than hex_in_name's).
[[nodiscard]] int hex_digits(std::string_view s) noexcept;

// Why, in words with numbers only (no byte of the file): "line 3, field 3: ...". Returns the length.
std::size_t describe(const Result &r, char *out, std::size_t cap) noexcept;

} // namespace idtypes::keyring_text
