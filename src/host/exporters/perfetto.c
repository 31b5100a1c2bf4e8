/* Perfetto protobuf exporter (.perfetto-trace / .pftrace): the one timeline
 * (src/host/timeline/timeline.h) in Perfetto's own models, streamed. Nothing is paired here: every
 * slice, switch, flow and counter is a timeline record, written as soon as the timeline reports it.
 *
 * - Process pid 1 ("evtrace: FILE (format)"); context index i is thread tid i + 2 (ThreadDescriptor
 *   and ProcessTree, named from the trace; renamed when a later name shows up). ISR contexts are
 *   plain tracks, never threads.
 * - Scheduling: per-CPU ftrace bundles of sched_switch (prev_state = evt_tl_state_linux() of what
 *   the previous task went to; idle = pid 0 "swapper") and sched_waking (target_cpu = the CPU the
 *   woken context last ran on): Perfetto's CPU tracks and thread states come from these.
 * - Blocked on: each blocked interval of a thread is a slice "blocked on <object>" (category
 *   "blocked"; annotations object, object_id, service, open_end) on the thread's "blocked <name>"
 *   track, so what the sched thread state "S" waits for shows beside it.
 * - Track events: service and function slices on the context's track (a service recorded as one
 *   instant is a zero-length slice with the event's annotations, and no instant); ISR slices on an
 *   "ISR cpu N" track per CPU (named by the timeline's label, annotation `irq`); an instant for
 *   every other event (category = its kind; annotations id, args, fields...); flows as a pair of
 *   instants (category "flow", named by the flow's kind) on the two contexts' tracks linked by
 *   flow_ids / terminating_flow_ids (the start annotated with object, object_id: what it went
 *   through; a wake-up: the object the woken context was blocked on); counters (queue depth,
 *   semaphore count, ...) on a counter track per object and counter; lost data as an instant
 *   "lost events" with `count` and a cumulative "lost events" counter track; CPU load per context (the analyses' load windows,
 *   analyses/load.h: computed once, written as samples at the end).
 * - Time: the timeline's unit (ns when the clock is known); unknown clock: one tick is written as
 *   one ns and the process name says so ("time in ticks, clock rate unknown").
 * Memory: the timeline's (contexts, objects, open spans) plus a few bytes per context, counter
 * track and CPU; no event is kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/timeline/timeline.h"
#include "host/timeline/user_tracks.h"
#include "host/u64map.h"
#include "host/analyses/load.h"
#include "perfetto_pkt.h"

#define PID 1                        /* the traced target, as one process */
/* Track uuids: a kind in the low 4 bits (never 0) and its key above, so that the tracks of the
 * first contexts, CPUs and channels take a 1- or 2-byte varint in every TrackEvent (a uuid is
 * written with each event: uuids above 2^32 cost 5 bytes more per packet, about a tenth of it). */
#define UUID_OF(kind, key) ((uint64_t)(key) << 4 | (kind))
#define UUID_PROCESS UUID_OF(1, 0)
#define UUID_LOST UUID_OF(2, 0)             /* cumulative lost-count counter track */
#define UUID_ISR(cpu) UUID_OF(3, cpu)       /* "ISR cpu N" */
#define UUID_CTX(idx) UUID_OF(4, idx)       /* a context's own track */
#define UUID_COUNTER(n) UUID_OF(5, n)       /* counter track number n */
#define UUID_LOAD(ctx) UUID_OF(6, ctx)      /* a context's CPU load */
#define UUID_UVAL(ch) UUID_OF(7, ch)        /* channel name id: a user value channel (counter track) */
#define UUID_UIV(ch, k) UUID_OF(8, (uint64_t)(ch) * UIV_SLOTS + (k)) /* user intervals (async), slot k */
#define UUID_USM(sm) UUID_OF(9, sm)         /* machine name id: a state machine's states */
#define UUID_PRIO(ctx) UUID_OF(10, ctx)     /* a context's priority (counter track) */
#define UUID_BLOCKED(ctx) UUID_OF(11, ctx)  /* what a context was blocked on (slices) */
#define UIV_SLOTS 8                  /* tracks per interval channel (overlapping intervals) */
#define TID_OF(idx) ((int32_t)((idx) + 2))

typedef struct pf_ctx {
    uint8_t described;       /* its track is written */
    uint8_t prio_track;      /* its priority counter track is written */
    uint8_t blocked_track;   /* its "blocked <name>" track is written */
    uint32_t open;           /* slices begun on its track and not yet ended */
} pf_ctx;

/* A counter track seen before, by the timeline's name pointer and object: the name is checked as
 * pf_iid_ checks its pointers (trusted in the program's read-only image, else compared). */
