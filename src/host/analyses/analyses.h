/* The RTOS analyses of one trace, computed from the one timeline (timeline.h) and, where the
 * timeline has no record of it, from the raw events (mutex ownership, stack-pointer samples):
 *   load       CPU load per context in fixed windows, with idle and ISR time (load.h)
 *   response   response time per task instance (ready -> blocked/suspended/terminated) and per
 *              ISR (entry -> exit): min/p50/p90/p99/max and the worst instances (response.h)
 *   inversions priority inversions: a context blocked on a mutex held by a lower-priority one
 *              while a middle-priority one runs (inversion.h)
 *   objects    queue / semaphore / event-flag / pool counter history and blocked waiters, and
 *              message flows between contexts aggregated per pair (objhist.h)
 *   stacks     stack usage per thread from stack-pointer samples (the meaning block) against its stack start and size
 *              (stack.h)
 * The analyses never pair events themselves: states, ISRs, counters and flows are the
 * timeline's. One JSON object (evt_an_json) holds them all; its keys are in docs/analyses.md.
 *
 * Two ways to use it:
 * - standalone: evt_an_new() owns a timeline; feed events with evt_an_add(), then
 *   evt_an_finish(), evt_an_json() / evt_an_text(), evt_an_free();
 * - on a timeline someone else feeds (stats.c does this, so `stats` computes the timeline once):
 *   evt_an_new_shared(), give the timeline the sink evt_an_chain() makes of the caller's own (or
 *   forward every callback to evt_an_sink()), call evt_an_event() after each evt_tl_add() with
 *   the event, and evt_an_finish() after evt_tl_finish().
 * Memory is bounded: contexts, objects, windows (EVT_AN_MAX_WINDOWS: a smaller --window is
 * widened and says so), samples per object, inversions kept; what is cut is counted. */
#ifndef EVT_ANALYSIS_ANALYSES_H
#define EVT_ANALYSIS_ANALYSES_H

#include <stdint.h>
#include <stdio.h>
#include "evtrace/model.h"
#include "host/timeline/timeline.h"

struct evt_json;

#define EVT_AN_MAX_WINDOWS 4096  /* load windows kept; more -> the window is doubled until it fits */
#define EVT_AN_TOP 5             /* worst instances kept per task / ISR */

/* Priority order of the trace's numbers. */
typedef enum evt_an_prio_order {
    EVT_AN_PRIO_AUTO = 0,        /* the trace's: its kernel profile's order (evt_tl.higher_prio_wins) */
    EVT_AN_PRIO_LOWER_WINS,      /* ThreadX, μT-Kernel, RKH: 0/1 is the highest priority */
    EVT_AN_PRIO_HIGHER_WINS
} evt_an_prio_order;

typedef struct evt_an_config {
    uint64_t window;             /* load window; 0 = automatic (duration / 100, at least 1) */
    int window_is_ns;            /* window was given with a time unit: needs a known clock */
    evt_an_prio_order prio_order;
} evt_an_config;

typedef struct evt_analyses evt_analyses;

/* Parse a --window value: "1ms", "500us", "250ns", "2s", "1.5ms" (time: *is_ns = 1, value in ns)
 * or a plain number "1000" (the trace's time unit: ns when its clock is known, else ticks;
 * *is_ns = 0). Returns 0 (and a message in err) when it is not a positive duration. */
int evt_an_parse_window(const char *s, uint64_t *value, int *is_ns, char *err, size_t errlen);

/* Standalone: owns a timeline. clock_hz: the reader's clock (0: ticks); it may still be set with
 * evt_an_set_clock() before the first event (readers may know it only then). NULL when out of
 * memory. cfg may be NULL (defaults). */
evt_analyses *evt_an_new(uint64_t clock_hz, const evt_an_config *cfg);
/* Standalone: what the trace holds and its priority order (evt_tl_set_trace), before the first
 * evt_an_add(). Default: every kind, lower number wins. */
void evt_an_set_trace(evt_analyses *a, unsigned caps, int known, int higher_prio_wins);
void evt_an_set_clock(evt_analyses *a, uint64_t clock_hz);
/* Feed one event (trace order). Returns 0 when out of memory (results incomplete, said in JSON). */
int evt_an_add(evt_analyses *a, const evt_event *ev);

/* Shared: tl is fed by the caller (must outlive a). */
evt_analyses *evt_an_new_shared(evt_tl *tl, const evt_an_config *cfg);
/* The sink the shared timeline's callbacks must be forwarded to (user = a). */
const evt_tl_sink *evt_an_sink(evt_analyses *a);
/* A sink for the shared timeline that calls every callback of `first` (the caller's own sink,
 * copied; NULL callbacks skipped), then the analyses' own: give *out to evt_tl_init. */
void evt_an_chain(evt_analyses *a, const evt_tl_sink *first, evt_tl_sink *out);
/* The raw event just given to evt_tl_add, with the context index evt_tl_add returned. */
void evt_an_event(evt_analyses *a, const evt_event *ev, uint32_t ctx);

/* After the last event (standalone: also finishes its timeline). */
void evt_an_finish(evt_analyses *a);
/* Problems of the configuration found once the trace's unit was known (e.g. a window with a time
 * unit on a trace without clock): a message, or NULL. */
const char *evt_an_error(const evt_analyses *a);
/* The analyses as ONE JSON object value (the caller writes the key, e.g. "analyses"). */
void evt_an_json(evt_analyses *a, struct evt_json *j);
/* A readable summary (a few lines per analysis). */
void evt_an_text(evt_analyses *a, FILE *out);
void evt_an_free(evt_analyses *a);

/* Read access to the parts (tests, and callers that want the numbers rather than JSON): valid
 * until evt_an_free; after evt_an_finish the results are final. */
struct evt_an_load;
struct evt_an_resp;
struct evt_an_inversion;
struct evt_an_objhist;
struct evt_an_stack;
typedef struct evt_an_parts {
    const evt_tl *tl;
    const struct evt_an_load *load;
    struct evt_an_resp *resp;          /* not const: percentiles sort its samples */
    const struct evt_an_inversion *inv;
    const struct evt_an_objhist *obj;
    const struct evt_an_stack *stack;
} evt_an_parts;
void evt_an_parts_of(evt_analyses *a, evt_an_parts *out);

#endif
