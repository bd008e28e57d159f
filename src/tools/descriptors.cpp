// Prints every format's descriptor (src/core/format.hpp) as `make sql-edition` instantiates
// src/sql_edition/type.sql.in with it, one line per format:
//   name epoch_us unit_us max_units text_len first_symbol last_symbol
// Built by the Makefile with the C++ compiler alone (no PostgreSQL); everything is evaluated at compile time.
#include <cstdio>

#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"

namespace {

struct Line {
	const char *name;
	idtypes::TimeScale scale;
	std::size_t text_len;
	char first, last;
};

constexpr Line line_of(const idtypes::Format &f)
{
	return Line{f.name, f.scale, f.text_len, f.alphabet.symbols.front(), f.alphabet.symbols.back()};
}

constexpr Line lines[] = {line_of(idtypes::timeid::descriptor), line_of(idtypes::tbsl::descriptor),
                          line_of(idtypes::uid11::descriptor), line_of(idtypes::scru160::descriptor)};

} // namespace

int main()
{
	for (const Line &l : lines)
		std::printf("%s %lld %lld %lld %zu %c %c\n", l.name, static_cast<long long>(l.scale.epoch_us),
		            static_cast<long long>(l.scale.unit_us), static_cast<long long>(l.scale.max_units), l.text_len,
		            l.first, l.last);
	return 0;
}
