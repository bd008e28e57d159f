// Time questions on plain uuid columns holding UUIDv7 or ULIDs: `uuid <@ tstzrange`, `uuid ^@ text` (hex
// prefixes), uuid_v7_timestamp, uuid_v7_min/_max, through the same prefix/time-window mechanism as the
// extension's own types. uuid is PostgreSQL's type: its order is bytewise (uuid_cmp is memcmp), so the
// fixed-length shape's comparison and position serve it, and the planner's rewrite uses uuid's own btree
// operators. The SQL helper functions are named uuid_* (traits.name); the C entry points uuid_v7_*, apart
// from any symbol PostgreSQL or libuuid export. Of the mechanism's entry points, uuid.sql binds all but
// uuid_v7_prefix_range (uuid has no range type here), uuid_v7_in_range and uuid_v7_comparison_sel (uuid's btree
// family and comparison operators are PostgreSQL's own, not the extension's to change).
#include "core/uuid7.hpp"
#include "pg/fixed_shape.hpp"

extern "C" {
#include "utils/uuid.h"
}

using namespace idtypes;
using namespace idtypes::pg;

namespace {

std::int64_t units_of(Datum id)
{
	return static_cast<std::int64_t>(uuid7::unix_ms(reinterpret_cast<const std::uint8_t *>(DatumGetPointer(id))));
}

static_assert(sizeof(pg_uuid_t) == uuid7::size);

const IdTypeTraits traits = {"uuid",
                             &uuid7::rules,
                             uuid7::time_scale,
                             prefix_bounds<uuid7::prefix_range>,
                             datum_at<uuid7::min_at>,
                             datum_at<uuid7::max_at>,
                             units_of,
                             fixed_compare<uuid7::size>,
                             fixed_position<uuid7::size>};

} // namespace

extern "C" {
IDTYPES_RANGE_FUNCTIONS(uuid_v7, traits)
}
