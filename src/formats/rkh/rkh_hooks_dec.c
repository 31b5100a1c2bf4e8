/* RKH-stream hooks, reader side (rkh_hooks_dec.h): hook records -> canonical kinds and contexts.
 * The record layouts are those of RKH_HOOKS_TABLE (rkh_hooks_defs.h), the one source of truth shared
 * with the recorder side; records are told apart by their FWK_TUSR names. */
#include "formats/rkh/rkh_hooks_dec.h"

#include <stdio.h>
#include <string.h>
#include "evtrace/hooks_defs.h"
#include "formats/common/hook_meaning.h"
#include "formats/common/hook_wait.h"
#include "formats/rkh/rkh_hooks_defs.h"
#include "host/kernels/kernel_profile.h"

#define RKH_HOOK_ISR_CTX 0xFFFFFFFFu /* context id of interrupt code (as the TXTB reader uses) */

/* The hook records: user event number, FWK_TUSR name and the event name it gets here. */
static const struct {
    int n;
    const char *s, *name;
} k_hooks[] = {
#define RKH_HOOK_ROW_(num, name, str) {num, RKH_HOOKS_PREFIX str, str},
    RKH_HOOKS_TABLE(RKH_HOOK_ROW_)
#undef RKH_HOOK_ROW_
};
#define N_HOOKS (sizeof k_hooks / sizeof k_hooks[0])

/* The event names of object creates and deletes by type ("thread_create", ...), as the snapshot's
 * ThreadX ids name them (THREAD_CREATE ...). */
static const char *const k_create[EVT_HOOK_OBJ_COUNT_] = {
#define RKH_HOOK_CREATE_(n, v, s) [v] = s "_create",
    EVT_HOOK_OBJ_TABLE(RKH_HOOK_CREATE_)
#undef RKH_HOOK_CREATE_
};
static const char *const k_delete[EVT_HOOK_OBJ_COUNT_] = {
#define RKH_HOOK_DELETE_(n, v, s) [v] = s "_delete",
    EVT_HOOK_OBJ_TABLE(RKH_HOOK_DELETE_)
#undef RKH_HOOK_DELETE_
};

/* The row of the hook record named user_event, or -1. */
static int hook_row(const char *user_event)
{
    for (unsigned i = 0; i < N_HOOKS; i++)
        if (strcmp(k_hooks[i].s, user_event) == 0) return (int)i;
    return -1;
}

const char *rkh_hooks_name(unsigned n)
{
    for (unsigned i = 0; i < N_HOOKS; i++)
        if ((unsigned)k_hooks[i].n == n) return k_hooks[i].s;
    return NULL;
}

void rkh_hooks_dec_init(rkh_hooks_dec *h)
{
    memset(h, 0, sizeof *h);
    h->kernel = -1;
}

static const evt_kernel_profile *profile_of(const rkh_hooks_dec *h)
{
    const evt_kernel_profile *p = h->profile;
    if (!p && h->kernel >= 0) p = evt_kernel_profile_by_id((uint32_t)h->kernel);
    return p ? p : evt_kernel_profile_generic();
}

static int irq_named(const rkh_hooks_dec *h, uint64_t irq)
{
    for (uint32_t i = 0; i < h->nirqs; i++)
        if (h->irqs[i] == irq) return 1;
    return 0;
}

/* The service's meaning: label (the profile's, else "svc_0x<code>"), operation and its object. */
static void svc_meaning(rkh_hooks_dec *h, evt_event *ev, int enter, rkh_hooks_name_fn name_of, void *user)
{
    const evt_kernel_profile *p = profile_of(h);
    int32_t code = (int32_t)(uint32_t)ev->args[0];
    int has_ret = !enter && ev->nargs >= 2;
    const evt_kernel_svc *sv = evt_kernel_meaning_svc(p, code, has_ret, has_ret ? (int32_t)(uint32_t)ev->args[1] : 0, &ev->m);
    if (!sv) {
        snprintf(h->namebuf, sizeof h->namebuf, "svc_0x%08x", (unsigned)(uint32_t)code);
        ev->m.has |= EVT_M_LABEL;
        ev->m.label = h->namebuf;
    }
    if (enter && sv && sv->obj_type && sv->obj_arg < EVT_HOOK_SVC_MAX_ARGS && 1u + sv->obj_arg < ev->nargs) {
        uint64_t o = evt_kernel_obj_handle(p, code, ev->args[1 + sv->obj_arg]); /* its canonical id */
        ev->flags |= EVT_HAS_TARGET;
        ev->target = o;
        ev->target_name = name_of(user, o);
    }
    if ((ev->m.has & EVT_M_OP) && enter && (ev->flags & EVT_HAS_TARGET)) {
        ev->m.obj = ev->target;
        ev->m.obj_name = ev->target_name;
    } else if (enter) {
        ev->m.has &= ~(unsigned)EVT_M_OP;
    }
}

