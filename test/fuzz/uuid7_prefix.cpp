// uuid hex prefixes (UUIDv7 and ULIDs in uuid columns): errors as the rules say (hex digits in either case,
// dashes ignored anywhere, at most 32 digits); a range holds exactly the uuids whose hex digits start with the
// prefix (its ends do, their neighbours do not). Then, for the value x: its hex text is the reference's, its
// canonical dashed text is a prefix selecting x alone, and its millisecond's bounds bracket it exactly.
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	using fuzz::Uuid7;
	fuzz::fuzz_prefix<Uuid7>(data, size);

	fuzz::Input in{data, size};
	in.byte();
	const Uuid7::A x = in.bytes<Uuid7::B>();
	const std::string t = Uuid7::text(x);
	Uuid7::A back{};
	FUZZ_CHECK(Uuid7::parse(t, back).ok() && back == x);
	const std::string dashed =
	    t.substr(0, 8) + "-" + t.substr(8, 4) + "-" + t.substr(12, 4) + "-" + t.substr(16, 4) + "-" + t.substr(20);
	const idtypes::PrefixRange<Uuid7::A> r = Uuid7::prefix(fuzz::mapped(dashed, fuzz::uc));
	FUZZ_CHECK(r.status.ok() && r.lo == x && r.hi == x);

	const std::int64_t u = Uuid7::units_of(x);
	FUZZ_CHECK(u >= 0 && u <= Uuid7::scale.max_units);
	FUZZ_CHECK(static_cast<std::uint64_t>(u) == idtypes::uuid7::unix_ms(x.data()));
	const Uuid7::A lo = Uuid7::min_at(u), hi = Uuid7::max_at(u);
	FUZZ_CHECK(lo <= x && x <= hi && Uuid7::units_of(lo) == u && Uuid7::units_of(hi) == u);
	Uuid7::A below = lo, above = hi;
	if (fuzz::step_down(below))
		FUZZ_CHECK(Uuid7::units_of(below) == u - 1);
	if (fuzz::step_up(above))
		FUZZ_CHECK(Uuid7::units_of(above) == u + 1);
	return 0;
}
