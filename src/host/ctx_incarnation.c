/* Incarnations of a reused context id (ctx_incarnation.h): thread creates and deletes noted per
 * raw id, then every member of an event that names a context renamed to its current incarnation. */
#include "ctx_incarnation.h"

#include "evtrace/hooks_defs.h"

void evt_ctx_incarn_free(evt_ctx_incarn *s)
{
    evt_u64map_free(&s->gen);
    s->later = 0;
}

/* ev's obj_type says thread. */
static int is_thread_(const evt_event *ev)
{
    return (ev->m.has & EVT_M_OBJ_TYPE) && ev->m.obj_type == EVT_HOOK_OBJ_THREAD;
}

/* ev creates or deletes a thread (with any_kind: any object) whose id is in target. */
static int life_(const evt_ctx_incarn *s, const evt_event *ev)
{
    return (ev->flags & EVT_HAS_TARGET) && !(ev->target >> EVT_CTX_INCARNATION_SHIFT) &&
           (s->any_kind || is_thread_(ev));
}

/* A map value: the incarnation thread references take (bits 0-15) and the one references to
 * another object take (bits 16-31); 0: the raw id. Invariant G1: with any_kind, each create of the
 * id takes the next number after both (one sequence per address, whatever the kinds), so a thread
 * and an object never share an incarnation of one address; without it only threads are noted and
 * the object half stays 0 (objects keep their raw ids). */
#define G_THREAD(v) ((v) & 0xFFFFu)
#define G_OBJ(v)    ((v) >> 16)

static void note_(evt_ctx_incarn *s, const evt_event *ev)
{
    uint32_t v;
    int known = evt_u64map_get(&s->gen, ev->target, &v);
    if (!known) { /* the first create (or a delete) of the id in the trace: its first incarnation */
        if (!s->nomem && !evt_u64map_put(&s->gen, ev->target, 0)) s->nomem = 1;
        return;
    }
    if (ev->kind == EVT_KIND_OBJ_DELETE) return; /* the incarnation goes on (a task's last records) */
    uint32_t top = G_THREAD(v) > G_OBJ(v) ? G_THREAD(v) : G_OBJ(v);
    uint32_t n = top >= EVT_CTX_INCARNATION_MAX ? 1u : top + 1u; /* a later one */
    uint32_t nv = is_thread_(ev) ? (v & 0xFFFF0000u) | n : (v & 0xFFFFu) | n << 16;
    (void)evt_u64map_put(&s->gen, ev->target, nv); /* the key is there: no growth */
    if (!v) s->later++;
}

/* The id of raw's current incarnation as a thread (obj: as another object). */
static inline uint64_t cur_(const evt_ctx_incarn *s, uint64_t raw)
{
    uint32_t v;
    return evt_u64map_get(&s->gen, raw, &v) && G_THREAD(v) ? evt_ctx_make(raw, G_THREAD(v)) : raw;
}
static inline uint64_t cur_obj_(const evt_ctx_incarn *s, uint64_t raw)
{
    uint32_t v;
    return evt_u64map_get(&s->gen, raw, &v) && G_OBJ(v) ? evt_ctx_make(raw, G_OBJ(v)) : raw;
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
    if ((ev->kind == EVT_KIND_OBJ_CREATE || ev->kind == EVT_KIND_OBJ_DELETE) && life_(s, ev)) note_(s, ev);
    if (!s->later) return;
    evt_meaning *m = &ev->m;
    if ((ev->flags & EVT_HAS_CTX) && ev->ctx_class == EVT_CTX_THREAD) ev->ctx = cur_(s, ev->ctx);
    if (m->has & EVT_M_NEXT) m->next_ctx = cur_(s, m->next_ctx);
    if ((m->has & EVT_M_OWNER) && m->owner) m->owner = cur_(s, m->owner);
    if (m->has & EVT_M_IDLE_TASK) m->idle_ctx = cur_(s, m->idle_ctx);
    if (m->has & EVT_M_INTERRUPTED) m->interrupted_ctx = cur_(s, m->interrupted_ctx);
    if (m->has & EVT_M_INHERIT) m->inherit_ctx = cur_(s, m->inherit_ctx);
    if (m->has & EVT_M_PREEMPT) m->preempted_ctx = cur_(s, m->preempted_ctx);
    if (m->has & (EVT_M_TIME_SLICE | EVT_M_SLICE_UNKNOWN | EVT_M_SLICE_KEPT)) m->sliced_ctx = cur_(s, m->sliced_ctx);
    if (!target_is_thread_(ev)) { /* target and m.obj name another object (with any_kind, renamed) */
        if (!s->any_kind) return;
        if (ev->flags & EVT_HAS_TARGET) ev->target = cur_obj_(s, ev->target);
        if (m->has & (EVT_M_OP | EVT_M_BLOCKED_ON | EVT_M_LEVEL)) m->obj = cur_obj_(s, m->obj);
        return;
    }
    if (ev->flags & EVT_HAS_TARGET) ev->target = cur_(s, ev->target);
    /* m.obj is the thread of a thread operation or an inheritance, not a blocked-on object */
    if ((m->has & EVT_M_OP) && !(m->has & EVT_M_BLOCKED_ON) &&
        (((m->has & EVT_M_OBJ_TYPE) && m->obj_type == EVT_HOOK_OBJ_THREAD) || m->op == EVT_OP_INHERIT ||
         m->op == EVT_OP_DISINHERIT))
        m->obj = cur_(s, m->obj);
    else if (s->any_kind && (m->has & (EVT_M_OP | EVT_M_BLOCKED_ON | EVT_M_LEVEL)))
        m->obj = cur_obj_(s, m->obj); /* the object a thread blocks on, or operates on */
}
