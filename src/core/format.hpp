// What describes an ID format, once: every place outside the format's own core files (the PostgreSQL types
// and planner, the public forms, the command-line tool, the SQL edition's constants) reads its `descriptor`
// (timeid::descriptor, tbsl::..., uid11::..., scru160::..., uuid7::...) rather than restating it.
// Each format's header also defines `units(id)`: the ID's time, in units of its scale.
#pragma once

#include <cstddef>

#include "core/alphabet.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

namespace idtypes {

struct Format {
	const char *name;         // the SQL type (also the public forms' tweak and the command-line tool's name)
	TimeScale scale;          // how its IDs count time: epoch, unit, last unit
	std::size_t text_len;     // symbols in its canonical text
	const Alphabet &alphabet; // the canonical text's symbols in order: a prefix pads with the first and the last
	const TextRules &rules;   // what its error details say about a text
};

} // namespace idtypes
