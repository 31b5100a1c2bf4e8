/* Chrome trace-event JSON exporter (opens in ui.perfetto.dev and chrome://tracing).
 * One process per trace; one track (tid) per thread/task named from the trace, one "ISR" track.
 * Running slices come from context changes (the context of consecutive events), ISR slices from
 * isr_enter/isr_exit, service/function slices from enter/exit pairs per context, and every
 * other event is an instant on its context's track. Running slices are per CPU (the context of
 * the latest event on a CPU runs there); B/E slices must nest per track, so when a context stops
 * running its open service/function slices are closed and reopened (args.resumed) when it runs
 * again: a blocking call shows as pieces, each inside a running slice. Events with a string field
 * "state_entered" (state machines) also draw state-occupancy slices on a "<context> (state)" track.
 * Events without a context go to a "global" track. Timestamps ("ts", microseconds) come from the
 * event's t_ns when the clock is known, written exactly as integer µs plus up to 3 decimals (ns);
 * otherwise one tick is shown as one microsecond and otherData says "time_unit":"ticks".
 * Speed: records are assembled in a 64 KiB output buffer (constant keys copied whole, integers
 * formatted two digits at a time, plain-ASCII strings copied) and written in chunks; only strings
 * that need escaping or UTF-8 repair go through the JSON writer. The header is written at the first
 * event, when the reader's clock is known. Streams: state is one
 * open slice per context (a small table) and a stack depth per context. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/json.h"
#include "evtrace/out.h"

#define ISR_TID 1     /* track for interrupt contexts; thread tracks use tid >= 2 */
#define GLOBAL_TID 0  /* track for events without a context (configuration, symbols, markers) */
#define STATE_TID_BASE 1000000u /* state tracks: STATE_TID_BASE + the context's tid */
#define MAX_DEPTH 32  /* open service/function slices kept per track; deeper ones are counted */
#define MAX_CPUS 256  /* CPUs tracked for "which context runs where" */
#define NAME_LEN 64
#define OUT_CAP 65536 /* output buffer (see buf_flush_) */

/* One track: a context, its open slices (a stack) and whether it is running. */
typedef struct ctx_track {
    uint64_t ctx;                      /* context id */
    uint32_t tid;                      /* Chrome tid */
    int named;                         /* 0: no thread_name yet, 1: placeholder, 2: real name */
    int running_cpu;                   /* CPU it runs on, or -1 */
    int depth;                         /* open service/function slices */
    int state_open;                    /* a state-occupancy slice is open on its state track */
    int state_named;                   /* the state track's thread_name was written */
    int overflow;                      /* enters beyond MAX_DEPTH not yet exited */
    char open[MAX_DEPTH][NAME_LEN];    /* names of the open slices, bottom first */
} ctx_track;

typedef struct chrome_state {
    FILE *out;
    evt_reader *r;                     /* open until end(): its clock is read at the first event */
    int started;                       /* the header is written (start_) */
    evt_json j;
    uint64_t hz;
    int ns;                            /* 1: times are ns (clock known), 0: ticks */
    size_t n;                          /* bytes pending in buf */
    char buf[OUT_CAP];
    ctx_track **tracks;                /* all thread tracks (pointers stay valid) */
    uint32_t ntracks, cap;
    ctx_track *on_cpu[MAX_CPUS];       /* the context running on each CPU, or NULL */
    ctx_track isr;                     /* the ISR track */
    ctx_track global;                  /* events without a context */
    int global_named;
    uint64_t last_ts;                  /* time of the latest event (exporter's unit) */
    int isr_named;
} chrome_state;

/* The time of an event in the exporter's unit: ns when the clock is known, else ticks. */
static uint64_t time_of(const chrome_state *s, const evt_event *ev)
{
    if (!s->ns) return ev->ts;
    return (ev->flags & EVT_HAS_TNS) ? ev->t_ns : evt_ticks_to_ns(ev->ts, s->hz);
}

/* Output buffer: records are assembled here (constant text and integers) and written in
 * OUT_CAP chunks. Invariant: before any evt_json call the buffer is flushed (buf_flush_), so the
 * bytes reach the file in order. */
