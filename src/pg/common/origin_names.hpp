// The names of the server's replication origins, read from the shared catalog pg_replication_origin: where
// the key records (pg/mark/key_records.cpp) and the keyring's version records (pg/public/keyring.cpp) are
// kept, each read by one scan here.
#pragma once

#include <string_view>

namespace idtypes::pg {

// Calls each(name, context) with the name of every replication origin, in a scan of the catalog under
// AccessShareLock (needs a transaction). The name's bytes last only through the call.
void for_each_origin_name(void (*each)(std::string_view name, void *context), void *context);

// The same with a callable taking the name (a lambda capturing what it fills).
template <typename Each>
void for_each_origin_name(Each &each)
{
	for_each_origin_name([](std::string_view name, void *context) { (*static_cast<Each *>(context))(name); }, &each);
}

} // namespace idtypes::pg
