// The time layout of UUIDv7 (RFC 9562 §5.7) and of ULIDs stored as uuid: 16 bytes, big-endian, whose first
// 48 bits are Unix milliseconds; what follows (version, variant, random or counter bits) is ordered after the
// time. So, as for the extension's own types, the uuids of a time window or of a hex text prefix form one
// contiguous range of PostgreSQL's uuid order (bytewise), whatever the rest holds. Used for plain uuid columns.
// Also the generation step of uuid_v7_generate(): RFC 9562's UUIDv7 with method 3 of §6.2 as PostgreSQL 18's
// uuidv7() lays it out (see V7 below), so that its values sort by time exactly as core's do.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/alphabet.hpp"
#include "core/format.hpp"
#include "core/radix2.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes::uuid7 {

inline constexpr std::size_t size = 16;
using Bytes = std::array<std::uint8_t, size>;
using Hex = Radix2<size, 4>;

inline constexpr std::size_t hex_len = Hex::symbols; // 32
inline constexpr Alphabet hex = make_alphabet("0123456789abcdef", Case::fold);
extern const TextRules rules;

inline constexpr std::uint64_t max_ms = (std::uint64_t{1} << 48) - 1; // 10889-08-02T05:31:50.655Z
inline constexpr TimeScale time_scale{0, 1000, static_cast<std::int64_t>(max_ms)};
// its SQL helper functions are named uuid_*; the C entry points uuid_v7_*
inline constexpr Format descriptor{"uuid", time_scale, hex_len, hex, rules};

// The first 48 bits: Unix milliseconds for a UUIDv7 or a ULID (any uuid has them).
std::uint64_t unix_ms(const std::uint8_t *id) noexcept;
inline std::int64_t units(const std::uint8_t *id) noexcept { return static_cast<std::int64_t>(unix_ms(id)); }

// Smallest / largest uuid whose first 48 bits are the millisecond: the other 80 bits all zero / all one.
// Neither is itself a UUIDv7 (their version and variant bits are 0 / 1), which is why together they bound
// every UUIDv7 and every ULID of that millisecond.
Bytes min_at(std::int64_t units) noexcept;
Bytes max_at(std::int64_t units) noexcept;

// Lower-case hex, no dashes.
void format_hex(const std::uint8_t *id, char (&out)[hex_len]) noexcept;

using PrefixRange = idtypes::PrefixRange<Bytes>; // never empty: every 128-bit value is a uuid
// The uuids whose 32 hex digits start with the prefix: hex digits in either case, dashes ignored anywhere
// (so prefixes of the canonical 8-4-4-4-12 form work), at most 32 digits.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

// ---- ULID text ----------------------------------------------------------------------------------------
// A ULID's text (github.com/ulid/spec): the uuid's 128 bits as 26 symbols of Crockford's base32
// (0123456789ABCDEFGHJKMNPQRSTVWXYZ: no I, L, O, U), most significant first; 26 symbols hold 130 bits, so the
// first is 0-7. Written upper case, as the spec does; read in either case. I, L and O are refused rather than
// read as 1, 1 and 0 (Crockford's decoding rule, which the ULID spec does not take up): a text that is not a
// ULID is an error, never a different ID.
inline constexpr std::size_t ulid_len = 26;
inline constexpr Alphabet crockford = make_alphabet("0123456789ABCDEFGHJKMNPQRSTVWXYZ", Case::fold);
extern const TextRules ulid_rules;

void format_ulid(const std::uint8_t *id, char (&out)[ulid_len]) noexcept;
[[nodiscard]] TextStatus parse_ulid(std::string_view text, Bytes &out) noexcept;

