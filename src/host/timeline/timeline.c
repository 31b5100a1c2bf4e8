/* The one timeline (model and invariants in timeline.h).
 *
 * Invariants kept between events:
 * - cpu->run == i  <=>  ctxs[i]->running_on == 1 and ctxs[i]->cpu is that CPU and its state is
 *   running (a context runs on at most one CPU).
 * - A context's current state began at state_since; it is emitted (if longer than zero) when the
 *   state changes and at finish.
 * - stack and stack_t0 of a context have the same depth. */
#include "host/timeline/timeline.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/hooks_defs.h"
#include "evtrace/reader.h"
#include "host/kernels/kernel_profile.h"

static const char *const k_state_name[] = {
#define TL_SN_(e, n, l, v) n,
    EVT_TL_STATE_TABLE(TL_SN_)
#undef TL_SN_
};
static const int k_state_linux[] = {
#define TL_SL_(e, n, l, v) v,
    EVT_TL_STATE_TABLE(TL_SL_)
#undef TL_SL_
};

const char *evt_tl_state_name(evt_tl_state s)
{
    return (unsigned)s < EVT_TL_STATE_COUNT_ ? k_state_name[s] : "unknown";
}

int evt_tl_state_linux(evt_tl_state s) { return (unsigned)s < EVT_TL_STATE_COUNT_ ? k_state_linux[s] : 0; }

const char *evt_tl_prio_why_name(evt_tl_prio_why w)
{
    static const char *const k_why[] = {
#define TL_WHY_(e, n) n,
        EVT_TL_PRIO_WHY_TABLE(TL_WHY_)
#undef TL_WHY_
    };
    return (unsigned)w < EVT_TL_PRIO_WHY_COUNT_ ? k_why[w] : "set";
}

const char *evt_tl_class_name(evt_ctx_class c)
{
    switch (c) {
    case EVT_CTX_THREAD: return "thread";
    case EVT_CTX_ISR: return "isr";
    case EVT_CTX_INIT: return "init";
    default: return "none";
    }
}

const char *evt_tl_ctx_label(const evt_tl_ctx *c, char *buf, size_t len)
{
    if (c->name) return c->name;
    if (c->has_id && evt_ctx_incarnation(c->id)) /* a reused id's later incarnation (model.h) */
        snprintf(buf, len, "ctx 0x%" PRIx64 " #%u", evt_ctx_raw(c->id), (unsigned)evt_ctx_incarnation(c->id) + 1u);
    else if (c->has_id) snprintf(buf, len, "ctx 0x%" PRIx64, c->id);
    else snprintf(buf, len, "(no context: %s)", evt_tl_class_name(c->cls));
    return buf;
}

const evt_tl_ctx *evt_tl_ctx_at(const evt_tl *tl, uint32_t index)
{
    return index < tl->nctx ? tl->ctxs[index] : NULL;
}

const evt_tl_obj *evt_tl_obj_at(const evt_tl *tl, uint32_t index)
{
    return index < tl->nobj ? tl->objs[index] : NULL;
}

int evt_tl_init(evt_tl *tl, uint64_t clock_hz, const evt_tl_sink *sink)
{
    memset(tl, 0, sizeof *tl);
    tl->clock_hz = clock_hz;
    if (sink) tl->sink = *sink;
    for (int i = 0; i < 4; i++) tl->noctx[i] = EVT_TL_NONE;
    tl->cpus = evt_calloc(EVT_TL_MAX_CPUS, sizeof *tl->cpus);
    if (!tl->cpus) return 0;
    for (uint32_t c = 0; c < EVT_TL_MAX_CPUS; c++) tl->cpus[c].run = EVT_TL_NONE;
    tl->cur_ctx = EVT_TL_NONE;
    tl->mru_ix[0] = tl->mru_ix[1] = EVT_TL_NONE;
    tl->caps = (1u << EVT_CAP_COUNT_) - 1;
    tl->sched = 1;
    return 1;
}

void evt_tl_set_trace(evt_tl *tl, unsigned caps, int known, int higher_prio_wins)
{
    tl->higher_prio_wins = higher_prio_wins;
    if (!known) return;
    tl->caps = caps;
    tl->sched = (caps & EVT_CAP_SCHED) != 0;
}

void evt_tl_set_reader(evt_tl *tl, const evt_reader *r)
{
    evt_tl_set_trace(tl, r->caps, r->caps_known, evt_reader_higher_prio_wins(r));
    tl->reader = r;
    tl->reader_kernel = evt_reader_effective_kernel(r);
}

uint64_t evt_tl_time(const evt_tl *tl, const evt_event *ev)
{
    if (!tl->clock_hz) return ev->ts;
    if (ev->flags & EVT_HAS_TNS) return ev->t_ns;
    return evt_ticks_to_ns(ev->ts, tl->clock_hz);
}

/* ---- strings ---- */

static uint32_t intern_(evt_tl *tl, const char *s)
{
    if (!s) return 0;
    uint32_t id = evt_strtab_intern(&tl->strs, s, strlen(s), NULL);
    if (!id) tl->oom = 1;
    return id;
}

/* String of a strtab id the timeline got from tl->strs (0: NULL). */
static inline const char *str_(const evt_tl *tl, uint32_t id) { return id ? tl->strs.strs[id - 1] : NULL; }

/* Branch hints and an out-of-line mark for what the usual event never does. */
#if defined(__GNUC__) || defined(__clang__)
#define TL_LIKELY(x) __builtin_expect(!!(x), 1)
#define TL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TL_COLD __attribute__((noinline, cold))
#else
#define TL_LIKELY(x) (x)
#define TL_UNLIKELY(x) (x)
#define TL_COLD
#endif

/* Labels are truncated to fit a buffer of this size (spans.h, evt_event_label_ref). */
#define TL_LABEL_BUF 160

/* Public name of a generic object type ("mutex"), NULL for unknown. */
static const char *obj_type_name_(unsigned type)
{
    switch (type) {
#define TL_OT_(n, v, name) case v: return name;
        EVT_HOOK_OBJ_TABLE(TL_OT_)
#undef TL_OT_
    default: return NULL;
    }
}

/* ---- contexts and objects ---- */

static uint32_t ctx_create_(evt_tl *tl, int has_id, uint64_t id, evt_ctx_class cls, uint64_t t, const char *name)
{
    if (tl->nctx == tl->ctxcap) {
        uint32_t nc = tl->ctxcap ? tl->ctxcap * 2 : 16;
        evt_tl_ctx **v = evt_realloc(tl->ctxs, (size_t)nc * sizeof *v);
        if (!v) { tl->oom = 1; return EVT_TL_NONE; }
        tl->ctxs = v;
        tl->ctxcap = nc;
    }
    evt_tl_ctx *c = evt_calloc(1, sizeof *c);
    if (!c) { tl->oom = 1; return EVT_TL_NONE; }
    uint32_t ix = tl->nctx;
    if (has_id && !evt_u64map_put(&tl->ctxmap, id, ix)) { evt_free(c); tl->oom = 1; return EVT_TL_NONE; }
    c->index = ix;
    c->has_id = has_id;
    c->id = id;
    c->cls = cls;
    c->first = c->last = t;
    c->state = EVT_TL_UNKNOWN;
    c->state_since = t;
    c->state_obj = c->last_obj = c->wait_obj = EVT_TL_NONE;
    c->wake_from = EVT_TL_NONE;
    tl->ctxs[tl->nctx++] = c;
    if (!has_id) tl->noctx[cls & 3] = ix;
    if (name && name[0]) c->name = str_(tl, intern_(tl, name)); /* named before ctx_new: no rename right after */
    if (tl->sink.ctx_new) tl->sink.ctx_new(tl->sink.user, c);
    return ix;
}

/* c is named name from now (a different name than it had: ctx_set_name_ checked). */
static void ctx_rename_(evt_tl *tl, evt_tl_ctx *c, const char *name)
{
    uint32_t id = intern_(tl, name);
    if (!id) return;
    c->name = str_(tl, id);
    if (tl->sink.ctx_name) tl->sink.ctx_name(tl->sink.user, c);
}

