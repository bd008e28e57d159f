/* Deliberate bugs, built with the same sanitizer flags as the extension and called once at the end of each
 * sanitized server's run by test/sanitize/run.sh: the run passes only if each leaves its report where the
 * harness looks. This proves, every run, that the runtime is active in the backends and that a report from
 * a loaded library is seen (a harness that could not fail would prove nothing). */
#include "postgres.h"

#include "fmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(sanitize_canary_heap_overflow);
PG_FUNCTION_INFO_V1(sanitize_canary_shift);

/* Reads byte `i` of a `size`-byte allocation: past its end for i >= size (ASan: heap-buffer-overflow). The
 * size is an argument so that the compiler cannot see the overflow (UBSan's object-size check would then
 * report it first). */
Datum sanitize_canary_heap_overflow(PG_FUNCTION_ARGS)
{
	int32 size = PG_GETARG_INT32(0);
	int32 i = PG_GETARG_INT32(1);
	volatile char *bytes = malloc(size);
	int32 value;

	memset((char *)bytes, 1, size);
	value = bytes[i];
	free((char *)bytes);
	PG_RETURN_INT32(value);
}

/* 1 shifted left by `n`: undefined for n >= 32 (UBSan: shift exponent too large). */
Datum sanitize_canary_shift(PG_FUNCTION_ARGS)
{
	int32 n = PG_GETARG_INT32(0);

	PG_RETURN_INT32(1 << n);
}
