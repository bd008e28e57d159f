// Shared by the libFuzzer targets of test/fuzz (one target per .cpp, built and run by scripts/fuzz.sh).
// Every target checks properties and aborts on a violation (libFuzzer then keeps the input as a crash):
// reference decoders written here from docs/types.md's rules (their own symbol strings, bit by bit, no core
// table), round trips, text order = value order, exact prefix ranges, window ranges against a binary
// search, and error positions inside the input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/bigradix.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"

#define FUZZ_CHECK(cond) ((cond) ? (void)0 : ::fuzz::violated(#cond, __FILE__, __LINE__))

namespace fuzz {

using namespace idtypes;

[[noreturn]] inline void violated(const char *what, const char *file, int line)
{
	std::fprintf(stderr, "%s:%d: property violated: %s\n", file, line, what);
	std::abort();
}

template <std::size_t B>
using Arr = std::array<std::uint8_t, B>; // a value as big-endian bytes (array order = numeric order)

// The fuzz input read front to back; past its end every read yields zeros.
struct Input {
	const std::uint8_t *p;
	std::size_t n;

	std::uint8_t byte()
	{
		if (n == 0)
			return 0;
		n--;
		return *p++;
	}
	std::uint64_t u64()
	{
		std::uint64_t v = 0;
		for (int i = 0; i < 8; i++)
			v = (v << 8) | byte();
		return v;
	}
	template <std::size_t B>
	Arr<B> bytes()
	{
		Arr<B> a;
		for (auto &b : a)
			b = byte();
		return a;
	}
	std::string rest()
	{
		std::string s(reinterpret_cast<const char *>(p), n);
		p += n;
		n = 0;
		return s;
	}
};

// a+1 and a-1; false (and a wrapped) when there is none
template <std::size_t B>
bool step_up(Arr<B> &a)
{
	for (std::size_t i = B; i-- > 0;)
		if (++a[i] != 0)
			return true;
	return false;
}
template <std::size_t B>
bool step_down(Arr<B> &a)
{
	for (std::size_t i = B; i-- > 0;)
		if (a[i]-- != 0)
			return true;
	return false;
}

template <std::size_t B>
Arr<B> u64_arr(std::uint64_t v)
{
	Arr<B> a{};
	for (std::size_t i = B; i-- > 0; v >>= 8)
		a[i] = static_cast<std::uint8_t>(v);
	return a;
}
template <std::size_t B>
std::uint64_t arr_u64(const Arr<B> &a, std::size_t from = 0, std::size_t to = B)
{
	std::uint64_t v = 0;
	for (std::size_t i = from; i < to; i++)
		v = (v << 8) | a[i];
	return v;
}

inline int sign(int c) { return (c > 0) - (c < 0); }
inline bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
constexpr char lc(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
constexpr char uc(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }
inline std::string mapped(std::string_view s, char (*f)(char))
{
	std::string out(s);
	for (char &c : out)
		c = f(c);
	return out;
}

// A symbol set written out here, independent of the core's tables; `fold` accepts both cases of a letter.
struct RefAlphabet {
	std::string_view symbols;
	bool fold;
	std::array<std::int8_t, 256> values{}; // filled by the constructor: value of a byte, or -1

	constexpr RefAlphabet(std::string_view s, bool f) : symbols(s), fold(f)
	{
		for (unsigned c = 0; c < 256; c++) {
			values[c] = -1;
			for (std::size_t i = 0; i < s.size(); i++)
				if (s[i] == static_cast<char>(c) || (f && lc(s[i]) == lc(static_cast<char>(c))))
					values[c] = static_cast<std::int8_t>(i);
		}
	}
	int value(char c) const { return values[static_cast<unsigned char>(c)]; }
	unsigned base() const { return static_cast<unsigned>(symbols.size()); }
};

// docs/types.md's rule for every error: a position inside the input where the error kind has one.
inline void check_status_shape(const TextStatus &s, std::string_view t, const TextRules &rules)
{
	switch (s.error) {
	case TextError::none: return;
	case TextError::length: FUZZ_CHECK(s.position == t.size()); break;
	case TextError::symbol:
		FUZZ_CHECK(s.position >= 1 && s.position <= t.size());
		FUZZ_CHECK(s.byte == static_cast<unsigned char>(t[s.position - 1]));
		break;
	case TextError::first_symbol: FUZZ_CHECK(s.position == 1 && s.byte == static_cast<unsigned char>(t[0])); break;
	case TextError::too_large: FUZZ_CHECK(s.position == 0); break;
	case TextError::prefix_length: FUZZ_CHECK(s.position >= 1 && s.position <= t.size()); break;
	default: FUZZ_CHECK(!"unknown error kind");
	}
	char detail[detail_size];
	describe(s, rules, detail);
	FUZZ_CHECK(detail[0] != '\0');
}

// Fixed-width power-of-two text, decoded bit by bit: `symbols` symbols of `bits` bits; the leading bits
// beyond B bytes must be zero. Errors in the core's order: length, first foreign byte, leading bits.
template <std::size_t B>
TextStatus ref_radix2(std::string_view t, const RefAlphabet &a, std::size_t symbols, unsigned bits, Arr<B> &out)
{
	if (t.size() != symbols)
		return fail(TextError::length, static_cast<std::uint32_t>(t.size()));
	for (std::size_t i = 0; i < t.size(); i++)
		if (a.value(t[i]) < 0)
			return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(t[i]));
	const std::size_t pad = symbols * bits - B * 8;
	out.fill(0);
	std::size_t k = 0; // bit index in the text
	for (char c : t) {
		const unsigned v = static_cast<unsigned>(a.value(c));
		for (unsigned j = bits; j-- > 0; k++) {
			const unsigned bit = (v >> j) & 1;
			if (k < pad) {
				if (bit)
					return fail(TextError::first_symbol, 1, static_cast<unsigned char>(t[0]));
			} else {
				out[(k - pad) / 8] |= static_cast<std::uint8_t>(bit << (7 - (k - pad) % 8));
			}
		}
	}
	return {};
}

// ---- the four formats behind one interface (values as big-endian byte arrays)

template <typename Core>
PrefixRange<Arr<8>> u64_range(const Core &r)
{
	return {r.status, r.empty, u64_arr<8>(r.lo), u64_arr<8>(r.hi)};
}

// What the 8-byte formats share: a uint64 value held as 8 big-endian bytes, every value valid, parsed and
// formatted by the core's Parse and Format.
template <std::size_t Len, auto Parse, auto Format>
struct U64Format {
	static constexpr std::size_t B = 8, len = Len;
	using A = Arr<B>;
	static bool valid(const A &) { return true; }
	static void make_valid(A &) {}
	static A max() { return u64_arr<B>(~std::uint64_t{0}); }
	static TextStatus parse(std::string_view t, A &out)
	{
		std::uint64_t v = 0;
		TextStatus s = Parse(t, v);
		out = u64_arr<B>(v);
		return s;
	}
	static std::string text(const A &a)
	{
		char out[Len];
		Format(arr_u64(a), out);
		return std::string(out, Len);
	}
};

struct Timeid : U64Format<timeid::text_len, timeid::parse, timeid::format> {
	static constexpr RefAlphabet ref{"234567abcdefghijklmnopqrstuvwxyz", false};
	static constexpr char skip = '-'; // ignored in prefixes
	static constexpr bool may_be_empty = true;
	static constexpr const TimeScale &scale = timeid::time_scale;
	static const TextRules &rules() { return timeid::rules; }

