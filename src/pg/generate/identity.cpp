// The server's identity. Inside one server no ID repeats whatever the identity; across servers that write
// into one keyspace the identity fields (timeid's clock id, tbsl's machine id) are all that keep them apart.
// So an identity is the DBA's:
// - the settings are PGC_SUSET: only a superuser or a role granted SET on the parameter (GRANT SET ON
//   PARAMETER) changes them; PostgreSQL applies its own rules to SET, ALTER ROLE/DATABASE ... SET and to a
//   value set before the library was loaded (define_custom_variable applies such a value only if the role
//   that set it could set the parameter);
// - an identity argument other than the server's own needs that same privilege (the server's own, passed
//   explicitly, is what the generator would use anyway);
// - with idtypes.require_identity on, generators with an identity field refuse until the identity is given
//   in the server's configuration;
// - idtypes_identity() says what the server generates with, so a fleet can check that no two nodes share it;
// - a standby generates none of them: its generators that use an identity refuse in recovery, as
//   nextval() does (standby_rule.cpp), so the identity a standby copied from its primary's postgresql.conf
//   (pg_basebackup, Patroni, repmgr) is never used beside the primary's. After a promotion the server
//   generates with its own configured identity, as the primary did.
#include "pg/generate/identity.hpp"

#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "pg/common/result_shape.hpp"
#include "pg/generate/generators.hpp"
#include "pg/mark/server_state.hpp"

#include <cstring>

extern "C" {
#include "access/htup_details.h"
#include "utils/acl.h"
}

namespace idtypes::pg {

namespace {

// What the check hook hands to the assign hook: PostgreSQL keeps it with the value (in its stack of values
// for SET LOCAL, RESET, the end of a transaction, a reload) and hands it back to the assign hook whenever it
// makes that value current again, so what it says always belongs to the value in use.
struct Assigned {
	GucSource source;       // where the value came from: the one pg_settings.source shows
	bool stands_in = false; // the default, in use because the value set before loading was refused
};

struct IdentitySetting {
	const char *name;      // the parameter
	const char *argument;  // the generators' argument that gives an identity instead
	int min, max;          // timeid's min, -1, stands for the server's clock id, drawn at random once
	int value;             // the parameter's variable; its boot value until defined
	GucSource source;      // where `value` came from (Assigned::source of the value in use)
	bool refused;          // the value in use stands in for one refused when the library was loaded
	char refused_text[32]; // that value, as it was set
	Assigned *in_use;      // the Assigned of the value in use
};

IdentitySetting timeid_clock{"idtypes.timeid_clock_id",
                             "clock_id",
                             -1,
                             static_cast<int>(timeid::max_clock_id),
                             -1,
                             PGC_S_DEFAULT,
                             false,
                             "",
                             nullptr};
IdentitySetting tbsl_machine{"idtypes.tbsl_machine_id",
                             "machine_id",
                             0,
                             static_cast<int>(tbsl::max_machine),
                             0,
                             PGC_S_DEFAULT,
                             false,
                             "",
                             nullptr};
bool require_identity = false;

template <IdentitySetting &s>
bool check_identity(int *, void **extra, GucSource source)
{
	auto *assigned = static_cast<Assigned *>(guc_extra_alloc(sizeof(Assigned)));
	if (assigned == nullptr)
		return false;
	*assigned = Assigned{source, false};
	*extra = assigned;
	return true;
}

template <IdentitySetting &s>
void assign_identity(int, void *extra)
{
	if (extra == nullptr) // PostgreSQL passes the extra that the check hook made for the value
		return;
	auto *assigned = static_cast<Assigned *>(extra);
	s.source = assigned->source;
	s.refused = assigned->stands_in;
	s.in_use = assigned;
}

// Defines the parameter with its real range (pg_settings shows it). A value set before the library was loaded
// (postgresql.conf, the command line, ALTER DATABASE/ROLE ... SET, connection options, SET in the session)
// and out of that range is then refused by PostgreSQL, which keeps the default with only a WARNING (perhaps
// only in the server log): for an identity, another writer's identity. So the default, in use in its place,
// is marked as standing in for it (in its Assigned, which PostgreSQL hands back whenever it makes that value
// current again, e.g. RESET), and identity_of() refuses to generate with it, naming the value set.
// Any value set later is checked when it is set (SET, ALTER ... SET, a reload). A value in range that
// PostgreSQL did not apply (set by a role that may not set the parameter) is PostgreSQL's rule, as for any
// parameter: its WARNING, and the default.
template <IdentitySetting &s>
void define(const char *short_desc, const char *long_desc)
{
	// the placeholder's text, if one was set (19 answers "" where none was: no value either way)
	const char *preset = GetConfigOption(s.name, true, false);
	const bool was_set = preset != nullptr && preset[0] != '\0';
	if (was_set)
		snprintf(s.refused_text, sizeof s.refused_text, "%s", preset);
	DefineCustomIntVariable(s.name, short_desc, long_desc, &s.value, s.value, s.min, s.max, PGC_SUSET, 0,
	                        check_identity<s>, assign_identity<s>, nullptr);
	int parsed = 0;
	const bool out_of_range =
	    was_set && (!parse_int(s.refused_text, &parsed, 0, nullptr) || parsed < s.min || parsed > s.max);
	if (out_of_range && s.in_use != nullptr) {
		s.in_use->stands_in = true;
		s.refused = true;
	}
}

// Where the value in use came from, as idtypes_identity() names it: "configuration": postgresql.conf
// (ALTER SYSTEM included) or the server's command line, the same for every session; "session": ALTER
// ROLE/DATABASE ... SET, connection options or SET, which a session may not share with the others;
// "random": timeid's -1; "default": never set.
const char *origin_of(const IdentitySetting &s)
{
	if (s.min == -1 && s.value == -1)
		return "random";
	if (s.source == PGC_S_DEFAULT)
		return "default";
	return s.source <= PGC_S_ARGV ? "configuration" : "session";
}

bool configured(const IdentitySetting &s)
{
	return s.value >= 0 && !s.refused && strcmp(origin_of(s), "configuration") == 0;
}

// What the generator uses without an argument: the setting, or for timeid's -1 the server's drawn clock id.
int own_identity(const IdentitySetting &s)
{
	return s.value != -1 ? s.value : static_cast<int>(server_timeid_clock_id());
}

void require_configured(const IdentitySetting &s)
{
	if (!require_identity || configured(s))
		return;
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	         errmsg("%s is not set in this server's configuration, and idtypes.require_identity is on", s.name),
	         s.min == -1 && s.value == -1 ? errdetail("It is -1: the clock id would be drawn at random.")
	                                      : errdetail("It is %d, from %s.", s.value, origin_of(s)),
	         errhint("Give this server its own %s, %d to %d, in postgresql.conf or with ALTER SYSTEM, and reload.",
	                 s.name, 0, s.max)));
}