typedef struct pf_ctr_slot {
    const char *p;           /* NULL: empty */
    const char *own;         /* the name's copy in counter_names (never moves) */
    uint32_t obj, n;         /* object index; counter track number */
    int ro;
} pf_ctr_slot;
#define CTR_CACHE 64         /* slots of the counter track cache (on_counter: pairs by 6 bits of a hash) */
_Static_assert(CTR_CACHE == 64, "on_counter takes 6 bits of the hash");

typedef struct pf_state {
    FILE *out;
    evt_reader *r;           /* open until end(): its clock is read at the first event */
    int started;             /* the timeline and the first packet exist: start_ */
    pf_w w;
    evt_tl tl;
    pf_ctx *ctxs;            /* by timeline context index */
    uint32_t nctx;
    uint32_t isr_open[EVT_TL_MAX_CPUS]; /* ISR slices begun per CPU and not yet ended */
    uint64_t isr_described;  /* bit per CPU slot (slots >= 64 share the last bit) */
    evt_u64map counters;     /* (object index + 1) << 32 | counter-name id -> counter track number */
    evt_strtab counter_names;
    evt_strtab blocked_names; /* "blocked on <object>" slice names (owned copies: stable) */
    uint32_t *blocked_name;   /* by object index: its name's id there << 1 | from a name (0: none yet) */
    uint32_t nblocked_name;
    uint32_t ncounters;
    pf_ctr_slot ctr_cache[CTR_CACHE];
    int lost_described;
    uint64_t lost_total;
    evt_an_load load;        /* CPU load windows (analyses/load.h) */
    char procname[512];      /* the process name (ProcessTree cmdline) */
    int tree_started;        /* the process is in a ProcessTree packet */
    evt_ut ut;               /* user tracks: values, intervals, state machines */
    evt_u64map u_described;  /* user track uuids written (value 1) */
    evt_u64map u_slot_end;   /* interval track uuid -> index into u_ends */
    uint64_t *u_ends;        /* per interval track: the latest end on it */
    uint32_t n_ends, cap_ends;
    const char *kind_cat[EVT_KIND_COUNT_ + 1]; /* an instant's category by kind: evt_kind_name, found once */
    int svc_drawn;           /* the event being added is a one-instant service, written as its
                                zero-length slice with its annotations (slice_begin_, one
                                TYPE_INSTANT packet): no second instant */
    int svc_instant;         /* that slice's packet is written: its end (on_slice) writes nothing */
    int oom;
} pf_state;

/* ---- contexts ------------------------------------------------------------------------------ */

static pf_ctx *pctx_(pf_state *s, uint32_t idx)
{
    if (idx >= s->nctx) {
        uint32_t n = s->nctx ? s->nctx : 32;
        while (n <= idx) n *= 2;
        pf_ctx *p = evt_realloc(s->ctxs, n * sizeof *p);
        if (!p) { s->oom = 1; return NULL; }
        memset(p + s->nctx, 0, (n - s->nctx) * sizeof *p);
        s->ctxs = p;
        s->nctx = n;
    }
    return &s->ctxs[idx];
}

static void describe_ctx_(pf_state *s, const evt_tl_ctx *c)
{
    pf_ctx *p = pctx_(s, c->index);
    if (!p) return;
    char lb[96];
    const char *name = evt_tl_ctx_label(c, lb, sizeof lb);
    if (c->cls != EVT_CTX_ISR) { /* a thread: a sched task */
        pf_thread_track(&s->w, UUID_CTX(c->index), UUID_PROCESS, PID, TID_OF(c->index), name);
        pf_process_tree(&s->w, c->first, PID, s->procname, !s->tree_started, TID_OF(c->index), name);
        s->tree_started = 1;
    } else {
        pf_track(&s->w, UUID_CTX(c->index), UUID_PROCESS, name, 0);
    }
    p->described = 1;
}

static void on_ctx_new(void *user, const evt_tl_ctx *c) { describe_ctx_(user, c); }
static void on_ctx_name(void *user, const evt_tl_ctx *c) { describe_ctx_(user, c); }

/* The track of a context (described now if it is not yet): ctx_track_ when not written yet. */
static uint64_t ctx_track_slow_(pf_state *s, uint32_t idx)
{
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, idx);
    if (!c) return UUID_PROCESS;
    pf_ctx *p = pctx_(s, idx);
    if (p && !p->described) describe_ctx_(s, c);
    return UUID_CTX(idx);
}

static inline uint64_t ctx_track_(pf_state *s, uint32_t idx)
{
    if (idx < s->nctx && s->ctxs[idx].described) return UUID_CTX(idx); /* the usual case: written before */
    return ctx_track_slow_(s, idx);
}

