/* Private to the report (report.c collects, report_data.c writes the page's JSON, report_json.c
 * escapes it, report_page.c the page): what the timeline's sink reported, streamed as flat JSON arrays. Times are in the
 * timeline's unit (ns when the clock is known, else ticks), relative to the first event's time
 * (signed: merged buffers may hold earlier ones); the JSON's "shift" moves them to the trace's
 * earliest time. Indexes are the timeline's context/object indexes (-1: none); strings are ids
 * in the report's strtab (0: none). */
#ifndef EVT_ANALYSIS_REPORT_IMPL_H
#define EVT_ANALYSIS_REPORT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "host/report/report.h"
#include "host/strtab.h"
#include "evtrace/json.h"
#include "host/timeline/timeline.h"

enum { RP_TRUNCATED = 1, RP_OPEN_END = 2 }; /* interval flags, as the JSON carries them */

/* The flat arrays of the page's JSON (report_data.c says their strides), each streamed as the
 * JSON array text into an anonymous temporary file while the trace is read, so memory does not
 * grow with the trace; copied into the page at the end. */
#define RP_COLUMNS(X) \
    X(states) X(isrs) X(slices) X(counters) X(flows) X(lost) X(wakes) X(prios) \
    X(ev_t) X(ev_c) X(ev_k) X(ev_n) X(ev_f) X(ev_o)

typedef enum rp_col_id {
#define RP_COL_ENUM_(n) RP_COL_##n,
    RP_COLUMNS(RP_COL_ENUM_)
#undef RP_COL_ENUM_
    RP_COL_COUNT_
} rp_col_id;

typedef struct rp_col {
    FILE *f;        /* tmpfile(), NULL when it could not be made (the report is then oom) */
    evt_json j;     /* writes "[v,v,..." into f; "]" at the end */
} rp_col;

struct evt_report {
    evt_tl tl;
    int tl_ready, finished, oom;
    char *format, *file, *clock_source;
    uint64_t clock_hz;
    const struct evt_reader *reader; /* NULL: the trace's facts unknown (every kind assumed) */
    uint64_t events, listed;
    int have_base;
    uint64_t base;          /* time of the first event: column times are relative to it (signed) */
    uint64_t prev_t;        /* time of the previous listed event (ev_t holds deltas) */
    evt_strtab strs;        /* names, labels, services: grows with distinct strings only */
    rp_col cols[RP_COL_COUNT_];
    evt_an_config an_cfg;
    int has_an_cfg;
    evt_analyses *an;       /* on the same timeline (shared mode): every sink call is forwarded */
    struct rp_user *user;   /* user tracks (report_user.c) */
};

/* Intern s (NULL or "" -> 0); sets r->oom on failure. */
uint32_t rp_str(evt_report *r, const char *s);
/* Write s[0..n) with every '<' as \u003c (report_json.c). */
void rp_put_json(FILE *o, const char *s, size_t n);
/* (report_json.c) Run write(r, j, arg) into memory, then copy what it wrote to o through
 * rp_put_json. Returns 0 on a memory or write error. */
typedef void (*rp_json_fn)(const evt_report *r, evt_json *j, const void *arg);
int rp_json_escaped(FILE *o, const evt_report *r, rp_json_fn write, const void *arg);
/* The page's data JSON, escaped (report_data.c). Returns 0 on a write or memory error. */
int rp_write_data(const evt_report *r, FILE *out, uint64_t errors);
/* The whole page (report_page.c). Returns 0 on a write or memory error. */
int rp_write_page(const evt_report *r, FILE *out, uint64_t errors);

#endif