/* Inline: every event checks its context's name (the usual answer: unchanged). */
static inline void ctx_set_name_(evt_tl *tl, evt_tl_ctx *c, const char *name)
{
    if (!name || !name[0]) return;
    if (c->name && strcmp(c->name, name) == 0) return;
    ctx_rename_(tl, c, name);
}

/* Context of a thread named as a target (thread resumed, suspended). */
static uint32_t target_ctx_(evt_tl *tl, uint64_t id, const char *name, uint64_t t)
{
    uint32_t ix;
    if (!evt_u64map_get(&tl->ctxmap, id, &ix)) ix = ctx_create_(tl, 1, id, EVT_CTX_THREAD, t, name);
    if (ix != EVT_TL_NONE) ctx_set_name_(tl, tl->ctxs[ix], name);
    return ix;
}

static uint32_t obj_of_(evt_tl *tl, uint64_t id, const char *name)
{
    uint32_t ix;
    if (!evt_u64map_get(&tl->objmap, id, &ix)) {
        if (tl->nobj == tl->objcap) {
            uint32_t nc = tl->objcap ? tl->objcap * 2 : 16;
            evt_tl_obj **v = evt_realloc(tl->objs, (size_t)nc * sizeof *v);
            if (!v) { tl->oom = 1; return EVT_TL_NONE; }
            tl->objs = v;
            tl->objcap = nc;
        }
        evt_tl_obj *o = evt_calloc(1, sizeof *o);
        if (!o) { tl->oom = 1; return EVT_TL_NONE; }
        ix = tl->nobj;
        if (!evt_u64map_put(&tl->objmap, id, ix)) { evt_free(o); tl->oom = 1; return EVT_TL_NONE; }
        o->index = ix;
        o->id = id;
        tl->objs[tl->nobj++] = o;
        if (name && name[0]) o->name = str_(tl, intern_(tl, name));
        if (tl->sink.obj_new) tl->sink.obj_new(tl->sink.user, o);
        return ix;
    }
    evt_tl_obj *o = tl->objs[ix];
    if (name && name[0] && (!o->name || strcmp(o->name, name) != 0)) {
        o->name = str_(tl, intern_(tl, name));
        if (tl->sink.obj_name) tl->sink.obj_name(tl->sink.user, o);
    }
    return ix;
}

/* ---- states and switches ---- */

/* Move c into state st at time t (emitting the interval it leaves). Inline where a switch needs
 * it; set_state_ elsewhere. */
static inline void set_state_in_(evt_tl *tl, evt_tl_ctx *c, evt_tl_state st, uint64_t t, uint32_t obj, uint32_t svc)
{
    if (c->state == st && c->state_obj == obj && c->state_svc == svc) return;
    if (t < c->state_since) t = c->state_since;
    if (c->state == EVT_TL_RUNNING) c->run_time += t - c->state_since;
    if (t > c->state_since && (c->state_known || c->state != EVT_TL_UNKNOWN) && tl->sink.state) {
        evt_tl_state_iv iv = {c->index, c->state, c->cpu, c->state_since, t, c->state_obj, str_(tl, c->state_svc), 0};
        tl->sink.state(tl->sink.user, &iv);
    }
    if (st != EVT_TL_UNKNOWN) c->state_known = 1;
    c->state = st;
    c->state_since = t;
    c->state_obj = obj;
    c->state_svc = svc;
}

static void set_state_(evt_tl *tl, evt_tl_ctx *c, evt_tl_state st, uint64_t t, uint32_t obj, uint32_t svc)
{
    set_state_in_(tl, c, st, t, obj, svc);
}

static void idle_end_(evt_tl *tl, evt_tl_cpu *cp, uint64_t t)
{
    if (tl->sched && cp->run == EVT_TL_NONE && cp->seen && !cp->unknown && t >= cp->idle_since) {
        uint64_t d = t - cp->idle_since;
        tl->idle_time += d > cp->isr_idle ? d - cp->isr_idle : 0;
    }
    cp->isr_idle = 0;
}

static void emit_switch_(evt_tl *tl, uint32_t cpu, uint64_t t, uint32_t prev, uint32_t next, evt_tl_state ps)
{
    if (!tl->sink.sched_switch) return;
    evt_tl_switch sw = {cpu, t, prev, next, ps, 0, 0};
    if (prev != EVT_TL_NONE && tl->ctxs[prev]->has_prio) sw.prev_prio = tl->ctxs[prev]->prio;
    if (next != EVT_TL_NONE && tl->ctxs[next]->has_prio) sw.next_prio = tl->ctxs[next]->prio;
    tl->sink.sched_switch(tl->sink.user, &sw);
}

static void wake_flow_(evt_tl *tl, evt_tl_ctx *c, uint64_t t)
{
    if (c->wake_from == EVT_TL_NONE) return;
    evt_tl_flow f = {++tl->next_flow, "wake", c->wake_from, c->index, c->wake_t, t, c->wake_obj};
    c->wake_from = EVT_TL_NONE;
    if (tl->sink.flow) tl->sink.flow(tl->sink.user, &f);
}

static void do_switch_(evt_tl *tl, uint32_t cpu, uint64_t t, uint32_t next, evt_tl_state prev_state, uint32_t obj,
                       uint32_t svc);

/* do_switch_ when next is not running on cpu already. */
static void switch_to_(evt_tl *tl, uint32_t cpu, uint64_t t, uint32_t next, evt_tl_state prev_state, uint32_t obj,
                       uint32_t svc)
{
    evt_tl_cpu *cp = &tl->cpus[cpu];
    uint32_t prev = cp->run;
    if (next != EVT_TL_NONE && tl->ctxs[next]->running_on && tl->ctxs[next]->cpu != cpu) {
        /* migration: it leaves its old CPU first */
        uint32_t oc = tl->ctxs[next]->cpu;
        do_switch_(tl, oc, t < tl->cpus[oc].prev_t ? tl->cpus[oc].prev_t : t, EVT_TL_NONE, EVT_TL_READY, EVT_TL_NONE, 0);
    }
    if (prev != EVT_TL_NONE) {
        evt_tl_ctx *p = tl->ctxs[prev];
        /* initialisation code that stops running is not waiting for the CPU: no claim about it */
        if (p->cls == EVT_CTX_INIT && prev_state == EVT_TL_READY) prev_state = EVT_TL_UNKNOWN;
        set_state_in_(tl, p, prev_state, t, prev_state == EVT_TL_BLOCKED ? obj : EVT_TL_NONE,
                      prev_state == EVT_TL_BLOCKED ? svc : 0);
        p->running_on = 0;
    } else {
        idle_end_(tl, cp, t);
    }
    cp->unknown = 0;
    if (next != EVT_TL_NONE) {
        evt_tl_ctx *n = tl->ctxs[next];
        n->cpu = cpu;
        set_state_in_(tl, n, EVT_TL_RUNNING, t, EVT_TL_NONE, 0);
        n->running_on = 1;
        n->switches_in++;
        cp->run = next;
    } else {
        cp->run = EVT_TL_NONE;
        cp->idle_since = t;
        cp->isr_idle = 0;
    }
    emit_switch_(tl, cpu, t, prev, next, prev_state);
    if (next != EVT_TL_NONE) wake_flow_(tl, tl->ctxs[next], t);
}

/* On CPU cpu at t: `next` (EVT_TL_NONE = idle) replaces the running context, which goes to
 * prev_state (with obj/svc when blocked). Nothing when next runs there already. */
static inline void do_switch_(evt_tl *tl, uint32_t cpu, uint64_t t, uint32_t next, evt_tl_state prev_state,
                              uint32_t obj, uint32_t svc)
{
    if (tl->cpus[cpu].run != next) switch_to_(tl, cpu, t, next, prev_state, obj, svc);
}

/* ---- meaning ---- */

