/* Chrome trace-event JSON exporter (opens in ui.perfetto.dev and chrome://tracing).
 * One process per trace; one track (tid) per thread/task named from the trace, one "ISR" track.
 * Running slices come from context changes (the context of consecutive events), ISR slices from
 * isr_enter/isr_exit, service/function slices from enter/exit pairs per context, and every
 * other event is an instant on its context's track. Timestamps are microseconds when the clock
 * frequency is known, otherwise one tick is shown as one microsecond. Streams: state is one
 * open slice per context (a small table) and a stack depth per context. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/json.h"

#define ISR_TID 1  /* track for interrupt contexts; thread tracks use tid >= 2 */

typedef struct ctx_track {
    uint64_t ctx;     /* context id */
    uint32_t tid;     /* Chrome tid */
    int named;        /* thread_name metadata written */
} ctx_track;

typedef struct chrome_state {
    FILE *out;
    evt_json j;
    uint64_t hz;
    ctx_track *tracks;
    uint32_t ntracks, cap;
    int running;          /* a running slice is open */
    uint32_t running_tid;
    uint64_t last_ts;
    int isr_depth;
    int isr_named;
} chrome_state;

static double to_us(const chrome_state *s, uint64_t ts)
{
    return s->hz ? (double)ts * 1e6 / (double)s->hz : (double)ts;
}

static void common(chrome_state *s, const char *ph, const char *name, uint32_t tid, uint64_t ts)
{
    evt_json_init(&s->j, s->out, 0);
    fputs(",\n", s->out);
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "ph", ph);
    if (name) evt_json_kstr(&s->j, "name", name);
    evt_json_ku64(&s->j, "pid", 1);
    evt_json_ku64(&s->j, "tid", tid);
    evt_json_key(&s->j, "ts");
    evt_json_f64(&s->j, to_us(s, ts));
}

static void thread_name(chrome_state *s, uint32_t tid, const char *name)
{
    common(s, "M", "thread_name", tid, 0);
    evt_json_key(&s->j, "args");
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "name", name);
    evt_json_obj_end(&s->j);
    evt_json_obj_end(&s->j);
}

static ctx_track *track_for(chrome_state *s, uint64_t ctx)
{
    for (uint32_t i = 0; i < s->ntracks; i++)
        if (s->tracks[i].ctx == ctx) return &s->tracks[i];
    if (s->ntracks == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 64;
        ctx_track *n = evt_realloc(s->tracks, nc * sizeof *n);
        if (!n) return NULL;
        s->tracks = n;
        s->cap = nc;
    }
    ctx_track *t = &s->tracks[s->ntracks];
    t->ctx = ctx;
    t->tid = s->ntracks + 2;
    t->named = 0;
    s->ntracks++;
    return t;
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    chrome_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->out = fopen(path, "w");
    if (!s->out) { snprintf(err, errlen, "cannot create %s", path); evt_free(s); return EVT_ERR_IO; }
    s->hz = r->clock_hz;
    fprintf(s->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"evtrace\",\"format\":\"%s\","
                    "\"clock_hz\":%" PRIu64 "},\n\"traceEvents\":[\n", r->desc->name, s->hz);
    evt_json_init(&s->j, s->out, 0);
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "ph", "M");
    evt_json_kstr(&s->j, "name", "process_name");
    evt_json_ku64(&s->j, "pid", 1);
    evt_json_key(&s->j, "args");
    evt_json_obj_begin(&s->j);
    evt_json_kstr(&s->j, "name", r->src.path);
    evt_json_obj_end(&s->j);
    evt_json_obj_end(&s->j);
    *state = s;
    return EVT_OK;
}

