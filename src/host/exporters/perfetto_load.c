/* CPU load windows per context (see perfetto_load.h). */
#include "perfetto_load.h"

#include <string.h>
#include "evtrace/alloc.h"

#define NOT_RUNNING UINT64_MAX
#define DOUBLE_EVERY 512

void pf_load_init(pf_load *l, int ns_unit, pf_load_fn fn, void *user)
{
    memset(l, 0, sizeof *l);
    l->fn = fn;
    l->user = user;
    l->width = ns_unit ? 1000000u : 1000u;
}

void pf_load_free(pf_load *l)
{
    evt_free(l->ctxs);
    l->ctxs = NULL;
    l->nctx = 0;
}

static pf_load_ctx *ctx_(pf_load *l, uint32_t idx)
{
    if (idx >= l->nctx) {
        uint32_t n = l->nctx ? l->nctx : 16;
        while (n <= idx) n *= 2;
        pf_load_ctx *v = evt_realloc(l->ctxs, (size_t)n * sizeof *v);
        if (!v) { l->oom = 1; return NULL; }
        for (uint32_t i = l->nctx; i < n; i++) v[i] = (pf_load_ctx){NOT_RUNNING, 0, 0, 0};
        l->ctxs = v;
        l->nctx = n;
    }
    return &l->ctxs[idx];
}

/* Credit a running context up to t (t >= the window start, so the part before it was credited
 * when that window closed). */
static void credit_(pf_load *l, pf_load_ctx *c, uint64_t t)
{
    uint64_t from = c->since > l->wstart ? c->since : l->wstart;
    if (t > from) c->busy += t - from;
}

/* Close the current window at t: a sample per context that ran in it or whose latest sample was
 * not 0. Invariant after: wstart == t, every busy == 0. */
static void close_window_(pf_load *l, uint64_t t)
{
    uint64_t len = t - l->wstart;
    for (uint32_t i = 0; i < l->nctx; i++) {
        pf_load_ctx *c = &l->ctxs[i];
        if (c->since != NOT_RUNNING) credit_(l, c, t);
        if (c->busy || c->nonzero) {
            double pct = len ? 100.0 * (double)c->busy / (double)len : 0.0;
            l->fn(l->user, i, l->wstart, pct, !c->sampled);
            c->sampled = 1;
            c->nonzero = c->busy != 0;
        }
        c->busy = 0;
    }
    l->wstart = t;
    if (++l->windows % DOUBLE_EVERY == 0) l->width *= 2;
}

static void at_(pf_load *l, uint64_t t)
{
    if (!l->started) { l->started = 1; l->wstart = t; return; }
    if (t >= l->wstart && t - l->wstart >= l->width) close_window_(l, t);
}

static void stop_(pf_load *l, uint32_t idx, uint64_t t)
{
    pf_load_ctx *c = ctx_(l, idx);
    if (!c || c->since == NOT_RUNNING) return;
    credit_(l, c, t);
    c->since = NOT_RUNNING;
}

void pf_load_switch(pf_load *l, const evt_tl_switch *sw)
{
    at_(l, sw->t);
    if (sw->prev != EVT_TL_NONE) stop_(l, sw->prev, sw->t);
    if (sw->next != EVT_TL_NONE) {
        pf_load_ctx *c = ctx_(l, sw->next);
        if (c && c->since == NOT_RUNNING) c->since = sw->t;
    }
}

void pf_load_running(pf_load *l, const evt_tl_state_iv *iv)
{
    if (!l->started) return;
    at_(l, iv->t1);
    stop_(l, iv->ctx, iv->t1);
}

void pf_load_finish(pf_load *l, uint64_t t_end)
{
    if (!l->started) return;
    if (t_end > l->wstart) close_window_(l, t_end);
    for (uint32_t i = 0; i < l->nctx; i++) /* what still showed load drops to 0 at the end */
        if (l->ctxs[i].nonzero) {
            l->fn(l->user, i, l->wstart, 0.0, 0);
            l->ctxs[i].nonzero = 0;
        }
}
