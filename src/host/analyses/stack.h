/* Stack usage per thread (analyses.h) from stack-pointer samples: the meaning block's sp
 * (EVT_M_SP) of an event recorded in a thread context (the reader decides which record words are
 * samples), against the thread's stack start and size: the sample's own EVT_M_STACK (the stack of
 * its context), else the EVT_M_STACK of an obj_create that created that thread (its target). Stacks grow down: used = start + size - lowest sample; a sample outside
 * [start, start + size] is counted as out of range (overflow, or a sample of another stack) and
 * not used. A lower bound of the real use: only the moments sampled are seen. */
#ifndef EVT_ANALYSIS_STACK_H
#define EVT_ANALYSIS_STACK_H

#include <stdint.h>
#include <stdio.h>
#include "host/timeline/timeline.h"
#include "host/u64map.h"

struct evt_json;

typedef struct evt_an_stack_thr {
    int has_stack;
    uint64_t start, size;
    uint64_t samples, out_of_range;
    uint64_t min_sp, max_sp;    /* over the samples in range */
    uint64_t min_t;             /* time of the lowest sample */
} evt_an_stack_thr;

typedef struct evt_an_stack {
    evt_an_stack_thr *thr;      /* by context index */
    uint32_t nthr, thrcap;
    evt_u64map created;         /* thread id -> index in cstk */
    uint64_t (*cstk)[2];        /* stacks of created threads: start, size */
    uint32_t ncstk, cstkcap;
    int oom;
} evt_an_stack;

void evt_an_stack_init(evt_an_stack *s);
void evt_an_stack_event(evt_an_stack *s, const evt_tl *tl, const evt_event *ev, uint32_t ctx);
void evt_an_stack_json(const evt_an_stack *s, const evt_tl *tl, struct evt_json *j);
void evt_an_stack_text(const evt_an_stack *s, const evt_tl *tl, FILE *out);
void evt_an_stack_free(evt_an_stack *s);

#endif
