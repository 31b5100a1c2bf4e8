/* CPU load per context over time, from the timeline's switches and running intervals: the busy
 * fraction of each context in consecutive windows, reported as samples (a counter per context).
 *
 * Windows: the first starts at the first switch; a window closes at the first switch or end of a
 * running interval at or after its start + width, so every window boundary (and every sample's
 * time) is an event time of the trace. The width starts at 1 ms (ns unit) or 1000 ticks (unknown
 * clock) and doubles every 512 windows, so a long trace yields at most a few thousand samples per
 * context. A sample at a window's start gives the percentage of that window the context was
 * running (ISR time inside included, as the timeline's running intervals count it); a context is
 * sampled in windows where it ran and once more (0) after it stops running. Memory: a few words
 * per context. */
#ifndef EVT_EXPORTERS_PERFETTO_LOAD_H
#define EVT_EXPORTERS_PERFETTO_LOAD_H

#include <stdint.h>
#include "host/timeline/timeline.h"

/* One sample: context index, window start, percent busy; first: its first sample. */
typedef void (*pf_load_fn)(void *user, uint32_t ctx, uint64_t t, double pct, int first);

typedef struct pf_load_ctx {
    uint64_t since;          /* running since (UINT64_MAX: not running) */
    uint64_t busy;           /* running time inside the current window */
    uint8_t sampled;         /* has a sample */
    uint8_t nonzero;         /* its latest sample was above 0 */
} pf_load_ctx;

typedef struct pf_load {
    pf_load_fn fn;
    void *user;
    pf_load_ctx *ctxs;
    uint32_t nctx;
    uint64_t width;          /* current window width */
    uint64_t wstart;         /* current window start (valid when started) */
    uint64_t windows;        /* windows closed */
    int started;
    int oom;
} pf_load;

void pf_load_init(pf_load *l, int ns_unit, pf_load_fn fn, void *user);
void pf_load_switch(pf_load *l, const evt_tl_switch *sw);
void pf_load_running(pf_load *l, const evt_tl_state_iv *iv); /* a running interval closed */
void pf_load_finish(pf_load *l, uint64_t t_end);
void pf_load_free(pf_load *l);

#endif
