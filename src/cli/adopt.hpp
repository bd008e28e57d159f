// idtypes adopt: the psql script that drives an adoption (docs/adopting.md) step by step, the steps a
// procedure cannot run (CREATE INDEX CONCURRENTLY) included, through psql's \gexec. No database here: the
// script is piped to psql, which runs it against the server.
#pragma once

#include "cli/args.hpp"

namespace idtypes::cli {

int adopt(const Args &args);

} // namespace idtypes::cli