/* Timeline state of a stop event's generic stop state; -1 when the stop changes no state. */
static int stop_state_(const evt_event *ev)
{
    if (ev->m.has & EVT_M_KEEP_STATE) return -1;
    if (!(ev->m.has & EVT_M_STOP_STATE)) return EVT_TL_BLOCKED; /* a stop that names no state: it waits */
    switch ((evt_hook_state)ev->m.stop_state) {
    case EVT_HOOK_STATE_READY: return EVT_TL_READY;
    case EVT_HOOK_STATE_SUSPENDED:
    case EVT_HOOK_STATE_WAIT_SUSPENDED: return EVT_TL_SUSPENDED;
    case EVT_HOOK_STATE_DORMANT:
    case EVT_HOOK_STATE_DELETED: return EVT_TL_TERMINATED;
    default: return EVT_TL_BLOCKED;
    }
}

static int runs_now_(const evt_event *ev) { return (ev->m.has & EVT_M_RUNS_NOW) != 0; }

/* Flow role of an event's object operation: 2 puts something into its object (a message, a
 * count, flags, the mutex), 3 takes it out, 1 neither. */
static int flow_role_(const evt_event *ev)
{
    if (!(ev->m.has & EVT_M_OP)) return 1;
    switch ((evt_obj_op)ev->m.op) {
    case EVT_OP_SEND: case EVT_OP_GIVE: case EVT_OP_SET: case EVT_OP_RELEASE: return 2;
    case EVT_OP_RECEIVE: case EVT_OP_TAKE: case EVT_OP_WAIT: case EVT_OP_ACQUIRE: return 3;
    default: return 1;
    }
}

/* ---- flows through objects ---- */

/* Grow obj's ring (unrolled into the new arrays); 0 when at the cap or out of memory. */
static int pend_grow_(evt_tl *tl, evt_tl_obj *o)
{
    _Static_assert((EVT_TL_MAX_PENDING & (EVT_TL_MAX_PENDING - 1)) == 0, "pend_cap doubles from 16: a power of two");
    if (o->pend_cap >= EVT_TL_MAX_PENDING) return 0;
    uint32_t nc = o->pend_cap ? o->pend_cap * 2 : 16;
    uint32_t *c = evt_malloc((size_t)nc * sizeof *c);
    uint64_t *t = evt_malloc((size_t)nc * sizeof *t);
    if (!c || !t) { evt_free(c); evt_free(t); tl->oom = 1; return 0; }
    for (uint32_t i = 0; i < o->pend_n; i++) {
        uint32_t k = (o->pend_head + i) & (o->pend_cap - 1u);
        c[i] = o->pend_ctx[k];
        t[i] = o->pend_t[k];
    }
    evt_free(o->pend_ctx);
    evt_free(o->pend_t);
    o->pend_ctx = c;
    o->pend_t = t;
    o->pend_head = 0;
    o->pend_cap = nc;
    return 1;
}

static void pend_source_(evt_tl *tl, uint32_t obj, uint32_t ctx, uint64_t t)
{
    evt_tl_obj *o = tl->objs[obj];
    if (o->pend_n == o->pend_cap && !pend_grow_(tl, o)) {
        if (!o->pend_cap) { tl->flows_dropped++; return; }
        o->pend_head = (o->pend_head + 1) & (o->pend_cap - 1u); /* full: drop the oldest */
        o->pend_n--;
        tl->flows_dropped++;
    }
    if (!o->pend_n) o->pend_only = ctx;
    else if (o->pend_only != ctx) o->pend_only = EVT_TL_NONE;
    uint32_t k = (o->pend_head + o->pend_n) & (o->pend_cap - 1u);
    o->pend_ctx[k] = ctx;
    o->pend_t[k] = t;
    o->pend_n++;
}

/* The oldest pending source of obj from a context other than ctx: removed, 1 if found. A context
 * that gives and takes the same object itself (a semaphore used as a lock, a task's own queue)
 * finds only its own sources there: known at once from pend_only once a scan has found that
 * (before 3 Dec 2026 every take scanned them all, up to EVT_TL_MAX_PENDING: `stats` of such a
 * TXTB trace ran at 0.54 M events/s, 9,000 instructions per event in this function). */
static int take_source_(evt_tl *tl, uint32_t obj, uint32_t ctx, uint32_t *from, uint64_t *t0)
{
    evt_tl_obj *o = tl->objs[obj];
    if (!o->pend_n || o->pend_only == ctx) return 0;
    uint32_t mask = o->pend_cap - 1u;
    for (uint32_t i = 0; i < o->pend_n; i++) {
        uint32_t k = (o->pend_head + i) & mask;
        if (o->pend_ctx[k] == ctx) continue;
        *from = o->pend_ctx[k];
        *t0 = o->pend_t[k];
        for (uint32_t j = i; j > 0; j--) { /* close the gap: shift the older ones up */
            uint32_t a = (o->pend_head + j) & mask, b = (o->pend_head + j - 1) & mask;
            o->pend_ctx[a] = o->pend_ctx[b];
            o->pend_t[a] = o->pend_t[b];
        }
        o->pend_head = (o->pend_head + 1) & mask;
        o->pend_n--;
        return 1;
    }
    o->pend_only = ctx; /* every pending source is ctx's own */
    return 0;
}

static void message_sink_(evt_tl *tl, uint32_t obj, uint32_t ctx, uint64_t t)
{
    uint32_t from;
    uint64_t t0;
    if (obj == EVT_TL_NONE || !take_source_(tl, obj, ctx, &from, &t0)) return;
    evt_tl_flow f = {++tl->next_flow, "message", from, ctx, t0, t, obj};
    if (tl->sink.flow) tl->sink.flow(tl->sink.user, &f);
}

/* ---- slices ---- */

static void slice_close_(evt_tl *tl, evt_tl_ctx *c, uint64_t t, int truncated, int open_end)
{
    uint32_t d = c->stack.n - 1;
    evt_span *sp = &c->stack.v[d];
    evt_tl_slice sl = {c->index, (evt_span_cat)sp->cat, str_(tl, sp->label), c->stack_t0[d], t, d,
                       (uint32_t)(sp->ts), truncated, open_end};
    if (sl.t1 < sl.t0) sl.t1 = sl.t0;
    c->stack.n--;
    if (tl->sink.slice) tl->sink.slice(tl->sink.user, &sl);
}

static void slices_drop_(evt_tl *tl, evt_tl_ctx *c, uint64_t t, int open_end)
{
    while (c->stack.n) slice_close_(tl, c, t, !open_end, open_end);
}

/* ---- ISRs ---- */

static void isr_close_(evt_tl *tl, uint32_t cpu, uint64_t t, int truncated, int open_end)
{
    evt_tl_cpu *cp = &tl->cpus[cpu];
    if (cp->isr_n > EVT_TL_ISR_DEPTH) { cp->isr_n--; return; } /* untracked level */
    evt_tl_isr *iv = &cp->isr[--cp->isr_n];
    iv->t1 = t < iv->t0 ? iv->t0 : t;
    iv->truncated = truncated;
    iv->open_end = open_end;
    if (cp->isr_n == 0) {
        uint64_t d = iv->t1 - iv->t0;
        tl->isr_time += d;
        if (iv->interrupted != EVT_TL_NONE) tl->ctxs[iv->interrupted]->isr_time += d;
        else cp->isr_idle += d;
    }
    if (tl->sink.isr) tl->sink.isr(tl->sink.user, iv);
}

/* Strtab id of an ISR entry's label: m.label, else "<name> #<irq>" ("ISR" when unnamed; without
 * " #<irq>" when the irq is unknown) truncated to 159 bytes (snprintf's text and truncation,
 * without its cost per ISR). The built label is cached (evt_tl.isr_lbl_*) with the name's length
 * and irq it came from: the next entry with the same name and irq takes it after one compare. */
