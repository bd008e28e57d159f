#include "pg/types/bytes_type.hpp"

extern "C" {
#include "lib/hyperloglog.h"
}

namespace idtypes::pg {
namespace {

template <std::size_t N>
struct Fixed {
	static int cmp(FunctionCallInfo fcinfo) { return fixed_compare<N>(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)); }

	static Datum eq(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) == 0); }
	static Datum ne(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) != 0); }
	static Datum lt(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) < 0); }
	static Datum le(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) <= 0); }
	static Datum gt(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) > 0); }
	static Datum ge(FunctionCallInfo fcinfo) { PG_RETURN_BOOL(cmp(fcinfo) >= 0); }
	static Datum compare(FunctionCallInfo fcinfo)
	{
		int c = cmp(fcinfo);
		PG_RETURN_INT32((c > 0) - (c < 0));
	}
	static Datum smaller(FunctionCallInfo fcinfo) { return PG_GETARG_DATUM(cmp(fcinfo) <= 0 ? 0 : 1); }
	static Datum larger(FunctionCallInfo fcinfo) { return PG_GETARG_DATUM(cmp(fcinfo) >= 0 ? 0 : 1); }

	static Datum hash(FunctionCallInfo fcinfo) { return hash_any(fixed_arg(fcinfo, 0), N); }
	static Datum hash_extended(FunctionCallInfo fcinfo)
	{
		return hash_any_extended(fixed_arg(fcinfo, 0), N, PG_GETARG_INT64(1));
	}

	// subtype_diff: a - b folded into a double, most significant byte first
	static Datum diff(FunctionCallInfo fcinfo)
	{
		const std::uint8_t *a = fixed_arg(fcinfo, 0), *b = fixed_arg(fcinfo, 1);
		double d = 0;
		for (std::size_t i = 0; i < N; i++)
			d = d * 256 + (static_cast<int>(a[i]) - static_cast<int>(b[i]));
		PG_RETURN_FLOAT8(d);
	}

	// BRIN minmax-multi distance between two values (the lower one first): the gap, non-negative
	static Datum brin_distance(FunctionCallInfo fcinfo)
	{
		double d = DatumGetFloat8(diff(fcinfo));
		PG_RETURN_FLOAT8(d < 0 ? -d : d);
	}

	static Datum send(FunctionCallInfo fcinfo)
	{
		StringInfoData buf;
		pq_begintypsend(&buf);
		pq_sendbytes(&buf, reinterpret_cast<const char *>(fixed_arg(fcinfo, 0)), N);
		PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
	}

	static Datum to_bytea(FunctionCallInfo fcinfo)
	{
		bytea *out = static_cast<bytea *>(palloc(VARHDRSZ + N));
		SET_VARSIZE(out, VARHDRSZ + N);
		memcpy(VARDATA(out), fixed_arg(fcinfo, 0), N);
		PG_RETURN_BYTEA_P(out);
	}

	// Sorting: abbreviated keys are the first bytes as a big-endian integer, as many as a Datum holds (8, or 4 on
	// 32-bit servers; for these formats the time, so they almost always decide), compared with PostgreSQL's own unsigned comparator, which tuplesort
	// recognizes for its specialized sort. As in uuid.c, abbreviation is abandoned when a HyperLogLog
	// estimate shows the keys are mostly equal.
	struct SortState {
		int64 input_count;
		bool estimating;
		hyperLogLogState abbr_card;
	};

	static int full_cmp(Datum a, Datum b, SortSupport) { return fixed_compare<N>(a, b); }

	static Datum abbrev_convert(Datum original, SortSupport ssup)
	{
		auto *state = static_cast<SortState *>(ssup->ssup_extra);
		Datum key;
		memcpy(&key, DatumGetPointer(original), sizeof(Datum));
		state->input_count++;
		if (state->estimating) {
			std::uint64_t wide = key; // a Datum may have 4 bytes: no shift of it by 32
			uint32 folded = static_cast<uint32>(wide) ^ static_cast<uint32>(wide >> 32);
			addHyperLogLog(&state->abbr_card, DatumGetUInt32(hash_uint32(folded)));
		}
		return DatumBigEndianToNative(key);
	}

	static bool abbrev_abort(int memtupcount, SortSupport ssup)
	{
		auto *state = static_cast<SortState *>(ssup->ssup_extra);
		if (memtupcount < 10000 || state->input_count < 10000 || !state->estimating)
			return false;
		double distinct = estimateHyperLogLog(&state->abbr_card);
		if (distinct > 100000.0) { // plenty of distinct keys: stop paying for the estimate
			state->estimating = false;
			return false;
		}
		// abort only when keys are nearly all alike (fewer than 1 distinct per 2000 rows)
		return distinct < state->input_count / 2000.0 + 0.5;
	}

	static Datum sortsupport(FunctionCallInfo fcinfo)
	{
		SortSupport ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
		ssup->comparator = full_cmp;
		ssup->ssup_extra = nullptr;
		if (ssup->abbreviate) {
			MemoryContext old = MemoryContextSwitchTo(ssup->ssup_cxt);
			auto *state = static_cast<SortState *>(palloc(sizeof(SortState)));
			state->input_count = 0;
			state->estimating = true;
			initHyperLogLog(&state->abbr_card, 10);
			ssup->ssup_extra = state;
			ssup->comparator = ssup_datum_unsigned_cmp;
			ssup->abbrev_converter = abbrev_convert;
			ssup->abbrev_abort = abbrev_abort;
			ssup->abbrev_full_comparator = full_cmp;
			MemoryContextSwitchTo(old);
		}
		PG_RETURN_VOID();
	}
};

} // namespace
} // namespace idtypes::pg

