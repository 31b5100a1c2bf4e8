/* Streaming trace statistics over the canonical model (what `evtrace stats` prints), computed on
 * the one timeline (timeline.h): stats pairs nothing itself. Memory grows with the number of
 * distinct contexts and span labels, never with the number of events.
 *
 * From the timeline:
 * - The contexts are the timeline's (the query tables' `contexts`): events recorded in each
 *   (lost-data records excluded), CPU time = run_time - isr_time (time it was the running context
 *   of a CPU, less the outermost ISRs that interrupted it; 0 for an ISR context, whose time is
 *   isr_time and the ISR latencies). load % = cpu time / trace duration (last time - first
 *   time) * 100.
 * - idle time (no running context, outside ISRs) and ISR time (outermost ISRs), summed over CPUs;
 *   switches = times a context became running.
 * - ISR latency: the ISR intervals (entry -> exit) by label; service and function latency: the
 *   slices (enter -> exit, wall time) by label, an outer exit closing inner ones (tail calls)
 *   included. A service recorded as one instant is not a latency. Intervals closed by lost data
 *   or still open at the end are counted in unfinished_spans, not measured. Unmatched exits are
 *   the timeline's, attributed to the category of the exit event.
 * From the events: event counts per context and per name, first/last timestamps, lost data, and
 * per kernel object the operations by result (the events' typed meaning, EVT_M_OP). */
#ifndef EVT_ANALYSIS_STATS_H
#define EVT_ANALYSIS_STATS_H

#include <stdint.h>
#include <stdio.h>
#include "evtrace/model.h"
#include "host/analyses/hist.h"
#include "host/timeline/spans.h"
#include "host/timeline/timeline.h"
#include "host/strtab.h"
#include "host/u64map.h"

struct evt_json;

#define EVT_STATS_BINS 512      /* timeline bins per context (when enabled) */

/* One context (thread, task, ISR, init, or "no context" per class). */
typedef struct evt_stats_ctx {
    uint64_t ctx;          /* context id (valid when has_ctx) */
    int has_ctx;
    evt_ctx_class cls;     /* class from its first event */
    uint32_t name;         /* strtab id of its name, 0 if unknown */
    uint64_t events;       /* events recorded in this context */
    uint64_t cpu_ticks;    /* its cpu time (see the model above), in the time unit */
    uint64_t cpu_raw;      /* the same in raw ticks (converted back when the unit is ns) */
    uint64_t isr_count;    /* ISRs entered from this context's events (its ISR intervals) */
    uint64_t switches;     /* times it became the running context */
    uint64_t timeouts, wait_aborts; /* its waits ended by a timeout, by an abort (timeline.h) */
    uint64_t preemptions, isr_preemptions, yields; /* preempted (of which by an interrupt), yielded
                                                    * (timeline.h) */
    uint64_t time_slices, time_slices_unknown; /* time slices that gave way, not known (timeline.h) */
    uint64_t first_ts, last_ts; /* raw ticks */
    int idle_task;         /* the kernel's idle task (timeline.h): its cpu time is within idle_time */
    uint64_t *bins;        /* timeline: running time per bin less ISRs (EVT_STATS_BINS), ISR contexts:
                              their outermost ISR time; or NULL */
} evt_stats_ctx;

/* Latency of one (category, label). */
typedef struct evt_stats_lat {
    uint8_t cat;           /* evt_span_cat */
    uint32_t label;        /* strtab id */
    evt_hist h;            /* durations in the time unit (ns or ticks) */
} evt_stats_lat;

/* Count of one event name (and its kind). */
typedef struct evt_stats_name {
    uint32_t name;         /* strtab id */
    evt_kind kind;
    uint64_t count;
} evt_stats_name;

/* Operations on one kernel object, from the events' typed meaning (EVT_M_OP): counts by
 * operation and result. */
typedef struct evt_stats_obj {
    uint64_t obj;          /* m.obj */
    uint32_t name;         /* strtab id of its last known m.obj_name, 0 if none */
    uint8_t type;          /* m.obj_type (0: unknown) */
    uint64_t n[EVT_OP_COUNT_][EVT_RES_COUNT_];
} evt_stats_obj;

struct evt_analyses;

