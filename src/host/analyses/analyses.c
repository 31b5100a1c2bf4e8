/* The analyses behind one entry point (analyses.h): routes the timeline's records and the raw
 * events to load.c, response.c, inversion.c, objhist.c and stack.c, and writes their one JSON
 * object. The load window is resolved at the first event, when the trace's time unit is known. */
#include "host/analyses/analyses.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "host/analyses/inversion.h"
#include "host/analyses/load.h"
#include "host/analyses/objhist.h"
#include "host/analyses/response.h"
#include "host/analyses/stack.h"

struct evt_analyses {
    evt_an_config cfg;
    evt_tl own;             /* standalone: the timeline it feeds */
    int owns, own_ready;
    uint64_t own_hz;
    unsigned own_caps;      /* standalone: the trace's facts (evt_an_set_trace) */
    int own_caps_known, own_higher;
    evt_tl *tl;
    evt_tl_sink sink;       /* the analyses' callbacks */
    evt_tl_sink first;      /* evt_an_chain: the caller's sink, called before them */
    int started;            /* first event seen: window resolved */
    int finished;
    char err[200];
    int oom;
    evt_an_load load;
    evt_an_resp resp;
    evt_an_inversion inv;
    evt_an_objhist obj;
    evt_an_stack stk;
};

int evt_an_parse_window(const char *s, uint64_t *value, int *is_ns, char *err, size_t errlen)
{
    static const struct { const char *sfx; double ns; } units[] = {
        {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
    };
    char *end = NULL;
    if (!s || !*s || !(isdigit((unsigned char)s[0]) || s[0] == '.')) goto bad;
    double v = strtod(s, &end);
    if (end == s || !(v > 0) || !isfinite(v)) goto bad;
    if (!*end) {
        if (v != floor(v) || v > 1e18) goto bad;
        *value = (uint64_t)v;
        *is_ns = 0;
        return 1;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].sfx) != 0) continue;
        double ns = v * units[i].ns;
        if (ns < 1 || ns > 1e18) goto bad;
        *value = (uint64_t)(ns + 0.5);
        *is_ns = 1;
        return 1;
    }
bad:
    snprintf(err, errlen, "bad window '%s': a positive duration like 1ms, 500us, 250ns, 2s or a number of time units",
             s ? s : "");
    return 0;
}

/* ---- sink ---------------------------------------------------------------------------------------- */

static void start(evt_analyses *a);

/* The first record or event fixes the window (the timeline's unit is known by then). */
static evt_analyses *ready_(void *u)
{
    evt_analyses *a = u;
    if (!a->started) start(a);
    return a;
}

static void on_state(void *u, const evt_tl_state_iv *iv)
{
    evt_analyses *a = ready_(u);
    evt_an_load_state(&a->load, a->tl, iv);
    evt_an_resp_state(&a->resp, iv);
    evt_an_inv_state(&a->inv, a->tl, iv);
    evt_an_obj_state(&a->obj, iv);
}
static void on_switch(void *u, const evt_tl_switch *sw) { evt_analyses *a = ready_(u); evt_an_load_switch(&a->load, a->tl, sw); }
static void on_isr(void *u, const evt_tl_isr *iv)
{
    evt_analyses *a = ready_(u);
    evt_an_load_isr(&a->load, a->tl, iv);
    evt_an_resp_isr(&a->resp, iv);
}
static void on_counter(void *u, const evt_tl_counter *c) { evt_an_obj_counter(&ready_(u)->obj, c); }
static void on_flow(void *u, const evt_tl_flow *f) { evt_an_obj_flow(&ready_(u)->obj, f); }

/* evt_an_chain's callbacks: the caller's, then the analyses'. */
#define CHAIN_(cb, T)                                                               \
    static void chain_##cb(void *u, T rec)                                          \
    {                                                                               \
        evt_analyses *a = u;                                                        \
        if (a->first.cb) a->first.cb(a->first.user, rec);                           \
        if (a->sink.cb) a->sink.cb(a->sink.user, rec);                              \
    }
CHAIN_(ctx_new, const evt_tl_ctx *)
CHAIN_(ctx_name, const evt_tl_ctx *)
CHAIN_(obj_new, const evt_tl_obj *)
CHAIN_(obj_name, const evt_tl_obj *)
CHAIN_(state, const evt_tl_state_iv *)
CHAIN_(sched_switch, const evt_tl_switch *)
CHAIN_(waking, const evt_tl_waking *)
CHAIN_(isr_begin, const evt_tl_isr *)
CHAIN_(isr, const evt_tl_isr *)
CHAIN_(slice_begin, const evt_tl_slice *)
CHAIN_(slice, const evt_tl_slice *)
CHAIN_(counter, const evt_tl_counter *)
CHAIN_(flow, const evt_tl_flow *)
CHAIN_(lost, const evt_tl_lost *)
CHAIN_(prio, const evt_tl_prio *)
#undef CHAIN_

void evt_an_chain(evt_analyses *a, const evt_tl_sink *first, evt_tl_sink *out)
{
    a->first = *first;
    *out = (evt_tl_sink){.user = a, .ctx_new = chain_ctx_new, .ctx_name = chain_ctx_name,
                         .obj_new = chain_obj_new, .obj_name = chain_obj_name, .state = chain_state,
                         .sched_switch = chain_sched_switch, .waking = chain_waking,
                         .isr_begin = chain_isr_begin, .isr = chain_isr, .slice_begin = chain_slice_begin,
                         .slice = chain_slice, .counter = chain_counter, .flow = chain_flow,
                         .lost = chain_lost, .prio = chain_prio};
}

