/* Streaming trace statistics on the one timeline: CPU time per context, ISR time, latency
 * histograms per service, function and ISR from the timeline's intervals, event counts and lost
 * data from the events (model in stats.h). */
#include "host/analyses/stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "host/analyses/analyses.h"
#include "host/ro_image.h"
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"

int evt_stats_init(evt_stats *s, uint64_t clock_hz)
{
    memset(s, 0, sizeof *s);
    s->clock_hz = clock_hz;
    for (int i = 0; i < 4; i++) s->noctx[i] = -1;
    s->tl_width = 1;
    return 1;
}

void evt_stats_enable_timeline(evt_stats *s) { s->timeline = 1; }

int evt_stats_enable_analyses(evt_stats *s, const evt_an_config *cfg)
{
    if (!s->an) s->an = evt_an_new_shared(&s->tl, cfg);
    if (!s->an) s->oom = 1;
    return s->an != NULL;
}

void evt_stats_free(evt_stats *s)
{
    for (uint32_t i = 0; i < s->nctx; i++) evt_free(s->ctxs[i].bins);
    for (uint32_t i = 0; i < s->nlat; i++) evt_hist_free(&s->lats[i].h);
    evt_free(s->ctxs);
    evt_free(s->lats);
    evt_free(s->names);
    evt_free(s->objs);
    evt_u64map_free(&s->objmap);
    evt_u64map_free(&s->ctxmap);
    evt_free(s->tlctx);
    evt_u64map_free(&s->latmap);
    evt_u64map_free(&s->namemap);
    evt_u64map_free(&s->labelmap);
    evt_strtab_free(&s->strs);
    evt_an_free(s->an);
    if (s->tl_ready) evt_tl_free(&s->tl);
    memset(s, 0, sizeof *s);
}

static int grow_(void **p, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap) return 1;
    uint32_t nc = *cap ? *cap * 2 : 32;
    void *np = evt_realloc(*p, (size_t)nc * elem);
    if (!np) return 0;
    *p = np;
    *cap = nc;
    return 1;
}

static uint32_t intern_(evt_stats *s, const char *str)
{
    uint32_t id = evt_strtab_intern(&s->strs, str, strlen(str), NULL);
    if (!id) s->oom = 1;
    return id;
}

/* Index of a context (created on first sight); -1 when out of memory. has: the id is valid. */
static int64_t ctx_find_(evt_stats *s, int has, uint64_t id, evt_ctx_class cls, const char *name, uint64_t ts)
{
    if ((unsigned)cls > 3) cls = EVT_CTX_NONE;
    uint32_t idx;
    if (has) {
        if (evt_u64map_get(&s->ctxmap, id, &idx)) {
            evt_stats_ctx *c = &s->ctxs[idx];
            if (!c->name && name) c->name = intern_(s, name);
            return idx;
        }
    } else if (s->noctx[cls] >= 0) {
        return s->noctx[cls];
    }
    if (!grow_((void **)&s->ctxs, &s->ctxcap, s->nctx, sizeof *s->ctxs)) { s->oom = 1; return -1; }
    idx = s->nctx;
    evt_stats_ctx *c = &s->ctxs[idx];
    memset(c, 0, sizeof *c);
    c->has_ctx = has;
    c->ctx = has ? id : 0;
    c->cls = cls;
    c->first_ts = c->last_ts = ts;
    if (has && name) c->name = intern_(s, name);
    if (has) {
        if (!evt_u64map_put(&s->ctxmap, id, idx)) { s->oom = 1; return -1; }
    } else {
        s->noctx[cls] = idx;
    }
    s->nctx++;
    return idx;
}

/* The stats context of timeline context ti (whose id, when it has one, is `id`) from the cache of
 * earlier look-ups (a timeline context keeps its id or its class), else ctx_find_ with the other
 * arguments. */
static int64_t ctx_cached_(evt_stats *s, uint32_t ti, int has, uint64_t id, evt_ctx_class cls, const char *name,
                           uint64_t ts)
{
    if (ti < s->tlctxcap && s->tlctx[ti]) {
        evt_stats_ctx *c = &s->ctxs[s->tlctx[ti] - 1];
        if (!c->name && has && name) c->name = intern_(s, name); /* as ctx_find_ does */
        return s->tlctx[ti] - 1;
    }
    int64_t idx = ctx_find_(s, has, id, cls, name, ts);
    if (idx < 0) return idx;
    if (ti >= s->tlctxcap) {
        uint32_t nc = s->tlctxcap ? s->tlctxcap : 64;
        while (nc <= ti) nc *= 2;
        uint32_t *v = evt_realloc(s->tlctx, (size_t)nc * sizeof *v);
        if (!v) return idx; /* only the cache is lost */
        memset(v + s->tlctxcap, 0, (size_t)(nc - s->tlctxcap) * sizeof *v);
        s->tlctx = v;
        s->tlctxcap = nc;
    }
    s->tlctx[ti] = (uint32_t)idx + 1;
    return idx;
}

