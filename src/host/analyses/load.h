/* CPU load over time: per context, idle and ISR time in fixed windows, from the timeline's
 * running intervals, ISR intervals and switches (analyses.h).
 *
 * Windows: [origin + k*window, origin + (k+1)*window), origin = the trace's first time. A
 * context's time in a window is its running time there less the outermost ISR time that
 * interrupted it (so its totals are run_time - isr_time, as timeline.h defines cpu time); ISR
 * time is outermost ISR time; idle time is the time a CPU ran no context (from a switch to idle
 * to the next switch on that CPU) less the ISRs inside it. Capacity of a window = window x CPUs
 * (the last window: up to the last time).
 * Bounded: at most EVT_AN_MAX_WINDOWS windows; past that every pair is merged and the window
 * doubled (window_requested keeps what was asked). An automatic window (0) starts at 1 and is
 * doubled until there are at most EVT_AN_AUTO_WINDOWS windows at the end. */
#ifndef EVT_ANALYSIS_LOAD_H
#define EVT_ANALYSIS_LOAD_H

#include <stdint.h>
#include <stdio.h>
#include "host/timeline/timeline.h"

struct evt_json;

#define EVT_AN_AUTO_WINDOWS 100

typedef struct evt_an_load_ctx {
    uint64_t *busy;        /* per window: running time less ISR time, its length = nwin */
    int seen;
} evt_an_load_ctx;

typedef struct evt_an_load {
    uint64_t window, requested;
    int automatic;
    int started;
    uint64_t origin;
    /* the window of the latest look-up: offsets from origin [wk_lo, wk_lo + window) are window
     * wk (valid when wk_ok; a merge voids it): most times fall where the one before did, and a
     * division by a variable costs tens of cycles */
    uint64_t wk, wk_lo;
    int wk_ok;
    uint32_t nwin, wincap;  /* windows in use, allocated length of every per-window array */
    uint64_t *idle, *isr;   /* per window */
    uint64_t *mark;         /* per window: 1 + the earliest event time in it (0: none), for samples */
    evt_an_load_ctx *ctx;   /* by context index */
    uint32_t nctx, ctxcap;
    uint32_t cpu_idle[EVT_TL_MAX_CPUS]; /* 1: the CPU is idle since idle_t */
    uint64_t idle_t[EVT_TL_MAX_CPUS];
    int oom;
} evt_an_load;

void evt_an_load_init(evt_an_load *l, uint64_t window);
void evt_an_load_state(evt_an_load *l, const evt_tl *tl, const evt_tl_state_iv *iv);
void evt_an_load_isr(evt_an_load *l, const evt_tl *tl, const evt_tl_isr *iv);
void evt_an_load_switch(evt_an_load *l, const evt_tl *tl, const evt_tl_switch *sw);
void evt_an_load_finish(evt_an_load *l, const evt_tl *tl);
void evt_an_load_json(const evt_an_load *l, const evt_tl *tl, struct evt_json *j);
void evt_an_load_text(const evt_an_load *l, const evt_tl *tl, FILE *out);
void evt_an_load_free(evt_an_load *l);

/* One CPU load sample: context index, window start, percent of the window's capacity (window x
 * CPUs; the last window up to the last time) the context ran, ISR time excluded; first: its first
 * sample. */
typedef void (*evt_an_load_sample_fn)(void *user, uint32_t ctx, uint64_t t, double pct, int first);
/* After evt_an_load_finish: the windows as samples for the exporters' "CPU load %" counters (the
 * load is computed once, here): per context in index order, window by window, a sample for every
 * window it ran in and for the window after each stretch of them (0), and 0 at the last time when
 * its last window was not 0. Every sample is at an event time: the earliest time a switch, a
 * state or an ISR began or ended in its window (a window with none, where nothing changed, has no
 * sample: the previous value holds). A trace without scheduling has no running context: no
 * samples. */
void evt_an_load_samples(const evt_an_load *l, const evt_tl *tl, evt_an_load_sample_fn fn, void *user);

#endif