static uint32_t isr_label_(evt_tl *tl, const evt_event *ev, int has_irq, uint32_t irq)
{
    const char *lbl = (ev->m.has & EVT_M_LABEL) ? ev->m.label : NULL;
    if (lbl) {
        uint32_t id = evt_strtab_recent_cstr(&tl->strs, lbl, SIZE_MAX);
        return id ? id : intern_(tl, lbl);
    }
    const char *nm = ev->name ? ev->name : "ISR";
    if (tl->isr_lbl_id && tl->isr_lbl_has_irq == has_irq && (!has_irq || tl->isr_lbl_irq == irq)) {
        uint32_t n = tl->isr_lbl_len;
        if (strncmp(str_(tl, tl->isr_lbl_id), nm, n) == 0 && nm[n] == '\0') return tl->isr_lbl_id;
    }
    char buf[TL_LABEL_BUF];
    size_t o = 0;
    while (nm[o] && o < sizeof buf - 1) { buf[o] = nm[o]; o++; }
    int whole = nm[o] == '\0';
    uint32_t nlen = (uint32_t)o;
    if (has_irq) {
        char d[24];
        size_t k = sizeof d;
        uint64_t v = irq;
        do { d[--k] = (char)('0' + v % 10u); v /= 10u; } while (v);
        d[--k] = '#';
        d[--k] = ' ';
        while (k < sizeof d && o < sizeof buf - 1) buf[o++] = d[k++];
        if (k < sizeof d) whole = 0;
    }
    buf[o] = '\0';
    uint32_t id = intern_(tl, buf);
    if (id && whole) { /* built from the whole name and irq: the next same entry takes it */
        tl->isr_lbl_id = id;
        tl->isr_lbl_len = nlen;
        tl->isr_lbl_irq = irq;
        tl->isr_lbl_has_irq = has_irq;
    }
    return id;
}

static void isr_enter_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t)
{
    evt_tl_cpu *cp = &tl->cpus[cpu];
    if (cp->isr_n == 0) cp->pend_isr = 0; /* stale: its ISR's exit was never seen */
    if (cp->isr_n == 0 && (ev->m.has & EVT_M_INTERRUPTED) && ev->m.interrupted_ctx && tl->sched) {
        /* the kernel says which thread this ISR interrupted: it was running (a dispatch no
           record showed, or a "next thread" the kernel wrote wrong) */
        uint32_t ti = target_ctx_(tl, ev->m.interrupted_ctx, NULL, t);
        if (ti != EVT_TL_NONE && ti != cp->run) do_switch_(tl, cpu, t, ti, EVT_TL_READY, EVT_TL_NONE, 0);
    }
    if (cp->isr_n >= EVT_TL_ISR_DEPTH) { cp->isr_n++; tl->isr_overflow++; return; }
    evt_tl_isr *iv = &cp->isr[cp->isr_n];
    memset(iv, 0, sizeof *iv);
    iv->cpu = cpu;
    iv->t0 = t;
    iv->depth = cp->isr_n;
    iv->ctx = ci;
    iv->interrupted = cp->isr_n ? cp->isr[0].interrupted : cp->run;
    if (ev->m.has & EVT_M_IRQ) { iv->irq = ev->m.irq; iv->has_irq = 1; }
    iv->name = str_(tl, isr_label_(tl, ev, iv->has_irq, (uint32_t)iv->irq));
    cp->isr_n++;
    if (tl->sink.isr_begin) tl->sink.isr_begin(tl->sink.user, iv);
}

static void isr_exit_(evt_tl *tl, uint32_t cpu, uint64_t t)
{
    evt_tl_cpu *cp = &tl->cpus[cpu];
    if (!cp->isr_n) { tl->unmatched_exits++; return; }
    isr_close_(tl, cpu, t, 0, 0);
    if (cp->isr_n == 0 && cp->pend_isr) {
        cp->pend_isr = 0;
        do_switch_(tl, cpu, t, cp->pend_isr_next, cp->pend_isr_state, cp->pend_isr_obj, cp->pend_isr_svc);
    }
}

/* ---- losses ---- */

static void lost_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint64_t t)
{
    evt_tl_lost l = {cpu, tl->cpus[cpu].seen ? tl->cpus[cpu].prev_t : t, t, ev->count, (ev->flags & EVT_HAS_COUNT) != 0};
    tl->lost_events++;
    if (l.has_count) tl->lost_count += ev->count;
    for (uint32_t c = 0; c < tl->ncpus; c++) {
        evt_tl_cpu *cp = &tl->cpus[c];
        uint64_t tc = t < cp->prev_t ? cp->prev_t : t;
        while (cp->isr_n) isr_close_(tl, c, tc, 1, 0);
        cp->pend_isr = 0;
        if (cp->run != EVT_TL_NONE) do_switch_(tl, c, tc, EVT_TL_NONE, EVT_TL_UNKNOWN, EVT_TL_NONE, 0);
        else idle_end_(tl, cp, tc);
        cp->unknown = 1;
        cp->idle_since = tc;
    }
    for (uint32_t i = 0; i < tl->nctx; i++) {
        evt_tl_ctx *c = tl->ctxs[i];
        slices_drop_(tl, c, t < c->last ? c->last : t, 0);
        c->wake_from = EVT_TL_NONE;
    }
    if (tl->sink.lost) tl->sink.lost(tl->sink.user, &l);
}

/* ---- the event ---- */

/* Index of the context with id `id` (created if new): the two-entry cache (evt_tl.mru_*), then
 * the map. EVT_TL_NONE when out of memory. */
static inline uint32_t ctx_by_id_(evt_tl *tl, const evt_event *ev, uint64_t t)
{
    uint64_t id = ev->ctx;
    if (id == tl->mru_id[0] && tl->mru_ix[0] != EVT_TL_NONE) return tl->mru_ix[0];
    uint32_t ix;
    if (id == tl->mru_id[1] && tl->mru_ix[1] != EVT_TL_NONE) ix = tl->mru_ix[1];
    else if (!evt_u64map_get(&tl->ctxmap, id, &ix)) {
        ix = ctx_create_(tl, 1, id, ev->ctx_class, t, ev->ctx_name);
        if (ix == EVT_TL_NONE) return ix;
    }
    tl->mru_id[1] = tl->mru_id[0];
    tl->mru_ix[1] = tl->mru_ix[0];
    tl->mru_id[0] = id;
    tl->mru_ix[0] = ix;
    return ix;
}

/* Context c, raised by an inheritance its kernel recorded no end of (ThreadX restores the owner's
 * priority inside its mutex put, with no record), records another priority of its own: back at its
 * base priority the inheritance is over (a disinherit record), else its inherited level moved (an
 * inherit record). Late by up to the time to its next record. Only for an inheritance the reader
 * inferred (inherited 2): a kernel that records the end (FreeRTOS's disinherit) says it itself. */
TL_COLD static void inherit_moved_(evt_tl *tl, evt_tl_ctx *c, uint64_t prio, uint64_t t)
{
    evt_tl_prio p = {t, c->index, prio, c->prio, 1, EVT_TL_PRIO_INHERIT, c->index};
    if (c->has_base_prio && prio == c->base_prio) {
        p.why = EVT_TL_PRIO_DISINHERIT;
        c->inherited = 0;
    }
    c->prio = prio;
    if (tl->sink.prio) tl->sink.prio(tl->sink.user, &p);
}

/* The context of an event (created when new), with what the event says of it: its name, one more
 * event, its latest time and priority. NULL when out of memory. */
static inline evt_tl_ctx *ctx_of_(evt_tl *tl, const evt_event *ev, uint64_t t)
{
    uint32_t ix;
    if (TL_LIKELY(ev->flags & EVT_HAS_CTX)) {
        ix = ctx_by_id_(tl, ev, t);
    } else {
        ix = tl->noctx[ev->ctx_class & 3];
        if (ix == EVT_TL_NONE) ix = ctx_create_(tl, 0, 0, ev->ctx_class, t, ev->ctx_name);
    }
    if (TL_UNLIKELY(ix == EVT_TL_NONE)) return NULL;
    evt_tl_ctx *c = tl->ctxs[ix];
    if (TL_UNLIKELY(c->cls == EVT_CTX_NONE) && (ev->flags & EVT_HAS_CTX))
        c->cls = ev->ctx_class; /* created as a target; now we know its class */
    ctx_set_name_(tl, c, ev->ctx_name);
    c->events++;
    if (t > c->last) c->last = t;
    if (c->cls == EVT_CTX_THREAD || c->cls == EVT_CTX_INIT) {
        if (ev->m.has & EVT_M_CTX_PRIO) {
            if (TL_UNLIKELY(c->inherited == 2) && ev->m.ctx_prio != c->prio) inherit_moved_(tl, c, ev->m.ctx_prio, t);
            c->prio = ev->m.ctx_prio;
            c->has_prio = 1;
        } else if (ev->flags & EVT_HAS_PRIO) { c->prio = ev->prio; c->has_prio = 1; }
        if (c->has_prio && !c->inherited) { c->base_prio = c->prio; c->has_base_prio = 1; }
    }
    return c;
}