/* The task a context index is in sched events (idle for EVT_TL_NONE). */
static pf_task task_(pf_state *s, uint32_t idx, char *buf, size_t len)
{
    pf_task t = {0, 120, "swapper"};
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, idx);
    if (!c) return t;
    t.pid = TID_OF(idx);
    t.prio = c->has_prio ? (int32_t)c->prio : 0;
    t.comm = evt_tl_ctx_label(c, buf, len);
    return t;
}

/* ---- scheduling ---------------------------------------------------------------------------- */

static void on_switch(void *user, const evt_tl_switch *sw)
{
    pf_state *s = user;
    char pb[96], nb[96];
    pf_task prev = task_(s, sw->prev, pb, sizeof pb), next = task_(s, sw->next, nb, sizeof nb);
    if (sw->prev != EVT_TL_NONE) prev.prio = (int32_t)sw->prev_prio;
    if (sw->next != EVT_TL_NONE) next.prio = (int32_t)sw->next_prio;
    int64_t st = sw->prev == EVT_TL_NONE ? 0 : evt_tl_state_linux(sw->prev_state);
    pf_ft_switch(&s->w, sw->cpu, sw->t, &prev, st, &next);
    evt_an_load_switch(&s->load, &s->tl, sw);
}

static void on_waking(void *user, const evt_tl_waking *wk)
{
    pf_state *s = user;
    char tb[96];
    pf_task target = task_(s, wk->target, tb, sizeof tb);
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, wk->target);
    int32_t waker = wk->waker == EVT_TL_NONE ? 0 : TID_OF(wk->waker);
    pf_ft_waking(&s->w, wk->cpu, wk->t, waker, &target, c ? (int32_t)c->cpu : (int32_t)wk->cpu);
}

/* The object annotations of a blocked state or a wake-up: `object` (its name, else its id in
 * hex) and `object_id` (the id, as SQLite's thread_states.object and wakeups have it). */
static void ann_obj_(pf_state *s, uint32_t obj)
{
    const evt_tl_obj *o = evt_tl_obj_at(&s->tl, obj);
    if (!o) return;
    char ib[24];
    const char *nm = o->name;
    if (!nm) {
        snprintf(ib, sizeof ib, "0x%" PRIx64, o->id);
        nm = ib;
    }
    pf_ann_s(&s->w, "object", nm, strlen(nm));
    pf_ann_u(&s->w, "object_id", o->id, 0);
}

#define BLOCKED_ON "blocked on "

/* The slice name of a blocked interval on object o (NULL: none): "blocked on <name>" (or its id in
 * hex while it has no name), formatted once per object and name and kept in s->blocked_names (so
 * the pointer is stable); NULL when out of memory. */
static const char *blocked_name_(pf_state *s, const evt_tl_obj *o)
{
    if (!o) return "blocked";
    if (o->index >= s->nblocked_name) {
        uint32_t n = s->nblocked_name ? s->nblocked_name : 32;
        while (n <= o->index) n *= 2;
        uint32_t *p = evt_realloc(s->blocked_name, n * sizeof *p);
        if (!p) { s->oom = 1; return NULL; }
        memset(p + s->nblocked_name, 0, (n - s->nblocked_name) * sizeof *p);
        s->blocked_name = p;
        s->nblocked_name = n;
    }
    uint32_t e = s->blocked_name[o->index]; /* id << 1 | formatted from a name */
    const char *have = e ? evt_strtab_str(&s->blocked_names, e >> 1) : NULL;
    /* still right: formatted from the object's current name, or from its id (fixed) while none */
    if (have && (o->name ? (e & 1) && strcmp(have + sizeof BLOCKED_ON - 1, o->name) == 0 : !(e & 1)))
        return have;
    char nb[160];
    if (o->name) snprintf(nb, sizeof nb, BLOCKED_ON "%s", o->name);
    else snprintf(nb, sizeof nb, BLOCKED_ON "0x%" PRIx64, o->id);
    uint32_t id = evt_strtab_intern(&s->blocked_names, nb, strlen(nb), NULL);
    if (!id) { s->oom = 1; return NULL; }
    s->blocked_name[o->index] = id << 1 | (o->name != NULL);
    return evt_strtab_str(&s->blocked_names, id);
}

/* A blocked interval of a thread: a slice "blocked on <object>" (or "blocked") on the context's
 * "blocked <name>" track, annotations object, object_id, service (the call that blocked it) and
 * open_end. Perfetto's own blocked-reason field (sched_blocked_reason.caller, shown as
 * thread_state.blocked_function) is a kernel code address resolved with kernel symbols: an RTOS
 * object is none, so the object goes on a slice of its own, beside the sched thread state. */
