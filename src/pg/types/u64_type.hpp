// Helpers for formats stored as an 8-byte unsigned integer, passed as int8 is (timeid, uid11): by value where
// a Datum has 8 bytes, else by reference; DatumGetUInt64 reads either.
#pragma once

#include "pg/types/id_operators.hpp"

namespace idtypes::pg {

inline std::uint64_t u64_arg(FunctionCallInfo fcinfo, int n) { return DatumGetUInt64(PG_GETARG_DATUM(n)); }

inline int u64_compare(Datum a, Datum b)
{
	std::uint64_t x = DatumGetUInt64(a), y = DatumGetUInt64(b);
	return x < y ? -1 : (x > y ? 1 : 0);
}

inline double u64_position(Datum id) { return static_cast<double>(DatumGetUInt64(id)); }

// IdTypeTraits::units_of from the core's F::units.
template <std::int64_t (*Units)(std::uint64_t)>
std::int64_t u64_units(Datum id)
{
	return Units(DatumGetUInt64(id));
}

} // namespace idtypes::pg
