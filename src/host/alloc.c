/* The host library's allocation wrapper with failure injection for tests. */
#include "evtrace/alloc.h"

#include <stdlib.h>
#include <string.h>

static struct {
    unsigned long countdown; /* 0: never fail; else fail when it reaches 1 */
    int sticky;              /* keep failing after the first injected failure */
    int failing;             /* sticky failure in force */
} g_alloc;

static int should_fail(void)
{
    if (g_alloc.failing) return 1;
    if (g_alloc.countdown == 0) return 0;
    if (--g_alloc.countdown == 0) {
        g_alloc.failing = g_alloc.sticky;
        return 1;
    }
    return 0;
}

void evt_alloc_fail_after(unsigned long nth, int sticky)
{
    g_alloc.countdown = nth;
    g_alloc.sticky = sticky;
    g_alloc.failing = 0;
}

void *evt_malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }
void *evt_calloc(size_t n, size_t size) { return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1); }
void *evt_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }
void evt_free(void *p) { free(p); }

char *evt_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = evt_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}