static void blocked_slice_(pf_state *s, const evt_tl_state_iv *iv)
{
    pf_ctx *pc = pctx_(s, iv->ctx);
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, iv->ctx);
    if (!pc || !c) return;
    char lb[96], nb[160];
    if (!pc->blocked_track) {
        snprintf(nb, sizeof nb, "blocked %s", evt_tl_ctx_label(c, lb, sizeof lb));
        pf_track(&s->w, UUID_BLOCKED(iv->ctx), UUID_PROCESS, nb, 0);
        pc->blocked_track = 1;
    }
    const char *name = blocked_name_(s, evt_tl_obj_at(&s->tl, iv->obj));
    if (!name) return;
    pf_te_begin(&s->w, PF_SLICE_BEGIN, UUID_BLOCKED(iv->ctx), iv->t0);
    pf_te_name(&s->w, name, 1, "blocked");
    ann_obj_(s, iv->obj);
    if (iv->service) pf_ann_s(&s->w, "service", iv->service, strlen(iv->service));
    if (iv->open_end) pf_ann_u(&s->w, "open_end", 1, 0);
    pf_te_emit(&s->w);
    pf_te_begin(&s->w, PF_SLICE_END, UUID_BLOCKED(iv->ctx), iv->t1);
    pf_te_emit(&s->w);
}

static void on_state(void *user, const evt_tl_state_iv *iv)
{
    pf_state *s = user;
    if (iv->state == EVT_TL_BLOCKED) blocked_slice_(s, iv);
    evt_an_load_state(&s->load, &s->tl, iv);
}

/* ---- ISRs and slices ----------------------------------------------------------------------- */

static uint64_t isr_track_(pf_state *s, uint32_t cpu)
{
    uint64_t bit = 1ull << (cpu < 63 ? cpu : 63);
    if (!(s->isr_described & bit)) {
        char nb[32];
        snprintf(nb, sizeof nb, "ISR cpu %u", cpu);
        pf_track(&s->w, UUID_ISR(cpu), UUID_PROCESS, nb, 0);
        s->isr_described |= bit;
    }
    return UUID_ISR(cpu);
}

/* Annotations of the event being added, when it is the one the record starts at. */
static void cur_ann_(pf_state *s, evt_kind kind)
{
    if (s->tl.cur && s->tl.cur->kind == kind) pf_ann_event(&s->w, s->tl.cur);
}

static void isr_slice_begin_(pf_state *s, const evt_tl_isr *iv, uint64_t track)
{
    pf_te_begin(&s->w, PF_SLICE_BEGIN, track, iv->t0);
    pf_te_name(&s->w, iv->name ? iv->name : "ISR", 1, "isr");
    if (iv->has_irq) pf_ann_u(&s->w, "irq", iv->irq, 0);
    cur_ann_(s, EVT_KIND_ISR_ENTER);
    pf_te_emit(&s->w);
}

static void on_isr_begin(void *user, const evt_tl_isr *iv)
{
    pf_state *s = user;
    uint32_t cpu = iv->cpu < EVT_TL_MAX_CPUS ? iv->cpu : EVT_TL_MAX_CPUS - 1;
    isr_slice_begin_(s, iv, isr_track_(s, cpu));
    s->isr_open[cpu]++;
}

static void on_isr(void *user, const evt_tl_isr *iv)
{
    pf_state *s = user;
    uint32_t cpu = iv->cpu < EVT_TL_MAX_CPUS ? iv->cpu : EVT_TL_MAX_CPUS - 1;
    uint64_t track = isr_track_(s, cpu);
    evt_an_load_isr(&s->load, &s->tl, iv);
    if (s->isr_open[cpu] <= iv->depth) isr_slice_begin_(s, iv, track); /* reported closed only */
    else s->isr_open[cpu] = iv->depth;
    pf_te_begin(&s->w, PF_SLICE_END, track, iv->t1);
    if (iv->truncated) pf_ann_u(&s->w, "truncated", 1, 0);
    pf_te_emit(&s->w);
}

/* A slice's begin (type PF_SLICE_BEGIN), or the whole of a zero-length one (PF_INSTANT: a single
 * packet, which trace_processor makes the same `slice` row, dur 0, at the same depth, as a begin
 * and an end at one time). */
static void slice_begin_(pf_state *s, const evt_tl_slice *sl, int type)
{
    pf_te_begin(&s->w, type, ctx_track_(s, sl->ctx), sl->t0);
    pf_te_name(&s->w, sl->name ? sl->name : "?", 1, sl->cat == EVT_SPAN_FUNC ? "func" : "svc");
    if (s->tl.cur && evt_tl_time(&s->tl, s->tl.cur) == sl->t0) {
        evt_kind k = s->tl.cur->kind;
        if (evt_span_cat_fast(k) == sl->cat && evt_span_kind_begins(k)) pf_ann_event(&s->w, s->tl.cur);
        else if (k == EVT_KIND_SVC) {
            pf_ann_event(&s->w, s->tl.cur);
            s->svc_drawn = 1;
        }
    }
    pf_te_emit(&s->w);
}

