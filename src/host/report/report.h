/* The self-contained interactive HTML report (`evtrace report`): one page, no network. The page
 * itself (HTML, CSS, JS) lives in src/host/report/ and is embedded at build time; this module
 * feeds the canonical events through the one timeline (timeline.h), keeps what its sink reports
 * (states, ISRs, slices, counters, flows, lost ranges) plus the first EVT_REPORT_MAX_LIST events
 * for the event list, and writes them as one JSON block (<script type="application/json"
 * id="evt-data">, every '<' written as \u003c) that the page's script draws, with the analyses
 * (analyses.h, on the same timeline) as a second block (id="evt-analyses"). No event pairing
 * happens here: every interval comes from the timeline. docs/report.md describes the page. */
#ifndef EVT_ANALYSIS_REPORT_H
#define EVT_ANALYSIS_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "evtrace/model.h"
#include "host/analyses/analyses.h"

/* Events kept for the page's event list (and its details panel); events past it still count in
 * every interval, load and analysis, and the page says how many were left out of the list. */
#define EVT_REPORT_MAX_LIST 500000u

typedef struct evt_report evt_report;

/* What the page says about its input. Strings are copied. */
typedef struct evt_report_info {
    const char *format;       /* reader name */
    const char *file;         /* input path as given */
    uint64_t clock_hz;        /* the reader's clock, 0 unknown: the timeline's unit is then ticks */
    const char *clock_source; /* "format", "user", ... or NULL */
    const evt_an_config *an;  /* the analyses' configuration (--window, ...); NULL: defaults */
    const struct evt_reader *reader; /* may be NULL: what the trace holds (caps), its priority order */
} evt_report_info;

/* NULL when out of memory. */
evt_report *evt_report_new(const evt_report_info *info);
/* The clock may become known only when the reader reads its first event: set it (and its source,
 * may be NULL) any time before the first evt_report_add(); later calls are ignored. */
void evt_report_set_clock(evt_report *r, uint64_t clock_hz, const char *clock_source);
/* Feed one event in trace order. Returns 0 when out of memory (the report is then unusable). */
int evt_report_add(evt_report *r, const evt_event *ev);
/* Problems of the analyses' configuration found once the unit was known (e.g. a window with a
 * time unit on a trace without clock), or NULL. Valid after evt_report_write. */
const char *evt_report_analyses_error(const evt_report *r);
/* Finish the timeline and write the page. `errors` are the reader's decode errors. Returns 0 on
 * a write error or out of memory. */
int evt_report_write(evt_report *r, FILE *out, uint64_t errors);
/* Events fed and contexts seen (for the command's summary line). */
uint64_t evt_report_events(const evt_report *r);
uint32_t evt_report_contexts(const evt_report *r);
void evt_report_free(evt_report *r);

#endif
