// The one place that includes PostgreSQL's headers (inside extern "C"), plus the helpers every wrapper
// shares: error reporting, timestamps, randomness, the clock. Include this, never postgres.h directly.
// C++ and core headers come first: port.h redefines snprintf and friends as macros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/bigradix.hpp"
#include "core/text_status.hpp"
#include "core/time_scale.hpp"

extern "C" {
#include "postgres.h"

#include "access/hash.h"
#include "access/stratnum.h"
#include "catalog/namespace.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_type_d.h"
#include "commands/defrem.h"
#include "common/hashfn.h"
#include "common/int.h"
#include "fmgr.h"
#include "funcapi.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
}

// The supported versions, and the APIs that changed between them.
#include "pg/common/compat.hpp"

namespace idtypes::pg {

// 22P02 `invalid input syntax for type <type>: "<input>"` with the core's explanation as DETAIL.
[[noreturn]] void report_invalid_text(const char *type, std::string_view input, const TextStatus &status,
                                      const TextRules &rules);
// The same error for a type's input function: on PostgreSQL 16 and later, when the caller asked for soft
// errors (pg_input_is_valid, COPY ... ON_ERROR), it is recorded in the caller's context and this returns;
// otherwise it is raised.
void report_invalid_input(Node *escontext, const char *type, std::string_view input, const TextStatus &status,
                          const TextRules &rules);
// 22P02 for a bytea of the wrong length cast to a fixed-length type.
[[noreturn]] void report_wrong_length(const char *type, std::size_t expected, std::size_t found);
// 22P03 `incorrect binary data format for type <type>` with a DETAIL.
[[noreturn]] void report_bad_binary(const char *type, const char *detail);
// 22003 `<what> must be between <lo> and <hi>, got <value>`.
[[noreturn]] void report_out_of_range(const char *what, std::int64_t lo, std::int64_t hi, std::int64_t value);

// The SQL name of the type a receive function reads (its second argument; COPY and binds have no fn_expr)
// or a function returns. Catalog lookups: for error messages only, never on the path of a valid value.
const char *received_type_name(FunctionCallInfo fcinfo);
const char *result_type_name(FunctionCallInfo fcinfo);

// The text of a text argument, without copying (detoasts when needed).
std::string_view text_arg(FunctionCallInfo fcinfo, int n);
// A palloc'd, NUL-terminated copy of `len` bytes (a type's output function result).
char *cstring_of(const char *bytes, std::size_t len);

// Unix microseconds of a finite timestamptz, saturating at the int64 limits.
std::int64_t to_unix_us(TimestampTz ts);
// The timestamptz of an ID's time unit; 22008 when PostgreSQL cannot represent it.
TimestampTz timestamptz_of_units(const TimeScale &scale, std::int64_t units);
// The time unit holding a timestamptz; 22008 (naming the type) when it lies outside the format's range.
std::int64_t units_of_timestamptz(const TimeScale &scale, TimestampTz ts, const char *type);
// The same for a generator that issues IDs of the units first..last only (22008 outside, naming the type).
std::int64_t generated_units_of_timestamptz(const TimeScale &scale, TimestampTz ts, const char *type,
                                            std::int64_t first, std::int64_t last);

// The wall clock in Unix microseconds (CLOCK_REALTIME; not monotonic, generators clamp), set back by the
// superuser-only idtypes.test_clock_offset (0 unless a test sets it; never ahead, see module.cpp).
std::int64_t clock_now_us();
// Cryptographically strong random bytes; an error if the source fails.
void strong_random(void *buf, std::size_t len);
// The same, served from a per-process buffer refilled by strong_random (one system call per 512 bytes,
// not per ID). Refilled in each process that uses it, never inherited across fork.
void pooled_random(void *buf, std::size_t len);

// numeric <-> an unsigned big-endian byte string of n bytes (n <= 32). The reverse takes whole numbers
// from 0 to 2^(8n)-1 only, else 22003 naming the type.
Datum numeric_of_bytes(const std::uint8_t *be, std::size_t n);
void bytes_of_numeric(Datum numeric, std::uint8_t *be, std::size_t n, const char *type);

} // namespace idtypes::pg
