/* Streaming trace statistics: CPU time per context, ISR time, latency histograms per service,
 * function and ISR, lost data (model in stats.h). */
#include "stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"

int evt_stats_init(evt_stats *s, uint64_t clock_hz)
{
    memset(s, 0, sizeof *s);
    s->clock_hz = clock_hz;
    for (int i = 0; i < 4; i++) s->noctx[i] = -1;
    s->cpus = evt_calloc(EVT_STATS_MAX_CPUS, sizeof *s->cpus);
    if (!s->cpus) { s->oom = 1; return 0; }
    for (int i = 0; i < EVT_STATS_MAX_CPUS; i++) s->cpus[i].run = -1;
    s->tl_width = 1;
    return 1;
}

void evt_stats_enable_timeline(evt_stats *s) { s->timeline = 1; }

void evt_stats_free(evt_stats *s)
{
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_span_stack_free(&s->ctxs[i].stack);
        evt_free(s->ctxs[i].bins);
    }
    for (uint32_t i = 0; i < s->nlat; i++) evt_hist_free(&s->lats[i].h);
    evt_free(s->ctxs);
    evt_free(s->lats);
    evt_free(s->names);
    evt_free(s->cpus);
    evt_u64map_free(&s->ctxmap);
    evt_u64map_free(&s->latmap);
    evt_u64map_free(&s->namemap);
    evt_strtab_free(&s->strs);
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

