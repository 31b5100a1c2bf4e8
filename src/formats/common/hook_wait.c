/* Waits in the generic hooks' records (hook_wait.h): open calls per context, a waiting stop inside
 * one is the wait's start on the call's object, the thread's next thread_in its end. */
#include "formats/common/hook_wait.h"

#include <string.h>
#include "evtrace/hooks_defs.h"

void evt_hook_waits_init(evt_hook_waits *w) { memset(w, 0, sizeof *w); }

/* The slot of context id (created when `make`), or NULL. */
static evt_hook_wctx *slot_(evt_hook_waits *w, uint64_t id, int make)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (w->ctx[i].ctx == id) return &w->ctx[i];
    if (!make) return NULL;
    if (w->n == EVT_HOOK_WAIT_CTXS) { w->untracked++; return NULL; }
    evt_hook_wctx *c = &w->ctx[w->n++];
    memset(c, 0, sizeof *c);
    c->ctx = id;
    return c;
}

/* An operation that can make its caller wait for the object. */
static int waits_for_(const evt_event *ev)
{
    if (!(ev->m.has & EVT_M_OP)) return 0;
    switch ((evt_obj_op)ev->m.op) {
    case EVT_OP_ACQUIRE: case EVT_OP_RECEIVE: case EVT_OP_TAKE: case EVT_OP_WAIT: case EVT_OP_SEND: return 1;
    default: return 0;
    }
}

/* The thread a thread_run / thread_stop is about: its target, else the recording context. */
static int thread_of_(const evt_event *ev, uint64_t *id)
{
    if (ev->flags & EVT_HAS_TARGET) *id = ev->target;
    else if (ev->flags & EVT_HAS_CTX) *id = ev->ctx;
    else return 0;
    return 1;
}

static void mark_(evt_event *ev, evt_obj_op op, uint64_t obj)
{
    ev->m.has |= EVT_M_OP;
    ev->m.op = (uint8_t)op;
    ev->m.op_result = EVT_RES_UNKNOWN;
    ev->m.obj = obj;
    ev->m.obj_name = NULL; /* the object's name is its creation's */
}

void evt_hook_waits_event(evt_hook_waits *w, evt_event *ev)
{
    uint64_t id;
    evt_hook_wctx *c;
    switch (ev->kind) {
    case EVT_KIND_LOST:
        w->n = 0;
        return;
    case EVT_KIND_SVC_ENTER:
        if (!(ev->flags & EVT_HAS_CTX) || !(c = slot_(w, ev->ctx, 1))) return;
        if (c->n < EVT_HOOK_WAIT_DEPTH) {
            evt_hook_wcall *k = &c->call[c->n];
            k->code = ev->nargs ? ev->args[0] : 0;
            k->has_obj = (uint8_t)waits_for_(ev);
            k->obj = k->has_obj ? ev->m.obj : 0;
        }
        c->n++;
        return;
    case EVT_KIND_SVC_EXIT:
        if (!(ev->flags & EVT_HAS_CTX) || !(c = slot_(w, ev->ctx, 0)) || !c->n) return;
        if (c->n > EVT_HOOK_WAIT_DEPTH) { c->n--; return; } /* an untracked inner call */
        /* the innermost call with this code (inner calls without their leave end with it) */
        for (uint32_t i = c->n; i-- > 0;)
            if (!ev->nargs || c->call[i].code == ev->args[0]) { c->n = i; break; }
        return;
    case EVT_KIND_THREAD_STOP: {
        const unsigned not_ours = EVT_M_NEXT | EVT_M_BLOCKED_ON | EVT_M_OP;
        if (!(ev->m.has & EVT_M_STOP_STATE) || (ev->m.has & not_ours)) return;
        if (ev->m.stop_state != EVT_HOOK_STATE_WAITING && ev->m.stop_state != EVT_HOOK_STATE_WAIT_SUSPENDED) return;
        if (!thread_of_(ev, &id) || !(c = slot_(w, id, 0)) || c->waiting) return;
        if (!c->n || c->n > EVT_HOOK_WAIT_DEPTH || !c->call[c->n - 1].has_obj) return;
        c->waiting = 1;
        c->wait_obj = c->call[c->n - 1].obj;
        mark_(ev, EVT_OP_WAIT_START, c->wait_obj);
        return;
    }
    case EVT_KIND_THREAD_RUN:
        if (!(ev->m.has & EVT_M_RUNS_NOW) || (ev->m.has & EVT_M_OP)) return;
        if (!thread_of_(ev, &id) || !(c = slot_(w, id, 0)) || !c->waiting) return;
        c->waiting = 0;
        mark_(ev, EVT_OP_WAIT_END, c->wait_obj);
        return;
    default:
        return;
    }
}