static void on_slice_begin(void *user, const evt_tl_slice *sl)
{
    pf_state *s = user;
    pf_ctx *p = pctx_(s, sl->ctx);
    if (!p) return;
    /* a service recorded as one instant (the timeline reports its slice begun, then closed at
     * once, while the event is added): one instant packet, and on_slice writes no end */
    if (sl->cat == EVT_SPAN_SVC && s->tl.cur && s->tl.cur->kind == EVT_KIND_SVC) {
        slice_begin_(s, sl, PF_INSTANT);
        s->svc_instant = 1;
        return;
    }
    slice_begin_(s, sl, PF_SLICE_BEGIN);
    p->open++;
}

static void on_slice(void *user, const evt_tl_slice *sl)
{
    pf_state *s = user;
    pf_ctx *p = pctx_(s, sl->ctx);
    if (!p) return;
    if (s->svc_instant) { /* the one-instant service's slice: written whole by on_slice_begin */
        s->svc_instant = 0;
        return;
    }
    if (p->open <= sl->depth) slice_begin_(s, sl, PF_SLICE_BEGIN); /* zero-length, reported closed only */
    else p->open = sl->depth;
    pf_te_begin(&s->w, PF_SLICE_END, ctx_track_(s, sl->ctx), sl->t1);
    if (sl->truncated) pf_ann_u(&s->w, "truncated", 1, 0);
    pf_te_emit(&s->w);
}

/* ---- counters, flows, losses --------------------------------------------------------------- */

/* The counter track number of (object, name) (on_counter when ctr_cache has no entry): found or
 * described now; kept in slot cs. Returns 0 when out of memory. */
static int counter_track_slow_(pf_state *s, const evt_tl_counter *c, const char *cname, pf_ctr_slot *cs, uint32_t *pn)
{
    uint32_t nid = evt_strtab_intern(&s->counter_names, cname, strlen(cname), NULL);
    if (!nid) { s->oom = 1; return 0; }
    uint64_t key = ((uint64_t)(c->obj == EVT_TL_NONE ? 0 : c->obj + 1) << 32) | nid;
    uint32_t n;
    if (!evt_u64map_get(&s->counters, key, &n)) {
        n = s->ncounters++;
        if (!evt_u64map_put(&s->counters, key, n)) { s->oom = 1; return 0; }
        char nb[256];
        const evt_tl_obj *o = evt_tl_obj_at(&s->tl, c->obj);
        if (!o) snprintf(nb, sizeof nb, "%s", cname);
        else if (o->name) snprintf(nb, sizeof nb, "%s %s", o->name, cname);
        else snprintf(nb, sizeof nb, "object 0x%" PRIx64 " %s", o->id, cname);
        pf_track(&s->w, UUID_COUNTER(n), UUID_PROCESS, nb, 1);
    }
    cs->p = cname;
    cs->own = evt_strtab_str(&s->counter_names, nid);
    cs->obj = c->obj;
    cs->n = n;
    cs->ro = pf_ro(&s->w, cname);
    *pn = n;
    return 1;
}

static inline int ctr_hit_(const pf_ctr_slot *cs, const char *cname, uint32_t obj)
{
    return cs->obj == obj && pf_cache_holds_(cs->p, cs->own, cs->ro, cname);
}

static void on_counter(void *user, const evt_tl_counter *c)
{
    pf_state *s = user;
    const char *cname = c->name ? c->name : "counter";
    /* two slots per hash (an event's counters, e.g. a semaphore's count and waiters, may share
     * one): a miss moves the first to the second and takes the first */
    uint64_t h = ((uintptr_t)cname ^ (uint64_t)c->obj << 32) * 0x9E3779B97F4A7C15ull;
    pf_ctr_slot *cs = &s->ctr_cache[(h >> 58) & ~1u];
    uint32_t n;
    if (ctr_hit_(&cs[0], cname, c->obj)) n = cs[0].n;
    else if (ctr_hit_(&cs[1], cname, c->obj)) n = cs[1].n;
    else {
        cs[1] = cs[0];
        if (!counter_track_slow_(s, c, cname, cs, &n)) return;
    }
    /* on the event that changed it (the TrackEvent just written, same time), else a packet */
    if (pf_te_extra_counter(&s->w, c->t, UUID_COUNTER(n), (int64_t)c->value)) return;
    pf_te_begin(&s->w, PF_COUNTER, UUID_COUNTER(n), c->t);
    pf_te_counter(&s->w, (int64_t)c->value);
    pf_te_emit(&s->w);
}

