// Generation: one entry per format over the server's one generator state (src/pg/mark/server_state.hpp).
// The SQL functions of src/pg/types/ call these and raise errors; they never see the state.
#pragma once

#include <cstdint>

namespace idtypes {
namespace tbsl {
struct Request;
struct Generated;
} // namespace tbsl
namespace uid11 {
struct Generated;
}
namespace scru160 {
struct Randomness;
struct Generated;
} // namespace scru160
namespace uuid7 {
struct Generated;
}
} // namespace idtypes

namespace idtypes::pg {

// The next timeid microsecond of the server: the clock's, or the last one issued plus one, whichever is
// greater. False past 2^53-1.
bool next_timeid_micros(std::int64_t now_us, std::uint64_t &micros);
// The clock id that idtypes.timeid_clock_id = -1 stands for: drawn at random once per server.
unsigned server_timeid_clock_id();

// The next xid of the server (uid11::next_xid over the last one issued by any session).
uid11::Generated next_xid(std::int64_t now_ms, std::uint32_t random);

// The next fullrand uid11 of the server: a keyed permutation of the server's next ticket (see uid11.hpp),
// so never one issued before, across restarts too (the key is kept in the file pg_idtypes_high_water, with
// the data directory instance it belongs to: a copy of the directory draws its own). Not ok past 2112.
uid11::Generated next_fullrand(std::int64_t now_us);

// The next TBSL of the server, reading the clock and waiting for it as the request's policy says. When the
// mark cannot be moved past the clock, raises why (58030, or a cancel), as every generator here does.
tbsl::Generated next_tbsl(const tbsl::Request &request);

// The next SCRU160 of the server (the spec's counter rules over one state).
scru160::Generated next_scru160(std::int64_t now_ms, const scru160::Randomness &random);

// What the state holds about the server's identity, for idtypes_identity(): whether the clock id that
// idtypes.timeid_clock_id = -1 stands for was drawn yet (and which), and the published mark (Unix µs; 0
// before any). Attaches to the state, changes nothing.
struct GeneratorReport {
	bool clock_id_drawn;
	unsigned clock_id;
	std::int64_t mark_us;
};
GeneratorReport generator_report();

// The next UUIDv7 of the server (uuid7::next over the last one issued by any session), drawing on 64 random
// bits. Not ok past the year 10889.
uuid7::Generated next_uuid7(std::int64_t now_us, std::uint64_t random);

} // namespace idtypes::pg
