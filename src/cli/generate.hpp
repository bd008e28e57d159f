// New IDs for `idtypes gen`: the core's generators driven by the real clock and the kernel's strong random
// source. One generator's IDs strictly increase (each core generator keeps its state for that); separate
// runs of the tool share no state, so they are ordered only as far as the clock moved between them.
#pragma once

#include <memory>
#include <string>

#include "cli/formats.hpp"

namespace idtypes::cli {

struct GenOptions {
	unsigned machine = 0;   // tbsl: machine id, 0..99
	bool sequenced = false; // tbsl: suffixes 0, 1, 2, ... within a microsecond instead of random
	int clock_id = -1;      // timeid: 0..1023, or -1 for one drawn at random
};

class Generator {
public:
	virtual ~Generator() = default;
	// The next ID; false with the reason when none can be made (the clock outside the format's range).
	virtual bool next(Id &out, std::string &why) = 0;
};

// A generator of the format (by SQL type name); nullptr when it has none.
std::unique_ptr<Generator> make_generator(const Format &format, const GenOptions &options);

// UUIDv7s as uuid_v7_generate() lays them out (PostgreSQL 18's uuidv7()): the ID's first 16 bytes.
std::unique_ptr<Generator> make_uuid_generator();

} // namespace idtypes::cli
