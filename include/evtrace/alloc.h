/* The one allocation seam of the host library: every allocation goes through here, so tests can
 * make the Nth allocation fail (fault injection). */
#ifndef EVTRACE_ALLOC_H
#define EVTRACE_ALLOC_H

#include <stddef.h>

void *evt_malloc(size_t n);
void *evt_calloc(size_t n, size_t size);
void *evt_realloc(void *p, size_t n);
void evt_free(void *p);
char *evt_strdup(const char *s);
/* Test hook: fail the allocation numbered `nth` from now (1 = the next one) and, if `sticky`,
 * every one after it. nth = 0 disables failure injection. */
void evt_alloc_fail_after(unsigned long nth, int sticky);

#endif