	static TextStatus reference(std::string_view t, A &out) { return ref_radix2(t, ref, len, 5, out); }
	static bool canonical(std::string_view t, const A &v) { return text(v) == t; }
	static char prefix_symbol(char c) { return c; }
	static PrefixRange<A> prefix(std::string_view p) { return u64_range(timeid::prefix_range(p)); }
	static std::int64_t units_of(const A &a) { return static_cast<std::int64_t>(timeid::micros(arr_u64(a))); }
	static A min_at(std::int64_t u) { return u64_arr<B>(timeid::min_at(u)); }
	static A max_at(std::int64_t u) { return u64_arr<B>(timeid::max_at(u)); }
	static void extra(const A &x) // the dashed display form STTT-TTT-TTTT-CC, usable as a prefix
	{
		char dashed[timeid::dashed_len];
		timeid::format_dashed(arr_u64(x), dashed);
		const std::string d(dashed, sizeof dashed), t = text(x);
		FUZZ_CHECK(d == t.substr(0, 4) + "-" + t.substr(4, 3) + "-" + t.substr(7, 4) + "-" + t.substr(11));
		PrefixRange<A> r = prefix(d);
		FUZZ_CHECK(r.status.ok() && !r.empty && r.lo == x && r.hi == x);
	}
};

struct Uid11 : U64Format<uid11::text_len, uid11::parse, uid11::format> {
	static constexpr RefAlphabet ref{"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", false};
	static constexpr char skip = '\0';
	static constexpr bool may_be_empty = true;
	static constexpr const TimeScale &scale = uid11::time_scale;
	static const TextRules &rules() { return uid11::rules; }