#define IDTYPES_FIXED_SHAPE(N)                                                                                         \
	IDTYPES_ENTRY(idtypes_fixed##N##_eq, idtypes::pg::Fixed<N>::eq(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_ne, idtypes::pg::Fixed<N>::ne(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_lt, idtypes::pg::Fixed<N>::lt(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_le, idtypes::pg::Fixed<N>::le(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_gt, idtypes::pg::Fixed<N>::gt(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_ge, idtypes::pg::Fixed<N>::ge(fcinfo))                                            \
	IDTYPES_ENTRY(idtypes_fixed##N##_cmp, idtypes::pg::Fixed<N>::compare(fcinfo))                                      \
	IDTYPES_ENTRY(idtypes_fixed##N##_smaller, idtypes::pg::Fixed<N>::smaller(fcinfo))                                  \
	IDTYPES_ENTRY(idtypes_fixed##N##_larger, idtypes::pg::Fixed<N>::larger(fcinfo))                                    \
	IDTYPES_ENTRY(idtypes_fixed##N##_hash, idtypes::pg::Fixed<N>::hash(fcinfo))                                        \
	IDTYPES_ENTRY(idtypes_fixed##N##_hash_extended, idtypes::pg::Fixed<N>::hash_extended(fcinfo))                      \
	IDTYPES_ENTRY(idtypes_fixed##N##_diff, idtypes::pg::Fixed<N>::diff(fcinfo))                                        \
	IDTYPES_ENTRY(idtypes_fixed##N##_brin_distance, idtypes::pg::Fixed<N>::brin_distance(fcinfo))                      \
	IDTYPES_ENTRY(idtypes_fixed##N##_send, idtypes::pg::Fixed<N>::send(fcinfo))                                        \
	IDTYPES_ENTRY(idtypes_fixed##N##_to_bytea, idtypes::pg::Fixed<N>::to_bytea(fcinfo))                                \
	IDTYPES_ENTRY(idtypes_fixed##N##_sortsupport, idtypes::pg::Fixed<N>::sortsupport(fcinfo))

extern "C" {
IDTYPES_FIXED_SHAPE(10)
IDTYPES_FIXED_SHAPE(20)
}
