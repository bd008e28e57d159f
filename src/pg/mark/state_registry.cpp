// One generator state per server, whatever library versions its sessions run. An update of the package
// replaces the library on disk while older sessions keep the one they loaded: each build of idtypes must
// then issue from one state, or refuse. A state's layout is part of its name, so two layouts never share
// one struct; instead:
// - a version-neutral registry, "idtypes generator registry", in the main shared memory segment (found by
//   ShmemInitStruct in any process, preloaded or not, on every version), records the layout and the library
//   that first claimed the server's state. Its struct is frozen: every later library reads it as it is, and
//   issues only when the registry records its own layout, else refuses (report_state_refused), so the next
//   change of layout is safe by construction;
// - the libraries before it (idtypes 1.0 to 1.5) know no registry: the names their states had are looked
//   for where they kept them (the main segment; on 17 and later also the DSM registry). A state found there
//   refuses this library; where absent, a zero-sized (one-byte in the DSM registry) entry of that name is
//   made instead, which an earlier library then finds with another size and refuses to use (its sessions
//   get PostgreSQL's size error). Either way, one state issues.
// An earlier library's state lasts until the server stops: only a restart clears it.
#include "pg/mark/state_registry.hpp"

#include "pg/common/postgres.hpp"

#include <cstring>

extern "C" {
#include "storage/shmem.h"
#if PG_VERSION_NUM >= 170000
#include "storage/dsm_registry.h"
#endif
}

namespace idtypes::pg {

namespace {

// Frozen: never change this struct, its name or its magic (later libraries read it so).
struct StateRegistry {
	char magic[8];        // "idtypes"
	std::uint32_t layout; // the layout of the state the server's sessions issue from
	char library[20];     // the version of the library that claimed it, e.g. "1.6"
};
static_assert(sizeof(StateRegistry) == 32, "the registry's layout is frozen");
constexpr const char *registry_name = "idtypes generator registry";
constexpr char registry_magic[8] = "idtypes";

// The names of the states of idtypes 1.0 to 1.5 (1.0's in the main segment only: it was preloaded).
constexpr const char *earlier_states[] = {"idtypes generators",    "idtypes generators v2", "idtypes generators v3",
                                          "idtypes generators v4", "idtypes generators v5", "idtypes generators v6",
                                          "idtypes generators v7"};

// Why this process refuses (process-local: the postmaster's is inherited by its backends).
struct Refusal {
	bool refused;
	char state[64];   // an earlier library's state, or empty when the registry named another layout
	char library[20]; // the registry's library
	std::uint32_t layout;
};
Refusal refusal{};

void refuse_for_state(const char *name)
{
	refusal.refused = true;
	snprintf(refusal.state, sizeof refusal.state, "%s", name);
}

// Whether finding or making the entry NAME of SIZE bytes (make) raised PostgreSQL's internal error of an
// entry of that name with another size: an earlier library's state. Any other error is raised again.
template <typename Make>
bool found_with_another_size(Make make)
{
	MemoryContext context = CurrentMemoryContext;
	volatile bool other_size = false;
	PG_TRY();
	{
		make();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(context);
		ErrorData *e = CopyErrorData();
		if (e->sqlerrcode != ERRCODE_INTERNAL_ERROR)
			PG_RE_THROW();
		FlushErrorState();
		FreeErrorData(e);
		other_size = true;
	}
	PG_END_TRY();
	return other_size;
}

#if PG_VERSION_NUM >= 170000
void leave_empty(void *) {}
#endif

} // namespace

bool claim_in_main_segment()
{
	if (!IsUnderPostmaster)
		refusal = Refusal{}; // the postmaster, at its start or after a crash: a new shared memory
	else if (refusal.refused)
		return false;
	bool found = false;
	auto *r = static_cast<StateRegistry *>(ShmemInitStruct(registry_name, sizeof(StateRegistry), &found));
	if (!found) {
		std::memcpy(r->magic, registry_magic, sizeof r->magic);
		r->layout = state_layout;
		snprintf(r->library, sizeof r->library, "%s", IDTYPES_VERSION);
	}
	if (std::memcmp(r->magic, registry_magic, sizeof r->magic) != 0 || r->layout != state_layout) {
		refusal.refused = true;
		refusal.layout = r->layout;
		std::memcpy(refusal.library, r->library, sizeof refusal.library);
		refusal.library[sizeof refusal.library - 1] = '\0';
		return false;
	}
	for (const char *name : earlier_states) {
		if (found_with_another_size([name] {
			    bool seen = false;
			    (void)ShmemInitStruct(name, 0, &seen);
		    })) {
			refuse_for_state(name);
			return false;
		}
	}
	return true;
}

bool claim_in_dsm_registry()
{
#if PG_VERSION_NUM >= 170000
	static bool claimed = false;
	if (refusal.refused)
		return false;
	if (claimed)
		return true;
	for (std::size_t i = 1; i < sizeof earlier_states / sizeof earlier_states[0]; ++i) {
		const char *name = earlier_states[i];
		if (found_with_another_size([name] {
			    bool seen = false;
			    (void)named_dsm_segment<leave_empty>(name, 1, &seen);
		    })) {
			refuse_for_state(name);
			return false;
		}
	}
	claimed = true;
#endif
	return true;
}

void report_state_refused()
{
	if (refusal.state[0] != '\0')
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("sessions on an earlier idtypes library have generated in this server since it started"),
		         errdetail("Their generator state \"%s\" stays in shared memory until the server stops; idtypes %s "
		                   "issues no ID beside it from a state of its own, which could repeat theirs.",
		                   refusal.state, IDTYPES_VERSION),
		         errhint("End the sessions that still run the earlier library (they reconnect onto this one), "
		                 "then restart the server.")));
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("sessions on idtypes library %s have generated in this server since it started", refusal.library),
	         errdetail("Its generator state (layout %u) is the server's until the server stops; idtypes %s (layout "
	                   "%u) issues no ID beside it from a state of its own, which could repeat its IDs.",
	                   refusal.layout, IDTYPES_VERSION, state_layout),
	         errhint("End the sessions that still run idtypes %s (they reconnect onto this library), then restart "
	                 "the server.",
	                 refusal.library)));
	pg_unreachable();
}

} // namespace idtypes::pg
