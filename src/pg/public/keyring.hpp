// The keyring: one per server state, the same for every session (docs/public-ids.md). The file (idtypes.keyring,
// or `idtypes.keyring` in the data directory when the setting is empty) is read by the postmaster at start (and
// at a crash restart) and by the keyring's background worker at each reload (SIGHUP), never by a session; its
// text is core/keyring_text's. Every reading passes the worker's checks before any session uses it: the
// versions this server remembers (a replication origin per key version ever loaded: replicated, kept by
// pg_basebackup, crash-safe), whose symbols no new version may take, and the scopes' roles and databases,
// resolved to OIDs. A reading that fails keeps the last good keyring and is logged naming the file, the line
// and the field's position, never a field's text.
//
// Where it lives: a shared mapping the postmaster makes before the first fork and keeps across crash restarts
// (the postmaster's copy: a crash keeps the last good keyring), left out of core dumps. It keeps the last
// `kept` generations: a session takes one at its first use in a transaction and keeps it to the transaction's
// end; a parallel worker takes the generation its leader took (a hidden setting the leader sets when a
// parallel plan starts, which parallel workers receive), so a statement never mixes two.
#pragma once

#include <cstdint>

#include "core/keyring_text.hpp"
#include "core/public_id.hpp"
#include "pg/public/aes.hpp"

namespace idtypes::pg::keyring {

// Defines idtypes.keyring, and when preloaded maps the shared keyring and registers its worker (_PG_init).
void define_setting();

using Stage = keyring_text::Stage;

struct Version {
	std::int32_t version;
	Stage stage;
	bool current; // the newest active version: the one that makes public forms
	aes::Key *key;
};

// The versions of a key that the caller may use, newest first (at most 16: their symbols differ), and how
// many other versions the server knows of it (retired in the file, or remembered though no longer in it).
struct Versions {
	Version v[public_id::version_symbols];
	int count;
	int retired;
	int pending; // a standby's versions its primary has not recorded yet: left out above, refused by name
};

// Each raises 42704 `key "…" does not exist` alike for a key missing from the keyring and for one outside
// the caller's scope (database, role), naming neither the file nor a version.
Versions versions(const char *key_name);
// The version that encodes; raises when the key has no active version.
Version encoder(const char *key_name);
// The version whose symbol is `residue` (version mod 16); raises 42704 when no present version has it.
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

// idtypes_keyring_status(): what the worker did last (never a key byte; the path and the refusal for
// those who may see the setting).
struct Status {
	std::int32_t worker_pid;                            // 0: not running
	std::int64_t worker_started, loaded_at, refused_at; // TimestampTz, 0: never
	std::uint64_t generation;                           // in use by new transactions (0: none checked yet)
	std::int32_t versions;                              // of that generation, remembered ones included
	bool usable;
	bool pending; // a reading of the postmaster's not yet checked by the worker
	char file[1024];
	char refusal[512];
};
bool status(Status &out); // false when idtypes is not preloaded

} // namespace idtypes::pg::keyring