	static TextStatus reference(std::string_view t, A &out) // base 58 in 128 bits, at most 2^64-1
	{
		if (t.size() != len)
			return fail(TextError::length, static_cast<std::uint32_t>(t.size()));
		unsigned __int128 v = 0;
		for (std::size_t i = 0; i < t.size(); i++) {
			int d = ref.value(t[i]);
			if (d < 0)
				return fail(TextError::symbol, static_cast<std::uint32_t>(i + 1), static_cast<unsigned char>(t[i]));
			v = v * 58 + static_cast<unsigned>(d);
		}
		if (v > ~std::uint64_t{0})
			return fail(TextError::too_large);
		out = u64_arr<B>(static_cast<std::uint64_t>(v));
		return {};
	}
	static bool canonical(std::string_view t, const A &v) { return text(v) == t; }
	static char prefix_symbol(char c) { return c; }
	static PrefixRange<A> prefix(std::string_view p) { return u64_range(uid11::prefix_range(p)); }
	static std::int64_t units_of(const A &a) { return static_cast<std::int64_t>(uid11::xid_delta(arr_u64(a))); }
	static A min_at(std::int64_t u) { return u64_arr<B>(uid11::min_at(u)); }
	static A max_at(std::int64_t u) { return u64_arr<B>(uid11::max_at(u)); }
	static void extra(const A &) {}
};

struct Tbsl {
	static constexpr std::size_t B = tbsl::size, len = tbsl::text_len;
	using A = Arr<B>;
	static constexpr RefAlphabet ref{"0123456789ABCDEF", false};
	static constexpr char skip = '\0';
	static constexpr bool may_be_empty = true;
	static constexpr const TimeScale &scale = tbsl::time_scale;
	static const TextRules &rules() { return tbsl::rules; }

	static std::uint64_t payload(const A &a) { return arr_u64(a, 0, 8) >> 4; } // the first 15 hex digits
	static bool valid(const A &a) { return payload(a) <= 999999999999999999u; }
	static void make_valid(A &a)
	{
		if (!valid(a))
			a[0] &= 0x7F; // payload below 2^59 < 10^18
	}
	static A max() { return tbsl::make(tbsl::max_payload, tbsl::max_suffix); }
	static TextStatus parse(std::string_view t, A &out) { return tbsl::parse(t, out); }
	static std::string text(const A &a)
	{
		char out[len];
		tbsl::format(a.data(), out);
		return std::string(out, len);
	}
	static TextStatus reference(std::string_view t, A &out)
	{
		TextStatus s = ref_radix2(t, ref, len, 4, out);
		if (s.ok() && !valid(out))
			return fail(TextError::too_large);
		return s;
	}
	static bool canonical(std::string_view t, const A &v) { return text(v) == t; }
	static char prefix_symbol(char c) { return c; }
	static PrefixRange<A> prefix(std::string_view p) { return tbsl::prefix_range(p); }
	static std::int64_t units_of(const A &a) { return static_cast<std::int64_t>(payload(a) / 100); }
	static A min_at(std::int64_t u) { return tbsl::min_at(u); }
	static A max_at(std::int64_t u) { return tbsl::max_at(u); }
	static void extra(const A &x) // the fields give back the value
	{
		tbsl::Fields f = tbsl::fields(x.data());
		FUZZ_CHECK(tbsl::from_fields(f.seconds, f.micros, f.machine, f.suffix) == x);
		FUZZ_CHECK(f.seconds <= tbsl::max_seconds && f.micros <= tbsl::max_micros && f.machine <= tbsl::max_machine);
	}
};

struct Scru160 {
	static constexpr std::size_t B = scru160::size, len = scru160::text_len;
	using A = Arr<B>;
	static constexpr RefAlphabet ref{"0123456789ABCDEFGHIJKLMNOPQRSTUV", true};
	static constexpr RefAlphabet hex{"0123456789abcdef", true};
	static constexpr char skip = '\0';
	static constexpr bool may_be_empty = false; // every 160-bit value is a SCRU160
	static constexpr const TimeScale &scale = scru160::time_scale;
	static const TextRules &rules() { return scru160::rules; }

