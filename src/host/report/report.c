/* The report's collector: events go through the one timeline; what its sink reports (closed
 * state intervals, ISRs, slices, counters, flows, lost ranges) and the first EVT_REPORT_MAX_LIST
 * events are streamed as flat JSON arrays into temporary files (report_impl.h), so memory grows
 * with contexts, objects and distinct names, never with events. The analyses (analyses.h) run on
 * the same timeline: its sink is this file's, chained with theirs (evt_an_chain). report_data.c writes the page's
 * JSON from them, report_page.c the page. */
#include "host/report/report.h"
#include "host/report/report_fields.h"
#include "host/report/report_impl.h"
#include "host/report/report_user.h"

#include <inttypes.h>
#include <string.h>
#include "evtrace/alloc.h"

uint32_t rp_str(evt_report *r, const char *s)
{
    if (!s || !*s) return 0;
    uint32_t id = evt_strtab_intern(&r->strs, s, strlen(s), NULL);
    if (!id) r->oom = 1;
    return id;
}

/* Column writers. */
static evt_json *col_(evt_report *r, rp_col_id c) { return &r->cols[c].j; }
static void u_(evt_report *r, rp_col_id c, uint64_t v) { evt_json_u64(col_(r, c), v); }
static void i_(evt_report *r, rp_col_id c, int64_t v) { evt_json_i64(col_(r, c), v); }
static void idx_(evt_report *r, rp_col_id c, uint32_t v) { evt_json_i64(col_(r, c), v == EVT_TL_NONE ? -1 : (int64_t)v); }
/* A time relative to the first event's (two's complement: an earlier time is negative). */
static void t_(evt_report *r, rp_col_id c, uint64_t t) { evt_json_i64(col_(r, c), (int64_t)(t - r->base)); }

static void on_state_(void *u, const evt_tl_state_iv *iv)
{
    evt_report *r = u;
    u_(r, RP_COL_states, iv->ctx);
    u_(r, RP_COL_states, (uint64_t)iv->state);
    u_(r, RP_COL_states, iv->cpu);
    t_(r, RP_COL_states, iv->t0);
    u_(r, RP_COL_states, iv->t1 - iv->t0);
    idx_(r, RP_COL_states, iv->obj);
    u_(r, RP_COL_states, rp_str(r, iv->service));
    u_(r, RP_COL_states, iv->open_end ? RP_OPEN_END : 0);
}

static void on_isr_(void *u, const evt_tl_isr *iv)
{
    evt_report *r = u;
    u_(r, RP_COL_isrs, iv->cpu);
    t_(r, RP_COL_isrs, iv->t0);
    u_(r, RP_COL_isrs, iv->t1 - iv->t0);
    u_(r, RP_COL_isrs, iv->depth);
    idx_(r, RP_COL_isrs, iv->ctx);
    idx_(r, RP_COL_isrs, iv->interrupted);
    if (iv->has_irq) u_(r, RP_COL_isrs, iv->irq);
    else i_(r, RP_COL_isrs, -1);
    u_(r, RP_COL_isrs, rp_str(r, iv->name));
    u_(r, RP_COL_isrs, (uint64_t)((iv->truncated ? RP_TRUNCATED : 0) | (iv->open_end ? RP_OPEN_END : 0)));
}

static void on_slice_(void *u, const evt_tl_slice *sl)
{
    evt_report *r = u;
    u_(r, RP_COL_slices, sl->ctx);
    u_(r, RP_COL_slices, (uint64_t)sl->cat);
    t_(r, RP_COL_slices, sl->t0);
    u_(r, RP_COL_slices, sl->t1 - sl->t0);
    u_(r, RP_COL_slices, sl->depth);
    u_(r, RP_COL_slices, rp_str(r, sl->name));
    idx_(r, RP_COL_slices, sl->obj);
    u_(r, RP_COL_slices, (uint64_t)((sl->truncated ? RP_TRUNCATED : 0) | (sl->open_end ? RP_OPEN_END : 0)));
}