#define OUT_SLACK 512 /* room every buf_reserve_ guarantees: > any record prefix or one number */
#define BUF_LIT(s, lit) buf_put_((s), (lit), sizeof(lit) - 1)
static void buf_flush_(chrome_state *s)
{
    if (s->n) fwrite(s->buf, 1, s->n, s->out);
    s->n = 0;
}
static void buf_reserve_(chrome_state *s)
{
    if (OUT_CAP - s->n < OUT_SLACK) buf_flush_(s);
}
static void buf_put_slow_(chrome_state *s, const char *p, size_t n)
{
    buf_flush_(s);
    if (n > OUT_CAP) { fwrite(p, 1, n, s->out); return; }
    memcpy(s->buf, p, n);
    s->n = n;
}
static inline void buf_put_(chrome_state *s, const char *p, size_t n)
{
    if (n > OUT_CAP - s->n) { buf_put_slow_(s, p, n); return; }
    memcpy(s->buf + s->n, p, n);
    s->n += n;
}
/* Decimal digits, two at a time (k_d2: "00".."99"), written backwards into a 20-byte scratch. */
static const char k_d2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
static inline void buf_u64_(chrome_state *s, uint64_t v)
{
    char d[20];
    size_t k = sizeof d;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        d[--k] = k_d2[2 * r + 1];
        d[--k] = k_d2[2 * r];
    }
    if (v >= 10) { d[--k] = k_d2[2 * v + 1]; d[--k] = k_d2[2 * v]; }
    else d[--k] = (char)('0' + v);
    buf_put_(s, d + k, sizeof d - k);
}
static void buf_i64_(chrome_state *s, int64_t v)
{
    if (v < 0) { BUF_LIT(s, "-"); buf_u64_(s, 0 - (uint64_t)v); }
    else buf_u64_(s, (uint64_t)v);
}
/* "ts" value in µs: ns as integer µs and up to three decimals (trailing zeros dropped); ticks as
 * integer µs (1 tick = 1 µs). Exact: no floating point. */
static void buf_time_(chrome_state *s, uint64_t t)
{
    if (!s->ns) { buf_u64_(s, t); return; }
    buf_u64_(s, t / 1000);
    unsigned f = (unsigned)(t % 1000);
    if (!f) return;
    char d[4] = {'.', (char)('0' + f / 100), (char)('0' + f / 10 % 10), (char)('0' + f % 10)};
    buf_put_(s, d, f % 100 == 0 ? 2 : f % 10 == 0 ? 3 : 4);
}
/* A JSON string: printable ASCII without '"' or '\\' (names, keys: the usual case) is copied as it
 * is; anything else goes through the JSON writer (UTF-8 checks, escapes). */
static void buf_strn_(chrome_state *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
            buf_flush_(s);
            evt_json_init(&s->j, s->out, 0);
            s->j.after_key = 1; /* the string alone: no separator */
            evt_json_strn(&s->j, p, n);
            return;
        }
    }
    BUF_LIT(s, "\"");
    buf_put_(s, p, n);
    BUF_LIT(s, "\"");
}
static void buf_str_(chrome_state *s, const char *p) { buf_strn_(s, p, strlen(p)); }

/* Opens a record: {"ph":PH[,"name":NAME],"pid":1,"tid":TID,"ts":T — the object stays open. */
static void common(chrome_state *s, const char *ph, const char *name, uint32_t tid, uint64_t t)
{
    buf_reserve_(s);
    BUF_LIT(s, ",\n{\"ph\":\"");
    buf_put_(s, ph, strlen(ph));
    BUF_LIT(s, "\"");
    if (name) {
        BUF_LIT(s, ",\"name\":");
        buf_str_(s, name);
    }
    BUF_LIT(s, ",\"pid\":1,\"tid\":");
    buf_u64_(s, tid);
    BUF_LIT(s, ",\"ts\":");
    buf_time_(s, t);
}

static void thread_name(chrome_state *s, uint32_t tid, const char *name)
{
    common(s, "M", "thread_name", tid, 0);
    BUF_LIT(s, ",\"args\":{\"name\":");
    buf_str_(s, name);
    BUF_LIT(s, "}}");
}

static void simple(chrome_state *s, const char *ph, const char *name, uint32_t tid, uint64_t ts)
{
    common(s, ph, name, tid, ts);
    BUF_LIT(s, "}");
}

static ctx_track *track_for(chrome_state *s, uint64_t ctx)
{
    for (uint32_t i = 0; i < s->ntracks; i++)
        if (s->tracks[i]->ctx == ctx) return s->tracks[i];
    if (s->ntracks == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 64;
        ctx_track **n = evt_realloc(s->tracks, nc * sizeof *n);
        if (!n) return NULL;
        s->tracks = n;
        s->cap = nc;
    }
    ctx_track *t = evt_calloc(1, sizeof *t);
    if (!t) return NULL;
    t->ctx = ctx;
    t->tid = s->ntracks + 2;
    t->running_cpu = -1;
    s->tracks[s->ntracks++] = t;
    return t;
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    chrome_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->out = evt_out_fopen(path, "w");
    if (!s->out) { snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno)); evt_free(s); return EVT_ERR_IO; }
    s->r = r;
    s->isr.tid = ISR_TID;
    s->isr.running_cpu = -1;
    s->global.tid = GLOBAL_TID;
    s->global.running_cpu = -1;
    *state = s;
    return EVT_OK;
}

