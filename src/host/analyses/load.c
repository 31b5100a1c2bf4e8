/* CPU load per window (load.h). Every per-window array has the same allocated length (wincap);
 * windows [0, nwin) are in use. Sums are modular: an ISR is subtracted from its context's window
 * possibly before the running interval holding it is added, the final values are exact. */
#include "host/analyses/load.h"

#include <inttypes.h>
#include <string.h>
#include "host/analyses/an_util.h"
#include "host/analyses/analyses.h"
#include "evtrace/alloc.h"
#include "evtrace/json.h"

void evt_an_load_init(evt_an_load *l, uint64_t window)
{
    memset(l, 0, sizeof *l);
    l->automatic = window == 0;
    l->requested = window;
    l->window = window ? window : 1;
}

static void merge_arr(uint64_t *a, uint32_t nwin, uint32_t cap)
{
    if (!a) return;
    uint32_t h = (nwin + 1) / 2;
    for (uint32_t i = 0; i < h; i++) a[i] = a[2 * i] + (2 * i + 1 < nwin ? a[2 * i + 1] : 0);
    memset(a + h, 0, (size_t)(cap - h) * sizeof *a);
}

/* Merge every pair of windows: the window doubles. */
static void merge(evt_an_load *l)
{
    merge_arr(l->idle, l->nwin, l->wincap);
    merge_arr(l->isr, l->nwin, l->wincap);
    if (l->mark) { /* the earlier mark of each pair */
        uint32_t h = (l->nwin + 1) / 2;
        for (uint32_t i = 0; i < h; i++) {
            uint64_t a = l->mark[2 * i], b = 2 * i + 1 < l->nwin ? l->mark[2 * i + 1] : 0;
            l->mark[i] = a && (!b || a < b) ? a : b;
        }
        memset(l->mark + h, 0, (size_t)(l->wincap - h) * sizeof *l->mark);
    }
    for (uint32_t c = 0; c < l->nctx; c++) merge_arr(l->ctx[c].busy, l->nwin, l->wincap);
    l->nwin = (l->nwin + 1) / 2;
    l->window *= 2;
    l->wk_ok = 0;
}

static int grow_arr(uint64_t **a, uint32_t old, uint32_t cap)
{
    uint64_t *v = evt_realloc(*a, (size_t)cap * sizeof *v);
    if (!v) return 0;
    memset(v + old, 0, (size_t)(cap - old) * sizeof *v);
    *a = v;
    return 1;
}

/* Window number of offset d (a time less origin): (d / window), from the cache when d is in the
 * window of the look-up before. */
static inline uint64_t win_k_(evt_an_load *l, uint64_t d)
{
    if (l->wk_ok && d - l->wk_lo < l->window) return l->wk; /* d < wk_lo wraps past window */
    uint64_t k = d / l->window;
    l->wk = k;
    l->wk_lo = k * l->window;
    l->wk_ok = 1;
    return k;
}

/* Make window k usable (merging while k would pass the limit); returns its index, or UINT32_MAX
 * when out of memory. */
static uint32_t window_of(evt_an_load *l, uint64_t t)
{
    uint64_t k = win_k_(l, t - l->origin);
    while (k >= EVT_AN_MAX_WINDOWS) {
        merge(l);
        k = win_k_(l, t - l->origin);
    }
    if (k >= l->wincap) {
        uint32_t nc = l->wincap ? l->wincap : 64;
        while (nc <= k) nc *= 2;
        if (!grow_arr(&l->idle, l->wincap, nc) || !grow_arr(&l->isr, l->wincap, nc) || !grow_arr(&l->mark, l->wincap, nc)) {
            l->oom = 1;
            return UINT32_MAX;
        }
        for (uint32_t c = 0; c < l->nctx; c++)
            if (l->ctx[c].busy && !grow_arr(&l->ctx[c].busy, l->wincap, nc)) { l->oom = 1; return UINT32_MAX; }
        l->wincap = nc;
    }
    if (k >= l->nwin) l->nwin = (uint32_t)k + 1;
    return (uint32_t)k;
}

/* Note event time t in its window (the samples' times), when that window exists (marking creates
 * no window: the windows stay the ones the charges make). */