static void on_flow(void *user, const evt_tl_flow *f)
{
    pf_state *s = user;
    const char *kind = f->kind ? f->kind : "flow";
    pf_te_begin(&s->w, PF_INSTANT, ctx_track_(s, f->from_ctx), f->t0);
    pf_te_name(&s->w, kind, 1, "flow");
    if (f->obj != EVT_TL_NONE) ann_obj_(s, f->obj);
    pf_te_flow(&s->w, f->id, 0);
    pf_te_emit(&s->w);
    pf_te_begin(&s->w, PF_INSTANT, ctx_track_(s, f->to_ctx), f->t1);
    pf_te_name(&s->w, kind, 1, "flow");
    pf_te_flow(&s->w, f->id, 1);
    pf_te_emit(&s->w);
}

static void on_lost(void *user, const evt_tl_lost *l)
{
    pf_state *s = user;
    pf_te_begin(&s->w, PF_INSTANT, UUID_PROCESS, l->t1);
    pf_te_name(&s->w, "lost events", 1, "lost");
    if (l->has_count) pf_ann_u(&s->w, "count", l->count, 0);
    pf_ann_u(&s->w, "since", l->t0, 0);
    pf_ann_u(&s->w, "cpu", l->cpu, 0);
    cur_ann_(s, EVT_KIND_LOST);
    pf_te_emit(&s->w);
    if (!s->lost_described) {
        pf_track(&s->w, UUID_LOST, UUID_PROCESS, "lost events", 1);
        s->lost_described = 1;
    }
    s->lost_total += l->has_count ? l->count : 0;
    pf_te_begin(&s->w, PF_COUNTER, UUID_LOST, l->t1);
    pf_te_counter(&s->w, (int64_t)s->lost_total);
    pf_te_emit(&s->w);
}

/* CPU load samples (evt_an_load_samples) become counter events on a track per context. */
static void on_load(void *user, uint32_t ctx, uint64_t t, double pct, int first)
{
    pf_state *s = user;
    if (first) {
        char lb[96], nb[128];
        const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, ctx);
        snprintf(nb, sizeof nb, "CPU load %% %s", c ? evt_tl_ctx_label(c, lb, sizeof lb) : "?");
        pf_track(&s->w, UUID_LOAD(ctx), UUID_PROCESS, nb, 1);
    }
    pf_te_begin(&s->w, PF_COUNTER, UUID_LOAD(ctx), t);
    pf_te_counter_double(&s->w, pct);
    pf_te_emit(&s->w);
}

/* A priority change (the timeline's prio record): the context's "priority <name>" counter track
 * (the event itself is an instant on the context's track, as every event). */
static void on_prio(void *user, const evt_tl_prio *p)
{
    pf_state *s = user;
    pf_ctx *pc = pctx_(s, p->ctx);
    if (!pc) return;
    if (!pc->prio_track) {
        char lb[96], nb[128];
        const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, p->ctx);
        snprintf(nb, sizeof nb, "priority %s", c ? evt_tl_ctx_label(c, lb, sizeof lb) : "?");
        pf_track(&s->w, UUID_PRIO(p->ctx), UUID_PROCESS, nb, 1);
        pc->prio_track = 1;
    }
    pf_te_begin(&s->w, PF_COUNTER, UUID_PRIO(p->ctx), p->t);
    pf_te_counter(&s->w, (int64_t)p->prio);
    pf_te_emit(&s->w);
}

/* ---- user tracks (host/timeline/user_tracks.h) ------------------------------------------------
 * A value channel is a counter track named by the channel; a channel's intervals are async
 * slices on up to UIV_SLOTS tracks named by the channel (an interval goes to the first whose
 * intervals all ended before it began, so slices never cross on a track); a state machine is a
 * track of slices named by its states. Printf events stay instants on their context's track with
 * their text among the annotations. */

static int u_describe_(pf_state *s, uint64_t uuid, const char *name, int is_counter)
{
    uint32_t v;
    if (evt_u64map_get(&s->u_described, uuid, &v)) return 1;
    if (!evt_u64map_put(&s->u_described, uuid, 1)) { s->oom = 1; return 0; }
    pf_track(&s->w, uuid, UUID_PROCESS, name, is_counter);
    return 1;
}

static void u_value(void *user, uint32_t ch, uint64_t t, int64_t v, const evt_event *ev)
{
    pf_state *s = user;
    (void)ev;
    if (!u_describe_(s, UUID_UVAL(ch), evt_strtab_str(&s->ut.names, ch), 1)) return;
    pf_te_begin(&s->w, PF_COUNTER, UUID_UVAL(ch), t);
    pf_te_counter(&s->w, v);
    pf_te_emit(&s->w);
}