// ---- Generation ----------------------------------------------------------------------------------------
// A UUIDv7 as PostgreSQL 18 lays it out: 48 bits of Unix milliseconds, the version (7), a 12-bit fraction of
// the millisecond (rand_a: the microsecond within it scaled to 4096 steps, RFC 9562 §6.2 method 3), the
// variant (10), 62 random bits. `time` is the millisecond and its fraction as one number (ms << 12 | fraction,
// 60 bits): ordering V7s by (time, random) is ordering their uuids, since version and variant are constant.
inline constexpr unsigned fraction_bits = 12;
inline constexpr std::uint64_t max_fraction = (std::uint64_t{1} << fraction_bits) - 1;
inline constexpr std::uint64_t max_time = (max_ms << fraction_bits) | max_fraction;
inline constexpr std::uint64_t random_mask = (std::uint64_t{1} << 62) - 1;

struct V7 {
	std::uint64_t time = 0;   // ms << 12 | fraction
	std::uint64_t random = 0; // 62 bits
};

// The time of a Unix microsecond (0 .. the last microsecond of max_ms).
constexpr std::uint64_t time_of_us(std::int64_t unix_us) noexcept
{
	const auto us = static_cast<std::uint64_t>(unix_us);
	return (us / 1000) << fraction_bits | (us % 1000) * (max_fraction + 1) / 1000;
}

// The uuid's bytes, with version 7 and variant 10 set.
Bytes layout(const V7 &v) noexcept;

struct Generated {
	V7 value;
	bool ok; // false past max_ms
};

// The value a generator issues after `last` (the last value it issued, or a bound above every value issued
// before) when the clock reads now_us, drawing on 64 random bits: the clock's time with 62 fresh random bits
// when that is later than last's time; else the time counts on (last's time plus one fraction step, fresh
// random bits), as PostgreSQL 18's uuidv7() steps its clock; and when last's fraction is the millisecond's
// last (4096 values in one millisecond, or a clock behind), the random bits count on, by a random step of 1
// to 2^32 (RFC 9562 §6.2 method 2), rather than move the millisecond past the clock; past the largest random
// bits the time carries into the next millisecond. So every value is greater than `last`: never a repeat.
[[nodiscard]] Generated next(const V7 &last, std::int64_t now_us, std::uint64_t random) noexcept;

// The last Unix microsecond of the value's millisecond: the time a restart must not forget.
constexpr std::int64_t last_us_of(const V7 &v) noexcept
{
	return static_cast<std::int64_t>(v.time >> fraction_bits) * 1000 + 999;
}

// The Unix microsecond the value's time falls in.
constexpr std::int64_t us_of(const V7 &v) noexcept
{
	return static_cast<std::int64_t>((v.time >> fraction_bits) * 1000 + (v.time & max_fraction) * 1000 / 4096);
}

// The largest value of a millisecond: a bound above every value issued in it or before.
constexpr V7 last_of_ms(std::uint64_t ms) noexcept { return V7{ms << fraction_bits | max_fraction, random_mask}; }

// The value's time moved by shift_us microseconds (a whole number of fraction steps: 4096 a millisecond, the
// sub-millisecond part rounded down), its random bits kept. Values of distinct times stay distinct and in
// order under the same shift. Not ok when the time leaves 0 .. max_time.
[[nodiscard]] Generated shifted(const V7 &v, std::int64_t shift_us) noexcept;

// A shift interval (PostgreSQL's months, days and microseconds) as one length in microseconds, the one
// extract(epoch FROM interval) gives it: a day 24 hours, a month 30.4375 days (a year of 365.25 days / 12).
// Fixed whatever the value's time or the session's time zone, so that values of one shift keep their order
// (a calendar day across a daylight saving change, or a calendar month, has no one length: 02:30 and 03:15
// on 2026-03-28 in Europe/Berlin plus the calendar's '1 day' are 03:30 and 03:15; Jan 30 and 31 plus '1 month'
// are both Feb 28 or 29). False past ±2^62 µs (146,000 years), which no shifted value survives.
[[nodiscard]] bool shift_length_us(std::int32_t months, std::int32_t days, std::int64_t micros,
                                   std::int64_t &length_us) noexcept;

} // namespace idtypes::uuid7