static void mark_(evt_an_load *l, uint64_t t)
{
    if (!l->started || t < l->origin || !l->mark) return;
    uint64_t k = win_k_(l, t - l->origin);
    if (k < l->nwin && (!l->mark[k] || t + 1 < l->mark[k])) l->mark[k] = t + 1;
}

/* Add (sign > 0) or subtract the part of [t0, t1) in each window to the array picked by which:
 * 0 idle, 1 isr, 2 + c context c's busy time. */
static void charge(evt_an_load *l, const evt_tl *tl, int which, uint64_t t0, uint64_t t1, int sign)
{
    if (!l->started) {
        l->started = 1;
        l->origin = tl->have_t && tl->first < t0 ? tl->first : t0;
        l->wk_ok = 0;
    }
    if (t0 < l->origin) t0 = l->origin;
    if (t1 <= t0) return;
    uint64_t *a = which == 0 ? l->idle : which == 1 ? l->isr : l->ctx[which - 2].busy;
    if (l->wk_ok && a && l->wk < l->nwin && t0 - l->origin - l->wk_lo < l->window &&
        t1 - l->origin - l->wk_lo < l->window) {
        /* the usual interval: inside the window of the look-up before, which exists: what the
         * general path below does (no merge, one window, t0 its earlier mark), without its
         * look-ups */
        uint64_t *m = &l->mark[l->wk];
        if (!*m || t0 + 1 < *m) *m = t0 + 1;
        if (which >= 2) l->ctx[which - 2].seen = 1;
        a[l->wk] += sign > 0 ? t1 - t0 : (uint64_t)0 - (t1 - t0);
        return;
    }
    if (window_of(l, t1 - 1) == UINT32_MAX) return; /* the last window first: merges happen now */
    mark_(l, t0); /* both ends are event times */
    mark_(l, t1);
    uint32_t k0 = (uint32_t)win_k_(l, t0 - l->origin), k1 = (uint32_t)win_k_(l, t1 - 1 - l->origin);
    if (which == 0) a = l->idle;
    else if (which == 1) a = l->isr;
    else {
        evt_an_load_ctx *c = &l->ctx[which - 2];
        if (!c->busy && !grow_arr(&c->busy, 0, l->wincap)) { l->oom = 1; return; }
        c->seen = 1;
        a = c->busy;
    }
    for (uint32_t k = k0; k <= k1; k++) {
        uint64_t w0 = l->origin + (uint64_t)k * l->window;
        uint64_t d = evt_an_overlap(t0, t1, w0, w0 + l->window);
        a[k] += sign > 0 ? d : (uint64_t)0 - d;
    }
}

static int ctx_slot(evt_an_load *l, uint32_t c)
{
    /* the usual: room already (evt_an_reserve's own first test, without the call) */
    if (c >= l->ctxcap && !evt_an_reserve((void **)&l->ctx, &l->ctxcap, c, sizeof *l->ctx)) { l->oom = 1; return 0; }
    if (c >= l->nctx) l->nctx = c + 1;
    return 1;
}

/* Context index c is the kernel's idle task (timeline.h): its running is idle time. */
static int idle_task_(const evt_tl *tl, uint32_t c)
{
    const evt_tl_ctx *x = evt_tl_ctx_at(tl, c);
    return x && x->idle_task;
}

void evt_an_load_state(evt_an_load *l, const evt_tl *tl, const evt_tl_state_iv *iv)
{
    if (iv->state != EVT_TL_RUNNING) return;
    if (idle_task_(tl, iv->ctx)) { /* the kernel's idle task running: idle, not busy (timeline.h) */
        charge(l, tl, 0, iv->t0, iv->t1, 1);
        return;
    }
    if (!ctx_slot(l, iv->ctx)) return;
    charge(l, tl, 2 + (int)iv->ctx, iv->t0, iv->t1, 1);
}

void evt_an_load_isr(evt_an_load *l, const evt_tl *tl, const evt_tl_isr *iv)
{
    if (iv->depth != 0) return; /* outermost ISRs hold the nested ones */
    charge(l, tl, 1, iv->t0, iv->t1, 1);
    if (iv->interrupted == EVT_TL_NONE || idle_task_(tl, iv->interrupted)) charge(l, tl, 0, iv->t0, iv->t1, -1);
    else if (ctx_slot(l, iv->interrupted)) charge(l, tl, 2 + (int)iv->interrupted, iv->t0, iv->t1, -1);
}

