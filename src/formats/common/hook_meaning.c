/* The meaning of the generic hooks' RTOS records (hook_meaning.h), one implementation for every
 * hooks backend's reader. Names from the shared tables: evtrace/hooks_defs.h (states, priority
 * reasons) and the kernel profile (services, native states). */
#include "formats/common/hook_meaning.h"

#include <stdio.h>
#include "evtrace/hooks_defs.h"

static const char *const k_state[] = {
#define HM_ST_(n, v, s) [v] = s,
    EVT_HOOK_STATE_TABLE(HM_ST_)
#undef HM_ST_
};
static const char *const k_why[] = {
#define HM_WHY_(n, v, s) [v] = "prio_" s,
    EVT_HOOK_PRIO_WHY_TABLE(HM_WHY_)
#undef HM_WHY_
};

static void set_target(evt_event *ev, uint64_t obj, const char *name)
{
    ev->flags |= EVT_HAS_TARGET;
    ev->target = obj;
    ev->target_name = name;
}

/* An empty name is no name. */
static const char *nm_(const char *s) { return s && s[0] ? s : NULL; }

void evt_hook_m_switch(evt_event *ev, const evt_kernel_profile *k, uint64_t from, uint32_t state, uint32_t native,
                       uint64_t blocked_on, const char *blocked_name, uint64_t to, const char *to_name, uint64_t prio,
                       evt_hook_mbuf *buf)
{
    blocked_name = nm_(blocked_name);
    to_name = nm_(to_name);
    const char *gen = state < sizeof k_state / sizeof k_state[0] ? k_state[state] : "unknown";
    ev->m.has |= EVT_M_NEXT;
    ev->m.next_ctx = to;
    ev->m.next_name = to_name;
    ev->m.next_prio = prio;
    if (!from) { /* nothing ran before: `to` simply starts */
        ev->kind = EVT_KIND_THREAD_RUN;
        ev->m.has |= EVT_M_RUNS_NOW;
        set_target(ev, to, to_name);
        evt_event_add_field_s(ev, "state", "running");
        evt_event_add_field_u(ev, "priority", prio);
        return;
    }
    ev->kind = EVT_KIND_THREAD_STOP;
    set_target(ev, from, ev->ctx_name);
    const evt_kernel_state *ks = evt_kernel_state_find(k, native);
    const char *sn = ks ? ks->label : NULL;
    if (!sn) {
        snprintf(buf->state, sizeof buf->state, "%s", gen);
        sn = buf->state;
    }
    ev->m.has |= EVT_M_STOP_STATE;
    ev->m.stop_state = (uint8_t)(state < EVT_HOOK_STATE_COUNT_ ? state : EVT_HOOK_STATE_WAITING);
    evt_event_add_field_s(ev, "state", sn);
    evt_event_add_field_s(ev, "stop_reason", gen);
    evt_event_add_field_u(ev, "native_state", native);
    evt_event_add_field_u(ev, "next_thread", to);
    evt_event_add_field_u(ev, "next_priority", prio);
    if (blocked_on) {
        ev->m.has |= EVT_M_BLOCKED_ON;
        ev->m.obj = blocked_on;
        ev->m.obj_name = blocked_name;
        evt_event_add_field_u(ev, "blocked_on", blocked_on);
        if (blocked_name) evt_event_add_field_s(ev, "blocked_on_name", blocked_name);
    }
}

void evt_hook_m_ready(evt_event *ev, uint64_t thread, const char *name)
{
    name = nm_(name);
    ev->kind = EVT_KIND_THREAD_RUN;
    set_target(ev, thread, name);
    evt_event_add_field_s(ev, "state", "ready");
    ev->m.has |= EVT_M_WAKE;
}

const char *evt_hook_m_irq(evt_event *ev, uint32_t irq, const char *name, evt_hook_mbuf *buf)
{
    if (!name || !name[0]) {
        snprintf(buf->label, sizeof buf->label, "int%u", (unsigned)irq);
        name = buf->label;
    }
    ev->name = name;
    ev->m.has |= EVT_M_IRQ | EVT_M_LABEL;
    ev->m.irq = irq;
    ev->m.label = name;
    return name;
}

void evt_hook_m_prio(evt_event *ev, uint64_t thread, const char *name, uint64_t prio, uint32_t why)
{
    name = nm_(name);
    ev->kind = EVT_KIND_OTHER;
    set_target(ev, thread, name);
    ev->m.has |= EVT_M_PRIO_SET | EVT_M_LABEL;
    ev->m.new_prio = prio;
    ev->m.label = why < sizeof k_why / sizeof k_why[0] ? k_why[why] : "prio_set";
    ev->name = ev->m.label;
    if (why == EVT_HOOK_PRIO_INHERIT || why == EVT_HOOK_PRIO_DISINHERIT) {
        /* an operation on the thread (the holder whose priority changes): its object is a thread,
           as `stats` lists it (before 7 Dec 2026 a task with only these showed type 0) */
        ev->m.has |= EVT_M_OP | EVT_M_OBJ_TYPE;
        ev->m.obj_type = EVT_HOOK_OBJ_THREAD;
        ev->m.op = why == EVT_HOOK_PRIO_INHERIT ? EVT_OP_INHERIT : EVT_OP_DISINHERIT;
        ev->m.op_result = EVT_RES_SUCCESS;
        ev->m.obj = thread;
        ev->m.obj_name = name;
    }
    evt_event_add_field_u(ev, "new_priority", prio);
}

void evt_hook_m_obj_op(evt_event *ev, const evt_kernel_profile *k, int32_t code, uint64_t obj, const char *obj_name,
                       int32_t ret, evt_hook_mbuf *buf)
{
    obj_name = nm_(obj_name);
    const evt_kernel_svc *s = evt_kernel_svc_find(k, code);
    const char *label = s ? s->label : NULL;
    if (!label) {
        snprintf(buf->label, sizeof buf->label, "svc_0x%08x", (unsigned)code);
        label = buf->label;
    }
    evt_op_result r = k && k->result_of ? k->result_of(code, ret) : EVT_RES_UNKNOWN;
    ev->kind = EVT_KIND_SVC;
    ev->name = label;
    set_target(ev, obj, obj_name);
    ev->m.has |= EVT_M_LABEL | EVT_M_OP;
    ev->m.label = label;
    ev->m.op = s ? s->op : EVT_OP_NONE;
    ev->m.op_result = (uint8_t)r;
    ev->m.obj = obj;
    ev->m.obj_name = obj_name;
    if (s && s->obj_type) {
        ev->m.has |= EVT_M_OBJ_TYPE;
        ev->m.obj_type = s->obj_type;
    }
    evt_event_add_field_u(ev, "code", (uint32_t)code);
    evt_event_add_field_i(ev, "ret", ret);
    evt_event_add_field_s(ev, "op", evt_obj_op_name((evt_obj_op)ev->m.op));
    evt_event_add_field_s(ev, "result", evt_op_result_name(r));
}

void evt_hook_idle_add(evt_hook_idle *s, uint64_t thread)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->id[i] == thread) return;
    if (thread && s->n < EVT_HOOK_MAX_IDLE) s->id[s->n++] = thread;
}

void evt_hook_m_idle_task(evt_event *ev, evt_hook_idle *s, uint64_t thread, const char *name)
{
    evt_hook_idle_add(s, thread);
    ev->kind = EVT_KIND_OTHER;
    ev->name = "idle_task";
    set_target(ev, thread, nm_(name));
    ev->m.has |= EVT_M_IDLE_TASK | EVT_M_LABEL;
    ev->m.idle_ctx = thread;
    ev->m.label = ev->name;
}
