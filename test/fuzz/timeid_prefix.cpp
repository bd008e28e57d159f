// timeid prefixes: errors as the rules say; a range holds exactly the values whose canonical text starts
// with the prefix (its ends do, their neighbours do not); empty only when no value can have the prefix.
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	fuzz::fuzz_prefix<fuzz::Timeid>(data, size);
	return 0;
}
