// Helpers for formats stored as an 8-byte, pass-by-value unsigned integer (timeid, uid11).
#pragma once

#include "pg/id_ranges.hpp"

namespace idtypes::pg {

inline int u64_compare(Datum a, Datum b)
{
	std::uint64_t x = DatumGetUInt64(a), y = DatumGetUInt64(b);
	return x < y ? -1 : (x > y ? 1 : 0);
}

} // namespace idtypes::pg

namespace idtypes::pg {

// A core prefix range {status, empty, lo, hi} of 64-bit values as IdBounds.
template <typename CoreRange>
IdBounds u64_bounds(const CoreRange &r)
{
	if (!r.status.ok())
		return IdBounds{IdBounds::invalid, 0, 0, r.status};
	if (r.empty)
		return IdBounds{IdBounds::empty, 0, 0, {}};
	return IdBounds{IdBounds::range, UInt64GetDatum(r.lo), UInt64GetDatum(r.hi), {}};
}

} // namespace idtypes::pg