/* The interval track of channel ch for [t0, t1]: its slot's latest end is at or before t0. */
static uint64_t u_iv_track_(pf_state *s, uint32_t ch, uint64_t t0, uint64_t t1)
{
    uint64_t uuid = 0;
    for (unsigned k = 0; k < UIV_SLOTS; k++) {
        uuid = UUID_UIV(ch, k);
        uint32_t i;
        if (!evt_u64map_get(&s->u_slot_end, uuid, &i)) {
            if (s->n_ends == s->cap_ends) {
                uint32_t cap = s->cap_ends ? 2 * s->cap_ends : 16;
                uint64_t *p = evt_realloc(s->u_ends, cap * sizeof *p);
                if (!p) { s->oom = 1; return 0; }
                s->u_ends = p;
                s->cap_ends = cap;
            }
            i = s->n_ends++;
            if (!evt_u64map_put(&s->u_slot_end, uuid, i)) { s->oom = 1; return 0; }
            s->u_ends[i] = t1;
            return uuid;
        }
        if (s->u_ends[i] <= t0 || k == UIV_SLOTS - 1) {
            if (t1 > s->u_ends[i]) s->u_ends[i] = t1;
            return uuid;
        }
    }
    return uuid;
}

static void u_interval(void *user, uint32_t ch, uint64_t id, uint64_t t0, uint64_t t1, int open_end)
{
    pf_state *s = user;
    const char *name = evt_strtab_str(&s->ut.names, ch);
    uint64_t track = u_iv_track_(s, ch, t0, t1);
    if (!track || !u_describe_(s, track, name, 0)) return;
    pf_te_begin(&s->w, PF_SLICE_BEGIN, track, t0);
    pf_te_name(&s->w, name, 0, "user");
    pf_ann_u(&s->w, "id", id, 0);
    if (open_end) pf_ann_u(&s->w, "open_end", 1, 0);
    pf_te_emit(&s->w);
    pf_te_begin(&s->w, PF_SLICE_END, track, t1);
    pf_te_emit(&s->w);
}

static void u_state(void *user, uint32_t sm, uint64_t obj, uint32_t st, uint64_t st_id, uint64_t t0, uint64_t t1,
                    int open_end)
{
    pf_state *s = user;
    char nb[160], sb[32];
    snprintf(nb, sizeof nb, "%s (state machine)", sm ? evt_strtab_str(&s->ut.names, sm) : "state machine");
    if (!u_describe_(s, UUID_USM(sm), nb, 0)) return;
    const char *name = st ? evt_strtab_str(&s->ut.names, st) : NULL;
    if (!name) {
        snprintf(sb, sizeof sb, "state %" PRIu64, st_id);
        name = sb;
    }
    pf_te_begin(&s->w, PF_SLICE_BEGIN, UUID_USM(sm), t0);
    pf_te_name(&s->w, name, 0, "state");
    pf_ann_u(&s->w, "state_id", st_id, 0);
    pf_ann_u(&s->w, "machine", obj, 0);
    if (open_end) pf_ann_u(&s->w, "open_end", 1, 0);
    pf_te_emit(&s->w);
    pf_te_begin(&s->w, PF_SLICE_END, UUID_USM(sm), t1);
    pf_te_emit(&s->w);
}

/* ---- exporter ------------------------------------------------------------------------------ */

static void free_(pf_state *s)
{
    pf_w_free(&s->w);
    if (s->started) evt_tl_free(&s->tl);
    evt_an_load_free(&s->load);
    if (s->started) evt_ut_free(&s->ut);
    evt_u64map_free(&s->u_described);
    evt_u64map_free(&s->u_slot_end);
    evt_free(s->u_ends);
    evt_u64map_free(&s->counters);
    evt_strtab_free(&s->counter_names);
    evt_strtab_free(&s->blocked_names);
    evt_free(s->blocked_name);
    evt_free(s->ctxs);
    evt_free(s);
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    pf_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->out = evt_out_fopen(path, "wb");
    if (!s->out) { snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno)); evt_free(s); return EVT_ERR_IO; }
    s->r = r;
    pf_w_init(&s->w, s->out);
    *state = s;
    return EVT_OK;
}

/* At the first event (or the end): the unit is fixed by the reader's clock as known then (a
 * reader may learn its rate from its first record, e.g. RKH's TCFG); the timeline starts and the
 * first packet describes the process. Returns 0 when out of memory. */
