// timeid text input and output: the parse agrees with the reference decoder (value, error kind, position and
// byte), accepted text formats back to its canonical spelling, parse(format(x)) == x, text order = value order.
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fuzz::check_parse<fuzz::Timeid>(data, size);
	return 0;
}