/* The stats context of a timeline context. */
static int64_t ctx_of_tl_(evt_stats *s, uint32_t ti)
{
    const evt_tl_ctx *c = evt_tl_ctx_at(&s->tl, ti);
    if (!c) return -1;
    if (!c->has_id && (unsigned)c->cls > 3) return ctx_find_(s, 0, 0, c->cls, c->name, 0);
    return ctx_cached_(s, ti, c->has_id, c->id, c->cls, c->name, 0);
}

static evt_stats_lat *lat_(evt_stats *s, uint8_t cat, uint32_t label)
{
    uint64_t key = ((uint64_t)cat << 32) | label;
    uint32_t idx;
    if (evt_u64map_get(&s->latmap, key, &idx)) return &s->lats[idx];
    if (!grow_((void **)&s->lats, &s->latcap, s->nlat, sizeof *s->lats)) { s->oom = 1; return NULL; }
    idx = s->nlat;
    if (!evt_u64map_put(&s->latmap, key, idx)) { s->oom = 1; return NULL; }
    s->lats[idx].cat = cat;
    s->lats[idx].label = label;
    evt_hist_init(&s->lats[idx].h);
    s->nlat++;
    return &s->lats[idx];
}

/* Latency of a timeline interval. Its label is the timeline's interned string (a stable pointer),
 * so its strtab id is looked up by address once. */
static void latency_(evt_stats *s, uint8_t cat, const char *name, uint64_t begin, uint64_t end)
{
    uint32_t label;
    if (!evt_u64map_get(&s->labelmap, (uint64_t)(uintptr_t)name, &label)) {
        label = intern_(s, name ? name : "");
        if (label && !evt_u64map_put(&s->labelmap, (uint64_t)(uintptr_t)name, label)) s->oom = 1;
    }
    evt_stats_lat *l = label ? lat_(s, cat, label) : NULL;
    if (l && !evt_hist_add(&l->h, end >= begin ? end - begin : 0)) s->oom = 1;
}

static void count_name_(evt_stats *s, const evt_event *ev)
{
    /* the same few names recur, mostly at the same addresses: compared, not hashed. 16 sets of
     * four ways (slots r, r | 16, r | 32, r | 48, the latest first): up to four names whose
     * addresses share a set all stay cached, whatever the linker's layout */
    const char *nm = ev->name ? ev->name : "";
    uint32_t r = (uint32_t)(((uintptr_t)nm >> 3) ^ ((uintptr_t)nm >> 11) ^ (uint32_t)ev->kind) & 15u;
    for (uint32_t w = 0; w < 4; w++) {
        uint32_t k = r | (w << 4);
        uint32_t c1 = s->name_cache[k].idx1;
        if (c1 && s->name_cache[k].p == nm && s->name_cache[k].kind == (uint32_t)ev->kind &&
            (s->name_cache[k].ro || strcmp(evt_strtab_str(&s->strs, s->names[c1 - 1].name), nm) == 0)) {
            s->names[c1 - 1].count++;
            return;
        }
    }
    uint32_t id = intern_(s, nm);
    if (!id) return;
    uint64_t key = ((uint64_t)ev->kind << 32) | id;
    uint32_t idx;
    if (!evt_u64map_get(&s->namemap, key, &idx)) {
        if (!grow_((void **)&s->names, &s->namecap, s->nnames, sizeof *s->names)) { s->oom = 1; return; }
        idx = s->nnames;
        if (!evt_u64map_put(&s->namemap, key, idx)) { s->oom = 1; return; }
        s->names[idx].name = id;
        s->names[idx].kind = ev->kind;
        s->names[idx].count = 0;
        s->nnames++;
    }
    s->names[idx].count++;
    for (uint32_t w = 3; w > 0; w--) s->name_cache[r | (w << 4)] = s->name_cache[r | ((w - 1) << 4)]; /* older ones move down */
    s->name_cache[r].p = nm;
    s->name_cache[r].kind = (uint32_t)ev->kind;
    s->name_cache[r].idx1 = idx + 1;
    s->name_cache[r].ro = (uint32_t)evt_ro_image_has_cstr(evt_ro_image_self(), nm, evt_strtab_len(&s->strs, id));
}

/* One object operation (EVT_M_OP): counted under its object, operation and result. */
static void count_op_(evt_stats *s, const evt_event *ev)
{
    const evt_meaning *m = &ev->m;
    if (!(m->has & EVT_M_OP) || m->op >= EVT_OP_COUNT_ || m->op_result >= EVT_RES_COUNT_) return;
    uint32_t idx;
    if (!evt_u64map_get(&s->objmap, m->obj, &idx)) {
        if (!grow_((void **)&s->objs, &s->objcap, s->nobjs, sizeof *s->objs)) { s->oom = 1; return; }
        idx = s->nobjs;
        if (!evt_u64map_put(&s->objmap, m->obj, idx)) { s->oom = 1; return; }
        memset(&s->objs[idx], 0, sizeof s->objs[idx]);
        s->objs[idx].obj = m->obj;
        s->nobjs++;
    }
    evt_stats_obj *o = &s->objs[idx];
    /* the latest name wins (an object renamed); the same text as the last time is not looked up
     * again (a compare, where interning hashed it: 45 instructions per event of a TXTB trace) */
    if (m->obj_name && (!o->name || strcmp(evt_strtab_str(&s->strs, o->name), m->obj_name) != 0))
        o->name = intern_(s, m->obj_name);
    if ((m->has & EVT_M_OBJ_TYPE) && m->obj_type) o->type = m->obj_type;
    o->n[m->op][m->op_result]++;
}

