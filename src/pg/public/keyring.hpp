// The keyring: one per server state, the same for every session (docs/public-ids.md). The file (idtypes.keyring,
// or `idtypes.keyring` in the data directory when the setting is empty) is read and checked when the server
// starts and at each reload, by the postmaster at start and by the keyring's background worker at each SIGHUP,
// never by a session; a file that fails the checks at a reload leaves the last good keyring in place and is
// logged (WARNING, naming the file and the line). The good keyring is kept in shared memory (so idtypes must be
// preloaded: without it every function refuses, naming shared_preload_libraries) under a generation counter.
// A session takes the keyring at its first use in a transaction and keeps it to the transaction's end; the
// functions are PARALLEL RESTRICTED (and refuse in a parallel worker), so one statement sees one keyring.
//
// A line: `name version key [stage] [databases=a,b] [roles=r,s]`; stage `active` (the default: 1.5's lines)
// or `decrypt`; or `name version retired`. Key bytes live only in memory excluded from core dumps, and are wiped when replaced.
#pragma once

#include <cstdint>

#include "core/public_id.hpp"
#include "pg/public/aes.hpp"

namespace idtypes::pg::keyring {

// Defines idtypes.keyring, and when preloaded reserves the shared keyring and registers its worker (_PG_init).
void define_setting();

// retired: a line `name version retired` keeps the version's symbol from being taken again (its forms are
// refused naming it); a version absent from the file is retired too.
enum class Stage : std::uint8_t { decrypt, active, retired };

struct Version {
	std::int32_t version;
	Stage stage;
	bool current; // the newest active version: the one that makes public forms
	aes::Key *key;
};

// The versions of a key that the caller may use, newest first (at most 16: their symbols differ).
struct Versions {
	Version v[public_id::version_symbols];
	int count;
};

// Each raises 42704 `key "…" does not exist` alike for a key missing from the keyring and for one outside
// the caller's scope (database, role), naming neither the file nor a version.
Versions versions(const char *key_name);
// The version that encodes; raises when the key has no active version.
Version encoder(const char *key_name);
// The version whose symbol is `residue` (version mod 16); raises when no present version has it.
Version by_symbol(const char *key_name, unsigned residue);
// Raises XX000 when OpenSSL failed inside a computation with the key (aes::take_failure).
void check_cipher(const Version &v);

// idtypes_keys(): every version of every key the caller may use.
struct Listed {
	const char *name;
	std::int32_t version;
	Stage stage;
	bool current;
	char fingerprint[2 * aes::fingerprint_bytes + 1];
};
// Calls `emit` for each (raises as the others when the keyring cannot be used).
void list(void (*emit)(const Listed &, void *), void *arg);

} // namespace idtypes::pg::keyring
