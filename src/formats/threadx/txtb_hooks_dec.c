/* Decoding of the generic-hooks records in a TXTB buffer (see txtb_hooks_dec.h, docs/hooks.md).
 * Names come from the shared X-macro tables: include/evtrace/hooks.h (states, profiles) and
 * src/kernel/utk/utk_fncd.h (μT-Kernel function codes, TTS_*). */
#include "formats/threadx/txtb_hooks_dec.h"

#include <stdio.h>
#include <string.h>
#include "evtrace/hooks_defs.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/common/hook_meaning.h"
#include "formats/common/hook_wait.h"
#include "host/kernels/kernel_profile.h"
#include "kernel/utk/utk_fncd.h"

static const char *const k_utk_fn[UTK_FN_INDEX_MAX + 1] = {
#define TXTB_HD_FN_(ix, name, n, oc, role) [ix] = #name,
    UTK_FN_TABLE(TXTB_HD_FN_)
#undef TXTB_HD_FN_
};
static const uint8_t k_utk_oc[UTK_FN_INDEX_MAX + 1] = {
#define TXTB_HD_OC_(ix, name, n, oc, role) [ix] = (role == UTK_ROLE_ARG || role == UTK_ROLE_DEL) ? oc : 0,
    UTK_FN_TABLE(TXTB_HD_OC_)
#undef TXTB_HD_OC_
};
static const char *const k_state[] = {
#define TXTB_HD_ST_(n, v, s) [v] = s,
    EVT_HOOK_STATE_TABLE(TXTB_HD_ST_)
#undef TXTB_HD_ST_
};

const char *txtb_hooks_utk_fn_name(int32_t fncd)
{
    if (fncd >= 0) return NULL;
    unsigned ix = ((uint32_t)fncd >> 16) & 0x7FFFu;
    return ix <= UTK_FN_INDEX_MAX ? k_utk_fn[ix] : NULL;
}

const char *txtb_hooks_utk_tts_name(uint32_t tskstat)
{
    switch (tskstat & 0x7Fu) {
#define TXTB_HD_TTS_(name, v) case v: return #name;
        UTK_TTS_TABLE(TXTB_HD_TTS_)
#undef TXTB_HD_TTS_
    case 0: return "NONEXISTENT";
    default: return NULL;
    }
}

/* μT-Kernel error code names (3.0 errno.h). */
static const char *utk_error_name(int32_t er)
{
    switch (er) {
    case 0: return "E_OK";
    case -5: return "E_SYS";
    case -9: return "E_NOSPT";
    case -10: return "E_RSFN";
    case -11: return "E_RSATR";
    case -17: return "E_PAR";
    case -18: return "E_ID";
    case -25: return "E_CTX";
    case -26: return "E_MACV";
    case -27: return "E_OACV";
    case -28: return "E_ILUSE";
    case -33: return "E_NOMEM";
    case -34: return "E_LIMIT";
    case -41: return "E_OBJ";
    case -42: return "E_NOEXS";
    case -43: return "E_QOVR";
    case -49: return "E_RLWAI";
    case -50: return "E_TMOUT";
    case -51: return "E_DLT";
    case -52: return "E_DISWAI";
    default: return NULL;
    }
}

void txtb_hooks_dec_init(txtb_hooks_dec *h) { memset(h, 0, sizeof *h); }

void txtb_hooks_dec_registry(txtb_hooks_dec *h, unsigned type, uint32_t addr, uint32_t param1, uint32_t param2)
{
    if (type == TXTB_OBJ_EVTRACE_HOOKS && addr == TXTB_HOOKS_CLOCK_MAGIC) {
        h->clock_hz = (uint64_t)param2 << 32 | param1;
        return;
    }
    if (type == TXTB_OBJ_EVTRACE_HOOKS && (addr & ~0xFFu) == TXTB_HOOKS_IDLE_BASE) {
        evt_hook_idle_add(&h->idle, param1); /* a thread's 32-bit word, as the records name it */
        return;
    }
    if (type == TXTB_OBJ_EVTRACE_HOOKS && addr == TXTB_HOOKS_MAGIC) {
        h->active = 1;
        h->kernel = param1;
        h->version = param2;
    }
}

