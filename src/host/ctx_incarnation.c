/* Incarnations of a reused context id (ctx_incarnation.h): thread creates and deletes noted per
 * raw id, then every member of an event that names a context renamed to its current incarnation. */
#include "ctx_incarnation.h"

#include "evtrace/hooks_defs.h"

void evt_ctx_incarn_free(evt_ctx_incarn *s)
{
    evt_u64map_free(&s->gen);
    s->later = 0;
}

/* ev creates or deletes a thread (its id in target). */
static int thread_life_(const evt_event *ev)
{
    return (ev->flags & EVT_HAS_TARGET) && (ev->m.has & EVT_M_OBJ_TYPE) && ev->m.obj_type == EVT_HOOK_OBJ_THREAD &&
           !(ev->target >> EVT_CTX_INCARNATION_SHIFT);
}

static void note_(evt_ctx_incarn *s, const evt_event *ev)
{
    uint32_t g;
    int known = evt_u64map_get(&s->gen, ev->target, &g);
    if (ev->kind == EVT_KIND_OBJ_DELETE) { /* the incarnation goes on (a task's last records) */
        if (!known && !s->nomem && !evt_u64map_put(&s->gen, ev->target, 0)) s->nomem = 1;
        return;
    }
    if (!known) { /* the first create of the id in the trace: its first incarnation */
        if (!s->nomem && !evt_u64map_put(&s->gen, ev->target, 0)) s->nomem = 1;
        return;
    }
    uint32_t n = g >= EVT_CTX_INCARNATION_MAX ? 1u : g + 1u; /* a later one */
    (void)evt_u64map_put(&s->gen, ev->target, n); /* the key is there: no growth */
    if (!g) s->later++;
}

/* The id of raw's current incarnation. */
static inline uint64_t cur_(const evt_ctx_incarn *s, uint64_t raw)
{
    uint32_t g;
    return evt_u64map_get(&s->gen, raw, &g) && g ? evt_ctx_make(raw, g) : raw;
}

/* Whether the event's target (and m.obj) is a thread: its scheduling, a wake-up, a priority
 * change, an operation on a thread (suspend, notify, delay) or its create/delete. */
static int target_is_thread_(const evt_event *ev)
{
    const evt_meaning *m = &ev->m;
    return ev->kind == EVT_KIND_THREAD_RUN || ev->kind == EVT_KIND_THREAD_STOP ||
           (m->has & (EVT_M_WAKE | EVT_M_PRIO_SET)) || ((m->has & EVT_M_OBJ_TYPE) && m->obj_type == EVT_HOOK_OBJ_THREAD);
}

void evt_ctx_incarn_event(evt_ctx_incarn *s, evt_event *ev)
{
    if ((ev->kind == EVT_KIND_OBJ_CREATE || ev->kind == EVT_KIND_OBJ_DELETE) && thread_life_(ev)) note_(s, ev);
    if (!s->later) return;
    evt_meaning *m = &ev->m;
    if ((ev->flags & EVT_HAS_CTX) && ev->ctx_class == EVT_CTX_THREAD) ev->ctx = cur_(s, ev->ctx);
    if (m->has & EVT_M_NEXT) m->next_ctx = cur_(s, m->next_ctx);
    if ((m->has & EVT_M_OWNER) && m->owner) m->owner = cur_(s, m->owner);
    if (m->has & EVT_M_IDLE_TASK) m->idle_ctx = cur_(s, m->idle_ctx);
    if (!target_is_thread_(ev)) return;
    if (ev->flags & EVT_HAS_TARGET) ev->target = cur_(s, ev->target);
    /* m.obj is the thread of a thread operation or an inheritance, not a blocked-on object */
    if ((m->has & EVT_M_OP) && !(m->has & EVT_M_BLOCKED_ON) &&
        (((m->has & EVT_M_OBJ_TYPE) && m->obj_type == EVT_HOOK_OBJ_THREAD) || m->op == EVT_OP_INHERIT ||
         m->op == EVT_OP_DISINHERIT))
        m->obj = cur_(s, m->obj);
}