static void set_thread_ctx(evt_event *ev, uint64_t thread, rkh_hooks_name_fn name_of, void *user)
{
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = thread;
    ev->ctx_class = EVT_CTX_THREAD;
    ev->ctx_name = name_of(user, thread);
}

static void set_current_ctx(const rkh_hooks_dec *h, evt_event *ev, rkh_hooks_name_fn name_of, void *user)
{
    if (h->isr_depth) {
        ev->flags |= EVT_HAS_CTX;
        ev->ctx = RKH_HOOK_ISR_CTX;
        ev->ctx_class = EVT_CTX_ISR;
        ev->ctx_name = "ISR";
    } else if (h->thread) {
        set_thread_ctx(ev, h->thread, name_of, user);
    }
}

static void set_target(evt_event *ev, uint64_t obj, rkh_hooks_name_fn name_of, void *user)
{
    ev->flags |= EVT_HAS_TARGET;
    ev->target = obj;
    ev->target_name = name_of(user, obj);
}

static void apply_(rkh_hooks_dec *h, evt_event *ev, const char *user_event, rkh_hooks_name_fn name_of, void *user)
{
    int row = user_event ? hook_row(user_event) : -1;
    int n = row >= 0 ? k_hooks[row].n : -1;
    const uint64_t *a = ev->args;
    if (n >= 0) h->seen = 1;
    if (n >= 0 && n != RKH_HOOK_USER) /* a hook record is named by what it is, not "USR#<n>"; the
                                        * cases below name it more closely where they can */
        ev->name = k_hooks[row].name;
    switch (n) {
    case RKH_HOOK_THREAD_IN: /* OBJ thread, UI32 prio */
        if (ev->nargs < 2) return;
        h->thread = a[0];
        ev->kind = EVT_KIND_THREAD_RUN;
        set_thread_ctx(ev, a[0], name_of, user);
        set_target(ev, a[0], name_of, user);
        ev->flags |= EVT_HAS_PRIO;
        ev->prio = a[1];
        ev->m.has |= EVT_M_RUNS_NOW;
        if (a[1] != EVT_HOOK_PRIO_UNKNOWN) { ev->m.has |= EVT_M_CTX_PRIO; ev->m.ctx_prio = a[1]; }
        return;
    case RKH_HOOK_THREAD_OUT: /* OBJ thread, UI8 state, UI32 native */
        if (ev->nargs < 3) return;
        ev->kind = EVT_KIND_THREAD_STOP;
        set_thread_ctx(ev, a[0], name_of, user);
        set_target(ev, a[0], name_of, user);
        if (h->thread == a[0]) h->thread = 0;
        if (a[1] < EVT_HOOK_STATE_COUNT_) {
            ev->m.has |= EVT_M_STOP_STATE;
            ev->m.stop_state = (uint8_t)a[1];
        } else {
            (void)evt_kernel_meaning_state(profile_of(h), (uint32_t)a[2], &ev->m);
        }
        return;
    case RKH_HOOK_ISR_ENTER: /* UI32 irq */
        if (ev->nargs < 1) return;
        h->isr_depth++;
        h->isr_irq = a[0];
        ev->kind = EVT_KIND_ISR_ENTER;
        set_current_ctx(h, ev, name_of, user);
        (void)evt_hook_m_irq(ev, (uint32_t)a[0], irq_named(h, a[0]) ? name_of(user, a[0]) : NULL, &h->mbuf);
        return;
    case RKH_HOOK_ISR_EXIT:
        if (ev->nargs < 1) return;
        ev->kind = EVT_KIND_ISR_EXIT;
        set_current_ctx(h, ev, name_of, user);
        (void)evt_hook_m_irq(ev, (uint32_t)a[0], irq_named(h, a[0]) ? name_of(user, a[0]) : NULL, &h->mbuf);
        if (h->isr_depth) h->isr_depth--;
        return;
    case RKH_HOOK_SVC_ENTER: /* I32 code, X32 args... */
    case RKH_HOOK_SVC_LEAVE: /* I32 code, I32 ret, UI8 paired */
        if (ev->nargs < 1) return;
        ev->kind = n == RKH_HOOK_SVC_ENTER ? EVT_KIND_SVC_ENTER : EVT_KIND_SVC_EXIT;
        set_current_ctx(h, ev, name_of, user);
        svc_meaning(h, ev, n == RKH_HOOK_SVC_ENTER, name_of, user);
        if (ev->m.has & EVT_M_LABEL) ev->name = ev->m.label; /* the service, as the snapshot names it */
        return;
    case RKH_HOOK_OBJ_CREATE: /* UI8 type, OBJ obj, UI32 param */
    case RKH_HOOK_OBJ_DELETE: /* UI8 type, OBJ obj */
        if (ev->nargs < 2) return;
        ev->kind = n == RKH_HOOK_OBJ_CREATE ? EVT_KIND_OBJ_CREATE : EVT_KIND_OBJ_DELETE;
        set_target(ev, a[1], name_of, user);
        set_current_ctx(h, ev, name_of, user);
        if (a[0] && a[0] < EVT_HOOK_OBJ_COUNT_) {
            ev->m.has |= EVT_M_OBJ_TYPE;
            ev->m.obj_type = (uint8_t)a[0];
            const char *tn = (n == RKH_HOOK_OBJ_CREATE ? k_create : k_delete)[a[0]];
            if (tn) ev->name = tn; /* (every type has its row: the table has no gap) */
        }
        if (n == RKH_HOOK_OBJ_CREATE && a[0] == EVT_HOOK_OBJ_INTERRUPT && !irq_named(h, a[1]) &&
            h->nirqs < RKH_HOOKS_MAX_IRQS)
            h->irqs[h->nirqs++] = (uint32_t)a[1];
        return;
    case RKH_HOOK_THREAD_SWITCH: /* OBJ from, UI8 state, UI32 native, OBJ blocked_on, OBJ to, UI32 prio */
        if (ev->nargs < 6) return;
        if (a[0]) set_thread_ctx(ev, a[0], name_of, user);
        else set_current_ctx(h, ev, name_of, user);
        evt_hook_m_switch(ev, profile_of(h), a[0], (uint32_t)a[1], (uint32_t)a[2], a[3],
                          a[3] ? name_of(user, a[3]) : NULL, a[4], name_of(user, a[4]), a[5], &h->mbuf);
        h->thread = a[4];
        return;
    case RKH_HOOK_THREAD_READY: /* OBJ thread */
        if (ev->nargs < 1) return;
        set_current_ctx(h, ev, name_of, user);
        evt_hook_m_ready(ev, a[0], name_of(user, a[0]));
        return;
    case RKH_HOOK_PRIO_SET: /* OBJ thread, UI32 prio, UI8 why */
        if (ev->nargs < 3) return;
        set_current_ctx(h, ev, name_of, user);
        evt_hook_m_prio(ev, a[0], name_of(user, a[0]), a[1], (uint32_t)a[2]);
        return;
    case RKH_HOOK_OBJ_NAME: /* UI8 type, OBJ obj (its FWK_OBJ symbol came first) */
        if (ev->nargs < 2) return;
        set_target(ev, a[1], name_of, user);
        set_current_ctx(h, ev, name_of, user);
        if (a[0] && a[0] < EVT_HOOK_OBJ_COUNT_) {
            ev->m.has |= EVT_M_OBJ_TYPE;
            ev->m.obj_type = (uint8_t)a[0];
        }
        return;
    case RKH_HOOK_OBJ_OP: /* I32 code, OBJ obj, I32 ret */
        if (ev->nargs < 3) return;
        set_current_ctx(h, ev, name_of, user);
        evt_hook_m_obj_op(ev, profile_of(h), (int32_t)(uint32_t)a[0], a[1], name_of(user, a[1]),
                          (int32_t)(uint32_t)a[2], &h->mbuf);
        return;
    case RKH_HOOK_KERNEL_INFO: /* UI32 kernel, UI32 version: the profile of what follows */
        if (ev->nargs >= 1 && a[0] < EVT_HOOK_KERNEL_COUNT_) h->kernel = (int)a[0];
        set_current_ctx(h, ev, name_of, user);
        return;
    case RKH_HOOK_CLOCK: /* UI32 magic, UI32 kernel, UI32 hz low, UI32 hz high */
        if (ev->nargs >= 4 && a[0] == RKH_HOOKS_CLOCK_MAGIC) {
            if (a[1] < EVT_HOOK_KERNEL_COUNT_) h->kernel = (int)a[1];
            h->clock_hz = (uint64_t)(uint32_t)a[2] | (uint64_t)(uint32_t)a[3] << 32;
        }
        set_current_ctx(h, ev, name_of, user);
        return;
    case RKH_HOOK_IDLE_TASK: /* OBJ thread */
        if (ev->nargs < 1) return;
        set_current_ctx(h, ev, name_of, user);
        evt_hook_m_idle_task(ev, &h->idle, a[0], name_of(user, a[0]));
        return;
    case RKH_HOOK_USER:
    default: /* the application's own records: recorded where the hooks say code runs */
        set_current_ctx(h, ev, name_of, user);
        return;
    }
}

void rkh_hooks_dec_context(const rkh_hooks_dec *h, evt_event *ev, rkh_hooks_name_fn name_of, void *user)
{
    set_current_ctx(h, ev, name_of, user);
}

void rkh_hooks_dec_apply(rkh_hooks_dec *h, evt_event *ev, const char *user_event, rkh_hooks_name_fn name_of,
                         void *user)
{
    apply_(h, ev, user_event, name_of, user);
    evt_hook_idle_mark(&h->idle, ev); /* an idle task's events say so (hook_meaning.h) */
    evt_hook_waits_event(&h->waits, ev); /* a wait's start and end (hook_wait.h) */
}