	static bool valid(const A &) { return true; }
	static void make_valid(A &) {}
	static A max()
	{
		A a;
		a.fill(0xFF);
		return a;
	}
	static TextStatus parse(std::string_view t, A &out) { return scru160::parse(t, out); }
	static std::string text(const A &a)
	{
		char out[len];
		scru160::format(a.data(), out);
		return std::string(out, len);
	}
	static std::string hex_text(const A &a)
	{
		char out[scru160::hex_len];
		scru160::format_hex(a.data(), out);
		return std::string(out, sizeof out);
	}
	static TextStatus reference(std::string_view t, A &out)
	{
		if (t.size() == scru160::hex_len)
			return ref_radix2(t, hex, scru160::hex_len, 4, out);
		return ref_radix2(t, ref, len, 5, out); // 32 characters, or the length error
	}
	// base32hex is output in upper case; the 40-char hex spelling reads as the same value as its lower case
	static bool canonical(std::string_view t, const A &v)
	{
		return t.size() == len ? text(v) == mapped(t, uc) : hex_text(v) == mapped(t, lc);
	}
	static char prefix_symbol(char c) { return uc(c); }
	static PrefixRange<A> prefix(std::string_view p) { return scru160::prefix_range(p); }
	static std::int64_t units_of(const A &a) { return static_cast<std::int64_t>(arr_u64(a, 0, 6)); }
	static A min_at(std::int64_t u) { return scru160::min_at(u); }
	static A max_at(std::int64_t u) { return scru160::max_at(u); }
	static void extra(const A &x) // every spelling of x reads as x
	{
		const std::string h = hex_text(x), t = text(x);
		for (const std::string &s : {h, mapped(h, uc), mapped(t, lc)}) {
			A back{};
			FUZZ_CHECK(parse(s, back).ok() && back == x);
		}
		FUZZ_CHECK(t.size() == len && h.size() == scru160::hex_len);
	}
};

// Plain uuids read with the UUIDv7 / ULID time layout: their hex digits (PostgreSQL writes and parses the
// uuid text itself; the core gives prefixes, the millisecond and its bounds).
struct Uuid7 {
	static constexpr std::size_t B = uuid7::size, len = uuid7::hex_len;
	using A = Arr<B>;
	static constexpr RefAlphabet ref{"0123456789abcdef", true};
	static constexpr char skip = '-';           // ignored in prefixes, as in the canonical 8-4-4-4-12 text
	static constexpr bool may_be_empty = false; // every 128-bit value is a uuid
	static constexpr const TimeScale &scale = uuid7::time_scale;
	static const TextRules &rules() { return uuid7::rules; }

