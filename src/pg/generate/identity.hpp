// The server's identity: the settings that hold it (idtypes.timeid_clock_id, idtypes.tbsl_machine_id), who
// may give or borrow one, idtypes.require_identity, and idtypes_identity(). See identity.cpp.
#pragma once

#include "pg/common/postgres.hpp"

namespace idtypes::pg {

// From _PG_init: defines idtypes.timeid_clock_id, idtypes.tbsl_machine_id and idtypes.require_identity.
void define_identity_settings();

// The identity a generator issues with: its argument `n`, or the setting when that is NULL (timeid's -1: the
// server's clock id, drawn at random once). Raises, in this order:
// - 22023 when the setting is used and holds an out-of-range value that could not be checked when it was
//   set (it was set before idtypes was loaded): generating with another identity would be silently wrong;
// - 22003 for an argument out of range;
// - 55000 when idtypes.require_identity is on and the setting was not given in the server's configuration;
// - 42501 for an argument other than the server's own identity, unless the role may set the parameter.
unsigned timeid_clock_id_for(FunctionCallInfo fcinfo, int n);
std::uint32_t tbsl_machine_id_for(FunctionCallInfo fcinfo, int n);

} // namespace idtypes::pg
