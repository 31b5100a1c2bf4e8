/* The report page's data: one JSON object the page's script reads (docs/report.md, "Data"):
 *   {"meta": {trace facts, "shift", "strings" (index = string id, 0 = ""), "ctx" and "obj"
 *             (index = the timeline's index), name tables},
 *    the timeline's records as flat integer arrays of fixed stride, -1 for "none", times
 *    relative to the first event's time (add meta.shift to make them relative to the trace's
 *    earliest time, meta.origin, in meta.unit):
 *      "states"   [ctx, state, cpu, t0, dur, obj, svc, flags]                      stride 8
 *      "isrs"     [cpu, t0, dur, depth, ctx, interrupted, irq, name, flags]         stride 9
 *      "slices"   [ctx, cat, t0, dur, depth, name, obj, flags]                      stride 8
 *      "counters" [obj, name, t, value]                                             stride 4
 *      "flows"    [kind, from, to, t0, t1, obj]                                     stride 6
 *      "lost"     [cpu, t0, t1, count]                                              stride 4
 *      "wakes"    [ctx, waker, t, obj, from_isr, cause (index in meta.wake_causes)] stride 6
 *      "prios"    [ctx, t, prio, why (index in meta.prio_whys), by]                 stride 5
 *    "ev": the listed events as columns: t (delta from the previous listed event, the first
 *          from the first event), c (ctx), k (kind index in meta.kinds), n (name), f (fields
 *          text, tab-separated key=value), o (byte offset)}.
 * Everything goes out with each '<' written as \u003c (JSON has '<' only inside strings), so no
 * name can close the page's script element or open an HTML comment. */
#include "host/report/report_impl.h"
#include "host/report/report_user.h"

#include <inttypes.h>
#include "evtrace/json.h"