/* Bins: double the bin width (merging bin pairs) until `end` fits. */
static void tl_fit_(evt_stats *s, uint64_t end)
{
    while (end - s->tl_origin > s->tl_width * EVT_STATS_BINS && s->tl_width < (UINT64_MAX >> 10)) {
        for (uint32_t c = 0; c < s->nctx; c++) {
            uint64_t *b = s->ctxs[c].bins;
            if (!b) continue;
            for (uint32_t i = 0; i < EVT_STATS_BINS / 2; i++) b[i] = b[2 * i] + b[2 * i + 1];
            memset(b + EVT_STATS_BINS / 2, 0, EVT_STATS_BINS / 2 * sizeof *b);
        }
        s->tl_width *= 2;
    }
}

/* Add (sign > 0) or take away [a, b) in context ci's bins (modular sums: an ISR may be taken from
 * its interrupted context before the running interval that holds it is added). */
static void bins_add_(evt_stats *s, int64_t ci, uint64_t a, uint64_t b, int sign)
{
    if (!s->timeline || ci < 0) return;
    if (a < s->tl_origin) a = s->tl_origin;
    if (b <= a) return;
    tl_fit_(s, b);
    evt_stats_ctx *c = &s->ctxs[ci];
    if (!c->bins && !(c->bins = evt_calloc(EVT_STATS_BINS, sizeof *c->bins))) { s->oom = 1; return; }
    while (a < b) {
        uint64_t bin = (a - s->tl_origin) / s->tl_width;
        if (bin >= EVT_STATS_BINS) break;
        uint64_t bend = s->tl_origin + (bin + 1) * s->tl_width;
        uint64_t e = b < bend ? b : bend;
        c->bins[bin] += sign > 0 ? e - a : (uint64_t)0 - (e - a);
        a = e;
    }
}

/* ---- the timeline's records --------------------------------------------------------------------- */

/* An interval closed by lost data, or still open at the end: unfinished, not measured. */
static int unfinished_(const evt_stats *s, int truncated, int open_end)
{
    return open_end || (truncated && s->tl.cur && s->tl.cur->kind == EVT_KIND_LOST);
}

static void on_state_(void *u, const evt_tl_state_iv *iv)
{
    evt_stats *s = u;
    if (iv->state == EVT_TL_RUNNING) bins_add_(s, ctx_of_tl_(s, iv->ctx), iv->t0, iv->t1, 1);
}

static void on_isr_begin_(void *u, const evt_tl_isr *iv)
{
    evt_stats *s = u;
    int64_t ci = ctx_of_tl_(s, iv->ctx);
    if (ci >= 0) s->ctxs[ci].isr_count++;
}

static void on_isr_(void *u, const evt_tl_isr *iv)
{
    evt_stats *s = u;
    int64_t ci = ctx_of_tl_(s, iv->ctx);
    if (ci >= 0 && iv->depth == 0) bins_add_(s, ci, iv->t0, iv->t1, 1);
    if (iv->depth == 0 && iv->interrupted != EVT_TL_NONE) bins_add_(s, ctx_of_tl_(s, iv->interrupted), iv->t0, iv->t1, -1);
    if (unfinished_(s, iv->truncated, iv->open_end)) s->dropped[EVT_SPAN_ISR]++;
    else latency_(s, EVT_SPAN_ISR, iv->name, iv->t0, iv->t1);
}

static void on_slice_(void *u, const evt_tl_slice *sl)
{
    evt_stats *s = u;
    int instant = sl->t0 == sl->t1 && !sl->open_end && !sl->truncated && s->tl.cur && s->tl.cur->kind == EVT_KIND_SVC;
    if (instant) {
        /* a service recorded as one instant has no duration */
    } else if (unfinished_(s, sl->truncated, sl->open_end)) {
        s->dropped[sl->cat]++;
    } else {
        latency_(s, (uint8_t)sl->cat, sl->name, sl->t0, sl->t1);
    }
}

/* The timeline, at the first event (the time unit is fixed by then); its records go to stats, then
 * to the analyses when they are on. */
static int tl_start_(evt_stats *s)
{
    evt_tl_sink k = {.user = s, .state = on_state_, .isr_begin = on_isr_begin_, .isr = on_isr_, .slice = on_slice_};
    if (s->an) evt_an_chain(s->an, &k, &k);
    if (!evt_tl_init(&s->tl, s->clock_hz, &k)) { s->oom = 1; return 0; }
    if (s->reader) evt_tl_set_reader(&s->tl, s->reader);
    s->tl_ready = 1;
    return 1;
}