int identity_of(const IdentitySetting &s, FunctionCallInfo fcinfo, int n)
{
	if (PG_ARGISNULL(n)) {
		if (s.refused)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("invalid value for parameter \"%s\": %s", s.name, s.refused_text),
			                errdetail("It was set before idtypes was loaded, so it could not be checked then; it "
			                          "must be between %d and %d.",
			                          s.min, s.max),
			                errhint("Set %s to a value from %d to %d, or pass %s.", s.name, s.min, s.max, s.argument)));
		require_configured(s);
		return own_identity(s);
	}
	int32 given = PG_GETARG_INT32(n);
	if (given < 0 || given > s.max)
		report_out_of_range(s.argument, 0, s.max, given);
	require_configured(s);
	// superuser() first: it is cached, the privilege is a catalog lookup
	if (superuser() || (!s.refused && given == own_identity(s)))
		return given;
	if (pg_parameter_aclcheck(s.name, GetUserId(), ACL_SET) != ACLCHECK_OK)
		ereport(
		    ERROR,
		    (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		     errmsg("permission denied to generate with %s %d: it is not this server's identity", s.argument, given),
		     errdetail("Another identity than the one %s gives needs the privilege to set that parameter.", s.name),
		     errhint("Leave out %s to generate with the server's identity, or GRANT SET ON PARAMETER %s to "
		             "the role.",
		             s.argument, s.name)));
	return given;
}

} // namespace

void define_identity_settings()
{
	define<timeid_clock>("Clock id of the timeids generated without a clock_id argument: -1 to 1023.",
	                     "-1 (the default) uses one clock id per server, drawn at random; 0 to 1023 sets it.");
	define<tbsl_machine>("Machine id of the TBSLs generated without a machine_id argument: 0 to 99.",
	                     "Give every server that writes into the same keyspace its own id, 0 to 99.");
	DefineCustomBoolVariable("idtypes.require_identity",
	                         "Generators with an identity field refuse until the server's configuration gives it.",
	                         "For fleets: timeid_generate needs idtypes.timeid_clock_id, tbsl_generate and "
	                         "tbsl_generate_at need idtypes.tbsl_machine_id, set in postgresql.conf, ALTER SYSTEM or "
	                         "the command line (not -1, not the default, not by a session).",
	                         &require_identity, false, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
}

unsigned timeid_clock_id_for(FunctionCallInfo fcinfo, int n)
{
	return static_cast<unsigned>(identity_of(timeid_clock, fcinfo, n));
}

std::uint32_t tbsl_machine_id_for(FunctionCallInfo fcinfo, int n)
{
	return static_cast<std::uint32_t>(identity_of(tbsl_machine, fcinfo, n));
}

} // namespace idtypes::pg

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_identity);

// One row: what this server generates with (in this session) and where its generator state stands.
Datum idtypes_identity(PG_FUNCTION_ARGS)
{
	using namespace idtypes::pg;
	constexpr idtypes::TimeScale unix_us{0, 1, INT64_MAX};
	TupleDesc desc;
	if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "idtypes_identity() must return a row");
	// 1.4's SQL declared eight columns (two primary_* more): that catalog is refused, never read past
	(void)result_shape(desc, "idtypes_identity()", {{INT4OID, TEXTOID, INT4OID, TEXTOID, TEXTOID, TIMESTAMPTZOID}});
	const GeneratorReport state = generator_report();

	Datum values[6];
	bool nulls[6] = {};
	// -1: the clock id drawn at random, NULL until the server draws it (when it first generates a timeid)
	values[0] = Int32GetDatum(timeid_clock.value == -1 ? static_cast<int32>(state.clock_id) : timeid_clock.value);
	nulls[0] = timeid_clock.value == -1 && !state.clock_id_drawn;
	values[1] = CStringGetTextDatum(origin_of(timeid_clock));
	values[2] = Int32GetDatum(tbsl_machine.value);
	values[3] = CStringGetTextDatum(origin_of(tbsl_machine));
	values[4] = CStringGetTextDatum(generator_mode()); // what idtypes_generator_mode() says
	nulls[5] = state.mark_us == 0;
	values[5] = nulls[5] ? Datum(0) : TimestampTzGetDatum(timestamptz_of_units(unix_us, state.mark_us));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

} // extern "C"
