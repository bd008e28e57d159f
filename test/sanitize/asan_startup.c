/* Preloaded beside ASan's runtime into the (uninstrumented) PostgreSQL server by test/sanitize/run.sh.
 *
 * A preloaded ASan runtime initializes at the first malloc. In Debian's postgres that first malloc is made by
 * a library constructor (libgpg-error's, pulled in through libsystemd) inside bindtextdomain(), which holds
 * gettext's lock. ASan's initialization looks up swift_demangle with dlsym(); the lookup fails, and the
 * dlerror() that clears the failure translates its message, taking the same lock again: glibc refuses the
 * nested read lock (EDEADLK), the unlock that follows releases bindtextdomain's write lock instead, the
 * lock's state is corrupted, and the postmaster's own bindtextdomain() then waits forever (`postgres -V`
 * hangs; so do initdb and pg_ctl, which run it). Defining the symbol makes the lookup succeed, so nothing is
 * translated during ASan's initialization. Returning NULL means "not a Swift name": ASan then demangles C++
 * names as usual.
 */
#include <stddef.h>
#include <stdint.h>

char *swift_demangle(const char *name, size_t length, char *out, size_t *out_size, uint32_t flags);

char *swift_demangle(const char *name, size_t length, char *out, size_t *out_size, uint32_t flags)
{
	(void)name;
	(void)length;
	(void)out;
	(void)out_size;
	(void)flags;
	return NULL;
}