int evt_stats_add(evt_stats *s, const evt_event *ev)
{
    if (!s->tl_ready && !tl_start_(s)) return 0;
    s->events++;
    uint64_t t = evt_stats_event_time(s, ev);
    if (s->have_ts || !(ev->m.has & EVT_M_UNTIMED)) { /* an untimed first record opens no range (timeline.h) */
        if (!s->have_ts || t < s->first_ts) s->first_ts = t;
        if (!s->have_ts || t > s->last_ts) s->last_ts = t;
        if (!s->have_ts || ev->ts < s->first_raw) s->first_raw = ev->ts;
        if (!s->have_ts || ev->ts > s->last_raw) s->last_raw = ev->ts;
        if (!s->have_ts) { s->have_ts = 1; s->tl_origin = t; }
    }
    uint32_t cn = (ev->flags & EVT_HAS_CPU) ? ev->cpu : 0;
    if (cn >= EVT_TL_MAX_CPUS) cn = EVT_TL_MAX_CPUS - 1;
    if (cn + 1 > s->ncpus) s->ncpus = cn + 1;

    s->prev_unmatched = s->tl.unmatched_exits;
    uint32_t ti = evt_tl_add(&s->tl, ev);
    if (s->tl.unmatched_exits != s->prev_unmatched) {
        int begin;
        evt_span_cat cat = evt_span_cat_of(ev->kind, &begin);
        s->unmatched[cat] += s->tl.unmatched_exits - s->prev_unmatched;
    }
    if (s->an) evt_an_event(s->an, ev, ti);

    /* an event with a context id is in the timeline context of that id (ti) */
    int64_t ci = (ev->flags & EVT_HAS_CTX) && ti != EVT_TL_NONE
                     ? ctx_cached_(s, ti, 1, ev->ctx, ev->ctx_class, ev->ctx_name, ev->ts)
                     : ctx_find_(s, (ev->flags & EVT_HAS_CTX) != 0, ev->ctx, ev->ctx_class, ev->ctx_name, ev->ts);
    if (ci < 0) return 0;
    evt_stats_ctx *c = &s->ctxs[ci];
    if (c->events++ == 0) c->first_ts = c->last_ts = ev->ts; /* may exist already: made by the timeline */
    if (ev->ts < c->first_ts) c->first_ts = ev->ts;
    if (ev->ts > c->last_ts) c->last_ts = ev->ts;
    count_name_(s, ev);
    count_op_(s, ev);
    if (ev->kind == EVT_KIND_LOST) {
        s->lost_events++;
        if (ev->flags & EVT_HAS_COUNT) s->lost_count += ev->count;
    }
    return !s->oom && !s->tl.oom;
}

