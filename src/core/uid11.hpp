// uid11: a 64-bit unsigned payload written as exactly 11 Base58 (Bitcoin alphabet) symbols, most
// significant first, left-padded with '1'; and its xid profile (42-bit milliseconds since
// 2011-11-11T11:11:11.111Z, 22 random bits). Spec: uid11 1.0 (draft), "Fixed-length (11) Base58
// identifier", with its profile xid.
// Base58 is not a power of two: a text prefix is a decimal-like range value*58^k .. +58^k-1, not a bit prefix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/format.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::uid11 {

inline constexpr std::size_t text_len = 11;
inline constexpr Alphabet alphabet = make_alphabet("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");
extern const TextRules rules;

// xid profile (spec §8)
inline constexpr std::int64_t xid_epoch_ms = 1321009871111; // 2011-11-11T11:11:11.111Z
inline constexpr unsigned xid_random_bits = 22;
inline constexpr std::uint64_t xid_max_delta = (std::uint64_t{1} << 42) - 1;
inline constexpr std::uint32_t xid_max_random = (1u << xid_random_bits) - 1;
inline constexpr TimeScale time_scale{xid_epoch_ms * 1000, 1000, static_cast<std::int64_t>(xid_max_delta)};
// Timestamps of a uid11 always read it as the xid profile.
inline constexpr Format descriptor{"uid11", time_scale, text_len, alphabet, rules};

using PrefixRange = idtypes::PrefixRange<std::uint64_t>; // empty: the whole range lies above 2^64-1

[[nodiscard]] TextStatus parse(std::string_view text, std::uint64_t &out) noexcept;
void format(std::uint64_t value, char (&out)[text_len]) noexcept;

// Spec §3.6 and §4: [value(P) * 58^(11-N), + 58^(11-N) - 1], hi clamped to 2^64-1.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

constexpr std::uint64_t make_xid(std::uint64_t delta_ms, std::uint32_t random) noexcept
{
	return (delta_ms << xid_random_bits) | (random & xid_max_random);
}
constexpr std::uint64_t xid_delta(std::uint64_t value) noexcept { return value >> xid_random_bits; }
constexpr std::int64_t units(std::uint64_t value) noexcept { return static_cast<std::int64_t>(xid_delta(value)); }
constexpr std::uint32_t xid_random(std::uint64_t value) noexcept
{
	return static_cast<std::uint32_t>(value & xid_max_random);
}
constexpr std::uint64_t min_at(std::int64_t units) noexcept { return make_xid(static_cast<std::uint64_t>(units), 0); }
constexpr std::uint64_t max_at(std::int64_t units) noexcept
{
	return make_xid(static_cast<std::uint64_t>(units), xid_max_random);
}

struct Generated {
	std::uint64_t value;
	bool ok; // false when the clock is outside the xid range (before 2011-11-11 or after 2151-03-25)
};

// The next xid after `last` (0 when there is none) at the Unix time now_ms.
// A new millisecond takes a random field (spec §8.3); later IDs in the same millisecond, or while the clock is
// behind the last one, add 1..16 to the previous field, and past 2^22-1 move on one millisecond. So one state
// never issues the same xid twice, and its xids increase.
[[nodiscard]] Generated next_xid(std::uint64_t last, std::int64_t now_ms, std::uint32_t random) noexcept;

// fullrand profile (spec: 64 random bits). One server must never issue a value twice, which independent
// random draws cannot promise (a repeat becomes likely after about 2^32 of them). So a value is a keyed
// permutation of a ticket that never repeats: a 6-round Feistel network over the two 32-bit halves, keyed
// by 128 random bits drawn once per server. Distinct tickets always give distinct values, and without
// the key the values look like independent random bits (it is not meant as a cipher for secrets).
struct FullrandKey {
	std::uint64_t k0, k1;
};
// A ticket is a Unix microsecond (high 52 bits) and a sequence within it (low 12 bits).
inline constexpr unsigned ticket_sequence_bits = 12;
constexpr std::int64_t ticket_time_us(std::uint64_t ticket) noexcept
{
	return static_cast<std::int64_t>(ticket >> ticket_sequence_bits);
}
// The last ticket of the microsecond us: every ticket issued up to that microsecond is at or below it.
constexpr std::uint64_t last_ticket_of(std::int64_t us) noexcept
{
	return (static_cast<std::uint64_t>(us) << ticket_sequence_bits) | ((1u << ticket_sequence_bits) - 1);
}
// The next ticket after `last`: the clock's first ticket or last + 1, whichever is greater; not ok when
// the clock is negative or past 2^52-1 µs (the year 2112), or the tickets are used up.
[[nodiscard]] Generated next_ticket(std::uint64_t last, std::int64_t now_us) noexcept;
[[nodiscard]] std::uint64_t fullrand_of_ticket(std::uint64_t ticket, const FullrandKey &key) noexcept;
// The inverse permutation (tests prove with it that no two tickets give one value).
[[nodiscard]] std::uint64_t ticket_of_fullrand(std::uint64_t value, const FullrandKey &key) noexcept;

// The tickets another key of this server's history issued: after < ticket <= upto. A server that took over
// from one with another key (a promoted standby draws its own: a copy must not share a key) skips every value
// that such a range holds under that key, so it never issues a value that key issued there: apart by
// construction, not by the chance of two random keys (src/pg/mark/key_records.cpp keeps the ranges).
struct KeyRange {
	FullrandKey key;
	std::uint64_t after, upto;
};
// Whether `value` is clear of every range: no range's key maps a ticket of that range onto it.
[[nodiscard]] bool fullrand_clear(std::uint64_t value, const KeyRange *ranges, std::size_t count) noexcept;

// A key as a record shows it (key_file_text.hpp): each half through the permutation under `a` and `b`, the
// cluster's own secret (the glue's: in every copy of the data directory, not readable by SQL), since every
// role can read the records.
struct Wrap {
	FullrandKey a, b;
};
[[nodiscard]] FullrandKey wrap_key(const FullrandKey &key, const Wrap &wrap) noexcept;
[[nodiscard]] FullrandKey unwrap_key(const FullrandKey &wrapped, const Wrap &wrap) noexcept;

} // namespace idtypes::uid11