static void on_counter_(void *u, const evt_tl_counter *c)
{
    evt_report *r = u;
    idx_(r, RP_COL_counters, c->obj);
    u_(r, RP_COL_counters, rp_str(r, c->name));
    t_(r, RP_COL_counters, c->t);
    u_(r, RP_COL_counters, c->value);
}

static void on_flow_(void *u, const evt_tl_flow *f)
{
    evt_report *r = u;
    u_(r, RP_COL_flows, rp_str(r, f->kind));
    idx_(r, RP_COL_flows, f->from_ctx);
    idx_(r, RP_COL_flows, f->to_ctx);
    t_(r, RP_COL_flows, f->t0);
    t_(r, RP_COL_flows, f->t1);
    idx_(r, RP_COL_flows, f->obj);
}

static void on_waking_(void *u, const evt_tl_waking *w)
{
    evt_report *r = u;
    u_(r, RP_COL_wakes, w->target);
    idx_(r, RP_COL_wakes, w->waker);
    t_(r, RP_COL_wakes, w->t);
    idx_(r, RP_COL_wakes, w->obj);
    u_(r, RP_COL_wakes, (uint64_t)(w->from_isr != 0));
    u_(r, RP_COL_wakes, w->cause);
}

static void on_prio_(void *u, const evt_tl_prio *p)
{
    evt_report *r = u;
    u_(r, RP_COL_prios, p->ctx);
    t_(r, RP_COL_prios, p->t);
    u_(r, RP_COL_prios, p->prio);
    u_(r, RP_COL_prios, (uint64_t)p->why);
    idx_(r, RP_COL_prios, p->by);
}

static void on_lost_(void *u, const evt_tl_lost *l)
{
    evt_report *r = u;
    u_(r, RP_COL_lost, l->cpu);
    t_(r, RP_COL_lost, l->t0);
    t_(r, RP_COL_lost, l->t1);
    if (l->has_count) u_(r, RP_COL_lost, l->count);
    else i_(r, RP_COL_lost, -1);
}

static char *dup_or_null_(const char *s, int *oom)
{
    if (!s) return NULL;
    char *d = evt_strdup(s);
    if (!d) *oom = 1;
    return d;
}

evt_report *evt_report_new(const evt_report_info *info)
{
    evt_report *r = evt_calloc(1, sizeof *r);
    if (!r) return NULL;
    evt_strtab_init(&r->strs);
    r->format = dup_or_null_(info->format, &r->oom);
    r->file = dup_or_null_(info->file, &r->oom);
    r->clock_source = dup_or_null_(info->clock_source, &r->oom);
    r->clock_hz = info->clock_hz;
    r->reader = info->reader;
    if (info->an) {
        r->an_cfg = *info->an;
        r->has_an_cfg = 1;
    }
    for (int c = 0; c < RP_COL_COUNT_; c++) {
        r->cols[c].f = tmpfile();
        if (!r->cols[c].f) { r->oom = 1; break; }
        evt_json_init(&r->cols[c].j, r->cols[c].f, 0);
        evt_json_arr_begin(&r->cols[c].j);
    }
    if (!r->oom && !(r->user = rp_user_new())) r->oom = 1;
    if (r->oom) {
        evt_report_free(r);
        return NULL;
    }
    return r;
}

void evt_report_set_clock(evt_report *r, uint64_t clock_hz, const char *clock_source)
{
    if (r->tl_ready) return;
    r->clock_hz = clock_hz;
    evt_free(r->clock_source);
    r->clock_source = dup_or_null_(clock_source, &r->oom);
}

/* The timeline starts at the first event (or at the write when there is none): the unit is
 * fixed then. */
