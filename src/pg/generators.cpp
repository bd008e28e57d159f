#include "pg/generators.hpp"

#include <new>

extern "C" {
#include "access/xlog.h"
#include "storage/backendid.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
}

namespace idtypes::pg {

namespace {

SharedGenerators *shared = nullptr;
#if PG_VERSION_NUM >= 150000
shmem_request_hook_type previous_request_hook = nullptr;
#endif
shmem_startup_hook_type previous_startup_hook = nullptr;

constexpr const char *shmem_name = "idtypes generators";

void request_memory()
{
#if PG_VERSION_NUM >= 150000
	if (previous_request_hook)
		previous_request_hook();
#endif
	RequestAddinShmemSpace(MAXALIGN(sizeof(SharedGenerators)));
}

// Runs in the postmaster (and again after a crash restart); backends inherit the pointer by fork.
void attach_memory()
{
	if (previous_startup_hook)
		previous_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	bool found = false;
	auto *s = static_cast<SharedGenerators *>(ShmemInitStruct(shmem_name, sizeof(SharedGenerators), &found));
	if (!found) {
		pg_atomic_init_u64(&s->timeid_last_micros, 0);
		pg_atomic_init_u64(&s->uid11_last, 0);
		SpinLockInit(&s->tbsl_lock);
		new (&s->tbsl) tbsl::State();
		SpinLockInit(&s->scru160_lock);
		new (&s->scru160) scru160::State();
	}
	LWLockRelease(AddinShmemInitLock);
	shared = s;
}

// 1..MaxBackends for a backend; 0 for a process without one (it then shares slot 0).
int backend_id()
{
#if PG_VERSION_NUM >= 170000
	int id = MyProcNumber + 1;
#else
	int id = MyBackendId;
#endif
	return id > 0 && id <= MaxBackends ? id : 0;
}

} // namespace

SharedGenerators *shared_generators() { return shared; }

void request_shared_generators()
{
#if PG_VERSION_NUM >= 150000
	previous_request_hook = shmem_request_hook;
	shmem_request_hook = request_memory;
#else
	request_memory();
#endif
	previous_startup_hook = shmem_startup_hook;
	shmem_startup_hook = attach_memory;
}

Share backend_share(unsigned bits)
{
	unsigned slot_bits = 0;
	while ((1u << slot_bits) <= static_cast<unsigned>(MaxBackends))
		slot_bits++;
	auto id = static_cast<std::uint32_t>(backend_id());
	if (slot_bits >= bits) // more backends than values: one value each (and shared ones past that)
		return Share{id & ((1u << bits) - 1), 1};
	std::uint32_t span = 1u << (bits - slot_bits);
	return Share{id * span, span};
}

std::uint32_t backend_discriminator()
{
	std::uint64_t system = GetSystemIdentifier();
	return static_cast<std::uint32_t>(system ^ (system >> 32)) + static_cast<std::uint32_t>(backend_id());
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_mode);

Datum idtypes_generator_mode(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(idtypes::pg::shared_generators() ? "shared" : "backend"));
}

} // extern "C"