/* The header, at the first event (or the end): the time unit is fixed by the reader's clock as
 * known then (a reader may learn its rate from its first record, e.g. RKH's TCFG). */
static void start_(chrome_state *s)
{
    evt_reader *r = s->r;
    s->started = 1;
    s->hz = r->clock_hz;
    s->ns = s->hz != 0;
    /* otherData says what "ts" means: real time (time_unit "ns": ts = t_ns / 1000) or ticks of an
     * unknown rate (time_unit "ticks": one tick is shown as one µs). */
    fprintf(s->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"evtrace\",\"format\":\"%s\","
                    "\"clock_hz\":%" PRIu64 ",\"clock_source\":\"%s\",\"time_unit\":\"%s\"%s},\n\"traceEvents\":[\n",
            r->desc->name, s->hz, evt_clock_source_name(evt_reader_clock_source(r)), s->ns ? "ns" : "ticks",
            s->ns ? "" : ",\"time_note\":\"clock rate unknown: 1 tick is shown as 1 us (give it with --clock-hz HZ)\"");
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
}

/* ,"args":{"id":N,"args":[...],"object":...,fields...,"text":...} */
static void args_of(chrome_state *s, const evt_event *ev)
{
    BUF_LIT(s, ",\"args\":{\"id\":");
    buf_u64_(s, ev->id);
    BUF_LIT(s, ",\"args\":[");
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (i) BUF_LIT(s, ",");
        buf_u64_(s, ev->args[i]);
    }
    BUF_LIT(s, "]");
    if (ev->target_name) {
        BUF_LIT(s, ",\"object\":");
        buf_str_(s, ev->target_name);
    }
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        BUF_LIT(s, ",");
        buf_str_(s, f->key);
        BUF_LIT(s, ":");
        if (f->is_str && f->str) buf_str_(s, f->str);
        else if (f->is_str) BUF_LIT(s, "null");
        else if (f->is_signed) buf_i64_(s, (int64_t)f->num);
        else buf_u64_(s, f->num);
    }
    if (ev->data && ev->data_is_text) {
        BUF_LIT(s, ",\"text\":");
        buf_strn_(s, (const char *)ev->data, ev->data_len);
    }
    BUF_LIT(s, "}");
}

/* A context stops running: close its open slices (top first), then its running slice. */
static void switch_out(chrome_state *s, ctx_track *t, uint64_t ts)
{
    for (int i = t->depth - 1; i >= 0; i--) simple(s, "E", NULL, t->tid, ts);
    simple(s, "E", NULL, t->tid, ts);
    if (t->running_cpu >= 0 && s->on_cpu[t->running_cpu] == t) s->on_cpu[t->running_cpu] = NULL;
    t->running_cpu = -1;
}

/* A context starts running on cpu: running slice first, then its open slices again. */
static void switch_in(chrome_state *s, ctx_track *t, int cpu, uint64_t ts)
{
    if (t->running_cpu == cpu) return;
    if (t->running_cpu >= 0) switch_out(s, t, ts);          /* migrated from another CPU */
    if (s->on_cpu[cpu]) switch_out(s, s->on_cpu[cpu], ts);  /* the previous context on this CPU */
    simple(s, "B", "running", t->tid, ts);
    for (int i = 0; i < t->depth; i++) {
        common(s, "B", t->open[i], t->tid, ts);
        BUF_LIT(s, ",\"args\":{\"resumed\":true}}");
    }
    t->running_cpu = cpu;
    s->on_cpu[cpu] = t;
}

/* Slice name: a function event is named after its function (fields.function) when known. */
static const char *slice_name(const evt_event *ev)
{
    if (ev->kind == EVT_KIND_FUNC_ENTER)
        for (uint32_t i = 0; i < ev->nfields; i++)
            if (ev->fields[i].is_str && ev->fields[i].str && strcmp(ev->fields[i].key, "function") == 0)
                return ev->fields[i].str;
    return ev->name ? ev->name : "?";
}

static void slice_begin(chrome_state *s, ctx_track *t, const evt_event *ev)
{
    if (t->depth >= MAX_DEPTH) { t->overflow++; return; }
    const char *name = slice_name(ev);
    snprintf(t->open[t->depth++], NAME_LEN, "%s", name);
    common(s, "B", name, t->tid, time_of(s, ev));
    args_of(s, ev);
    BUF_LIT(s, "}");
}

static void slice_end(chrome_state *s, ctx_track *t, uint64_t ts)
{
    if (t->overflow) { t->overflow--; return; }
    if (t->depth == 0) return; /* an exit whose enter was before the trace began */
    t->depth--;
    simple(s, "E", NULL, t->tid, ts);
}