static int start_(evt_report *r)
{
    if (r->tl_ready) return !r->oom;
    evt_tl_sink sink;
    memset(&sink, 0, sizeof sink);
    sink.user = r;
    sink.state = on_state_;
    sink.isr = on_isr_;
    sink.slice = on_slice_;
    sink.counter = on_counter_;
    sink.flow = on_flow_;
    sink.lost = on_lost_;
    sink.waking = on_waking_;
    sink.prio = on_prio_;
    r->tl_ready = 1; /* evt_tl_free is safe on a partly initialised timeline */
    if (!(r->an = evt_an_new_shared(&r->tl, r->has_an_cfg ? &r->an_cfg : NULL))) { r->oom = 1; return 0; }
    evt_an_chain(r->an, &sink, &sink);
    if (!evt_tl_init(&r->tl, r->clock_hz, &sink)) r->oom = 1;
    else if (r->reader) evt_tl_set_reader(&r->tl, r->reader);
    return !r->oom;
}

int evt_report_add(evt_report *r, const evt_event *ev)
{
    if (r->oom || !start_(r)) return 0;
    uint64_t t = evt_tl_time(&r->tl, ev);
    /* records without a time of their own before the first timed one (RKH's TCFG) are listed at
     * the first timed record's time: the list's times start where the timeline does */
    int untimed_head = (ev->m.has & EVT_M_UNTIMED) && !r->have_base;
    if (!r->have_base && !untimed_head) {
        r->have_base = 1;
        r->base = r->prev_t = t;
    }
    uint32_t ctx = evt_tl_add(&r->tl, ev);
    if (r->tl.oom) r->oom = 1;
    else evt_an_event(r->an, ev, ctx);
    r->events++;
    if (r->listed < EVT_REPORT_MAX_LIST && !r->oom) {
        char fb[1024];
        rp_field_text(ev, fb, sizeof fb);
        r->listed++;
        i_(r, RP_COL_ev_t, untimed_head ? 0 : (int64_t)(t - r->prev_t));
        if (!untimed_head) r->prev_t = t;
        idx_(r, RP_COL_ev_c, ctx);
        u_(r, RP_COL_ev_k, (uint64_t)ev->kind);
        u_(r, RP_COL_ev_n, rp_str(r, ev->name));
        evt_json_str(col_(r, RP_COL_ev_f), fb);
        u_(r, RP_COL_ev_o, ev->offset);
        if (!r->oom && !rp_user_event(r->user, ev, t, r->base, (int64_t)r->listed - 1)) r->oom = 1;
    } else if (!r->oom && !rp_user_event(r->user, ev, t, r->base, -1)) {
        r->oom = 1;
    }
    return !r->oom;
}

const char *evt_report_analyses_error(const evt_report *r) { return r->an ? evt_an_error(r->an) : NULL; }

uint64_t evt_report_events(const evt_report *r) { return r->events; }
uint32_t evt_report_contexts(const evt_report *r) { return r->tl.nctx; }

int evt_report_write(evt_report *r, FILE *out, uint64_t errors)
{
    if (!start_(r)) return 0;
    if (!r->finished) {
        evt_tl_finish(&r->tl);
        r->finished = 1;
        rp_user_finish(r->user, r->tl.have_t ? r->tl.last : r->base, r->base);
        if (r->tl.oom) r->oom = 1;
        else evt_an_finish(r->an);
        for (int c = 0; c < RP_COL_COUNT_; c++) {
            evt_json_arr_end(&r->cols[c].j);
            if (fflush(r->cols[c].f) != 0 || ferror(r->cols[c].f)) r->oom = 1; /* temp space full */
        }
    }
    if (r->oom) return 0;
    return rp_write_page(r, out, errors);
}

void evt_report_free(evt_report *r)
{
    if (!r) return;
    evt_an_free(r->an); /* before the timeline it reads */
    rp_user_free(r->user);
    if (r->tl_ready) evt_tl_free(&r->tl);
    for (int c = 0; c < RP_COL_COUNT_; c++)
        if (r->cols[c].f) fclose(r->cols[c].f);
    evt_strtab_free(&r->strs);
    evt_free(r->format);
    evt_free(r->file);
    evt_free(r->clock_source);
    evt_free(r);
}