/* Replace the value of string field `key`, or add it. */
static void set_field_s(evt_event *ev, const char *key, const char *v)
{
    for (uint32_t i = 0; i < ev->nfields; i++) {
        if (strcmp(ev->fields[i].key, key) == 0) {
            ev->fields[i].is_str = 1;
            ev->fields[i].str = v;
            ev->fields_ok &= ~(1u << i); /* checked as usual */
            return;
        }
    }
    evt_event_add_field_s(ev, key, v);
}

static const evt_kernel_profile *profile_of(const txtb_hooks_dec *h)
{
    const evt_kernel_profile *p = h->profile;
    if (!p && h->active) p = evt_kernel_profile_by_id(h->kernel);
    return p ? p : evt_kernel_profile_generic();
}

/* Service name: from the kernel profile's table, else the code in hex. */
static const char *svc_name(txtb_hooks_dec *h, const evt_kernel_profile *p, uint32_t code)
{
    const evt_kernel_svc *sv = evt_kernel_svc_find(p, (int32_t)code);
    if (sv) return sv->label;
    if (p->id == EVT_HOOK_KERNEL_UTKERNEL) {
        if ((int32_t)code >= 0) { /* extended SVC: subsystem id in the low 8 bits */
            snprintf(h->namebuf, sizeof h->namebuf, "svc_ssy%u_fn%u", (unsigned)(code & 0xFFu), (unsigned)(code >> 8));
            return h->namebuf;
        }
    }
    snprintf(h->namebuf, sizeof h->namebuf, "svc_0x%08x", (unsigned)code);
    return h->namebuf;
}

/* The slot of addr in h->kinds (Fibonacci hashing: FreeRTOS's heap addresses differ in their
 * middle bits). */
static txtb_hooks_kind *kind_slot(txtb_hooks_dec *h, uint32_t addr)
{
    return &h->kinds[(uint32_t)(addr * 2654435761u) >> 24];
}

/* The kind the object at addr last had (EVT_HOOK_OBJ_*), or TXTB_NAME_ANY when not known. */
static int kind_of(txtb_hooks_dec *h, uint32_t addr)
{
    const txtb_hooks_kind *k = kind_slot(h, addr);
    return k->addr == addr ? k->type : TXTB_NAME_ANY;
}

/* Keep the kind of the object a create, delete or operation names (the switch's blocked-on
 * object names its own kind through kind_of). */
static void note_kind(txtb_hooks_dec *h, const evt_event *ev)
{
    uint64_t a;
    if (!(ev->m.has & EVT_M_OBJ_TYPE) || !ev->m.obj_type) return;
    if ((ev->m.has & EVT_M_OP) && !(ev->m.has & EVT_M_BLOCKED_ON)) a = ev->m.obj;
    else if ((ev->kind == EVT_KIND_OBJ_CREATE || ev->kind == EVT_KIND_OBJ_DELETE) && (ev->flags & EVT_HAS_TARGET))
        a = ev->target;
    else return;
    txtb_hooks_kind *k = kind_slot(h, (uint32_t)a);
    k->addr = (uint32_t)a;
    k->type = ev->m.obj_type;
}