static void args_of(chrome_state *s, const evt_event *ev)
{
    evt_json_key(&s->j, "args");
    evt_json_obj_begin(&s->j);
    evt_json_ku64(&s->j, "id", ev->id);
    evt_json_key(&s->j, "args");
    evt_json_arr_begin(&s->j);
    for (uint32_t i = 0; i < ev->nargs; i++) evt_json_u64(&s->j, ev->args[i]);
    evt_json_arr_end(&s->j);
    if (ev->target_name) evt_json_kstr(&s->j, "object", ev->target_name);
    if (ev->data && ev->data_is_text) {
        evt_json_key(&s->j, "text");
        evt_json_strn(&s->j, (const char *)ev->data, ev->data_len);
    }
    evt_json_obj_end(&s->j);
}

static evt_status event(void *state, const evt_event *ev)
{
    chrome_state *s = state;
    s->last_ts = ev->ts;
    uint32_t tid = ISR_TID;
    int is_isr = (ev->ctx_class == EVT_CTX_ISR);
    if (is_isr) {
        if (!s->isr_named) { thread_name(s, ISR_TID, "ISR"); s->isr_named = 1; }
    } else if (ev->flags & EVT_HAS_CTX) {
        ctx_track *t = track_for(s, ev->ctx);
        if (!t) return EVT_ERR_NOMEM;
        tid = t->tid;
        if (!t->named) {
            char nb[64];
            const char *nm = ev->ctx_name;
            if (!nm) { snprintf(nb, sizeof nb, "ctx 0x%" PRIx64, ev->ctx); nm = nb; }
            thread_name(s, tid, nm);
            t->named = 1;
        }
        /* Running slice: the context of this event is the one running. */
        if (!s->running || s->running_tid != tid) {
            if (s->running) { common(s, "E", NULL, s->running_tid, ev->ts); evt_json_obj_end(&s->j); }
            common(s, "B", "running", tid, ev->ts);
            evt_json_obj_end(&s->j);
            s->running = 1;
            s->running_tid = tid;
        }
    }
    switch (ev->kind) {
    case EVT_KIND_ISR_ENTER:
        if (!s->isr_named) { thread_name(s, ISR_TID, "ISR"); s->isr_named = 1; }
        common(s, "B", ev->name, ISR_TID, ev->ts);
        args_of(s, ev);
        evt_json_obj_end(&s->j);
        s->isr_depth++;
        break;
    case EVT_KIND_ISR_EXIT:
        if (s->isr_depth > 0) {
            common(s, "E", NULL, ISR_TID, ev->ts);
            evt_json_obj_end(&s->j);
            s->isr_depth--;
        }
        break;
    case EVT_KIND_SVC_ENTER:
    case EVT_KIND_FUNC_ENTER:
        common(s, "B", ev->name, tid, ev->ts);
        args_of(s, ev);
        evt_json_obj_end(&s->j);
        break;
    case EVT_KIND_SVC_EXIT:
    case EVT_KIND_FUNC_EXIT:
        common(s, "E", NULL, tid, ev->ts);
        evt_json_obj_end(&s->j);
        break;
    default:
        common(s, "i", ev->name, tid, ev->ts);
        evt_json_kstr(&s->j, "s", "t");
        evt_json_kstr(&s->j, "cat", evt_kind_name(ev->kind));
        args_of(s, ev);
        evt_json_obj_end(&s->j);
        break;
    }
    return ferror(s->out) ? EVT_ERR_IO : EVT_OK;
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    chrome_state *s = state;
    if (s->running) { common(s, "E", NULL, s->running_tid, s->last_ts); evt_json_obj_end(&s->j); }
    while (s->isr_depth-- > 0) { common(s, "E", NULL, ISR_TID, s->last_ts); evt_json_obj_end(&s->j); }
    fputs("\n]}\n", s->out);
    int bad = ferror(s->out);
    if (fclose(s->out) != 0) bad = 1;
    evt_free(s->tracks);
    evt_free(s);
    if (bad) { snprintf(err, errlen, "write error"); return EVT_ERR_IO; }
    return EVT_OK;
}

static void abort_(void *state)
{
    chrome_state *s = state;
    fclose(s->out);
    evt_free(s->tracks);
    evt_free(s);
}

const evt_exporter_desc evt_exporter_chrome = {
    "chrome", ".json", "Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing)", 0,
    begin, event, end, abort_,
};
