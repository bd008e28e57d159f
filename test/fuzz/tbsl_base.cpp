// tbsl_to_base / tbsl_from_base (bases 16, 32, 36, 58, 62): to_base of any 10 bytes is the long-division
// reference, at most 20 digits, and from_base reads it back (status `payload` exactly when the payload
// exceeds 18 digits); base 16 is the TBSL text in lower case without leading zeros; from_base of any text
// agrees with the reference and, when it yields a value, that value's to_base is the text's canonical
// spelling. Input: base selector, a value (10 bytes), then the text to read.
#include "fuzz.hpp"

namespace {

using namespace idtypes;

struct Base {
	int base;
	fuzz::RefAlphabet ref;
};

const Base bases[] = {
    {16, {"0123456789abcdef", true}},
    {32, {"0123456789abcdefghijklmnopqrstuv", true}},
    {36, {"0123456789abcdefghijklmnopqrstuvwxyz", true}},
    {58, {"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", false}},
    {62, {"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", false}},
};

// The codec's answer behind a from_base status (`payload` is a parsed value too).
bigradix::Parse codec_status(tbsl::FromBase s)
{
	switch (s) {
	case tbsl::FromBase::ok:
	case tbsl::FromBase::payload: return bigradix::Parse::ok;
	case tbsl::FromBase::empty: return bigradix::Parse::empty;
	case tbsl::FromBase::symbol: return bigradix::Parse::symbol;
	case tbsl::FromBase::too_large: return bigradix::Parse::overflow;
	}
	FUZZ_CHECK(!"unknown status");
	return bigradix::Parse::ok;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fuzz::Input in{data, size};
	const std::uint8_t sel = in.byte();
	const Base &b = bases[sel % 5];
	const Alphabet *a = tbsl::base_alphabet(b.base);
	FUZZ_CHECK(a != nullptr && a->size() == static_cast<unsigned>(b.base));
	const int other = static_cast<std::int8_t>(sel) * 2 + 1; // odd: never a supported base
	FUZZ_CHECK(tbsl::base_alphabet(other) == nullptr);

	const fuzz::Tbsl::A x = in.bytes<tbsl::size>(); // any 10 bytes, valid TBSL or not
	char out[bigradix::max_digits];
	const std::string digits(out, tbsl::to_base(x.data(), *a, out));
	FUZZ_CHECK(digits.size() >= 1 && digits.size() <= tbsl::max_base_len);
	FUZZ_CHECK(digits == fuzz::ref_format(x.data(), tbsl::size, b.ref));
	if (b.base == 16) {
		const std::string t = fuzz::mapped(fuzz::Tbsl::text(x), fuzz::lc);
		const std::size_t nz = t.find_first_not_of('0');
		FUZZ_CHECK(digits == (nz == std::string::npos ? "0" : t.substr(nz)));
	}
	tbsl::BaseParsed back = tbsl::from_base(digits, *a);
	FUZZ_CHECK(back.value == x);
	FUZZ_CHECK(back.status == (fuzz::Tbsl::valid(x) ? tbsl::FromBase::ok : tbsl::FromBase::payload));

	const std::string text = in.rest();
	const tbsl::BaseParsed p = tbsl::from_base(text, *a);
	const fuzz::RefNumber want = fuzz::ref_parse(text, b.ref, tbsl::size);
	FUZZ_CHECK(fuzz::parse_answer_ok(codec_status(p.status), p.position, want));
	if (p.status == tbsl::FromBase::symbol)
		FUZZ_CHECK(p.position >= 1 && p.position <= text.size());
	if (codec_status(p.status) == bigradix::Parse::ok) {
		FUZZ_CHECK(std::equal(p.value.begin(), p.value.end(), want.value.begin()));
		FUZZ_CHECK((p.status == tbsl::FromBase::ok) == fuzz::Tbsl::valid(p.value));
		FUZZ_CHECK(std::string(out, tbsl::to_base(p.value.data(), *a, out)) == want.canonical);
	}
	return 0;
}