/* The RTOS records 195-198 (txtb_defs.h), meaning by formats/common/hook_meaning.c. */
static void rtos_record(txtb_hooks_dec *h, uint32_t id, const uint32_t w[8], evt_event *ev, txtb_hooks_name_fn name_of,
                        void *ctx)
{
    const evt_kernel_profile *k = profile_of(h);
#define NAME_(a, want) (name_of && (a) ? name_of(ctx, (a), (want)) : NULL)
    switch (id) {
    case TXTB_EVTRACE_SWITCH_ID: {
        uint64_t from = (ev->flags & EVT_HAS_CTX) && ev->ctx_class == EVT_CTX_THREAD ? ev->ctx : 0;
        /* the blocked-on object named by an entry of its kind when it is known (a semaphore built
           where a task was is not called after the task) */
        evt_hook_m_switch(ev, k, from, w[6] >> 16, w[6] & 0xFFFFu, w[7], NAME_(w[7], kind_of(h, w[7])), w[4],
                          NAME_(w[4], EVT_HOOK_OBJ_THREAD), w[5], &h->mbuf);
        break;
    }
    case TXTB_EVTRACE_READY_ID: evt_hook_m_ready(ev, w[4], NAME_(w[4], EVT_HOOK_OBJ_THREAD)); break;
    case TXTB_EVTRACE_PRIO_ID: evt_hook_m_prio(ev, w[4], NAME_(w[4], EVT_HOOK_OBJ_THREAD), w[5], w[6]); break;
    default: { /* the object named by its own kind's entry when the operation says which (a
                * FreeRTOS code tells the queue type: a take of a mutex is not a semaphore's) */
        const evt_kernel_svc *sv = evt_kernel_svc_find(k, (int32_t)w[4]);
        int want = sv ? sv->obj_type : TXTB_NAME_ANY;
        evt_hook_m_obj_op(ev, k, (int32_t)w[4], w[5], NAME_(w[5], want), (int32_t)w[6], &h->mbuf);
        break;
    }
    }
#undef NAME_
}