/* Index of the context of ev (created on first sight); -1 when out of memory. */
static int64_t ctx_of_(evt_stats *s, const evt_event *ev, int force_isr_pseudo)
{
    int has = (ev->flags & EVT_HAS_CTX) && !force_isr_pseudo;
    evt_ctx_class cls = force_isr_pseudo ? EVT_CTX_ISR : ev->ctx_class;
    if ((unsigned)cls > 3) cls = EVT_CTX_NONE;
    uint32_t idx;
    if (has) {
        if (evt_u64map_get(&s->ctxmap, ev->ctx, &idx)) {
            evt_stats_ctx *c = &s->ctxs[idx];
            if (!c->name && ev->ctx_name) c->name = intern_(s, ev->ctx_name);
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
    c->ctx = has ? ev->ctx : 0;
    c->cls = cls;
    c->first_ts = c->last_ts = ev->ts;
    if (has && ev->ctx_name) c->name = intern_(s, ev->ctx_name);
    if (has) {
        if (!evt_u64map_put(&s->ctxmap, ev->ctx, idx)) { s->oom = 1; return -1; }
    } else {
        s->noctx[cls] = idx;
    }
    s->nctx++;
    return idx;
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

static void latency_(evt_stats *s, uint8_t cat, uint32_t label, uint64_t begin, uint64_t end)
{
    evt_stats_lat *l = lat_(s, cat, label);
    if (l && !evt_hist_add(&l->h, end >= begin ? end - begin : 0)) s->oom = 1;
}

static void count_name_(evt_stats *s, const evt_event *ev)
{
    uint32_t id = intern_(s, ev->name ? ev->name : "");
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
}

/* Timeline: double the bin width (merging bin pairs) until `end` fits. */
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

static void tl_add_(evt_stats *s, uint32_t ci, uint64_t a, uint64_t b)
{
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
        c->bins[bin] += e - a;
        a = e;
    }
}

/* Charge the time since the CPU's previous event. */
static void charge_(evt_stats *s, evt_stats_cpu *cpu, uint64_t ts, uint64_t raw)
{
    if (!cpu->seen) { cpu->seen = 1; cpu->prev_ts = ts; cpu->prev_raw = raw; return; }
    if (ts <= cpu->prev_ts) return;
    uint64_t d = ts - cpu->prev_ts;
    uint64_t draw = raw > cpu->prev_raw ? raw - cpu->prev_raw : 0;
    cpu->prev_raw = raw;
    int64_t target = cpu->isr_n ? (int64_t)cpu->isr[cpu->isr_n - 1].ctx : cpu->run;
    if (cpu->isr_n) s->isr_ticks += d;
    if (target >= 0) {
        s->ctxs[target].cpu_ticks += d;
        s->ctxs[target].cpu_raw += draw;
        if (s->timeline) tl_add_(s, (uint32_t)target, cpu->prev_ts, ts);
    } else {
        s->idle_ticks += d;
    }
    cpu->prev_ts = ts;
}

/* Loss: spans and the running context can no longer be trusted. */
static void on_lost_(evt_stats *s)
{
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_span_stack *st = &s->ctxs[i].stack;
        for (uint32_t k = 0; k < st->n; k++) s->dropped[st->v[k].cat]++;
        st->n = 0;
    }
    for (uint32_t c = 0; c < s->ncpus; c++) {
        s->dropped[EVT_SPAN_ISR] += s->cpus[c].isr_n;
        s->cpus[c].isr_n = 0;
        s->cpus[c].run = -1;
    }
}

int evt_stats_add(evt_stats *s, const evt_event *ev)
{
    s->events++;
    uint64_t t = evt_stats_event_time(s, ev);
    if (!s->have_ts || t < s->first_ts) s->first_ts = t;
    if (!s->have_ts || t > s->last_ts) s->last_ts = t;
    if (!s->have_ts || ev->ts < s->first_raw) s->first_raw = ev->ts;
    if (!s->have_ts || ev->ts > s->last_raw) s->last_raw = ev->ts;
    if (!s->have_ts) { s->have_ts = 1; s->tl_origin = t; }
    uint32_t cn = (ev->flags & EVT_HAS_CPU) ? ev->cpu : 0;
    if (cn >= EVT_STATS_MAX_CPUS) cn = EVT_STATS_MAX_CPUS - 1;
    if (cn + 1 > s->ncpus) s->ncpus = cn + 1;
    evt_stats_cpu *cpu = &s->cpus[cn];
    charge_(s, cpu, t, ev->ts);

    int64_t ci = ctx_of_(s, ev, 0);
    if (ci < 0) return 0;
    evt_stats_ctx *c = &s->ctxs[ci];
    c->events++;
    if (ev->ts < c->first_ts) c->first_ts = ev->ts;
    if (ev->ts > c->last_ts) c->last_ts = ev->ts;
    count_name_(s, ev);

    int begin;
    evt_span_cat cat = evt_span_cat_of(ev->kind, &begin);
    char lb[256];
    if (ev->kind == EVT_KIND_LOST) {
        s->lost_events++;
        if (ev->flags & EVT_HAS_COUNT) s->lost_count += ev->count;
        on_lost_(s);
        return !s->oom;
    }
    if (cat == EVT_SPAN_ISR) {
        if (begin) {
            int64_t ii = ev->ctx_class == EVT_CTX_ISR ? ci : ctx_of_(s, ev, 1);
            if (ii < 0) return 0;
            s->ctxs[ii].isr_count++;
            if (cpu->isr_n < EVT_STATS_ISR_DEPTH) {
                evt_isr_open *o = &cpu->isr[cpu->isr_n++];
                o->ctx = (uint32_t)ii;
                o->label = intern_(s, evt_event_label(ev, lb, sizeof lb));
                o->ts = t;
            } else {
                s->overflow++;
            }
        } else if (cpu->isr_n) {
            evt_isr_open *o = &cpu->isr[--cpu->isr_n];
            latency_(s, EVT_SPAN_ISR, o->label, o->ts, t);
        } else {
            s->unmatched[EVT_SPAN_ISR]++;
        }
        return !s->oom;
    }
    c = &s->ctxs[ci];
    if (cat != EVT_SPAN_NONE) {
        uint32_t label = intern_(s, evt_event_label(ev, lb, sizeof lb));
        if (begin) {
            if (!evt_span_push(&c->stack, (uint8_t)cat, label, t)) s->overflow++;
        } else {
            uint32_t k = evt_span_match(&c->stack, (uint8_t)cat, label);
            if (!k) s->unmatched[cat]++;
            while (k--) {
                evt_span *sp = &c->stack.v[--c->stack.n];
                latency_(s, sp->cat, sp->label, sp->ts, t);
            }
        }
    }
    if ((ev->flags & EVT_HAS_CTX) && ev->ctx_class != EVT_CTX_ISR) {
        if (cpu->run != ci) { c->switches++; cpu->run = ci; }
        if (ev->kind == EVT_KIND_THREAD_STOP && (!(ev->flags & EVT_HAS_TARGET) || ev->target == ev->ctx))
            cpu->run = -1;
    }
    return !s->oom;
}

void evt_stats_finish(evt_stats *s)
{
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_span_stack *st = &s->ctxs[i].stack;
        for (uint32_t k = 0; k < st->n; k++) s->dropped[st->v[k].cat]++;
        st->n = 0;
    }
    for (uint32_t c = 0; c < s->ncpus; c++) {
        s->dropped[EVT_SPAN_ISR] += s->cpus[c].isr_n;
        s->cpus[c].isr_n = 0;
    }
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
    if (c->has_ctx) snprintf(buf, len, "ctx 0x%" PRIx64, c->ctx);
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
    evt_json_ku64(j, "idle_time", evt_stats_time(s, s->idle_ticks));
    evt_json_ku64(j, "isr_time", evt_stats_time(s, s->isr_ticks));
    evt_json_key(j, "lost");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "events", s->lost_events);
    evt_json_ku64(j, "count", s->lost_count);
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
        evt_json_ku64(j, "first_ts", c->first_ts);
        evt_json_ku64(j, "last_ts", c->last_ts);
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
    evt_json_kbool(j, "incomplete", s->oom);
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
    fprintf(out, "idle:     %" PRIu64 " %s (%.2f%%)\nin ISRs:  %" PRIu64 " %s (%.2f%%)\n",
            evt_stats_time(s, s->idle_ticks), unit, pct_(s->idle_ticks, dur), evt_stats_time(s, s->isr_ticks), unit,
            pct_(s->isr_ticks, dur));
    fprintf(out, "lost:     %" PRIu64 " lost-data events, count %" PRIu64 "\n", s->lost_events, s->lost_count);
    fprintf(out, "\nContexts (by CPU time):\n  %-32s %-6s %9s %14s %8s %9s %9s\n", "name", "class", "events",
            "cpu_time", "load%", "switches", "isrs");
    uint32_t *o = evt_stats_ctx_order(s);
    for (uint32_t i = 0; o && i < s->nctx; i++) {
        evt_stats_ctx *c = &s->ctxs[o[i]];
        fprintf(out, "  %-32.32s %-6s %9" PRIu64 " %14" PRIu64 " %8.2f %9" PRIu64 " %9" PRIu64 "\n",
                evt_stats_ctx_name(s, c, nb, sizeof nb), evt_stats_class_name(c->cls), c->events,
                evt_stats_time(s, c->cpu_ticks), pct_(c->cpu_ticks, dur), c->switches, c->isr_count);
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
    if (s->oom) fprintf(out, "warning: out of memory, results incomplete\n");
}