void evt_an_load_switch(evt_an_load *l, const evt_tl *tl, const evt_tl_switch *sw)
{
    uint32_t cpu = sw->cpu < EVT_TL_MAX_CPUS ? sw->cpu : EVT_TL_MAX_CPUS - 1;
    mark_(l, sw->t);
    if (l->cpu_idle[cpu] && sw->next != EVT_TL_NONE) {
        charge(l, tl, 0, l->idle_t[cpu], sw->t, 1);
        l->cpu_idle[cpu] = 0;
    } else if (!l->cpu_idle[cpu] && sw->next == EVT_TL_NONE) {
        l->cpu_idle[cpu] = 1;
        l->idle_t[cpu] = sw->t;
    }
}

void evt_an_load_finish(evt_an_load *l, const evt_tl *tl)
{
    for (uint32_t c = 0; c < EVT_TL_MAX_CPUS; c++)
        if (l->cpu_idle[c]) {
            charge(l, tl, 0, l->idle_t[c], tl->last, 1);
            l->cpu_idle[c] = 0;
        }
    if (!l->started && tl->have_t) { l->started = 1; l->origin = tl->first; l->wk_ok = 0; }
    /* every window up to the last time exists, even when nothing ran in the last ones */
    if (l->started && tl->have_t && tl->last > l->origin) window_of(l, tl->last - 1);
    while (l->automatic && l->nwin > EVT_AN_AUTO_WINDOWS) merge(l);
}

/* Length of window k (the last one ends at the last time). */
static uint64_t win_len(const evt_an_load *l, const evt_tl *tl, uint32_t k)
{
    uint64_t w0 = l->origin + (uint64_t)k * l->window;
    uint64_t end = w0 + l->window;
    if (k + 1 == l->nwin && tl->last < end && tl->last > w0) end = tl->last;
    return end - w0;
}

static void arr_json(evt_json *j, const char *key, const uint64_t *a, uint32_t n)
{
    evt_json_key(j, key);
    evt_json_arr_begin(j);
    for (uint32_t k = 0; k < n; k++) evt_json_u64(j, a ? a[k] : 0);
    evt_json_arr_end(j);
}

static uint64_t cpus_of(const evt_tl *tl) { return tl->ncpus ? tl->ncpus : 1; }

