// The keyring: the file named by idtypes.keyring (superuser-only, PGC_SIGHUP), lines `name version hex` of
// AES-256 keys. Each session reads it at its first use and again at its first use after a reload
// (pg_reload_conf() or SIGHUP), checks it as PostgreSQL checks its SSL key (a regular file, no group or world
// access), expands every key once (the AES key schedule is cached per key, not made per call) and keeps no
// key bytes. A file that cannot be used is remembered as such until the next reload; every use then raises
// the same error, naming the file (and the key asked for). No key byte ever reaches an error or a log line.
#pragma once

#include <cstdint>

#include "core/public_id.hpp"
#include "pg/public/aes.hpp"

namespace idtypes::pg::keyring {

// Defines idtypes.keyring (called by _PG_init).
void define_setting();

struct Entry {
	char name[public_id::max_key_name + 1];
	std::int32_t version;
	bool current; // the newest version of its name: the one that makes public forms
	std::uint8_t fingerprint[aes::fingerprint_bytes];
	aes::Key *key;
};

struct Entries {
	const Entry *entry;
	int count;
};

// Every entry, in the file's order (raises when the file cannot be used).
Entries all();
// The newest version of the key; raises 42704 naming the key and the file when the keyring has none.
const Entry &newest(const char *key_name);
// The version of the key that a public form's version symbol names (version mod 16); raises 42704 naming
// the version when the keyring no longer has it.
const Entry &by_symbol(const char *key_name, unsigned residue);

} // namespace idtypes::pg::keyring
