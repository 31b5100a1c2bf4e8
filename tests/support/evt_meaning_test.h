/* Test helpers: fill the typed meaning block (evtrace/model.h) of a hand-built event as a reader
 * would, so tests of the timeline and analyses say what an event means, never a field name. */
#ifndef EVT_MEANING_TEST_H
#define EVT_MEANING_TEST_H

#include "evtrace/hooks_defs.h"
#include "evtrace/model.h"

static inline void tm_label(evt_event *e, const char *label)
{
    e->m.has |= EVT_M_LABEL;
    e->m.label = label;
}

static inline void tm_irq(evt_event *e, uint32_t irq)
{
    e->m.has |= EVT_M_IRQ;
    e->m.irq = irq;
}

/* A stop into generic state st (evt_hook_state). */
static inline void tm_stop(evt_event *e, evt_hook_state st)
{
    e->m.has |= EVT_M_STOP_STATE;
    e->m.stop_state = (uint8_t)st;
}

/* After this event, next runs on the event's CPU (0: idle). */
static inline void tm_next(evt_event *e, uint64_t next)
{
    e->m.has |= EVT_M_NEXT;
    e->m.next_ctx = next;
    e->m.next_prio = EVT_HOOK_PRIO_UNKNOWN;
}

static inline void tm_runs_now(evt_event *e) { e->m.has |= EVT_M_RUNS_NOW; }

/* An operation op on object obj (the event's target too). */
static inline void tm_op(evt_event *e, evt_obj_op op, uint64_t obj)
{
    e->m.has |= EVT_M_OP;
    e->m.op = (uint8_t)op;
    e->m.op_result = EVT_RES_UNKNOWN;
    e->m.obj = obj;
    e->flags |= EVT_HAS_TARGET;
    e->target = obj;
}

static inline void tm_ctx_prio(evt_event *e, uint64_t prio)
{
    e->m.has |= EVT_M_CTX_PRIO;
    e->m.ctx_prio = prio;
}

#endif