void evt_an_load_json(const evt_an_load *l, const evt_tl *tl, evt_json *j)
{
    evt_json_obj_begin(j);
    evt_json_kstr(j, "unit", evt_an_unit(tl));
    evt_json_ku64(j, "window", l->window);
    evt_json_key(j, "window_requested");
    if (l->automatic) evt_json_str(j, "auto"); else evt_json_u64(j, l->requested);
    evt_json_ku64(j, "origin", l->origin);
    evt_json_ku64(j, "windows", l->nwin);
    evt_json_ku64(j, "cpus", cpus_of(tl));
    evt_json_kbool(j, "scheduling", tl->sched); /* 0: nothing ran that the trace recorded: no load */
    evt_json_ku64(j, "last_window", l->nwin ? win_len(l, tl, l->nwin - 1) : 0);
    arr_json(j, "idle", l->idle, l->nwin);
    arr_json(j, "isr", l->isr, l->nwin);
    evt_json_key(j, "contexts");
    evt_json_arr_begin(j);
    for (uint32_t c = 0; c < l->nctx; c++) {
        if (!l->ctx[c].seen) continue;
        evt_json_obj_begin(j);
        evt_an_ctx_keys(tl, c, j);
        arr_json(j, "busy", l->ctx[c].busy, l->nwin);
        double peak = 0;
        for (uint32_t k = 0; k < l->nwin; k++) {
            double p = evt_an_pct(l->ctx[c].busy[k], win_len(l, tl, k) * cpus_of(tl));
            if (p > peak) peak = p;
        }
        evt_json_key(j, "peak_pct");
        evt_json_f64(j, peak);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    /* totals straight from the timeline */
    uint64_t dur = tl->have_t ? tl->last - tl->first : 0;
    evt_json_key(j, "totals");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "duration", dur);
    evt_json_ku64(j, "idle_time", tl->idle_time);
    evt_json_ku64(j, "isr_time", tl->isr_time);
    evt_json_key(j, "contexts");
    evt_json_arr_begin(j);
    for (uint32_t c = 0; c < tl->nctx; c++) {
        const evt_tl_ctx *x = evt_tl_ctx_at(tl, c);
        if (!x->run_time) continue;
        evt_json_obj_begin(j);
        evt_an_ctx_keys(tl, c, j);
        uint64_t cpu = x->run_time >= x->isr_time ? x->run_time - x->isr_time : 0; /* as stats.c */
        evt_json_ku64(j, "cpu_time", cpu);
        evt_json_key(j, "pct");
        evt_json_f64(j, evt_an_pct(cpu, dur * cpus_of(tl)));
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_obj_end(j);
    evt_json_obj_end(j);
}

void evt_an_load_samples(const evt_an_load *l, const evt_tl *tl, evt_an_load_sample_fn fn, void *user)
{
    for (uint32_t c = 0; c < l->nctx; c++) {
        if (!l->ctx[c].seen) continue;
        int prev = 0, first = 1;
        uint64_t last_t = 0;
        for (uint32_t k = 0; k < l->nwin; k++) {
            uint64_t cap = win_len(l, tl, k) * cpus_of(tl), b = l->ctx[c].busy[k];
            if ((int64_t)b < 0) b = 0; /* modular sums are exact at the end; never below 0 */
            if (b > cap) b = cap;
            if (!b && !prev) continue;
            if (!l->mark[k]) continue; /* no event time in it: nothing changed, the value holds */
            last_t = l->mark[k] - 1;
            fn(user, c, last_t, evt_an_pct(b, cap), first);
            first = 0;
            prev = b != 0;
        }
        if (prev && tl->have_t && tl->last > last_t) fn(user, c, tl->last, 0.0, 0);
    }
}

void evt_an_load_text(const evt_an_load *l, const evt_tl *tl, FILE *out)
{
    const char *u = evt_an_unit(tl);
    fprintf(out, "CPU load: %" PRIu32 " windows of %" PRIu64 " %s%s\n", l->nwin, l->window, u,
            !l->automatic && l->window != l->requested ? " (widened: window limit)" : "");
    uint32_t kbusy = 0;
    double pbusy = -1;
    for (uint32_t k = 0; k < l->nwin; k++) {
        uint64_t cap = win_len(l, tl, k) * cpus_of(tl);
        double p = 100.0 - evt_an_pct(l->idle[k], cap);
        if (p > pbusy) { pbusy = p; kbusy = k; }
    }
    if (l->nwin)
        fprintf(out, "  busiest window: %.2f%% busy at %" PRIu64 " %s (ISR %.2f%%)\n", pbusy,
                l->origin + (uint64_t)kbusy * l->window, u,
                evt_an_pct(l->isr[kbusy], win_len(l, tl, kbusy) * cpus_of(tl)));
    char b[96];
    uint64_t rows = 0;
    for (uint32_t c = 0; c < l->nctx; c++) {
        if (!l->ctx[c].seen || rows++ >= EVT_AN_TEXT_ROWS) continue;
        uint32_t kp = 0;
        double peak = 0;
        for (uint32_t k = 0; k < l->nwin; k++) {
            double p = evt_an_pct(l->ctx[c].busy[k], win_len(l, tl, k) * cpus_of(tl));
            if (p > peak) { peak = p; kp = k; }
        }
        fprintf(out, "  %-32s peak %6.2f%% at %" PRIu64 " %s\n", evt_an_ctx_label(tl, c, b, sizeof b), peak,
                l->origin + (uint64_t)kp * l->window, u);
    }
    evt_an_text_more(out, rows > EVT_AN_TEXT_ROWS ? rows - EVT_AN_TEXT_ROWS : 0);
}

void evt_an_load_free(evt_an_load *l)
{
    evt_free(l->idle);
    evt_free(l->isr);
    evt_free(l->mark);
    for (uint32_t c = 0; c < l->nctx; c++) evt_free(l->ctx[c].busy);
    evt_free(l->ctx);
    memset(l, 0, sizeof *l);
}