typedef struct evt_stats {
    uint64_t clock_hz;     /* 0 if unknown: times stay in ticks. Fixed at init: the time unit */
    const char *clock_source; /* evt_clock_source_name() of the reader, or NULL (not shown) */
    const struct evt_reader *reader; /* set before the first event, may stay NULL: the trace's caps
                                      * and priority order for the timeline */
    evt_strtab strs;       /* names and labels */
    evt_stats_ctx *ctxs;
    uint32_t nctx, ctxcap;
    evt_u64map ctxmap;     /* ctx id -> index */
    int64_t noctx[4];      /* per class: index of the "no context id" entry, -1 none */
    uint32_t *tlctx;       /* tlctx[timeline ctx index] = index + 1 (0: not looked up yet); while streaming */
    uint32_t tlctxcap;
    evt_stats_lat *lats;
    uint32_t nlat, latcap;
    evt_u64map latmap;     /* (cat << 32 | label) -> index */
    evt_stats_name *names;
    uint32_t nnames, namecap;
    evt_u64map namemap;    /* (kind << 32 | name id) -> index */
    /* names met lately, by address and kind: index + 1 (0 empty), checked against the string
     * unless ro (the string lies in the program's read-only image: its text cannot change) */
    struct { const char *p; uint32_t kind, idx1, ro; } name_cache[64];
    evt_stats_obj *objs;   /* object operations (JSON "objects") */
    uint32_t nobjs, objcap;
    evt_u64map objmap;     /* m.obj -> index */
    evt_u64map labelmap;   /* timeline label (its address) -> strtab id */
    evt_tl tl;             /* the one timeline (initialised at the first event) */
    int tl_ready;
    uint32_t ncpus;        /* highest CPU slot used + 1 */
    uint64_t prev_unmatched; /* tl.unmatched_exits before the current event */
    struct evt_analyses *an; /* the analyses on the same timeline (evt_stats_enable_analyses) */
    uint64_t events;
    int have_ts;
    uint64_t first_ts, last_ts; /* min and max time (time unit) */
    uint64_t first_raw, last_raw; /* min and max raw ticks */
    uint64_t idle_ticks;   /* time with no running context (the timeline's idle_time) */
    uint64_t isr_ticks;    /* time inside outermost ISRs (the timeline's isr_time) */
    uint64_t lost_events;  /* events of kind lost */
    uint64_t lost_count;   /* sum of their counts */
    uint64_t unmatched[4]; /* exits that closed nothing, per category */
    uint64_t dropped[4];   /* spans still open at a loss or at the end, per category */
    uint64_t overflow;     /* spans and ISRs not tracked: nesting too deep */
    int oom;               /* an allocation failed: results are incomplete */
    /* timeline (enabled by evt_stats_enable_timeline) */
    int timeline;
    uint64_t tl_origin, tl_width; /* bin 0 starts at tl_origin; bin width (time unit) */
    int tl_started;
} evt_stats;

/* Start (clock_hz may be 0). Returns 0 when out of memory. */
int evt_stats_init(evt_stats *s, uint64_t clock_hz);
/* Also keep a per-context timeline of EVT_STATS_BINS bins (for the report). Call before events. */
void evt_stats_enable_timeline(evt_stats *s);
/* Also compute the analyses (analyses.h) on the same timeline: `stats --json` key "analyses", a
 * summary in the text. cfg may be NULL. Call before events; returns 0 when out of memory. */
struct evt_an_config;
int evt_stats_enable_analyses(evt_stats *s, const struct evt_an_config *cfg);
/* Account one event. Returns 0 when out of memory (s->oom is set; later calls go on). */
int evt_stats_add(evt_stats *s, const evt_event *ev);
/* After the last event: close every open interval of the timeline at the last timestamp. */
void evt_stats_finish(evt_stats *s);
void evt_stats_free(evt_stats *s);

/* Every time stats keeps (spans, cpu time, timeline, first/last) is already in the time unit:
 * ns when clock_hz is known (the event's t_ns, which the reader registry sets, else
 * floor(ts * 1e9 / clock_hz)), else ticks; so every output agrees with the events' t_ns. This
 * returns its argument: kept so callers say where a value is a time. */
uint64_t evt_stats_time(const evt_stats *s, uint64_t t);
/* The time of an event in the time unit of s. */
uint64_t evt_stats_event_time(const evt_stats *s, const evt_event *ev);
/* Trace duration in the time unit. */
uint64_t evt_stats_duration(const evt_stats *s);
/* Context indices sorted by cpu time (descending); caller frees with evt_free. */
uint32_t *evt_stats_ctx_order(const evt_stats *s);
/* Latency indices of one category sorted by label; *n receives the count; caller frees. */
uint32_t *evt_stats_lat_order(const evt_stats *s, evt_span_cat cat, uint32_t *n);
/* Display name of a context ("thread 2", or "ctx 0x1234", or "(no context)"). */
const char *evt_stats_ctx_name(const evt_stats *s, const evt_stats_ctx *c, char *buf, size_t len);
/* Class name: "thread", "isr", "init", "none". */
const char *evt_stats_class_name(evt_ctx_class c);

/* The `stats --json` object (keys in docs/exports.md); `format`/`file` describe the input. */
void evt_stats_json(evt_stats *s, struct evt_json *j, const char *format, const char *file,
                    uint64_t errors);
/* Human-readable tables. */
void evt_stats_text(evt_stats *s, FILE *out, const char *format, const char *file, uint64_t errors);

#endif
