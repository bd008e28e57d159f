// What a standby may generate: PostgreSQL's rule for nextval(). See standby_rule.cpp.
#pragma once

namespace idtypes::pg {

// 55000 in recovery, naming `function`: a generator whose uniqueness rests on an identity or on the mark.
void refuse_on_standby(const char *function);

} // namespace idtypes::pg
