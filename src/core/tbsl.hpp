// TBSL (Infocyph\UID): 10 bytes written as 20 uppercase hex characters. The first 15 hex digits are the
// decimal payload SSSSSSSSSSUUUUUUMM (Unix seconds, microseconds, machine id) read as one number, at most
// 999999999999999999; the last 5 are a random or sequenced 20-bit suffix. Spec: the TBSL
// format of the PHP package Infocyph\UID (its canonical text format and generation rules).
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

namespace idtypes::tbsl {

inline constexpr std::size_t size = 10;
using Bytes = std::array<std::uint8_t, size>;
using Codec = Radix2<size, 4>;

inline constexpr std::size_t text_len = Codec::symbols; // 20
inline constexpr Alphabet alphabet = make_alphabet("0123456789ABCDEF");
extern const TextRules rules;

inline constexpr std::uint64_t max_payload = 999999999999999999; // 18 decimal digits
inline constexpr std::uint64_t max_seconds = 9999999999;
inline constexpr std::uint32_t max_micros = 999999;
inline constexpr std::uint32_t max_machine = 99;
inline constexpr std::uint32_t max_suffix = 0xFFFFF;
// the time of a TBSL is payload / 100 microseconds: 0 .. 9999999999.999999 s (2286-11-20T17:46:39.999999Z)
inline constexpr TimeScale time_scale{0, 1, static_cast<std::int64_t>(max_payload / 100)};
inline constexpr Format descriptor{"tbsl", time_scale, text_len, alphabet, rules};

struct Fields {
	std::uint64_t seconds;
	std::uint32_t micros, machine, suffix;
};

Bytes make(std::uint64_t payload, std::uint32_t suffix) noexcept;
Bytes from_fields(std::uint64_t seconds, std::uint32_t micros, std::uint32_t machine, std::uint32_t suffix) noexcept;
std::uint64_t payload(const std::uint8_t *id) noexcept;
std::uint32_t suffix(const std::uint8_t *id) noexcept;
Fields fields(const std::uint8_t *id) noexcept;
inline std::int64_t unix_us(const std::uint8_t *id) noexcept { return static_cast<std::int64_t>(payload(id) / 100); }
inline std::int64_t units(const std::uint8_t *id) noexcept { return unix_us(id); }

// Smallest / largest TBSL at a microsecond (machine 0, suffix 0 / machine 99, suffix 0xFFFFF).
Bytes min_at(std::int64_t units) noexcept;
Bytes max_at(std::int64_t units) noexcept;

[[nodiscard]] TextStatus parse(std::string_view text, Bytes &out) noexcept;
void format(const std::uint8_t *id, char (&out)[text_len]) noexcept;

using PrefixRange =
    idtypes::PrefixRange<Bytes>; // empty: every value with that prefix has a payload above 999999999999999999
// A hex prefix's range; `hi` is clamped to the largest valid TBSL.
[[nodiscard]] PrefixRange prefix_range(std::string_view prefix) noexcept;

// --- transport encodings: the 10 bytes as one number in base 16, 32, 36, 58 or 62, unpadded
// Alphabet of a supported base, or nullptr.
const Alphabet *base_alphabet(int base) noexcept;
inline constexpr std::size_t max_base_len = 20; // base 16 is the longest: 20 digits for 80 bits
std::size_t to_base(const std::uint8_t *id, const Alphabet &alphabet, char *out) noexcept;

enum class FromBase : std::uint8_t { ok, empty, symbol, too_large, payload };
struct BaseParsed {
	Bytes value;
	FromBase status;
	std::size_t position; // of a bad symbol
};
[[nodiscard]] BaseParsed from_base(std::string_view text, const Alphabet &alphabet) noexcept;
// Why from_base failed, one sentence (the DETAIL of tbsl_from_base's error, and the command-line tool's).
void describe(const BaseParsed &parsed, char (&out)[detail_size]) noexcept;

// --- generation (spec "The generator"), with the clock injected

enum class ClockBackward : std::uint8_t { wait, error };

struct Clock {
	std::int64_t (*now_us)(void *ctx) noexcept; // Unix microseconds
	bool (*pause)(void *ctx) noexcept;          // wait a moment; false to give up (e.g. a cancel request)
	void *ctx;
};

struct Request {
	std::uint32_t machine;
	bool sequenced;
	ClockBackward on_backward;
	std::int64_t max_wait_us;
	std::uint32_t random; // 20 bits for a new microsecond's suffix (random mode), 4 for a step within one
};

// Per-generator memory: the last time issued, and per machine id the last microsecond and suffix issued.
// Within one microsecond and machine, suffixes only grow: sequenced mode counts 0, 1, 2, ...; random mode
// starts at a random suffix and adds 1..16, so no two IDs of one state are ever equal.
struct State {
	std::int64_t last_us = -1;
	struct Sequence {
		std::int64_t us = -1;
		std::uint32_t value = 0;
	} sequences[max_machine + 1];
};

// One attempt at a given time, without waiting (so it can run under a lock). no_clock: the stepper could
// not use the clock (a server whose high-water mark cannot be moved past it); step() never returns it.
enum class StepResult : std::uint8_t { issued, behind, exhausted, out_of_range, no_clock };
struct Step {
	StepResult result;
	Bytes value;
	std::int64_t behind_us; // for behind: how far the time is behind the last TBSL issued
	std::int64_t now_us;    // the clock reading the step was taken at
};
[[nodiscard]] Step step(State &state, const Request &request, std::int64_t now_us) noexcept;

// Where the steps run: on a state directly, or through a lock around a shared one. A step reads the clock
// itself: over a shared state, a reading overtaken by another generator's later TBSL before the comparison
// would look like a clock that went backwards, which the stepper must tell apart (src/pg/generate/generators.cpp).
struct Stepper {
	Step (*step)(void *ctx, const Request &request, const Clock &clock) noexcept;
	void *ctx;
};

enum class Status : std::uint8_t { ok, clock_behind, wait_timeout, interrupted, clock_range, clock_unavailable };

struct Generated {
	Bytes value;
	Status status;
	std::int64_t behind_us; // for clock_behind and wait_timeout
};

// Steps until an ID is issued: waits (pausing between steps) while the clock is behind the last TBSL issued
// or the microsecond's suffixes are used up, at most max_wait_us; or fails at once when the clock is behind
// and the policy is `error`, or the stepper could not use the clock (clock_unavailable).
[[nodiscard]] Generated generate(const Stepper &stepper, const Request &request, const Clock &clock) noexcept;
[[nodiscard]] Generated generate(State &state, const Request &request, const Clock &clock) noexcept;

} // namespace idtypes::tbsl