	static bool valid(const A &) { return true; }
	static void make_valid(A &) {}
	static A max()
	{
		A a;
		a.fill(0xFF);
		return a;
	}
	static TextStatus parse(std::string_view t, A &out) { return ref_radix2(t, ref, len, 4, out); }
	static std::string text(const A &a)
	{
		char out[len];
		uuid7::format_hex(a.data(), out);
		return std::string(out, len);
	}
	static char prefix_symbol(char c) { return lc(c); }
	static PrefixRange<A> prefix(std::string_view p) { return uuid7::prefix_range(p); }
	static std::int64_t units_of(const A &a) { return static_cast<std::int64_t>(arr_u64(a, 0, 6)); }
	static A min_at(std::int64_t u) { return uuid7::min_at(u); }
	static A max_at(std::int64_t u) { return uuid7::max_at(u); }
};

// ---- text parse and format: input = the text; values x, y = the first bytes of the input

template <typename F>
void check_parse(const std::uint8_t *data, std::size_t size)
{
	using A = typename F::A;
	const std::string_view t(reinterpret_cast<const char *>(data), size);
	A got{}, want{};
	const TextStatus s = F::parse(t, got), r = F::reference(t, want);
	check_status_shape(s, t, F::rules());
	FUZZ_CHECK(s.error == r.error && s.position == r.position && s.byte == r.byte);
	if (s.ok())
		FUZZ_CHECK(got == want && F::valid(got) && F::canonical(t, got));

	Input in{data, size};
	A x = in.bytes<F::B>(), y = in.bytes<F::B>();
	F::make_valid(x);
	F::make_valid(y);
	const std::string tx = F::text(x), ty = F::text(y);
	FUZZ_CHECK(tx.size() == F::len && ty.size() == F::len);
	A back{};
	FUZZ_CHECK(F::parse(tx, back).ok() && back == x);                     // parse(format(x)) == x
	FUZZ_CHECK(F::reference(tx, back).ok() && back == x);                 // format(x) is the text the rules give x
	FUZZ_CHECK(sign(tx.compare(ty)) == sign(x < y ? -1 : x > y ? 1 : 0)); // text order = value order
	F::extra(x);
}

// ---- prefixes: input = mode, value x, value y, then (mode & 1) the raw prefix, else a prefix of x's text
// of a length taken from the input, maybe with a byte inserted (mode & 2) and letters' case swapped (mode & 4)

template <typename F>
std::string padded(const std::string &p, char symbol)
{
	return p + std::string(F::len - p.size(), symbol);
}

template <typename F>
void check_prefix(std::string_view p, const typename F::A &x, const typename F::A &y)
{
	using A = typename F::A;
	const PrefixRange<A> r = F::prefix(p);
	check_status_shape(r.status, p, F::rules());
	// the rule: symbols (and skipped dashes) only, at most `len` symbols; the first offence is reported
	TextError want = TextError::none;
	std::size_t bad = 0, symbols = 0;
	std::string P; // the prefix as the canonical text spells it
	for (std::size_t i = 0; i < p.size() && want == TextError::none; i++) {
		if (F::skip != '\0' && p[i] == F::skip)
			continue;
		if (F::ref.value(p[i]) < 0) {
			want = TextError::symbol;
			bad = i + 1;
		} else if (++symbols > F::len) {
			want = TextError::prefix_length;
		} else {
			P += F::prefix_symbol(p[i]);
		}
	}
	FUZZ_CHECK(r.status.error == want);
	if (want == TextError::symbol)
		FUZZ_CHECK(r.status.position == bad);
	if (want != TextError::none)
		return;
	const std::string tx = F::text(x), ty = F::text(y);
	if (r.empty) { // no value's text starts with P: not even the smallest or largest text with P
		FUZZ_CHECK(F::may_be_empty && !P.empty());
		FUZZ_CHECK(!starts_with(tx, P) && !starts_with(ty, P));
		A v{};
		FUZZ_CHECK(!F::parse(padded<F>(P, F::ref.symbols.front()), v).ok());
		FUZZ_CHECK(!F::parse(padded<F>(P, F::ref.symbols.back()), v).ok());
		return;
	}
	FUZZ_CHECK(r.lo <= r.hi && F::valid(r.lo) && F::valid(r.hi));
	FUZZ_CHECK(starts_with(F::text(r.lo), P) && starts_with(F::text(r.hi), P));
	A below = r.lo, above = r.hi;
	if (step_down(below))
		FUZZ_CHECK(!starts_with(F::text(below), P));
	if (r.hi != F::max()) { // then hi+1 is a valid value
		step_up(above);
		FUZZ_CHECK(F::valid(above) && !starts_with(F::text(above), P));
	}
	if (P.empty())
		FUZZ_CHECK(r.lo == A{} && r.hi == F::max()); // the empty prefix is every value
	FUZZ_CHECK(starts_with(tx, P) == (r.lo <= x && x <= r.hi));
	FUZZ_CHECK(starts_with(ty, P) == (r.lo <= y && y <= r.hi));
}

template <typename F>
void fuzz_prefix(const std::uint8_t *data, std::size_t size)
{
	Input in{data, size};
	const std::uint8_t mode = in.byte();
	typename F::A x = in.bytes<F::B>(), y = in.bytes<F::B>();
	F::make_valid(x);
	F::make_valid(y);
	std::string p;
	if (mode & 1) {
		p = in.rest();
	} else {
		p = F::text(x).substr(0, in.byte() % (F::len + 1));
		if (mode & 2) {
			const std::size_t at = in.byte() % (p.size() + 1);
			p.insert(at, 1, static_cast<char>(in.byte()));
		}
		if (mode & 4)
			for (char &c : p)
				c = c == lc(c) ? uc(c) : lc(c);
	}
	check_prefix<F>(p, x, y);
}

// ---- any-base numbers (bigradix): a reference by byte-wise long division and multiplication

struct RefNumber {
	bigradix::Parse status;
	std::size_t bad;                // 1-based position of the first foreign byte, 0 when none
	bool overflow;                  // the digits before it (or all) exceed n bytes
	Arr<bigradix::max_bytes> value; // the first n bytes, when it fits
	std::string canonical;          // the digits as the formatter writes them: canonical symbols, no leading zeros
};

inline RefNumber ref_parse(std::string_view t, const RefAlphabet &a, std::size_t n)
{
	RefNumber r{bigradix::Parse::ok, 0, false, {}, {}};
	std::size_t i = 0;
	for (; i < t.size(); i++) {
		int d = a.value(t[i]);
		if (d < 0) {
			r.bad = i + 1;
			break;
		}
		unsigned carry = static_cast<unsigned>(d);
		for (std::size_t k = n; k-- > 0;) {
			unsigned cur = r.value[k] * a.base() + carry;
			r.value[k] = static_cast<std::uint8_t>(cur);
			carry = cur >> 8;
		}
		r.overflow = r.overflow || carry != 0;
		if (!r.canonical.empty() || d != 0)
			r.canonical += a.symbols[static_cast<std::size_t>(d)];
	}
	if (r.canonical.empty())
		r.canonical = a.symbols.substr(0, 1);
	r.status = t.empty()    ? bigradix::Parse::empty
	           : r.bad != 0 ? bigradix::Parse::symbol
	           : r.overflow ? bigradix::Parse::overflow
	                        : bigradix::Parse::ok;
	return r;
}

inline std::string ref_format(const std::uint8_t *be, std::size_t n, const RefAlphabet &a)
{
	std::uint8_t v[bigradix::max_bytes];
	for (std::size_t i = 0; i < n; i++)
		v[i] = be[i];
	std::string digits;
	bool zero;
	do {
		unsigned rem = 0;
		zero = true;
		for (std::size_t i = 0; i < n; i++) {
			unsigned cur = rem * 256 + v[i];
			v[i] = static_cast<std::uint8_t>(cur / a.base());
			rem = cur % a.base();
			zero = zero && v[i] == 0;
		}
		digits.insert(digits.begin(), a.symbols[rem]);
	} while (!zero);
	return digits;
}

// What a parse may answer given the reference: a text with a foreign byte fails, as `symbol` at that byte or,
// when the digits before it already overflow, possibly as `overflow`.
inline bool parse_answer_ok(bigradix::Parse got, std::size_t position, const RefNumber &want)
{
	if (want.status == bigradix::Parse::symbol && want.overflow && got == bigradix::Parse::overflow)
		return true;
	return got == want.status && (got != bigradix::Parse::symbol || position == want.bad);
}

} // namespace fuzz
