/* Response times (analyses.h), from the timeline's intervals only:
 * - a task instance starts when its context is woken (the end of a blocked or suspended
 *   interval: it is ready then, or running at once), or at a ready interval that follows no
 *   running one (its first state, or after lost data); it ends when it next becomes blocked,
 *   suspended or terminated: response = that end - that start (preemptions included). An
 *   instance cut by lost data (unknown state) is dropped and counted.
 * - an ISR instance is one ISR interval (entry -> exit), per interrupt (its irq, else its label);
 *   ISRs closed by a loss or open at the end are counted, not measured.
 * Per task / interrupt: count, min, p50, p90, p99, max (hist.h) and the EVT_AN_WORST_N worst
 * instances with their start. */
#ifndef EVT_ANALYSIS_RESPONSE_H
#define EVT_ANALYSIS_RESPONSE_H

#include <stdint.h>
#include <stdio.h>
#include "host/analyses/an_util.h"
#include "host/analyses/hist.h"
#include "host/strtab.h"
#include "host/timeline/timeline.h"
#include "host/u64map.h"

struct evt_json;

typedef struct evt_an_resp_task {
    int open;              /* an instance is running: started at t0 */
    int has_last;
    evt_tl_state last;     /* state of the previous interval */
    uint64_t t0;
    int measured;          /* h was initialised */
    evt_hist h;
    evt_an_worst worst;
    uint64_t cut;          /* instances cut by lost data */
} evt_an_resp_task;

typedef struct evt_an_resp_irq {
    uint64_t irq;
    int has_irq;
    uint32_t label;        /* strtab id */
    evt_hist h;
    evt_an_worst worst;
    uint64_t cut;          /* truncated or open at the end */
} evt_an_resp_irq;

typedef struct evt_an_resp {
    evt_an_resp_task *task; /* by context index */
    uint32_t ntask, taskcap;
    evt_an_resp_irq *isr;
    uint32_t nisr, isrcap;
    evt_u64map isrmap;      /* irq | 1 << 63 (label id when no irq) -> index */
    evt_strtab labels;
    int oom;
} evt_an_resp;

void evt_an_resp_init(evt_an_resp *r);
void evt_an_resp_state(evt_an_resp *r, const evt_tl_state_iv *iv);
void evt_an_resp_isr(evt_an_resp *r, const evt_tl_isr *iv);
void evt_an_resp_json(evt_an_resp *r, const evt_tl *tl, struct evt_json *j);
void evt_an_resp_text(evt_an_resp *r, const evt_tl *tl, FILE *out);
void evt_an_resp_free(evt_an_resp *r);

#endif