static void counters_(evt_tl *tl, const evt_event *ev, uint32_t obj, uint64_t t)
{
    if (!tl->sink.counter || !(ev->m.has & EVT_M_LEVEL)) return;
    for (uint32_t i = 0; i < ev->m.nlevels && i < EVT_M_MAX_LEVELS; i++) {
        evt_tl_counter c = {t, obj, evt_level_name((evt_level_kind)ev->m.level_kind[i]), ev->m.level[i]};
        tl->sink.counter(tl->sink.user, &c);
    }
}

/* Context the thread_run/thread_stop is about. */
static uint32_t subject_(evt_tl *tl, const evt_event *ev, uint32_t ci, uint64_t t)
{
    if (!(ev->flags & EVT_HAS_TARGET)) return ci;
    if (ci != EVT_TL_NONE && tl->ctxs[ci]->has_id && tl->ctxs[ci]->id == ev->target) return ci;
    return target_ctx_(tl, ev->target, ev->target_name, t);
}

/* A successor named by the event (EVT_M_NEXT): 1 and *next (EVT_TL_NONE = idle) when given. */
static int next_named_(evt_tl *tl, const evt_event *ev, uint64_t t, uint32_t *next)
{
    if (!(ev->m.has & EVT_M_NEXT)) return 0;
    *next = ev->m.next_ctx ? target_ctx_(tl, ev->m.next_ctx, ev->m.next_name, t) : EVT_TL_NONE;
    if (*next != EVT_TL_NONE && ev->m.next_prio != EVT_HOOK_PRIO_UNKNOWN) { /* its priority as it runs */
        evt_tl_ctx *n = tl->ctxs[*next];
        n->prio = ev->m.next_prio;
        n->has_prio = 1;
        if (!n->inherited) { n->base_prio = n->prio; n->has_base_prio = 1; }
    }
    return 1;
}

/* Why the event's target was made ready, when it says (EVT_M_WAKE_CAUSE), else EVT_WAKE_UNKNOWN. */
static uint8_t cause_of_(const evt_event *ev)
{
    return (ev->m.has & EVT_M_WAKE_CAUSE) ? ev->m.wake_cause : (uint8_t)EVT_WAKE_UNKNOWN;
}

/* Context ti is made ready by ci (a wake-up), for the reason `cause` (evt_wake_cause): a waking
 * record and a pending wake flow. Nothing when it is running or ready already. */
static void wake_(evt_tl *tl, uint32_t cpu, uint32_t ti, uint32_t ci, uint64_t t, int in_isr, uint8_t cause)
{
    evt_tl_ctx *tc = tl->ctxs[ti];
    if (tc->state == EVT_TL_RUNNING || tc->state == EVT_TL_READY) return;
    uint32_t obj = tc->state == EVT_TL_BLOCKED ? tc->state_obj : EVT_TL_NONE;
    set_state_(tl, tc, EVT_TL_READY, t, EVT_TL_NONE, 0);
    if (tl->sink.waking) {
        evt_tl_waking w = {cpu, t, ti, ci, in_isr, obj, cause};
        tl->sink.waking(tl->sink.user, &w);
    }
    tc->wake_from = ci;
    tc->wake_t = t;
    tc->wake_obj = obj;
    if (obj != EVT_TL_NONE) { /* the wake-up carries the message the waker sent */
        uint32_t from;
        uint64_t t0;
        (void)take_source_(tl, obj, ti, &from, &t0);
    }
}

/* The successor an event names (EVT_M_NEXT) runs next on cpu, the running context going to ready
 * (preempted, or yielding): now, or from an ISR at its outermost exit, where a stop the ISR
 * recorded before keeps its state and takes this successor. When it names the running context
 * the CPU stays with it (and a switch the ISR decided before is off: the kernel chose again).
 * Idle named, or nothing: no change. During initialisation the scheduler has not started, so
 * its "next thread" is no switch. */
static void next_runs_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t, int in_isr)
{
    evt_tl_cpu *cp = &tl->cpus[cpu];
    uint32_t next;
    if (tl->ctxs[ci]->cls == EVT_CTX_INIT || !next_named_(tl, ev, t, &next) || next == EVT_TL_NONE) return;
    if (next == cp->run) {
        if (in_isr) cp->pend_isr = 0;
        return;
    }
    if (!in_isr) {
        do_switch_(tl, cpu, t, next, EVT_TL_READY, EVT_TL_NONE, 0);
        return;
    }
    if (!cp->pend_isr) {
        cp->pend_isr = 1;
        cp->pend_isr_state = EVT_TL_READY;
        cp->pend_isr_obj = EVT_TL_NONE;
        cp->pend_isr_svc = 0;
    }
    cp->pend_isr_next = next;
}

static void thread_run_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t, int in_isr)
{
    uint32_t ti = subject_(tl, ev, ci, t);
    if (ti == EVT_TL_NONE) return;
    /* a wake-up (EVT_M_WAKE) is never a dispatch, even of the recording context */
    int wake = (ev->m.has & EVT_M_WAKE) && !runs_now_(ev);
    if (!in_isr && !wake && (ti == ci || runs_now_(ev))) { /* dispatch: it runs now */
        do_switch_(tl, cpu, t, ti, EVT_TL_READY, EVT_TL_NONE, 0);
        return;
    }
    /* made ready by another context */
    if (ti != ci || in_isr) wake_(tl, cpu, ti, ci, t, in_isr, cause_of_(ev));
    next_runs_(tl, cpu, ev, ci, t, in_isr);
}

/* The event's meaning block names object operation op. */
static int is_op_(const evt_event *ev, evt_obj_op op) { return (ev->m.has & EVT_M_OP) && ev->m.op == (uint8_t)op; }

static void thread_stop_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t, int in_isr)
{
    uint32_t ti = subject_(tl, ev, ci, t);
    if (ti == EVT_TL_NONE) return;
    int st = stop_state_(ev);
    if (st < 0) return; /* a priority change: the thread keeps its state */
    evt_tl_ctx *tc = tl->ctxs[ti];
    uint32_t obj = EVT_TL_NONE, svc = 0;
    if (st == EVT_TL_BLOCKED) { /* what it blocks on: the stop's object, its wait's, its call's */
        if ((ev->m.has & EVT_M_BLOCKED_ON) || (is_op_(ev, EVT_OP_WAIT_START) && ti == ci))
            obj = obj_of_(tl, ev->m.obj, ev->m.obj_name);
        else obj = tc->wait_obj != EVT_TL_NONE ? tc->wait_obj : tc->last_obj;
        /* a thread never blocks on itself: a call on its own handle (a delay) names no object */
        if (obj != EVT_TL_NONE && tc->has_id && tl->objs[obj]->id == tc->id) obj = EVT_TL_NONE;
        svc = tc->last_svc;
        tc->wait_obj = EVT_TL_NONE; /* taken by this wait */
    }
    if (tc->running_on) {
        uint32_t tcpu = tc->cpu, next;
        evt_tl_cpu *cp = &tl->cpus[tcpu];
        int named = next_named_(tl, ev, t, &next);
        if (in_isr && tcpu == cpu) {
            cp->pend_isr = 1;
            cp->pend_isr_next = named ? next : EVT_TL_NONE;
            cp->pend_isr_state = (evt_tl_state)st;
            cp->pend_isr_obj = obj;
            cp->pend_isr_svc = svc;
        } else {
            /* no successor named (dispatcher hooks): the kernel has no current task until the
             * next dispatch, so the CPU is idle from the stop */
            do_switch_(tl, tcpu, t, named ? next : EVT_TL_NONE, (evt_tl_state)st, obj, svc);
        }
        return;
    }
    set_state_(tl, tc, (evt_tl_state)st, t, obj, svc);
    if (st != EVT_TL_READY) tc->wake_from = EVT_TL_NONE;
}

