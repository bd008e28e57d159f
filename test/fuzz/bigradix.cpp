// The any-base codec behind the numeric casts (decimal, 1..32 bytes: 8 for uid11, 10 for tbsl) and TBSL's
// transport bases: format agrees with byte-wise long division (and with std::to_string for 64 bits), writes
// no leading zeros, and parses back; parsing any text agrees with a byte-wise reference (value, empty,
// foreign byte and its position, overflow) and, when accepted, formats back to its canonical spelling.
// Input: base selector, byte count, a value (32 bytes), then the text to parse.
#include "fuzz.hpp"

namespace {

using namespace idtypes;

struct Base {
	fuzz::RefAlphabet ref;
	const Alphabet &core;
};

const Base bases[] = {
    {{"0123456789", false}, bigradix::decimal},
    {{"0123456789abcdef", true}, *tbsl::base_alphabet(16)},
    {{"0123456789abcdefghijklmnopqrstuv", true}, *tbsl::base_alphabet(32)},
    {{"0123456789abcdefghijklmnopqrstuvwxyz", true}, *tbsl::base_alphabet(36)},
    {{"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", false}, *tbsl::base_alphabet(58)},
    {{"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", false}, *tbsl::base_alphabet(62)},
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fuzz::Input in{data, size};
	const std::uint8_t sel = in.byte();
	const Base &base = bases[sel % 6];
	const std::size_t n = 1 + in.byte() % bigradix::max_bytes;
	const fuzz::Arr<bigradix::max_bytes> value = in.bytes<bigradix::max_bytes>();

	char out[bigradix::max_digits];
	const std::size_t len = bigradix::format(value.data(), n, base.core, out);
	const std::string digits(out, len);
	FUZZ_CHECK(len >= 1 && len <= bigradix::max_digits);
	FUZZ_CHECK(digits == fuzz::ref_format(value.data(), n, base.ref));
	if (&base.core == &bigradix::decimal && n == 8) // the uid11 numeric cast
		FUZZ_CHECK(digits == std::to_string(fuzz::arr_u64(value, 0, 8)));
	std::uint8_t back[bigradix::max_bytes];
	bigradix::Parsed p = bigradix::parse(digits, base.core, back, n);
	FUZZ_CHECK(p.status == bigradix::Parse::ok && std::equal(back, back + n, value.begin()));

	const std::string text = in.rest();
	p = bigradix::parse(text, base.core, back, n);
	const fuzz::RefNumber want = fuzz::ref_parse(text, base.ref, n);
	FUZZ_CHECK(fuzz::parse_answer_ok(p.status, p.position, want));
	if (p.status == bigradix::Parse::symbol)
		FUZZ_CHECK(p.position >= 1 && p.position <= text.size());
	if (p.status == bigradix::Parse::ok) {
		FUZZ_CHECK(std::equal(back, back + n, want.value.begin()));
		FUZZ_CHECK(std::string(out, bigradix::format(back, n, base.core, out)) == want.canonical);
	}
	return 0;
}
