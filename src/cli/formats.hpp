// The four ID formats behind one interface, for the command-line tool. Every entry is a thin adapter over
// the format's core functions (parse, format, fields, prefix ranges, smallest / largest ID at a time); an ID
// travels between them as its big-endian bytes, whatever its size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/time_scale.hpp"

namespace idtypes::cli {

struct Id {
	std::array<std::uint8_t, 20> bytes{}; // the ID's bytes first (8, 10 or 20), the rest zero
};

enum class Read : std::uint8_t { ok, wrong_length, invalid };

// One way of writing a format's IDs: `convert --to NAME` / `--from NAME`.
struct Spelling {
	const char *name; // unique across formats; a format's first spelling is its canonical text, named after it
	bool recognised;  // `inspect` and `convert` read it without being told (the text shows what it is)
	std::string (*write)(const Id &id);
	Read (*read)(std::string_view text, Id &id, std::string &why); // `why`: the SQL error's DETAIL
};

struct Field {
	const char *name; // the name of the SQL function or make_* argument that gives it
	std::string value;
};

struct Bounds {
	bool ok;    // false: an invalid prefix (`why` says why)
	bool empty; // a valid prefix that no ID has
	Id lo, hi;
	std::string why;
};

struct Format {
	const char *name; // the SQL type
	TimeScale scale;  // how its IDs count time
	const Spelling *spellings;
	std::size_t spelling_count;
	std::int64_t (*units)(const Id &id); // its time, in units of `scale`
	std::vector<Field> (*fields)(const Id &id);
	Bounds (*prefix)(std::string_view prefix); // as T_prefix_range
	Id (*min_at)(std::int64_t units);          // as T_min / T_max
	Id (*max_at)(std::int64_t units);
};

extern const Format formats[4];

// A format by its SQL type name; "xid" names uid11 (its xid profile, the one the tool generates and reads).
const Format *format_named(std::string_view name) noexcept;

// A spelling of `f` by name, "canonical" being its first; nullptr when it has none of that name.
const Spelling *spelling_named(const Format &f, std::string_view name) noexcept;

// The spelling of that name in any format (names are unique), and its format.
const Spelling *any_spelling_named(std::string_view name, const Format *&f) noexcept;

} // namespace idtypes::cli