/* The label of an event built (or too long to be used whole): interned (intern 1) or found. */
static TL_COLD uint32_t label_slow_(evt_tl *tl, const evt_event *ev, int intern)
{
    char buf[TL_LABEL_BUF];
    size_t ln;
    const char *lbl = evt_event_label_ref(ev, buf, sizeof buf, &ln);
    if (!intern) return evt_strtab_find(&tl->strs, lbl, ln);
    uint32_t lid = evt_strtab_intern(&tl->strs, lbl, ln, NULL);
    if (!lid) tl->oom = 1;
    return lid;
}

/* Strtab id of an event's span label (spans.h rules), interned when new (0: out of memory). The
 * usual label is one of the event's strings whole, met lately at the same address: one string
 * compare, no strlen, no hash. */
static uint32_t label_intern_(evt_tl *tl, const evt_event *ev)
{
    const char *w = evt_event_label_whole(ev);
    uint32_t lid = w ? evt_strtab_recent_cstr(&tl->strs, w, TL_LABEL_BUF - 1) : 0;
    return lid ? lid : label_slow_(tl, ev, 1);
}

/* The same label's id when it is stored, else 0 (never interns). */
static uint32_t label_find_(evt_tl *tl, const evt_event *ev)
{
    const char *w = evt_event_label_whole(ev);
    uint32_t lid = w ? evt_strtab_recent_cstr(&tl->strs, w, TL_LABEL_BUF - 1) : 0;
    return lid ? lid : label_slow_(tl, ev, 0);
}

/* Push a span (cat, lid, obj) begun at t on c's stack: 0 (nothing pushed, counted) at the depth
 * limit or out of memory. */
static TL_COLD int span_push_slow_(evt_tl *tl, evt_tl_ctx *c, evt_span_cat cat, uint32_t lid, uint32_t obj, uint64_t t)
{
    /* the open span keeps its object in evt_span.ts (its begin time is in stack_t0) */
    if (!evt_span_push(&c->stack, (uint8_t)cat, lid, obj)) { tl->span_overflow++; return 0; }
    if (c->t0cap < c->stack.cap) {
        uint64_t *v = evt_realloc(c->stack_t0, (size_t)c->stack.cap * sizeof *v);
        if (!v) { c->stack.n--; tl->oom = 1; return 0; }
        c->stack_t0 = v;
        c->t0cap = c->stack.cap;
    }
    c->stack_t0[c->stack.n - 1] = t;
    return 1;
}

/* A service or function span of c begins (svc_enter, func_enter). */
static void span_begin_(evt_tl *tl, evt_tl_ctx *c, const evt_event *ev, uint64_t t, evt_span_cat cat, uint32_t obj)
{
    uint32_t lid = label_intern_(tl, ev);
    if (cat == EVT_SPAN_SVC) {
        c->last_svc = lid;
        c->last_obj = obj;
    }
    uint32_t d = c->stack.n;
    if (TL_LIKELY(d < c->t0cap)) { /* room in both arrays (t0cap <= stack.cap <= the depth limit) */
        evt_span *sp = &c->stack.v[d];
        sp->ts = obj; /* the open span keeps its object in evt_span.ts (its begin time is in stack_t0) */
        sp->label = lid;
        sp->cat = (uint8_t)cat;
        c->stack.n = d + 1;
        c->stack_t0[d] = t;
    } else if (!span_push_slow_(tl, c, cat, lid, obj, t)) {
        return;
    }
    if (tl->sink.slice_begin) {
        evt_tl_slice sl = {c->index, cat, str_(tl, lid), t, t, d, obj, 0, 0};
        tl->sink.slice_begin(tl->sink.user, &sl);
    }
}

/* A service recorded as one instant: a zero-length slice. */
static void svc_instant_(evt_tl *tl, evt_tl_ctx *c, const evt_event *ev, uint64_t t, uint32_t obj)
{
    uint32_t lid = label_intern_(tl, ev);
    c->last_svc = lid;
    c->last_obj = obj;
    evt_tl_slice sl = {c->index, EVT_SPAN_SVC, str_(tl, lid), t, t, c->stack.n, obj, 0, 0};
    if (tl->sink.slice_begin) tl->sink.slice_begin(tl->sink.user, &sl);
    if (tl->sink.slice) tl->sink.slice(tl->sink.user, &sl);
}

static void svc_end_(evt_tl *tl, evt_tl_ctx *c, const evt_event *ev, uint64_t t)
{
    evt_span_cat cat = evt_span_cat_fast(ev->kind);
    uint32_t lid = label_find_(tl, ev);
    uint32_t n;
    if (c->stack.n && c->stack.v[c->stack.n - 1].cat == (uint8_t)cat && c->stack.v[c->stack.n - 1].label == lid)
        n = 1; /* the usual exit: of the innermost span (what evt_span_match finds first) */
    else n = evt_span_match(&c->stack, (uint8_t)cat, lid);
    if (!n) { tl->unmatched_exits++; return; }
    uint32_t obj = (uint32_t)c->stack.v[c->stack.n - n].ts;
    while (n-- > 1) slice_close_(tl, c, t, 1, 0);
    slice_close_(tl, c, t, 0, 0);
    if (cat == EVT_SPAN_SVC && obj != EVT_TL_NONE && flow_role_(ev) == 3) message_sink_(tl, obj, c->index, t);
}

/* The context a priority change or a wake-up is about: ev->target, else the recording one. */
static uint32_t about_(evt_tl *tl, const evt_event *ev, uint32_t ci, uint64_t t)
{
    return (ev->flags & EVT_HAS_TARGET) ? subject_(tl, ev, ci, t) : ci;
}

/* Context ti's priority is now prio, changed by ci: op says why (INHERIT, DISINHERIT, else set). */
static void prio_to_(evt_tl *tl, uint32_t ti, uint64_t prio, evt_obj_op op, uint32_t ci, uint64_t t)
{
    evt_tl_ctx *tc = tl->ctxs[ti];
    evt_tl_prio p = {t, ti, prio, tc->prio, tc->has_prio, EVT_TL_PRIO_SET, ci};
    if (op == EVT_OP_INHERIT) {
        p.why = EVT_TL_PRIO_INHERIT;
        if (!tc->inherited && tc->has_prio && !tc->has_base_prio) { tc->base_prio = tc->prio; tc->has_base_prio = 1; }
        tc->inherited = 1;
    } else {
        if (op == EVT_OP_DISINHERIT) p.why = EVT_TL_PRIO_DISINHERIT;
        tc->inherited = 0;
        tc->base_prio = prio;
        tc->has_base_prio = 1;
    }
    tc->prio = prio;
    tc->has_prio = 1;
    if (tl->sink.prio) tl->sink.prio(tl->sink.user, &p);
}

/* Context ti's base priority is now base, but it runs on at kept, inherited (EVT_M_PRIO_KEPT):
 * a priority record only when that differs from its priority as known. The inheritance stays
 * one the kernel records no end of (inherited 2) unless one the kernel records (1) holds. */
TL_COLD static void prio_kept_(evt_tl *tl, uint32_t ti, uint64_t base, uint64_t kept, uint32_t ci, uint64_t t)
{
    evt_tl_ctx *tc = tl->ctxs[ti];
    tc->base_prio = base;
    tc->has_base_prio = 1;
    if (!tc->inherited) tc->inherited = 2;
    if (tc->has_prio && tc->prio == kept) return;
    evt_tl_prio p = {t, ti, kept, tc->prio, tc->has_prio, EVT_TL_PRIO_SET, ci};
    tc->prio = kept;
    tc->has_prio = 1;
    if (tl->sink.prio) tl->sink.prio(tl->sink.user, &p);
}

static void prio_set_(evt_tl *tl, const evt_event *ev, uint32_t ci, uint64_t t)
{
    uint32_t ti = about_(tl, ev, ci, t);
    if (ti == EVT_TL_NONE) return;
    if (TL_UNLIKELY(ev->m.has & EVT_M_PRIO_KEPT)) {
        prio_kept_(tl, ti, ev->m.new_prio, ev->m.inherit_prio, ci, t);
        return;
    }
    prio_to_(tl, ti, ev->m.new_prio, (ev->m.has & EVT_M_OP) ? (evt_obj_op)ev->m.op : EVT_OP_NONE, ci, t);
}

