/* Kernel-object history and message flows (analyses.h), from the timeline:
 * - counters (queue depth, semaphore count, pool availability, event flags, waiters: the
 *   timeline's counter records) per object and counter name: samples, min, max, last, and the
 *   first EVT_AN_OBJ_SAMPLES samples (t, value) as the history (the rest counted);
 * - blocked waiters per object: the timeline's blocked intervals on it: waits, total and longest
 *   wait, and the most waiters at once (from the first EVT_AN_OBJ_WAITS waits);
 * - flows (wake-ups and messages) aggregated per (from context, to context, kind, object): count
 *   and latency (t1 - t0) min / max / sum. */
#ifndef EVT_ANALYSIS_OBJHIST_H
#define EVT_ANALYSIS_OBJHIST_H

#include <stdint.h>
#include <stdio.h>
#include "host/strtab.h"
#include "host/timeline/timeline.h"
#include "host/u64map.h"

struct evt_json;

#define EVT_AN_OBJ_SAMPLES 256
#define EVT_AN_OBJ_WAITS 1024

typedef struct evt_an_series {
    uint32_t obj;           /* object index, EVT_TL_NONE for a global counter */
    uint32_t name;          /* strtab id */
    uint64_t count, min, max, last, last_t;
    uint64_t (*hist)[2];    /* first samples: t, value */
    uint32_t nhist;
} evt_an_series;

typedef struct evt_an_waits {
    uint64_t count, total, max;
    uint64_t (*iv)[2];      /* first waits: t0, t1 */
    uint32_t niv, ivcap;
} evt_an_waits;

typedef struct evt_an_flowagg {
    uint32_t from, to, obj, kind; /* kind: strtab id */
    uint64_t count, min, max, sum;
    uint32_t next;          /* next entry with the same (from, to), UINT32_MAX */
} evt_an_flowagg;

typedef struct evt_an_objhist {
    evt_strtab names;
    evt_an_series *series;
    uint32_t nseries, seriescap;
    evt_u64map seriesmap;   /* obj << 32 | name -> index */
    evt_an_waits *waits;    /* by object index */
    uint32_t nwaits, waitcap;
    evt_an_flowagg *flows;
    uint32_t nflows, flowcap;
    evt_u64map flowmap;     /* from << 32 | to -> first entry */
    int oom;
} evt_an_objhist;

void evt_an_obj_init(evt_an_objhist *o);
void evt_an_obj_counter(evt_an_objhist *o, const evt_tl_counter *c);
void evt_an_obj_state(evt_an_objhist *o, const evt_tl_state_iv *iv);
void evt_an_obj_flow(evt_an_objhist *o, const evt_tl_flow *f);
void evt_an_obj_json(const evt_an_objhist *o, const evt_tl *tl, struct evt_json *j); /* "objects" value */
void evt_an_flow_json(const evt_an_objhist *o, const evt_tl *tl, struct evt_json *j); /* "flows" value */
void evt_an_obj_text(const evt_an_objhist *o, const evt_tl *tl, FILE *out);
void evt_an_obj_free(evt_an_objhist *o);

#endif