static int decode_event(txtb_hooks_dec *h, uint32_t id, const uint32_t w[8], evt_event *ev,
                        txtb_hooks_name_fn name_of, void *ctx)
{
    uint32_t code = w[4];
    const evt_kernel_profile *p = profile_of(h);
    if (h->active && (ev->kind == EVT_KIND_OBJ_CREATE || ev->kind == EVT_KIND_OBJ_DELETE) &&
        (w[7] & TXTB_HOOKS_OBJTYPE_MASK) == TXTB_HOOKS_OBJTYPE_TAG &&
        (w[7] & 0xFFu) != 0u && (w[7] & 0xFFu) < EVT_HOOK_OBJ_COUNT_) {
        ev->m.has |= EVT_M_OBJ_TYPE; /* the object's own type, not the create id's (txtb_defs.h) */
        ev->m.obj_type = (uint8_t)(w[7] & 0xFFu);
        /* the registry's name is this object's only if the entry is of its kind (a task's name
           does not name a semaphore built where it was, nor a mutex's a semaphore's) */
        if (ev->target_name && name_of && !name_of(ctx, (uint32_t)ev->target, ev->m.obj_type))
            ev->target_name = NULL;
        return 1;
    }
    if (id == TXTB_EVTRACE_SVC_ENTER_ID || id == TXTB_EVTRACE_SVC_EXIT_ID) {
        int enter = (id == TXTB_EVTRACE_SVC_ENTER_ID);
        ev->kind = enter ? EVT_KIND_SVC_ENTER : EVT_KIND_SVC_EXIT;
        ev->name = svc_name(h, p, code);
        evt_event_add_field_u(ev, "code", code);
        const evt_kernel_svc *sv = evt_kernel_meaning_svc(p, (int32_t)code, !enter, (int32_t)w[5], &ev->m);
        if (!sv) {
            ev->m.has |= EVT_M_LABEL;
            ev->m.label = ev->name;
        }
        if (enter) {
            unsigned ix = (code >> 16) & 0x7FFFu;
            if (p->id == EVT_HOOK_KERNEL_UTKERNEL && (int32_t)code < 0 && ix <= UTK_FN_INDEX_MAX && k_utk_oc[ix]) {
                uint32_t handle = (uint32_t)evt_kernel_obj_handle(p, (int32_t)code, w[5]); /* the profile's id */
                ev->flags |= EVT_HAS_TARGET;
                ev->target = handle;
                ev->target_name = name_of ? name_of(ctx, handle, TXTB_NAME_ANY) : NULL;
            } else if (sv && sv->obj_type && sv->obj_arg < 3) { /* the handle is an argument */
                ev->flags |= EVT_HAS_TARGET;
                ev->target = evt_kernel_obj_handle(p, (int32_t)code, w[5 + sv->obj_arg]);
                /* a thread's entry for a thread; any other entry otherwise: an API's object type
                   names a family (xSemaphoreTake takes a mutex too) */
                ev->target_name = name_of ? name_of(ctx, (uint32_t)ev->target,
                                                    sv->obj_type == EVT_HOOK_OBJ_THREAD ? EVT_HOOK_OBJ_THREAD
                                                                                        : TXTB_NAME_ANY)
                                          : NULL;
            }
            if ((ev->m.has & EVT_M_OP) && (ev->flags & EVT_HAS_TARGET)) {
                ev->m.obj = ev->target;
                ev->m.obj_name = ev->target_name;
            } else {
                ev->m.has &= ~(unsigned)EVT_M_OP; /* an operation without its object means nothing */
            }
        } else {
            evt_event_add_field_i(ev, "ret", (int32_t)w[5]);
            if (p->id == EVT_HOOK_KERNEL_UTKERNEL) {
                const char *en = (int32_t)w[5] > 0 ? NULL : utk_error_name((int32_t)w[5]);
                if (en) evt_event_add_field_s(ev, "error", en);
            }
            evt_event_add_field_u(ev, "paired", w[6] ? 1u : 0u);
        }
        return 1;
    }
    if (!h->active) return 0;
    if (id >= TXTB_EVTRACE_SWITCH_ID && id <= TXTB_EVTRACE_OBJ_OP_ID) {
        rtos_record(h, id, w, ev, name_of, ctx);
        return 1;
    }
    if (id == TXTB_EVENT_ISR_ENTER || id == TXTB_EVENT_ISR_EXIT) {
        /* The interrupt's name (evt_utk_name_interrupt / EVT_HOOK_OBJ_INTERRUPT) or "int<n>". */
        uint32_t irq = w[5];
        const char *n = name_of ? name_of(ctx, TXTB_HOOKS_IRQ_BASE | (irq & 0xFFFFu), TXTB_NAME_ANY) : NULL;
        evt_event_add_field_s(ev, "irq_name", evt_hook_m_irq(ev, irq, n, &h->mbuf));
        return 1;
    }
    if (id == TXTB_EVENT_THREAD_RESUME || id == TXTB_EVENT_THREAD_SUSPEND) {
        int run = (id == TXTB_EVENT_THREAD_RESUME);
        uint32_t gen = w[6] >> 16, native = w[6] & 0xFFFFu;
        const char *sn;
        ev->m.has &= ~(unsigned)(EVT_M_NEXT | EVT_M_STOP_STATE | EVT_M_KEEP_STATE); /* not ThreadX's own */
        if (run) {
            ev->m.has |= EVT_M_RUNS_NOW; /* the hooks' thread_in: it runs from here */
        } else if (gen < EVT_HOOK_STATE_COUNT_) {
            ev->m.has |= EVT_M_STOP_STATE;
            ev->m.stop_state = (uint8_t)gen;
        } else {
            (void)evt_kernel_meaning_state(p, native, &ev->m);
        }
        if (p->id == EVT_HOOK_KERNEL_UTKERNEL)
            sn = run ? "TTS_RUN" : txtb_hooks_utk_tts_name(native);
        else
            sn = run ? "running" : (gen < sizeof k_state / sizeof k_state[0] ? k_state[gen] : NULL);
        if (!sn) {
            snprintf(h->statebuf, sizeof h->statebuf, "state_%u", (unsigned)native);
            sn = h->statebuf;
        }
        set_field_s(ev, "state", sn);
        if (!run) {
            evt_event_add_field_s(ev, "stop_reason", gen < sizeof k_state / sizeof k_state[0] ? k_state[gen] : "unknown");
            evt_event_add_field_u(ev, "native_state", native);
        }
        return 1;
    }
    return 0;
}

int txtb_hooks_dec_event(txtb_hooks_dec *h, uint32_t id, const uint32_t w[8], evt_event *ev,
                         txtb_hooks_name_fn name_of, void *ctx)
{
    int mine = decode_event(h, id, w, ev, name_of, ctx);
    if (h->active) note_kind(h, ev);
    evt_hook_idle_mark(&h->idle, ev); /* an idle task's events say so (hook_meaning.h) */
    if (mine || ev->kind == EVT_KIND_LOST) evt_hook_waits_event(&h->waits, ev); /* hook_wait.h */
    return mine;
}