/* The meaning bits every kind may carry: a priority change, a wake-up, a wait's start and end. */
static void meaning_(evt_tl *tl, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t, int in_isr)
{
    if (ev->m.has & EVT_M_PRIO_SET) prio_set_(tl, ev, ci, t);
    if (ev->m.has & EVT_M_INHERIT) { /* the holder of the mutex this acquire waits for (ThreadX) */
        uint32_t hi = ev->m.inherit_ctx ? target_ctx_(tl, ev->m.inherit_ctx, NULL, t) : EVT_TL_NONE;
        if (hi != EVT_TL_NONE && hi != ci) {
            prio_to_(tl, hi, ev->m.inherit_prio, EVT_OP_INHERIT, ci, t);
            tl->ctxs[hi]->inherited = 2;
        }
    }
    if ((ev->m.has & EVT_M_WAKE) && ev->kind != EVT_KIND_THREAD_RUN) {
        uint32_t ti = about_(tl, ev, ci, t);
        if (ti != EVT_TL_NONE && (ti != ci || in_isr)) wake_(tl, cpu, ti, ci, t, in_isr, cause_of_(ev));
    }
    if (TL_UNLIKELY(ev->m.has & EVT_M_WAKE_CAUSE)) { /* the target's wait ended so: count its outcome */
        tl->wake_causes = 1;
        uint32_t ti = about_(tl, ev, ci, t);
        if (ti != EVT_TL_NONE && ev->m.wake_cause == EVT_WAKE_TIMEOUT) tl->ctxs[ti]->timeouts++;
        else if (ti != EVT_TL_NONE && ev->m.wake_cause == EVT_WAKE_ABORT) tl->ctxs[ti]->wait_aborts++;
    }
    if (TL_UNLIKELY(ev->m.has & (EVT_M_PREEMPT | EVT_M_YIELD))) { /* the kernel's own view: count it */
        if (ev->m.has & EVT_M_PREEMPT) tl->preempt_counts = 1;
        if (ev->m.has & EVT_M_YIELD) {
            tl->yield_counts = 1;
            tl->ctxs[ci]->yields++;
        }
        uint32_t pi = (ev->m.has & EVT_M_PREEMPT) ? target_ctx_(tl, ev->m.preempted_ctx, NULL, t) : EVT_TL_NONE;
        if (pi != EVT_TL_NONE) {
            tl->ctxs[pi]->preemptions++;
            if (in_isr) tl->ctxs[pi]->isr_preemptions++;
        }
    }
    if (TL_UNLIKELY(ev->m.has & (EVT_M_TIME_SLICE | EVT_M_SLICE_UNKNOWN | EVT_M_SLICE_KEPT))) { /* a time slice's end */
        tl->slice_counts = 1;
        uint32_t si = target_ctx_(tl, ev->m.sliced_ctx, NULL, t);
        if (si != EVT_TL_NONE && (ev->m.has & EVT_M_TIME_SLICE)) tl->ctxs[si]->time_slices++;
        else if (si != EVT_TL_NONE && (ev->m.has & EVT_M_SLICE_UNKNOWN)) tl->ctxs[si]->time_slices_unknown++;
    }
    if (!(ev->m.has & EVT_M_OP)) return;
    evt_tl_ctx *c = tl->ctxs[ci];
    if (ev->m.op == EVT_OP_WAIT_START) {
        if (ev->kind == EVT_KIND_THREAD_STOP) return; /* the stop itself: its state took the object */
        uint32_t o = obj_of_(tl, ev->m.obj, ev->m.obj_name);
        c->wait_obj = o;
        if (c->state == EVT_TL_BLOCKED && c->state_obj == EVT_TL_NONE) /* recorded after its stop */
            set_state_(tl, c, EVT_TL_BLOCKED, t, o, c->state_svc);
    } else if (ev->m.op == EVT_OP_WAIT_END) {
        c->wait_obj = EVT_TL_NONE;
    }
}

/* evt_reader_effective_kernel(r), inline (asked on every event). */
static inline int reader_kernel_(const evt_reader *r) { return r->kernel_user >= 0 ? r->kernel_user : r->kernel; }

/* The reader's kernel profile changed (the stream named its kernel after its first records). */
static TL_COLD void kernel_named_(evt_tl *tl)
{
    tl->reader_kernel = reader_kernel_(tl->reader);
    tl->higher_prio_wins = evt_reader_higher_prio_wins(tl->reader);
}

/* The first event on CPU slot cpu (its idle time starts here). */
static TL_COLD void cpu_first_(evt_tl *tl, evt_tl_cpu *cp, uint32_t cpu, uint64_t t)
{
    cp->seen = 1;
    cp->idle_since = t;
    if (cpu + 1 > tl->ncpus) tl->ncpus = cpu + 1;
}

/* The first scheduling record: from here on who runs is known (the CPUs start now). */
static TL_COLD void sched_on_(evt_tl *tl, uint64_t t)
{
    tl->sched = 1;
    tl->caps |= EVT_CAP_SCHED;
    for (uint32_t k = 0; k < EVT_TL_MAX_CPUS; k++) tl->cpus[k].idle_since = t;
}

/* The code that recorded a thread/init/unclassified event runs on its CPU: a switch to it. */
static void runs_(evt_tl *tl, evt_tl_cpu *cp, uint32_t cpu, const evt_event *ev, uint32_t ci, uint64_t t)
{
    /* another context runs while an ISR is open: the ISR's exit was lost (closed here,
     * truncated), so an ISR never outlasts the running of the context it interrupted */
    if (cp->isr_n && ev->kind != EVT_KIND_ISR_ENTER && ev->kind != EVT_KIND_ISR_EXIT)
        while (cp->isr_n) isr_close_(tl, cpu, t, 1, 0);
    cp->pend_isr = 0; /* a switch an ISR decided has happened by now */
    do_switch_(tl, cpu, t, ci, EVT_TL_READY, EVT_TL_NONE, 0);
}

/* Creation or deletion of object obj (EVT_TL_NONE: none named) at t. */
/* ev names the kernel's idle task (EVT_M_IDLE_TASK): flag its context (created when new). */
static TL_COLD void idle_task_(evt_tl *tl, const evt_event *ev, uint32_t ci, uint64_t t)
{
    uint64_t id = ev->m.idle_ctx;
    uint32_t ix = ci != EVT_TL_NONE && tl->ctxs[ci]->has_id && tl->ctxs[ci]->id == id ? ci : EVT_TL_NONE;
    if (ix == EVT_TL_NONE) {
        if (evt_u64map_get(&tl->ctxmap, id, &ix)) {
            /* known */
        } else if (ev->m.has & EVT_M_NEXT && ev->m.next_ctx == id) {
            ix = target_ctx_(tl, id, ev->m.next_name, t); /* named as the switch will name it */
        } else {
            ix = target_ctx_(tl, id, ev->flags & EVT_HAS_TARGET && ev->target == id ? ev->target_name : NULL, t);
        }
    }
    if (ix != EVT_TL_NONE) tl->ctxs[ix]->idle_task = 1;
}

static void obj_life_(evt_tl *tl, const evt_event *ev, uint32_t obj, uint64_t t)
{
    if (obj == EVT_TL_NONE) return;
    evt_tl_obj *o = tl->objs[obj];
    if (ev->kind == EVT_KIND_OBJ_CREATE) {
        o->created = t;
        o->has_created = 1;
        if (!o->type && (ev->m.has & EVT_M_OBJ_TYPE)) o->type = obj_type_name_(ev->m.obj_type);
    } else {
        o->deleted = t;
        o->has_deleted = 1;
    }
}