/* Raw ticks of a time in the unit (the unit is ns when the clock is known). */
static uint64_t to_raw_(const evt_stats *s, uint64_t t)
{
    if (!s->clock_hz) return t;
    unsigned __int128 r = (unsigned __int128)t * s->clock_hz / 1000000000u;
    return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

/* After the timeline is finished: the contexts become the timeline's, in its order, with its
 * event counts, cpu time (run_time - isr_time) and switches; first/last raw timestamps, ISR entry
 * counts and bins come from the entries kept while streaming. */
static void contexts_from_tl_(evt_stats *s)
{
    uint32_t n = s->tl.nctx;
    evt_stats_ctx *v = evt_calloc(n ? n : 1, sizeof *v);
    evt_u64map map = {0};
    int64_t noctx[4] = {-1, -1, -1, -1};
    if (!v) { s->oom = 1; return; }
    for (uint32_t i = 0; i < n; i++) {
        const evt_tl_ctx *x = evt_tl_ctx_at(&s->tl, i);
        int64_t old = ctx_of_tl_(s, i);
        evt_stats_ctx *c = &v[i];
        if (old >= 0) {
            *c = s->ctxs[old];
            s->ctxs[old].bins = NULL; /* moved */
        }
        c->has_ctx = x->has_id;
        c->ctx = x->has_id ? x->id : 0;
        c->cls = x->cls;
        if (!c->name && x->name) c->name = intern_(s, x->name);
        c->events = x->events;
        /* as contexts.cpu_time (tl_rows.c): an ISR's time goes to the context it interrupted and
         * lies within its running (timeline.h); clamped at 0 all the same, never a wrapped uint64 */
        c->cpu_ticks = x->run_time >= x->isr_time ? x->run_time - x->isr_time : 0;
        c->cpu_raw = to_raw_(s, c->cpu_ticks);
        c->switches = x->switches_in;
        c->timeouts = x->timeouts;
        c->wait_aborts = x->wait_aborts;
        c->preemptions = x->preemptions;
        c->isr_preemptions = x->isr_preemptions;
        c->yields = x->yields;
        c->time_slices = x->time_slices;
        c->time_slices_unknown = x->time_slices_unknown;
        c->idle_task = x->idle_task;
        if (x->has_id ? !evt_u64map_put(&map, x->id, i) : (noctx[(unsigned)x->cls & 3] = i, 0)) s->oom = 1;
    }
    for (uint32_t i = 0; i < s->nctx; i++) evt_free(s->ctxs[i].bins);
    evt_free(s->ctxs);
    evt_u64map_free(&s->ctxmap);
    s->ctxs = v;
    s->nctx = s->ctxcap = n;
    s->ctxmap = map;
    memcpy(s->noctx, noctx, sizeof noctx);
    /* the contexts are the timeline's now, in its order: the cache of look-ups is void */
    if (s->tlctx) memset(s->tlctx, 0, (size_t)s->tlctxcap * sizeof *s->tlctx);
}

void evt_stats_finish(evt_stats *s)
{
    if (!s->tl_ready) {
        if (s->an) evt_an_finish(s->an);
        return;
    }
    evt_tl_finish(&s->tl);
    if (s->an) evt_an_finish(s->an);
    s->idle_ticks = s->tl.idle_time;
    s->isr_ticks = s->tl.isr_time;
    s->overflow = s->tl.span_overflow + s->tl.isr_overflow;
    if (s->tl.oom) s->oom = 1;
    contexts_from_tl_(s);
}

uint64_t evt_stats_time(const evt_stats *s, uint64_t t)
{
    (void)s;
    return t;
}

uint64_t evt_stats_event_time(const evt_stats *s, const evt_event *ev)
{
    if (!s->clock_hz) return ev->ts;
    if (ev->flags & EVT_HAS_TNS) return ev->t_ns;
    unsigned __int128 ns = (unsigned __int128)ev->ts * 1000000000u / s->clock_hz;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t evt_stats_duration(const evt_stats *s) { return s->have_ts ? s->last_ts - s->first_ts : 0; }

static const evt_stats *g_sort_s; /* qsort context (single-threaded CLI use) */

static int cmp_ctx_(const void *a, const void *b)
{
    const evt_stats_ctx *x = &g_sort_s->ctxs[*(const uint32_t *)a];
    const evt_stats_ctx *y = &g_sort_s->ctxs[*(const uint32_t *)b];
    if (x->cpu_ticks != y->cpu_ticks) return x->cpu_ticks < y->cpu_ticks ? 1 : -1;
    return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

uint32_t *evt_stats_ctx_order(const evt_stats *s)
{
    uint32_t *o = evt_malloc((s->nctx ? s->nctx : 1) * sizeof *o);
    if (!o) return NULL;
    for (uint32_t i = 0; i < s->nctx; i++) o[i] = i;
    g_sort_s = s;
    qsort(o, s->nctx, sizeof *o, cmp_ctx_);
    return o;
}

static int cmp_lat_(const void *a, const void *b)
{
    const evt_stats_lat *x = &g_sort_s->lats[*(const uint32_t *)a];
    const evt_stats_lat *y = &g_sort_s->lats[*(const uint32_t *)b];
    return strcmp(evt_strtab_str(&g_sort_s->strs, x->label), evt_strtab_str(&g_sort_s->strs, y->label));
}

uint32_t *evt_stats_lat_order(const evt_stats *s, evt_span_cat cat, uint32_t *n)
{
    uint32_t *o = evt_malloc((s->nlat ? s->nlat : 1) * sizeof *o);
    *n = 0;
    if (!o) return NULL;
    for (uint32_t i = 0; i < s->nlat; i++)
        if (s->lats[i].cat == cat) o[(*n)++] = i;
    g_sort_s = s;
    qsort(o, *n, sizeof *o, cmp_lat_);
    return o;
}

const char *evt_stats_class_name(evt_ctx_class c)
{
    switch (c) {
    case EVT_CTX_THREAD: return "thread";
    case EVT_CTX_ISR: return "isr";
    case EVT_CTX_INIT: return "init";
    default: return "none";
    }
}

const char *evt_stats_ctx_name(const evt_stats *s, const evt_stats_ctx *c, char *buf, size_t len)
{
    if (c->name) return evt_strtab_str(&s->strs, c->name);
    if (c->has_ctx && evt_ctx_incarnation(c->ctx)) /* a reused id's later incarnation */
        snprintf(buf, len, "ctx 0x%" PRIx64 " #%u", evt_ctx_raw(c->ctx), (unsigned)evt_ctx_incarnation(c->ctx) + 1u);
    else if (c->has_ctx) snprintf(buf, len, "ctx 0x%" PRIx64, c->ctx);
    else snprintf(buf, len, "(no context: %s)", evt_stats_class_name(c->cls));
    return buf;
}

static double pct_(uint64_t part, uint64_t whole) { return whole ? (double)part * 100.0 / (double)whole : 0.0; }

static void lat_json_(evt_stats *s, evt_json *j, const char *key, evt_span_cat cat)
{
    uint32_t n;
    uint32_t *o = evt_stats_lat_order(s, cat, &n);
    evt_json_key(j, key);
    evt_json_arr_begin(j);
    for (uint32_t i = 0; o && i < n; i++) {
        evt_stats_lat *l = &s->lats[o[i]];
        evt_json_obj_begin(j);
        evt_json_kstr(j, "name", evt_strtab_str(&s->strs, l->label));
        evt_json_ku64(j, "count", l->h.count);
        evt_json_ku64(j, "min", evt_stats_time(s, l->h.min));
        evt_json_ku64(j, "p50", evt_stats_time(s, evt_hist_pct(&l->h, 0.5)));
        evt_json_ku64(j, "p90", evt_stats_time(s, evt_hist_pct(&l->h, 0.9)));
        evt_json_ku64(j, "p99", evt_stats_time(s, evt_hist_pct(&l->h, 0.99)));
        evt_json_ku64(j, "max", evt_stats_time(s, l->h.max));
        evt_json_ku64(j, "sum", evt_stats_time(s, l->h.sum));
        evt_json_kbool(j, "exact", evt_hist_is_exact(&l->h));
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_free(o);
}

void evt_stats_json(evt_stats *s, evt_json *j, const char *format, const char *file, uint64_t errors)
{
    uint64_t dur = evt_stats_duration(s);
    char nb[64];
    evt_json_obj_begin(j);
    evt_json_kstr(j, "format", format);
    evt_json_kstr(j, "file", file);
    evt_json_ku64(j, "events", s->events);
    evt_json_ku64(j, "errors", errors);
    evt_json_key(j, "clock_hz");
    if (s->clock_hz) evt_json_u64(j, s->clock_hz); else evt_json_null(j);
    evt_json_kstr(j, "time_unit", s->clock_hz ? "ns" : "ticks");
    if (s->clock_source) evt_json_kstr(j, "clock_source", s->clock_source);
    evt_json_ku64(j, "start_ts", s->have_ts ? s->first_raw : 0);
    evt_json_ku64(j, "end_ts", s->have_ts ? s->last_raw : 0);
    evt_json_key(j, "start_ns"); /* first and last event time in ns, null when the clock is unknown */
    if (s->have_ts && s->clock_hz) evt_json_u64(j, s->first_ts); else evt_json_null(j);
    evt_json_key(j, "end_ns");
    if (s->have_ts && s->clock_hz) evt_json_u64(j, s->last_ts); else evt_json_null(j);
    evt_json_ku64(j, "duration", evt_stats_time(s, dur));
    evt_json_ku64(j, "cpus", s->ncpus);
    /* a trace without scheduling has no CPU time or load: its contexts' cpu_time and load_pct stay 0 */
    evt_json_kbool(j, "scheduling", !s->tl_ready || s->tl.sched);
    evt_json_ku64(j, "idle_time", evt_stats_time(s, s->idle_ticks));
    evt_json_ku64(j, "isr_time", evt_stats_time(s, s->isr_ticks));
    evt_json_key(j, "lost");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "events", s->lost_events);
    evt_json_ku64(j, "count", s->lost_count);
    if (s->reader && s->reader->names_lost) evt_json_ku64(j, "names", s->reader->names_lost); /* registry full */
    evt_json_obj_end(j);
    evt_json_key(j, "contexts");
    evt_json_arr_begin(j);
    uint32_t *o = evt_stats_ctx_order(s);
    for (uint32_t i = 0; o && i < s->nctx; i++) {
        evt_stats_ctx *c = &s->ctxs[o[i]];
        evt_json_obj_begin(j);
        evt_json_key(j, "ctx");
        if (c->has_ctx) evt_json_u64(j, c->ctx); else evt_json_null(j);
        evt_json_kstr(j, "name", evt_stats_ctx_name(s, c, nb, sizeof nb));
        evt_json_kstr(j, "class", evt_stats_class_name(c->cls));
        evt_json_ku64(j, "events", c->events);
        evt_json_ku64(j, "cpu_time", evt_stats_time(s, c->cpu_ticks));
        evt_json_ku64(j, "cpu_ticks", c->cpu_raw);
        evt_json_key(j, "load_pct");
        evt_json_f64(j, pct_(c->cpu_ticks, dur));
        evt_json_ku64(j, "switches", c->switches);
        evt_json_ku64(j, "isr_count", c->isr_count);
        if (s->tl.wake_causes) { /* only where the trace says why waits end (else unknown, not 0) */
            evt_json_ku64(j, "timeouts", c->timeouts);
            evt_json_ku64(j, "wait_aborts", c->wait_aborts);
        }
        if (s->tl.preempt_counts) { /* only where the trace says what preempts (else unknown, not 0) */
            evt_json_ku64(j, "preemptions", c->preemptions);
            evt_json_ku64(j, "isr_preemptions", c->isr_preemptions);
        }
        if (s->tl.yield_counts) evt_json_ku64(j, "yields", c->yields); /* likewise */
        if (s->tl.slice_counts) { /* only where the trace says how time slices end */
            evt_json_ku64(j, "time_slices", c->time_slices);
            if (c->time_slices_unknown) evt_json_ku64(j, "time_slices_unknown", c->time_slices_unknown);
        }
        evt_json_ku64(j, "first_ts", c->first_ts);
        evt_json_ku64(j, "last_ts", c->last_ts);
        if (c->has_ctx && evt_ctx_incarnation(c->ctx)) { /* a reused id's later incarnation (model.h) */
            evt_json_ku64(j, "raw_ctx", evt_ctx_raw(c->ctx));
            evt_json_ku64(j, "incarnation", evt_ctx_incarnation(c->ctx));
        }
        if (c->idle_task) evt_json_kbool(j, "idle_task", 1); /* its cpu_time is part of idle_time */
        evt_json_obj_end(j);
    }
    evt_free(o);
    evt_json_arr_end(j);
    lat_json_(s, j, "isrs", EVT_SPAN_ISR);
    lat_json_(s, j, "services", EVT_SPAN_SVC);
    lat_json_(s, j, "functions", EVT_SPAN_FUNC);
    static const char *const cats[] = {"", "isr", "svc", "func"};
    evt_json_key(j, "unmatched_exits");
    evt_json_obj_begin(j);
    for (int c = 1; c < 4; c++) evt_json_ku64(j, cats[c], s->unmatched[c]);
    evt_json_obj_end(j);
    evt_json_key(j, "unfinished_spans");
    evt_json_obj_begin(j);
    for (int c = 1; c < 4; c++) evt_json_ku64(j, cats[c], s->dropped[c]);
    evt_json_obj_end(j);
    evt_json_ku64(j, "span_overflow", s->overflow);
    evt_json_key(j, "names");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < s->nnames; i++) {
        evt_json_obj_begin(j);
        evt_json_kstr(j, "name", evt_strtab_str(&s->strs, s->names[i].name));
        evt_json_kstr(j, "kind", evt_kind_name(s->names[i].kind));
        evt_json_ku64(j, "count", s->names[i].count);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_key(j, "objects"); /* operations per kernel object, by result (non-zero counts) */
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < s->nobjs; i++) {
        const evt_stats_obj *ob = &s->objs[i];
        evt_json_obj_begin(j);
        evt_json_ku64(j, "obj", ob->obj);
        evt_json_key(j, "name");
        if (ob->name) evt_json_str(j, evt_strtab_str(&s->strs, ob->name));
        else evt_json_null(j);
        evt_json_ku64(j, "type", ob->type);
        evt_json_key(j, "ops");
        evt_json_obj_begin(j);
        for (int op = 0; op < EVT_OP_COUNT_; op++) {
            uint64_t any = 0;
            for (int r = 0; r < EVT_RES_COUNT_; r++) any += ob->n[op][r];
            if (!any) continue;
            evt_json_key(j, evt_obj_op_name((evt_obj_op)op));
            evt_json_obj_begin(j);
            for (int r = 0; r < EVT_RES_COUNT_; r++)
                if (ob->n[op][r]) evt_json_ku64(j, evt_op_result_name((evt_op_result)r), ob->n[op][r]);
            evt_json_obj_end(j);
        }
        evt_json_obj_end(j);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
    evt_json_kbool(j, "incomplete", s->oom);
    if (s->an) {
        evt_json_key(j, "analyses");
        evt_an_json(s->an, j);
    }
    evt_json_obj_end(j);
}

static void lat_text_(evt_stats *s, FILE *out, const char *title, evt_span_cat cat, const char *unit)
{
    uint32_t n;
    uint32_t *o = evt_stats_lat_order(s, cat, &n);
    if (!o || n == 0) { evt_free(o); return; }
    fprintf(out, "\n%s (%s):\n  %-32s %9s %12s %12s %12s %12s %12s %14s\n", title, unit, "name", "count",
            "min", "p50", "p90", "p99", "max", "sum");
    for (uint32_t i = 0; i < n; i++) {
        evt_stats_lat *l = &s->lats[o[i]];
        fprintf(out, "  %-32.32s %9" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
                     " %14" PRIu64 "%s\n",
                evt_strtab_str(&s->strs, l->label), l->h.count, evt_stats_time(s, l->h.min),
                evt_stats_time(s, evt_hist_pct(&l->h, 0.5)), evt_stats_time(s, evt_hist_pct(&l->h, 0.9)),
                evt_stats_time(s, evt_hist_pct(&l->h, 0.99)), evt_stats_time(s, l->h.max),
                evt_stats_time(s, l->h.sum), evt_hist_is_exact(&l->h) ? "" : " ~");
    }
    evt_free(o);
}

void evt_stats_text(evt_stats *s, FILE *out, const char *format, const char *file, uint64_t errors)
{
    const char *unit = s->clock_hz ? "ns" : "ticks";
    uint64_t dur = evt_stats_duration(s);
    char nb[64];
    fprintf(out, "file:     %s\nformat:   %s\nevents:   %" PRIu64 "\nerrors:   %" PRIu64 "\n", file, format,
            s->events, errors);
    if (s->clock_hz) fprintf(out, "clock:    %" PRIu64 " Hz%s%s\n", s->clock_hz, s->clock_source ? ", from " : "",
                             s->clock_source ? s->clock_source : "");
    else fprintf(out, "clock:    unknown (times in ticks; give the rate with --clock-hz HZ)\n");
    fprintf(out, "duration: %" PRIu64 " %s (ts %" PRIu64 " .. %" PRIu64 "), %u CPU(s)\n", evt_stats_time(s, dur),
            unit, s->have_ts ? s->first_raw : 0, s->have_ts ? s->last_raw : 0, s->ncpus);
    fprintf(out, "idle:     %" PRIu64 " %s (%.2f%%)", evt_stats_time(s, s->idle_ticks), unit, pct_(s->idle_ticks, dur));
    if (s->tl_ready && s->tl.idle_task_time) /* the kernel's idle task ran part of it (timeline.h) */
        fprintf(out, ", of which the idle task %" PRIu64 " %s", evt_stats_time(s, s->tl.idle_task_time), unit);
    fprintf(out, "\nin ISRs:  %" PRIu64 " %s (%.2f%%)\n", evt_stats_time(s, s->isr_ticks), unit, pct_(s->isr_ticks, dur));
    fprintf(out, "lost:     %" PRIu64 " lost-data events, count %" PRIu64 "\n", s->lost_events, s->lost_count);
    if (s->reader && s->reader->names_lost)
        fprintf(out, "          %" PRIu64 " registrations lost (registry full): those objects have no name\n",
                s->reader->names_lost);
    int causes = s->tl.wake_causes; /* the trace says why waits end: timeouts and aborts are known */
    fprintf(out, "\nContexts (by CPU time):\n  %-32s %-6s %9s %14s %8s %9s %9s", "name", "class", "events",
            "cpu_time", "load%", "switches", "isrs");
    if (causes) fprintf(out, " %9s %9s", "timeouts", "aborts");
    int pre = s->tl.preempt_counts, yl = s->tl.yield_counts; /* the trace says what preempts, yields */
    if (pre || yl) fprintf(out, " %9s %9s %9s", "preempted", "by_isr", "yields");
    int sl = s->tl.slice_counts; /* the trace says how time slices end */
    if (sl) fprintf(out, " %9s", "slices");
    fputc('\n', out);
    uint32_t *o = evt_stats_ctx_order(s);
    for (uint32_t i = 0; o && i < s->nctx; i++) {
        evt_stats_ctx *c = &s->ctxs[o[i]];
        fprintf(out, "  %-32.32s %-6s %9" PRIu64 " %14" PRIu64 " %8.2f %9" PRIu64 " %9" PRIu64,
                evt_stats_ctx_name(s, c, nb, sizeof nb), evt_stats_class_name(c->cls), c->events,
                evt_stats_time(s, c->cpu_ticks), pct_(c->cpu_ticks, dur), c->switches, c->isr_count);
        if (causes) fprintf(out, " %9" PRIu64 " %9" PRIu64, c->timeouts, c->wait_aborts);
        if (pre) fprintf(out, " %9" PRIu64 " %9" PRIu64, c->preemptions, c->isr_preemptions);
        else if (yl) fprintf(out, " %9s %9s", "-", "-"); /* not known */
        if (yl) fprintf(out, " %9" PRIu64, c->yields);
        else if (pre) fprintf(out, " %9s", "-");
        if (sl && c->time_slices_unknown) fprintf(out, " %8" PRIu64 "+", c->time_slices); /* + some not known */
        else if (sl) fprintf(out, " %9" PRIu64, c->time_slices);
        fputc('\n', out);
    }
    evt_free(o);
    lat_text_(s, out, "ISRs", EVT_SPAN_ISR, unit);
    lat_text_(s, out, "Services", EVT_SPAN_SVC, unit);
    lat_text_(s, out, "Functions", EVT_SPAN_FUNC, unit);
    if (s->unmatched[1] + s->unmatched[2] + s->unmatched[3] + s->dropped[1] + s->dropped[2] + s->dropped[3] +
        s->overflow)
        fprintf(out, "\nunmatched exits: isr %" PRIu64 ", svc %" PRIu64 ", func %" PRIu64
                     "; unfinished spans: isr %" PRIu64 ", svc %" PRIu64 ", func %" PRIu64 "; too deep %" PRIu64 "\n",
                s->unmatched[1], s->unmatched[2], s->unmatched[3], s->dropped[1], s->dropped[2], s->dropped[3],
                s->overflow);
    fprintf(out, "\n(~ = percentiles from the histogram, within 0.8%%)\n");
    if (s->an) {
        fprintf(out, "\n");
        evt_an_text(s->an, out);
    }
    if (s->oom) fprintf(out, "warning: out of memory, results incomplete\n");
}
