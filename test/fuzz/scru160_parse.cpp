// scru160 text input and output (32 base32hex or 40 hex characters, either case): the parse agrees with the
// reference decoder (value, error kind, position and byte), accepted text formats back to its canonical spelling
// (upper-case base32hex; hex: the same value, lower case from scru160_to_hex), parse(format(x)) == x, every
// spelling of x reads as x, text order = value order.
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fuzz::check_parse<fuzz::Scru160>(data, size);
	return 0;
}