uint32_t evt_tl_add(evt_tl *tl, const evt_event *ev)
{
    uint64_t t = evt_tl_time(tl, ev);
    tl->cur_t = t;
    uint32_t cpu = (ev->flags & EVT_HAS_CPU) ? (ev->cpu < EVT_TL_MAX_CPUS ? ev->cpu : EVT_TL_MAX_CPUS - 1) : 0;
    evt_tl_cpu *cp = &tl->cpus[cpu];
    if (TL_UNLIKELY(!tl->have_t) && (ev->m.has & EVT_M_UNTIMED)) { /* configuration before the first timed record */
        tl->events++;
        tl->cur = ev;
        tl->cur_ctx = EVT_TL_NONE;
        return EVT_TL_NONE;
    }
    if (tl->reader && TL_UNLIKELY(reader_kernel_(tl->reader) != tl->reader_kernel)) kernel_named_(tl);
    if (TL_LIKELY(cp->seen)) {
        if (t < cp->prev_t) t = cp->prev_t;
    } else {
        cpu_first_(tl, cp, cpu, t);
    }
    if (TL_UNLIKELY(!tl->have_t)) { tl->first = tl->last = t; tl->have_t = 1; }
    else if (t > tl->last) tl->last = t;
    else if (t < tl->first) tl->first = t;
    tl->events++;
    tl->cur = ev;

    if (TL_UNLIKELY(ev->kind == EVT_KIND_LOST)) {
        tl->cur_ctx = EVT_TL_NONE;
        lost_(tl, cpu, ev, t);
        cp->prev_t = t;
        return EVT_TL_NONE;
    }
    if (TL_UNLIKELY(!tl->sched) && (ev->kind == EVT_KIND_THREAD_RUN || ev->kind == EVT_KIND_THREAD_STOP))
        sched_on_(tl, t);
    evt_tl_ctx *c = ctx_of_(tl, ev, t);
    if (TL_UNLIKELY(!c)) {
        tl->cur_ctx = EVT_TL_NONE;
        cp->prev_t = t;
        return EVT_TL_NONE;
    }
    uint32_t ci = c->index;
    tl->cur_ctx = ci;
    int in_isr = c->cls == EVT_CTX_ISR;
    if (TL_UNLIKELY(ev->m.has & EVT_M_IDLE_TASK)) idle_task_(tl, ev, ci, t);

    /* the code that recorded a thread/init/unclassified event is running on this CPU (when the
     * trace records scheduling at all) */
    if (tl->sched && !in_isr && cp->run != ci) runs_(tl, cp, cpu, ev, ci, t);

    uint32_t obj = EVT_TL_NONE;
    if ((ev->flags & EVT_HAS_TARGET) && ev->kind != EVT_KIND_THREAD_RUN && ev->kind != EVT_KIND_THREAD_STOP)
        obj = obj_of_(tl, ev->target, ev->target_name);

    switch (ev->kind) {
    case EVT_KIND_THREAD_RUN: thread_run_(tl, cpu, ev, ci, t, in_isr); break;
    case EVT_KIND_THREAD_STOP: thread_stop_(tl, cpu, ev, ci, t, in_isr); break;
    case EVT_KIND_ISR_ENTER: isr_enter_(tl, cpu, ev, ci, t); break;
    case EVT_KIND_ISR_EXIT: isr_exit_(tl, cpu, t); break;
    case EVT_KIND_SVC_ENTER:
        span_begin_(tl, c, ev, t, EVT_SPAN_SVC, obj);
        if (obj != EVT_TL_NONE && flow_role_(ev) == 2) pend_source_(tl, obj, ci, t);
        break;
    case EVT_KIND_FUNC_ENTER: span_begin_(tl, c, ev, t, EVT_SPAN_FUNC, obj); break;
    case EVT_KIND_SVC_EXIT:
    case EVT_KIND_FUNC_EXIT: svc_end_(tl, c, ev, t); break;
    case EVT_KIND_SVC:
        svc_instant_(tl, c, ev, t, obj);
        if (obj != EVT_TL_NONE) {
            int role = flow_role_(ev);
            if (role == 3) message_sink_(tl, obj, ci, t);
            else if (role == 2) pend_source_(tl, obj, ci, t);
        }
        break;
    case EVT_KIND_OBJ_CREATE:
    case EVT_KIND_OBJ_DELETE: obj_life_(tl, ev, obj, t); break;
    default: break;
    }
    if (ev->m.has & (EVT_M_PRIO_SET | EVT_M_WAKE | EVT_M_OP | EVT_M_WAKE_CAUSE | EVT_M_PREEMPT | EVT_M_YIELD |
                     EVT_M_TIME_SLICE | EVT_M_SLICE_UNKNOWN | EVT_M_SLICE_KEPT))
        meaning_(tl, cpu, ev, ci, t, in_isr);
    /* a successor named by any other event (ThreadX's relinquish and time slice), after what it
       did to its objects and waiters */
    if (TL_UNLIKELY(ev->m.has & EVT_M_NEXT) && tl->sched && ev->kind != EVT_KIND_THREAD_RUN &&
        ev->kind != EVT_KIND_THREAD_STOP)
        next_runs_(tl, cpu, ev, ci, t, in_isr);
    if (obj != EVT_TL_NONE) counters_(tl, ev, obj, t);
    cp->prev_t = t;
    return ci;
}

void evt_tl_finish(evt_tl *tl)
{
    uint64_t t = tl->last;
    if (tl->reader) { /* figures the trace gives whenever they happen: 0 where no event was marked */
        unsigned k = tl->reader->counts;
        if (k & EVT_COUNTS_TIME_SLICES) tl->slice_counts = 1;
        if (k & EVT_COUNTS_PREEMPTIONS) tl->preempt_counts = 1;
        if (k & EVT_COUNTS_YIELDS) tl->yield_counts = 1;
    }
    tl->cur = NULL;
    tl->cur_ctx = EVT_TL_NONE;
    for (uint32_t c = 0; c < tl->ncpus; c++) {
        evt_tl_cpu *cp = &tl->cpus[c];
        while (cp->isr_n) isr_close_(tl, c, t, 0, 1);
        if (cp->run == EVT_TL_NONE) idle_end_(tl, cp, t);
        cp->idle_since = t;
    }
    for (uint32_t i = 0; i < tl->nctx; i++) {
        evt_tl_ctx *c = tl->ctxs[i];
        slices_drop_(tl, c, t, 1);
        if (c->cls == EVT_CTX_ISR) continue;
        if (!tl->sched) { /* activity only: the context recorded from its first to its last event */
            if (c->events && tl->sink.state) {
                evt_tl_state_iv iv = {c->index, EVT_TL_ACTIVE, c->cpu, c->first, c->last, EVT_TL_NONE, NULL, 1};
                tl->sink.state(tl->sink.user, &iv);
            }
            continue;
        }
        if (c->state == EVT_TL_RUNNING) c->run_time += t - c->state_since;
        if (t > c->state_since && (c->state_known || c->state != EVT_TL_UNKNOWN) && tl->sink.state) {
            evt_tl_state_iv iv = {c->index, c->state, c->cpu, c->state_since, t, c->state_obj, str_(tl, c->state_svc), 1};
            tl->sink.state(tl->sink.user, &iv);
        }
        c->state_since = t;
    }
    /* the kernel's idle tasks: their cpu time is idle time as well (timeline.h); a second call
     * counts it once */
    tl->idle_time -= tl->idle_task_time;
    tl->idle_task_time = 0;
    for (uint32_t i = 0; i < tl->nctx; i++) {
        evt_tl_ctx *c = tl->ctxs[i];
        if (!c->idle_task || c->run_time <= c->isr_time) continue;
        tl->idle_task_time += c->run_time - c->isr_time;
        tl->idle_time += c->run_time - c->isr_time;
    }
}

void evt_tl_free(evt_tl *tl)
{
    for (uint32_t i = 0; i < tl->nctx; i++) {
        evt_span_stack_free(&tl->ctxs[i]->stack);
        evt_free(tl->ctxs[i]->stack_t0);
        evt_free(tl->ctxs[i]);
    }
    for (uint32_t i = 0; i < tl->nobj; i++) {
        evt_free(tl->objs[i]->pend_ctx);
        evt_free(tl->objs[i]->pend_t);
        evt_free(tl->objs[i]);
    }
    evt_free(tl->ctxs);
    evt_free(tl->objs);
    evt_free(tl->cpus);
    evt_u64map_free(&tl->ctxmap);
    evt_u64map_free(&tl->objmap);
    evt_strtab_free(&tl->strs);
    memset(tl, 0, sizeof *tl);
}
