// AES-256 from OpenSSL's EVP interface (the library PostgreSQL itself links on Debian), as the block cipher
// FF1 takes (core/ff1.hpp), and the keyring's fingerprints. No PostgreSQL here: failures are return values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff1.hpp"

namespace idtypes::pg::aes {

inline constexpr std::size_t key_bytes = 32; // AES-256 only: a keyring entry is 64 hex digits
inline constexpr std::size_t fingerprint_bytes = 8;

// An expanded AES-256 key (OpenSSL's context: the key schedule is computed once, when the keyring is read).
struct Key;

// A key for `bytes`, or nullptr when OpenSSL fails (out of memory). Release with release().
Key *expand(const std::uint8_t (&bytes)[key_bytes]) noexcept;
// Frees the context; OpenSSL clears the key schedule it held.
void release(Key *key) noexcept;

// Whether OpenSSL failed in a block encrypted with the key since the last call (the result is then wrong).
bool take_failure(Key *key) noexcept;

// The key as FF1's block cipher (valid while the key is).
ff1::BlockCipher block_cipher(const Key *key) noexcept;

// The first 8 bytes of SHA-256("idtypes keyring fingerprint" || key): tells keys apart in idtypes_keys(),
// reveals nothing of them. False when OpenSSL fails.
bool fingerprint(const std::uint8_t (&bytes)[key_bytes], std::uint8_t (&out)[fingerprint_bytes]) noexcept;

// The first 8 bytes of SHA-256(label || secret || data): what the keyring's records show of a key's name or
// bytes, which nobody without `secret` (the cluster's) can tell apart from chance. False when OpenSSL fails.
bool keyed_digest(const char *label, const std::uint8_t *secret, std::size_t secret_len, const std::uint8_t *data,
                  std::size_t data_len, std::uint8_t (&out)[fingerprint_bytes]) noexcept;

} // namespace idtypes::pg::aes
