/* The meaning of the RTOS records of the generic kernel hooks (thread_switch, thread_ready, prio_set,
 * obj_op: evtrace/hooks.h), shared by every hooks backend's reader (TXTB, RKH): the canonical kind,
 * the display fields and the typed meaning block (evt_event.m), decided once from the record's
 * values and the trace's kernel profile. The caller has set the event's context (ev->ctx: the
 * stopping thread of a switch, the caller of the rest). Host library. */
#ifndef EVT_HOOK_MEANING_H
#define EVT_HOOK_MEANING_H

#include <stdint.h>
#include "evtrace/model.h"
#include "host/kernels/kernel_profile.h"

/* Strings the functions format (valid until the next event). */
typedef struct evt_hook_mbuf {
    char label[48];
    char state[32];
} evt_hook_mbuf;

/* A one-record switch: the context (from, 0 = none) stops for `state` (evt_hook_state) with
 * the kernel's `native` state, blocked on `blocked_on` (0: none); `to` runs from now on with `prio`.
 * Kind thread_stop (thread_run when there is no `from`), fields state/stop_reason/native_state/
 * next_thread/blocked_on, m: STOP_STATE, NEXT, BLOCKED_ON. */
void evt_hook_m_switch(evt_event *ev, const evt_kernel_profile *k, uint64_t from, uint32_t state, uint32_t native,
                       uint64_t blocked_on, const char *blocked_name, uint64_t to, const char *to_name, uint64_t prio,
                       evt_hook_mbuf *buf);
/* An interrupt's enter or exit (its kind set by the caller): m IRQ, and its name -- `name` (the
 * one the application gave it), else "int<irq>" in buf -- as the event's name and m LABEL (the ISR
 * tables and tracks). Returns the name. */
const char *evt_hook_m_irq(evt_event *ev, uint32_t irq, const char *name, evt_hook_mbuf *buf);
/* `thread` became ready: kind thread_run with target, m WAKE. */
void evt_hook_m_ready(evt_event *ev, uint64_t thread, const char *name);
/* `thread`'s priority is now `prio`, why = evt_hook_prio_why: kind other, target, m PRIO_SET (and
 * m OP inherit/disinherit for those), label "prio_set"/"prio_inherit"/"prio_disinherit". */
void evt_hook_m_prio(evt_event *ev, uint64_t thread, const char *name, uint64_t prio, uint32_t why);
/* Service `code` on `obj` returned `ret`: kind svc (one instant), name/label from the profile
 * ("xQueueSend"; "svc_0x<code>" without one), m OP (op, result, obj, type), LABEL. */
void evt_hook_m_obj_op(evt_event *ev, const evt_kernel_profile *k, int32_t code, uint64_t obj, const char *obj_name,
                       int32_t ret, evt_hook_mbuf *buf);

/* The kernel's idle tasks a trace named (hook.idle_task record, TXTB registry entry), which the
 * readers mark on the events that name them. */
#define EVT_HOOK_MAX_IDLE 8
typedef struct evt_hook_idle {
    uint32_t n;
    uint64_t id[EVT_HOOK_MAX_IDLE];
} evt_hook_idle;

/* Note `thread` as an idle task (kept once; beyond EVT_HOOK_MAX_IDLE ignored). */
void evt_hook_idle_add(evt_hook_idle *s, uint64_t thread);
/* The record naming `thread` the kernel's idle task: kind other, name/label "idle_task", target
 * thread, m IDLE_TASK (idle_ctx = thread); notes it in s. */
void evt_hook_m_idle_task(evt_event *ev, evt_hook_idle *s, uint64_t thread, const char *name);
/* An event of an idle task known to s (its thread context, or the one a switch brings in): m
 * IDLE_TASK with idle_ctx = that task, so that a view sees it from the task's first event even
 * when the naming record is outside its range. Nothing when s is empty. */
static inline void evt_hook_idle_mark(const evt_hook_idle *s, evt_event *ev)
{
    if (!s->n) return;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t t = s->id[i];
        if (((ev->flags & EVT_HAS_CTX) && ev->ctx_class == EVT_CTX_THREAD && ev->ctx == t) ||
            ((ev->m.has & EVT_M_NEXT) && ev->m.next_ctx == t)) {
            ev->m.has |= EVT_M_IDLE_TASK;
            ev->m.idle_ctx = t;
            return;
        }
    }
}

#endif