static void ctxs_(evt_json *j, const evt_report *r)
{
    char lb[96], hex[32];
    evt_json_key(j, "ctx");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < r->tl.nctx; i++) {
        const evt_tl_ctx *c = evt_tl_ctx_at(&r->tl, i);
        if (!c) continue;
        evt_json_obj_begin(j);
        evt_json_kstr(j, "name", evt_tl_ctx_label(c, lb, sizeof lb));
        evt_json_kstr(j, "class", evt_tl_class_name(c->cls));
        evt_json_key(j, "id");
        if (c->has_id) {
            snprintf(hex, sizeof hex, "0x%" PRIx64, c->id);
            evt_json_str(j, hex);
        } else {
            evt_json_null(j);
        }
        evt_json_key(j, "prio");
        if (c->has_prio) evt_json_u64(j, c->prio);
        else evt_json_null(j);
        evt_json_ku64(j, "events", c->events);
        evt_json_ku64(j, "run", c->run_time);
        evt_json_ku64(j, "isr", c->isr_time);
        evt_json_ku64(j, "switches", c->switches_in);
        if (c->idle_task) evt_json_kbool(j, "idle_task", 1); /* its cpu time is within idle_time */
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

static void objs_(evt_json *j, const evt_report *r)
{
    char hex[32];
    evt_json_key(j, "obj");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < r->tl.nobj; i++) {
        const evt_tl_obj *o = evt_tl_obj_at(&r->tl, i);
        if (!o) continue;
        snprintf(hex, sizeof hex, "0x%" PRIx64, o->id);
        evt_json_obj_begin(j);
        evt_json_kstr(j, "name", o->name ? o->name : hex);
        evt_json_kstr(j, "type", o->type);
        evt_json_kstr(j, "id", hex);
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

/* Copy bytes from f (rewound) to out, escaping '<'. */
static int copy_escaped_(FILE *f, FILE *out)
{
    char buf[1 << 15];
    size_t n;
    if (fseek(f, 0, SEEK_SET) != 0) return 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) rp_put_json(out, buf, n);
    return !ferror(f);
}

static const char *const k_col_names[RP_COL_COUNT_] = {
#define RP_COL_NAME_(n) #n,
    RP_COLUMNS(RP_COL_NAME_)
#undef RP_COL_NAME_
};

/* The meta object (bounded by contexts, objects and distinct names; built in memory). arg: the
 * reader's error count. */
static void meta_(const evt_report *r, evt_json *j, const void *arg)
{
    const evt_tl *tl = &r->tl;
    uint64_t o = tl->have_t ? tl->first : 0, errors = *(const uint64_t *)arg;
    evt_json_obj_begin(j);
    evt_json_ku64(j, "version", 1);
    evt_json_kstr(j, "format", r->format);
    evt_json_kstr(j, "file", r->file);
    evt_json_kstr(j, "unit", r->clock_hz ? "ns" : "ticks");
    evt_json_ku64(j, "clock_hz", r->clock_hz);
    evt_json_kstr(j, "clock_source", r->clock_source);
    evt_json_ku64(j, "origin", o);
    /* signed: an untimed first record (RKH TCFG at 0) lies before the origin, the first timed one */
    evt_json_ki64(j, "shift", r->have_base ? (int64_t)(r->base - o) : 0);
    evt_json_ku64(j, "duration", tl->have_t ? tl->last - tl->first : 0);
    evt_json_ku64(j, "events", r->events);
    evt_json_ku64(j, "listed", r->listed);
    evt_json_ku64(j, "list_limit", EVT_REPORT_MAX_LIST);
    evt_json_ku64(j, "errors", errors);
    evt_json_ku64(j, "lost_events", tl->lost_events);
    evt_json_ku64(j, "lost_count", tl->lost_count);
    evt_json_ku64(j, "ncpus", tl->ncpus ? tl->ncpus : 1);
    evt_json_ku64(j, "idle_time", tl->idle_time);
    evt_json_ku64(j, "isr_time", tl->isr_time);
    evt_json_key(j, "capabilities"); /* the kinds of fact the trace holds: the views show only these */
    evt_json_arr_begin(j);
    for (unsigned b = 0; b < EVT_CAP_COUNT_; b++)
        if (tl->caps & (1u << b)) evt_json_str(j, evt_cap_name(1u << b));
    evt_json_arr_end(j);
    evt_json_kbool(j, "scheduling", tl->sched);
    evt_json_kstr(j, "priority_order", tl->higher_prio_wins ? "higher_wins" : "lower_wins");
    evt_json_key(j, "untracked");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "isr_overflow", tl->isr_overflow);
    evt_json_ku64(j, "span_overflow", tl->span_overflow);
    evt_json_ku64(j, "flows_dropped", tl->flows_dropped);
    evt_json_ku64(j, "unmatched_exits", tl->unmatched_exits);
    evt_json_obj_end(j);
    evt_json_key(j, "state_names");
    evt_json_arr_begin(j);
    for (int s = 0; s < EVT_TL_STATE_COUNT_; s++) evt_json_str(j, evt_tl_state_name((evt_tl_state)s));
    evt_json_arr_end(j);
    evt_json_key(j, "prio_whys");
    evt_json_arr_begin(j);
    for (int w = 0; w < EVT_TL_PRIO_WHY_COUNT_; w++) evt_json_str(j, evt_tl_prio_why_name((evt_tl_prio_why)w));
    evt_json_arr_end(j);
    evt_json_key(j, "wake_causes");
    evt_json_arr_begin(j);
    for (int c = 0; c < EVT_WAKE_COUNT_; c++) evt_json_str(j, evt_wake_cause_name((evt_wake_cause)c));
    evt_json_arr_end(j);
    evt_json_key(j, "kinds");
    evt_json_arr_begin(j);
    for (int k = 0; k < EVT_KIND_COUNT_; k++) evt_json_str(j, evt_kind_name((evt_kind)k));
    evt_json_arr_end(j);
    evt_json_key(j, "span_cats");
    evt_json_arr_begin(j);
    for (int c = 0; c <= EVT_SPAN_FUNC; c++) evt_json_str(j, evt_span_cat_name((evt_span_cat)c));
    evt_json_arr_end(j);
    evt_json_key(j, "strings");
    evt_json_arr_begin(j);
    evt_json_str(j, "");
    for (uint32_t i = 1; i <= r->strs.n; i++) evt_json_str(j, evt_strtab_str(&r->strs, i));
    evt_json_arr_end(j);
    ctxs_(j, r);
    objs_(j, r);
    evt_json_obj_end(j);
}

int rp_write_data(const evt_report *r, FILE *out, uint64_t errors)
{
    fputs("{\"meta\":", out);
    if (!rp_json_escaped(out, r, meta_, &errors)) return 0;
    for (int c = 0; c < RP_COL_COUNT_; c++) {
        const char *name = k_col_names[c];
        if (c == RP_COL_ev_t) fputs(",\"ev\":{", out);
        else fputc(',', out);
        fprintf(out, "\"%s\":", c >= RP_COL_ev_t ? name + 3 : name); /* ev_t -> "t" inside "ev" */
        if (!copy_escaped_(r->cols[c].f, out)) return 0;
    }
    fputc('}', out);
    if (r->user && !rp_user_write(r->user, out)) return 0; /* ,"user":{...} (report_user.h) */
    fputc('}', out);
    return !ferror(out);
}