static int start_(pf_state *s)
{
    evt_reader *r = s->r;
    s->started = 1;
    for (unsigned k = 0; k <= EVT_KIND_COUNT_; k++) s->kind_cat[k] = evt_kind_name((evt_kind)k); /* past the end: "other" */
    evt_tl_sink sink = {
        s, on_ctx_new, on_ctx_name, NULL, NULL, on_state, on_switch, on_waking, on_isr_begin, on_isr,
        on_slice_begin, on_slice, on_counter, on_flow, on_lost, on_prio,
    };
    if (!evt_tl_init(&s->tl, r->clock_hz, &sink)) { s->oom = 1; return 0; }
    evt_tl_set_reader(&s->tl, r);
    evt_an_load_init(&s->load, 0); /* automatic window, as `stats` */
    evt_ut_sink us = {s, NULL, u_value, u_interval, u_state};
    evt_ut_init(&s->ut, &us);
    char nm[512];
    snprintf(nm, sizeof nm, "evtrace: %s (%s)%s", r->src.path ? r->src.path : "trace", r->desc->name,
             r->clock_hz ? "" : " [time in ticks, clock rate unknown: 1 tick shown as 1 ns]");
    snprintf(s->procname, sizeof s->procname, "%s", nm);
    pf_process(&s->w, UUID_PROCESS, PID, nm);
    return 1;
}

static evt_status status_(pf_state *s)
{
    if (s->oom || s->tl.oom || s->w.oom || s->load.oom || s->ut.oom) return EVT_ERR_NOMEM;
    return s->w.io || ferror(s->out) ? EVT_ERR_IO : EVT_OK;
}

/* status_ after an event: the stream is written only by pf_w_flush, whose failed fwrite sets
 * w.io, so ferror (a call per event) waits for end(). */
static inline evt_status event_status_(const pf_state *s)
{
    if (s->oom | s->tl.oom | s->w.oom | s->load.oom | s->ut.oom) return EVT_ERR_NOMEM;
    return s->w.io ? EVT_ERR_IO : EVT_OK;
}

/* An event that is neither a span's edge nor a loss: an instant on its context's track (out of
 * line: the spans' path through event() then saves fewer registers). */
static __attribute__((noinline)) void instant_(pf_state *s, const evt_event *ev, uint32_t idx)
{
    unsigned k = (unsigned)ev->kind < EVT_KIND_COUNT_ ? (unsigned)ev->kind : EVT_KIND_COUNT_;
    pf_te_begin(&s->w, PF_INSTANT, ctx_track_(s, idx), evt_tl_time(&s->tl, ev));
    pf_te_name(&s->w, ev->name ? ev->name : "?", 0, s->kind_cat[k]);
    pf_ann_event(&s->w, ev);
    pf_te_emit(&s->w);
}

static evt_status event(void *state, const evt_event *ev)
{
    pf_state *s = state;
    if (!s->started && !start_(s)) return EVT_ERR_NOMEM;
    s->svc_drawn = 0;
    uint32_t idx = evt_tl_add(&s->tl, ev); /* EVT_TL_NONE: a loss, or out of memory */
    if (s->tl.oom) return EVT_ERR_NOMEM;
    /* Spans are the timeline's slices, and so is a service recorded as one instant (its zero-length
     * slice, which carries its annotations: an instant beside it was a second row of `slice` in
     * trace_processor until 5 Dec 2026); a loss is its lost record: every other event is an instant. */
    if (evt_span_cat_fast(ev->kind) == EVT_SPAN_NONE && ev->kind != EVT_KIND_LOST && !s->svc_drawn)
        instant_(s, ev, idx);
    if (ev->kind == EVT_KIND_USER && evt_ut_relevant(ev)) (void)evt_ut_event(&s->ut, ev, evt_tl_time(&s->tl, ev));
    return event_status_(s);
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    pf_state *s = state;
    if (s->started || start_(s)) {
        evt_tl_finish(&s->tl);
        evt_an_load_finish(&s->load, &s->tl);
        evt_an_load_samples(&s->load, &s->tl, on_load, s);
        evt_ut_finish(&s->ut, s->tl.last);
        pf_ft_flush(&s->w);
    }
    pf_w_flush(&s->w);
    evt_status st = status_(s);
    if (fclose(s->out) != 0 && st == EVT_OK) st = EVT_ERR_IO;
    free_(s);
    if (st != EVT_OK) snprintf(err, errlen, st == EVT_ERR_NOMEM ? "out of memory" : "write error");
    return st;
}

static void abort_(void *state)
{
    pf_state *s = state;
    fclose(s->out);
    free_(s);
}

const evt_exporter_desc evt_exporter_perfetto = {
    "perfetto", ".pftrace", "Perfetto protobuf trace (sched ftrace + TrackEvent; ui.perfetto.dev, trace_processor)", 0,
    begin, event, end, abort_, 1,
};