static evt_analyses *create(const evt_an_config *cfg)
{
    evt_analyses *a = evt_calloc(1, sizeof *a);
    if (!a) return NULL;
    if (cfg) a->cfg = *cfg;
    a->sink.user = a;
    a->sink.state = on_state;
    a->sink.sched_switch = on_switch;
    a->sink.isr = on_isr;
    a->sink.counter = on_counter;
    a->sink.flow = on_flow;
    evt_an_resp_init(&a->resp);
    evt_an_inv_init(&a->inv, (int)a->cfg.prio_order);
    evt_an_obj_init(&a->obj);
    evt_an_stack_init(&a->stk);
    evt_an_load_init(&a->load, 0); /* resolved at the first event */
    return a;
}

evt_analyses *evt_an_new(uint64_t clock_hz, const evt_an_config *cfg)
{
    evt_analyses *a = create(cfg);
    if (!a) return NULL;
    a->owns = 1;
    a->own_hz = clock_hz;
    a->tl = &a->own;
    return a;
}

void evt_an_set_clock(evt_analyses *a, uint64_t clock_hz)
{
    if (a->owns && !a->own_ready) a->own_hz = clock_hz;
}

void evt_an_set_trace(evt_analyses *a, unsigned caps, int known, int higher_prio_wins)
{
    a->own_caps = caps;
    a->own_caps_known = known;
    a->own_higher = higher_prio_wins;
}

evt_analyses *evt_an_new_shared(evt_tl *tl, const evt_an_config *cfg)
{
    evt_analyses *a = create(cfg);
    if (a) a->tl = tl;
    return a;
}

const evt_tl_sink *evt_an_sink(evt_analyses *a) { return &a->sink; }

/* The time unit is known: resolve the window (nothing is in the load windows yet). */
static void start(evt_analyses *a)
{
    a->started = 1;
    uint64_t w = a->cfg.window;
    if (w && a->cfg.window_is_ns && !a->tl->clock_hz) {
        snprintf(a->err, sizeof a->err,
                 "a window with a time unit needs the trace's clock (unknown here: give --clock-hz, or the window in ticks)");
        w = 0;
    }
    evt_an_load_init(&a->load, w);
}

void evt_an_event(evt_analyses *a, const evt_event *ev, uint32_t ctx)
{
    if (!a->started) start(a);
    evt_an_inv_event(&a->inv, a->tl, ev, ctx);
    evt_an_stack_event(&a->stk, a->tl, ev, ctx);
}

int evt_an_add(evt_analyses *a, const evt_event *ev)
{
    if (!a->owns) return 0;
    if (!a->own_ready) {
        if (!evt_tl_init(&a->own, a->own_hz, &a->sink)) { a->oom = 1; return 0; }
        evt_tl_set_trace(&a->own, a->own_caps, a->own_caps_known, a->own_higher);
        a->own_ready = 1;
    }
    uint32_t ctx = evt_tl_add(&a->own, ev);
    evt_an_event(a, ev, ctx);
    return !a->own.oom;
}

void evt_an_finish(evt_analyses *a)
{
    if (a->finished) return;
    a->finished = 1;
    if (!a->started) start(a);
    if (a->owns && a->own_ready) evt_tl_finish(&a->own);
    evt_an_load_finish(&a->load, a->tl);
}

const char *evt_an_error(const evt_analyses *a) { return a->err[0] ? a->err : NULL; }

void evt_an_json(evt_analyses *a, evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "unit", a->tl->clock_hz ? "ns" : "ticks");
    evt_json_key(j, "load");
    evt_an_load_json(&a->load, a->tl, j);
    evt_json_key(j, "response");
    evt_an_resp_json(&a->resp, a->tl, j);
    evt_json_key(j, "inversions");
    evt_an_inv_json(&a->inv, a->tl, j);
    evt_json_key(j, "objects");
    evt_an_obj_json(&a->obj, a->tl, j);
    evt_json_key(j, "flows");
    evt_an_flow_json(&a->obj, a->tl, j);
    evt_json_key(j, "stacks");
    evt_an_stack_json(&a->stk, a->tl, j);
    int oom = a->oom || a->tl->oom || a->load.oom || a->resp.oom || a->inv.oom || a->obj.oom || a->stk.oom;
    evt_json_kbool(j, "complete", !oom);
    evt_json_key(j, "error");
    evt_json_str(j, evt_an_error(a));
    evt_json_obj_end(j);
}

void evt_an_text(evt_analyses *a, FILE *out)
{
    if (a->err[0]) fprintf(out, "analyses: %s\n", a->err);
    evt_an_load_text(&a->load, a->tl, out);
    evt_an_resp_text(&a->resp, a->tl, out);
    evt_an_inv_text(&a->inv, a->tl, out);
    evt_an_obj_text(&a->obj, a->tl, out);
    evt_an_stack_text(&a->stk, a->tl, out);
}

void evt_an_parts_of(evt_analyses *a, evt_an_parts *out)
{
    out->tl = a->tl;
    out->load = &a->load;
    out->resp = &a->resp;
    out->inv = &a->inv;
    out->obj = &a->obj;
    out->stack = &a->stk;
}

void evt_an_free(evt_analyses *a)
{
    if (!a) return;
    evt_an_load_free(&a->load);
    evt_an_resp_free(&a->resp);
    evt_an_inv_free(&a->inv);
    evt_an_obj_free(&a->obj);
    evt_an_stack_free(&a->stk);
    if (a->own_ready) evt_tl_free(&a->own);
    evt_free(a);
}
