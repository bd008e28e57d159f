// Which library's generator state a server issues from: one per server, whatever library versions its
// sessions run (state_registry.cpp). server_state.cpp claims it before it attaches to the state.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pg/mark/server_state.hpp"

namespace idtypes::pg {

// The layout of this library's ServerState, as the registry records it (and the state's name carries):
// derived from the struct itself, its size and each field's offset, size and alignment, so that a library
// whose struct differs in any of them records another layout. Every field is listed below in its order, and
// the list must tile the struct exactly (each field where the one before ends, aligned; the struct's end
// after the last): a field added to the struct and not here fails the build, unless it hides in the
// padding before an aligned field (its size then changes no offset: list it anyway). Nested structs of
// the mark's own (RebuildProgress) are listed field by field the same way.
namespace state_layout_detail {

struct Field {
	std::size_t offset, size, alignment;
};
#define IDTYPES_FIELD(type, f)                                                                                         \
	Field { offsetof(type, f), sizeof(type::f), alignof(decltype(type::f)) }

inline constexpr Field server_state_fields[] = {
    IDTYPES_FIELD(ServerState, durable_until_us),
    IDTYPES_FIELD(ServerState, mark_writer_pid),
    IDTYPES_FIELD(ServerState, mark_writer_step),
    IDTYPES_FIELD(ServerState, mark_released),
    IDTYPES_FIELD(ServerState, key_file_state),
    IDTYPES_FIELD(ServerState, key_file_error_number),
    IDTYPES_FIELD(ServerState, key_file_layout),
    IDTYPES_FIELD(ServerState, logged_failure),
    IDTYPES_FIELD(ServerState, replicated_applied),
    IDTYPES_FIELD(ServerState, rebuild),
    IDTYPES_FIELD(ServerState, timeid_last_micros),
    IDTYPES_FIELD(ServerState, timeid_clock_id),
    IDTYPES_FIELD(ServerState, uid11_last),
    IDTYPES_FIELD(ServerState, fullrand_last_ticket),
    IDTYPES_FIELD(ServerState, fullrand_key_state),
    IDTYPES_FIELD(ServerState, fullrand_key),
    IDTYPES_FIELD(ServerState, fullrand_key_adopted),
    IDTYPES_FIELD(ServerState, fullrand_range_count),
    IDTYPES_FIELD(ServerState, fullrand_ranges),
    IDTYPES_FIELD(ServerState, key_record_maker),
    IDTYPES_FIELD(ServerState, key_record_worker),
    IDTYPES_FIELD(ServerState, key_record_after_taken),
    IDTYPES_FIELD(ServerState, key_record_after),
    IDTYPES_FIELD(ServerState, key_record_lsn),
    IDTYPES_FIELD(ServerState, key_record_changed),
    IDTYPES_FIELD(ServerState, tbsl_lock),
    IDTYPES_FIELD(ServerState, tbsl),
    IDTYPES_FIELD(ServerState, tbsl_issued),
    IDTYPES_FIELD(ServerState, scru160_lock),
    IDTYPES_FIELD(ServerState, scru160),
    IDTYPES_FIELD(ServerState, uuid7_lock),
    IDTYPES_FIELD(ServerState, uuid7_last),
};
inline constexpr Field rebuild_progress_fields[] = {
    IDTYPES_FIELD(RebuildProgress, running),      IDTYPES_FIELD(RebuildProgress, launcher_pid),
    IDTYPES_FIELD(RebuildProgress, started_us),   IDTYPES_FIELD(RebuildProgress, ended),
    IDTYPES_FIELD(RebuildProgress, databases),    IDTYPES_FIELD(RebuildProgress, databases_read),
    IDTYPES_FIELD(RebuildProgress, largest_us),   IDTYPES_FIELD(RebuildProgress, launcher_ended),
    IDTYPES_FIELD(RebuildProgress, failure_lock), IDTYPES_FIELD(RebuildProgress, failure),
};
#undef IDTYPES_FIELD

constexpr std::size_t aligned(std::size_t at, std::size_t alignment)
{
	return (at + alignment - 1) / alignment * alignment;
}

// Whether the fields, in their order, tile a struct of `size` bytes aligned at `alignment`.
template <std::size_t n>
constexpr bool tiles(const Field (&fields)[n], std::size_t size, std::size_t alignment)
{
	std::size_t end = 0;
	for (const Field &f : fields) {
		if (f.offset != aligned(end, f.alignment))
			return false;
		end = f.offset + f.size;
	}
	return aligned(end, alignment) == size;
}
static_assert(tiles(server_state_fields, sizeof(ServerState), alignof(ServerState)),
              "every field of ServerState, in its order, in server_state_fields");
static_assert(tiles(rebuild_progress_fields, sizeof(RebuildProgress), alignof(RebuildProgress)),
              "every field of RebuildProgress, in its order, in rebuild_progress_fields");

// FNV-1a over the sizes, offsets and alignments (as 8 bytes whatever size_t's width: 32-bit builds too).
constexpr std::uint32_t mix(std::uint32_t h, std::uint64_t value)
{
	for (int i = 0; i < 8; i++) {
		h ^= static_cast<std::uint32_t>((value >> (8 * i)) & 0xFF);
		h *= 16777619u;
	}
	return h;
}
template <std::size_t n>
constexpr std::uint32_t mix_fields(std::uint32_t h, const Field (&fields)[n])
{
	h = mix(h, n);
	for (const Field &f : fields)
		h = mix(mix(mix(h, f.offset), f.size), f.alignment);
	return h;
}

} // namespace state_layout_detail

// The top bit set: never one of the small numbers the registry recorded before (1.6's 8).
inline constexpr std::uint32_t state_layout =
    0x80000000u | state_layout_detail::mix_fields(
                      state_layout_detail::mix_fields(state_layout_detail::mix(2166136261u, sizeof(ServerState)),
                                                      state_layout_detail::server_state_fields),
                      state_layout_detail::rebuild_progress_fields);

// What the registry needs of the main segment, aligned (state_registry.cpp), for a preloading library's request.
inline constexpr std::size_t registry_space = 256;

// Under AddinShmemInitLock, in any process (the postmaster too): the registry claimed for this layout in the
// main segment, and the states of earlier libraries there looked for (blocked where absent). Never raises
// for what it finds; true when this library may issue (else state_refused() holds the reason).
bool claim_in_main_segment();

// In a backend, once per process, on PostgreSQL 17 and later: the states earlier libraries keep in the DSM
// registry looked for (blocked where absent). True when this library may issue.
bool claim_in_dsm_registry();

// 55000, naming the other library's state and what to do: after a claim returned false.
[[noreturn]] void report_state_refused();

} // namespace idtypes::pg