/* The state an event says its context is now in: a string field "state_entered" (set by readers of
 * state-machine traces), or NULL. */
static const char *state_of(const evt_event *ev)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (ev->fields[i].is_str && ev->fields[i].str && strcmp(ev->fields[i].key, "state_entered") == 0)
            return ev->fields[i].str;
    return NULL;
}

static evt_status event(void *state, const evt_event *ev)
{
    chrome_state *s = state;
    if (!s->started) start_(s);
    uint64_t tm = time_of(s, ev);
    s->last_ts = tm;
    ctx_track *t = &s->isr;
    if (ev->ctx_class == EVT_CTX_ISR || ev->kind == EVT_KIND_ISR_ENTER || ev->kind == EVT_KIND_ISR_EXIT) {
        if (!s->isr_named) { thread_name(s, ISR_TID, "ISR"); s->isr_named = 1; }
    } else if (!(ev->flags & EVT_HAS_CTX)) {
        t = &s->global;
        if (!s->global_named) { thread_name(s, GLOBAL_TID, "global"); s->global_named = 1; }
    } else {
        t = track_for(s, ev->ctx);
        if (!t) return EVT_ERR_NOMEM;
        /* named: 0 not yet, 1 with a placeholder, 2 with the context's name (written again when
         * a name shows up later: the last thread_name wins in the viewers) */
        if (t->named == 0 || (t->named == 1 && ev->ctx_name)) {
            char nb[64];
            const char *nm = ev->ctx_name;
            if (!nm) { snprintf(nb, sizeof nb, "ctx 0x%" PRIx64, ev->ctx); nm = nb; }
            thread_name(s, t->tid, nm);
            t->named = ev->ctx_name ? 2 : 1;
        }
        int cpu = (ev->flags & EVT_HAS_CPU) ? (int)(ev->cpu % MAX_CPUS) : 0;
        switch_in(s, t, cpu, tm);
    }
    const char *st_name = state_of(ev);
    if (st_name && t != &s->isr && t != &s->global) {
        /* State occupancy (state machines, e.g. RKH SM_STATE): one slice per state on a state
         * track beside the context's track. */
        uint32_t stid = STATE_TID_BASE + t->tid;
        if (!t->state_named) {
            char nb[96];
            snprintf(nb, sizeof nb, "%s (state)", ev->ctx_name ? ev->ctx_name : "context");
            thread_name(s, stid, nb);
            t->state_named = 1;
        }
        if (t->state_open) simple(s, "E", NULL, stid, tm);
        simple(s, "B", st_name, stid, tm);
        t->state_open = 1;
    }
    switch (ev->kind) {
    case EVT_KIND_ISR_ENTER:
    case EVT_KIND_SVC_ENTER:
    case EVT_KIND_FUNC_ENTER:
        slice_begin(s, t, ev);
        break;
    case EVT_KIND_ISR_EXIT:
    case EVT_KIND_SVC_EXIT:
    case EVT_KIND_FUNC_EXIT:
        slice_end(s, t, tm);
        break;
    default:
        common(s, "i", ev->name, t->tid, tm);
        BUF_LIT(s, ",\"s\":\"t\",\"cat\":");
        buf_str_(s, evt_kind_name(ev->kind));
        args_of(s, ev);
        BUF_LIT(s, "}");
        break;
    }
    return ferror(s->out) ? EVT_ERR_IO : EVT_OK;
}

static void free_state(chrome_state *s)
{
    for (uint32_t i = 0; i < s->ntracks; i++) evt_free(s->tracks[i]);
    evt_free(s->tracks);
    evt_free(s);
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    chrome_state *s = state;
    if (!s->started) start_(s);
    for (uint32_t i = 0; i < s->ntracks; i++) {
        if (s->tracks[i]->running_cpu >= 0) switch_out(s, s->tracks[i], s->last_ts);
        if (s->tracks[i]->state_open) simple(s, "E", NULL, STATE_TID_BASE + s->tracks[i]->tid, s->last_ts);
    }
    for (int i = s->isr.depth - 1; i >= 0; i--) simple(s, "E", NULL, ISR_TID, s->last_ts);
    BUF_LIT(s, "\n]}\n");
    buf_flush_(s);
    int bad = ferror(s->out);
    if (fclose(s->out) != 0) bad = 1;
    free_state(s);
    if (bad) { snprintf(err, errlen, "write error"); return EVT_ERR_IO; }
    return EVT_OK;
}

static void abort_(void *state)
{
    chrome_state *s = state;
    fclose(s->out);
    free_state(s);
}

const evt_exporter_desc evt_exporter_chrome = {
    "chrome", ".json", "Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing)", 0,
    begin, event, end, abort_, 1,
};
