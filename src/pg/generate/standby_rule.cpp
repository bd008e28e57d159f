// What a standby may generate. A standby cannot write the mark (no WAL in recovery), and the identity it
// would generate with is usually its primary's (its postgresql.conf is a copy); its primary's sessions may
// use any identity at all (settings per database or role, arguments), which no standby can know. So, as
// PostgreSQL refuses nextval() in recovery, the generators whose uniqueness rests on an identity or on the
// mark refuse there: timeid_generate, tbsl_generate and tbsl_generate_at (an identity), uid11_generate (its
// xid profile has no identity field: a standby's values would be kept apart from its primary's by 22 random
// bits only), uid11_generate_random (its tickets are a counter under the mark). scru160_generate and
// uuid_v7_generate go on: 80 and 62 random bits keep their values apart from the primary's (inside the
// standby, its shared state; across a restart of the standby, only those bits). timeid_generate_at and
// uid11_generate_at draw neither an identity nor a ticket (random bits, no state) and go on too.
#include "pg/generate/standby_rule.hpp"

#include "pg/common/postgres.hpp"

extern "C" {
#include "access/xlog.h"
}

namespace idtypes::pg {

void refuse_on_standby(const char *function)
{
	if (!RecoveryInProgress())
		return;
	ereport(ERROR,
	        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE), errmsg("%s cannot generate on a standby", function),
	         errdetail("Its values are kept apart from the primary's by an identity or by the primary's mark, which "
	                   "a standby cannot share: it could issue an ID the primary issues."),
	         errhint("Generate on the primary, as for nextval(). On a standby, scru160_generate() and "
	                 "uuid_v7_generate() work: their random bits keep them apart.")));
}

} // namespace idtypes::pg
