/* Perfetto protobuf exporter (.perfetto-trace / .pftrace), TrackEvent packets, streamed.
 *
 * Tracks: one process track ("evtrace: FILE"); one thread track per context (thread/task/ISR/init
 * context, named from the trace) carrying its service and function slices (spans.h pairing) and
 * an instant for every other event; one "CPU n" track per CPU with a "running" slice per stretch
 * of the running context (named after it; same model as stats.h); one "ISRs (CPU n)" track per CPU
 * with the nested isr_enter..isr_exit slices; a "lost events" counter track (cumulative count)
 * when the trace loses data. Events without a context are instants on the process track.
 * Names, categories (the kind) and annotation keys are interned (InternedData) on one packet
 * sequence. Debug annotations carry id, args (arg0..), fields, object and text.
 * Timestamps: ns (the event's t_ns, which the reader registry sets whenever the clock is known);
 * when the clock is unknown one tick is written as one ns and the process track's name says so
 * ("time in ticks, clock rate unknown").
 * Memory: one packet's buffers, the interning tables and per-context state; no event is kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/analysis/spans.h"
#include "host/analysis/strtab.h"
#include "host/analysis/u64map.h"
#include "pb.h"

/* Field numbers (perfetto/protos/perfetto/trace/...). */
enum {
    F_TRACE_PACKET = 1,
    F_PKT_TIMESTAMP = 8, F_PKT_SEQ_ID = 10, F_PKT_TRACK_EVENT = 11, F_PKT_INTERNED = 12,
    F_PKT_SEQ_FLAGS = 13, F_PKT_TRACK_DESC = 60,
    F_TD_UUID = 1, F_TD_NAME = 2, F_TD_PROCESS = 3, F_TD_THREAD = 4, F_TD_PARENT = 5, F_TD_COUNTER = 8,
    F_PD_PID = 1, F_PD_NAME = 6,
    F_THD_PID = 1, F_THD_TID = 2, F_THD_NAME = 5,
    F_TE_CATEGORY_IIDS = 3, F_TE_DEBUG = 4, F_TE_TYPE = 9, F_TE_NAME_IID = 10, F_TE_TRACK = 11,
    F_TE_COUNTER_VALUE = 30,
    F_ID_CATEGORIES = 1, F_ID_NAMES = 2, F_ID_DEBUG_NAMES = 3,
    F_INT_IID = 1, F_INT_NAME = 2,
    F_DA_NAME_IID = 1, F_DA_UINT = 3, F_DA_INT = 4, F_DA_STRING = 6,
};
enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3, TYPE_COUNTER = 4 };
enum { SEQ_CLEARED = 1, SEQ_NEEDS = 2 };

#define SEQ_ID 1
#define UUID_PROCESS 1
#define UUID_LOST 2
#define UUID_CPU 0x100     /* + cpu */
#define UUID_ISR 0x200     /* + cpu */
#define UUID_CTX 0x10000   /* + context index */
#define MAX_CPUS 64

typedef struct pf_ctx {
    uint64_t ctx;            /* context id (valid when has_ctx) */
    int has_ctx;
    char *name;              /* owned display name */
    evt_span_stack stack;    /* open service/function slices */
} pf_ctx;

typedef struct pf_cpu {
    int described;           /* CPU track descriptor written */
    int isr_described;       /* ISR track descriptor written */
    int64_t run;             /* index of the context with an open running slice, -1 none */
    uint32_t isr_depth;      /* open ISR slices */
} pf_cpu;

typedef struct pf_state {
    FILE *out;
    evt_reader *r;           /* open until end(): its clock is read at the first event */
    int started;             /* the first packet (process track) is written: start_ */
    uint64_t hz;
    evt_pb pkt, te, td, sub, interned, names, cats, dnames, tmp; /* reusable buffers */
    evt_strtab events;       /* interned event names (iid = id) */
    evt_strtab categories;   /* interned categories */
    evt_strtab dbgnames;     /* interned annotation names */
    evt_strtab labels;       /* span labels (ids for evt_span_stack) */
    pf_ctx *ctxs;
    uint32_t nctx, cap;
    evt_u64map ctxmap;
    int64_t noctx_isr;       /* index of the "ISR" pseudo-context, -1 none */
    pf_cpu cpus[MAX_CPUS];
    uint32_t ncpus;
    int lost_described;
    uint64_t lost_total;
    uint64_t last_ns;
    int oom;
} pf_state;

static uint64_t ts_ns_(const pf_state *s, const evt_event *ev)
{
    if (!s->hz) return ev->ts;
    return (ev->flags & EVT_HAS_TNS) ? ev->t_ns : evt_ticks_to_ns(ev->ts, s->hz);
}

/* Write the packet in s->pkt as one Trace.packet. */
static int flush_packet_(pf_state *s)
{
    evt_pb_clear(&s->tmp);
    evt_pb_msg(&s->tmp, F_TRACE_PACKET, &s->pkt);
    if (s->tmp.oom || s->pkt.oom) { s->oom = 1; return 0; }
    if (fwrite(s->tmp.p, 1, s->tmp.n, s->out) != s->tmp.n) return 0;
    evt_pb_clear(&s->pkt);
    return 1;
}

static int track_desc_(pf_state *s, uint64_t uuid, const char *name, uint64_t parent, int thread_tid,
                       int is_counter)
{
    evt_pb_clear(&s->td);
    evt_pb_uint(&s->td, F_TD_UUID, uuid);
    if (parent) evt_pb_uint(&s->td, F_TD_PARENT, parent);
    evt_pb_str(&s->td, F_TD_NAME, name);
    if (thread_tid) {
        evt_pb_clear(&s->sub);
        evt_pb_int(&s->sub, F_THD_PID, 1);
        evt_pb_int(&s->sub, F_THD_TID, thread_tid);
        evt_pb_str(&s->sub, F_THD_NAME, name);
        evt_pb_msg(&s->td, F_TD_THREAD, &s->sub);
    }
    if (is_counter) {
        evt_pb_clear(&s->sub);
        evt_pb_msg(&s->td, F_TD_COUNTER, &s->sub);
    }
    evt_pb_clear(&s->pkt);
    evt_pb_uint(&s->pkt, F_PKT_SEQ_ID, SEQ_ID);
    evt_pb_msg(&s->pkt, F_PKT_TRACK_DESC, &s->td);
    return flush_packet_(s);
}

/* Interned id of str in table t; appends the InternedData entry to `list` when new. */
static uint64_t iid_(pf_state *s, evt_strtab *t, evt_pb *list, const char *str)
{
    int added;
    uint32_t id = evt_strtab_intern(t, str, strlen(str), &added);
    if (!id) { s->oom = 1; return 0; }
    if (added) {
        evt_pb_clear(&s->sub);
        evt_pb_uint(&s->sub, F_INT_IID, id);
        evt_pb_str(&s->sub, F_INT_NAME, str);
        evt_pb_msg(list, list == &s->cats ? F_ID_CATEGORIES : list == &s->names ? F_ID_NAMES : F_ID_DEBUG_NAMES,
                   &s->sub);
    }
    return id;
}

static void te_begin_(pf_state *s, int type, uint64_t track)
{
    evt_pb_clear(&s->te);
    evt_pb_clear(&s->names);
    evt_pb_clear(&s->cats);
    evt_pb_clear(&s->dnames);
    evt_pb_uint(&s->te, F_TE_TYPE, (uint64_t)type);
    evt_pb_uint(&s->te, F_TE_TRACK, track);
}

static void te_name_(pf_state *s, const char *name, const char *category)
{
    if (category) evt_pb_uint(&s->te, F_TE_CATEGORY_IIDS, iid_(s, &s->categories, &s->cats, category));
    evt_pb_uint(&s->te, F_TE_NAME_IID, iid_(s, &s->events, &s->names, name));
}

static void ann_u_(pf_state *s, const char *key, uint64_t v, int is_signed)
{
    evt_pb da = s->tmp; /* reuse tmp's storage as the annotation buffer */
    evt_pb_clear(&da);
    evt_pb_uint(&da, F_DA_NAME_IID, iid_(s, &s->dbgnames, &s->dnames, key));
    if (is_signed) evt_pb_int(&da, F_DA_INT, (int64_t)v);
    else evt_pb_uint(&da, F_DA_UINT, v);
    evt_pb_msg(&s->te, F_TE_DEBUG, &da);
    s->tmp = da;
}

static void ann_s_(pf_state *s, const char *key, const char *str, size_t n)
{
    evt_pb da = s->tmp;
    evt_pb_clear(&da);
    evt_pb_uint(&da, F_DA_NAME_IID, iid_(s, &s->dbgnames, &s->dnames, key));
    evt_pb_bytes(&da, F_DA_STRING, str, n);
    evt_pb_msg(&s->te, F_TE_DEBUG, &da);
    s->tmp = da;
}

static void annotations_(pf_state *s, const evt_event *ev)
{
    static const char *const argk[EVT_MAX_ARGS] = {"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
                                                   "arg8", "arg9", "arg10", "arg11", "arg12", "arg13", "arg14", "arg15"};
    ann_u_(s, "id", ev->id, 0);
    for (uint32_t i = 0; i < ev->nargs && i < EVT_MAX_ARGS; i++) ann_u_(s, argk[i], ev->args[i], 0);
    if (ev->flags & EVT_HAS_TARGET) {
        ann_u_(s, "target", ev->target, 0);
        if (ev->target_name) ann_s_(s, "object", ev->target_name, strlen(ev->target_name));
    }
    if (ev->flags & EVT_HAS_COUNT) ann_u_(s, "count", ev->count, 0);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        if (!f->key) continue;
        if (f->is_str) ann_s_(s, f->key, f->str ? f->str : "", f->str ? strlen(f->str) : 0);
        else ann_u_(s, f->key, f->num, f->is_signed);
    }
    if (ev->data && ev->data_is_text) ann_s_(s, "text", (const char *)ev->data, ev->data_len);
}

/* Finish the track event into a packet at ts and write it. */
static int te_emit_(pf_state *s, uint64_t ts)
{
    evt_pb_clear(&s->pkt);
    evt_pb_uint(&s->pkt, F_PKT_TIMESTAMP, ts);
    evt_pb_uint(&s->pkt, F_PKT_SEQ_ID, SEQ_ID);
    evt_pb_uint(&s->pkt, F_PKT_SEQ_FLAGS, SEQ_NEEDS);
    evt_pb_msg(&s->pkt, F_PKT_TRACK_EVENT, &s->te);
    if (s->names.n || s->cats.n || s->dnames.n) {
        evt_pb_clear(&s->interned);
        /* InternedData: concatenating already-encoded repeated fields is valid protobuf. */
        evt_pb *parts[3] = {&s->cats, &s->names, &s->dnames};
        for (int i = 0; i < 3; i++) {
            if (!parts[i]->n) continue;
            size_t need = s->interned.n + parts[i]->n;
            if (need > s->interned.cap) {
                uint8_t *np = evt_realloc(s->interned.p, need * 2);
                if (!np) { s->oom = 1; return 0; }
                s->interned.p = np;
                s->interned.cap = need * 2;
            }
            memcpy(s->interned.p + s->interned.n, parts[i]->p, parts[i]->n);
            s->interned.n += parts[i]->n;
        }
        evt_pb_msg(&s->pkt, F_PKT_INTERNED, &s->interned);
    }
    if (s->oom || s->te.oom || s->names.oom || s->cats.oom || s->dnames.oom) { s->oom = 1; return 0; }
    return flush_packet_(s);
}

static int slice_end_(pf_state *s, uint64_t track, uint64_t ts)
{
    te_begin_(s, TYPE_SLICE_END, track);
    return te_emit_(s, ts);
}

/* Context index for ev, writing its track descriptor on first sight; -1 on failure. */
static int64_t ctx_(pf_state *s, const evt_event *ev, int isr_pseudo)
{
    uint32_t idx;
    int has = (ev->flags & EVT_HAS_CTX) && !isr_pseudo;
    if (has && evt_u64map_get(&s->ctxmap, ev->ctx, &idx)) return idx;
    if (!has && s->noctx_isr >= 0) return s->noctx_isr;
    if (s->nctx == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 32;
        pf_ctx *n = evt_realloc(s->ctxs, nc * sizeof *n);
        if (!n) { s->oom = 1; return -1; }
        s->ctxs = n;
        s->cap = nc;
    }
    idx = s->nctx;
    pf_ctx *c = &s->ctxs[idx];
    memset(c, 0, sizeof *c);
    c->has_ctx = has;
    c->ctx = has ? ev->ctx : 0;
    char nb[64];
    const char *nm = has ? ev->ctx_name : "ISR";
    if (!nm) { snprintf(nb, sizeof nb, "ctx 0x%" PRIx64, ev->ctx); nm = nb; }
    c->name = evt_strdup(nm);
    if (!c->name) { s->oom = 1; return -1; }
    s->nctx++;
    if (has) {
        if (!evt_u64map_put(&s->ctxmap, ev->ctx, idx)) { s->oom = 1; return -1; }
    } else {
        s->noctx_isr = idx;
    }
    if (!track_desc_(s, UUID_CTX + idx, c->name, UUID_PROCESS, (int)idx + 2, 0)) return -1;
    return idx;
}

static pf_cpu *cpu_(pf_state *s, const evt_event *ev, uint32_t *num)
{
    uint32_t c = (ev->flags & EVT_HAS_CPU) ? ev->cpu : 0;
    if (c >= MAX_CPUS) c = MAX_CPUS - 1;
    if (c + 1 > s->ncpus) s->ncpus = c + 1;
    *num = c;
    return &s->cpus[c];
}

static void free_(pf_state *s);

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    pf_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->out = evt_out_fopen(path, "wb");
    if (!s->out) { snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno)); evt_free(s); return EVT_ERR_IO; }
    s->r = r;
    s->noctx_isr = -1;
    for (int i = 0; i < MAX_CPUS; i++) s->cpus[i].run = -1;
    *state = s;
    return EVT_OK;
}

/* First packet, at the first event (or the end): clears the sequence's incremental state and
 * describes the process track. The time unit is fixed here by the reader's clock as known then
 * (a reader may learn its rate from its first record, e.g. RKH's TCFG). Returns 0 on failure. */
static int start_(pf_state *s)
{
    evt_reader *r = s->r;
    s->started = 1;
    s->hz = r->clock_hz;
    evt_pb_clear(&s->td);
    evt_pb_uint(&s->td, F_TD_UUID, UUID_PROCESS);
    evt_pb_clear(&s->sub);
    evt_pb_int(&s->sub, F_PD_PID, 1);
    char nm[512];
    snprintf(nm, sizeof nm, "evtrace: %s (%s)%s", r->src.path ? r->src.path : "trace", r->desc->name,
             s->hz ? "" : " [time in ticks, clock rate unknown: 1 tick shown as 1 ns]");
    evt_pb_str(&s->sub, F_PD_NAME, nm);
    evt_pb_msg(&s->td, F_TD_PROCESS, &s->sub);
    evt_pb_uint(&s->pkt, F_PKT_SEQ_ID, SEQ_ID);
    evt_pb_uint(&s->pkt, F_PKT_SEQ_FLAGS, SEQ_CLEARED);
    evt_pb_msg(&s->pkt, F_PKT_TRACK_DESC, &s->td);
    return flush_packet_(s);
}

static int close_running_(pf_state *s, uint32_t cn, uint64_t ts)
{
    pf_cpu *c = &s->cpus[cn];
    if (c->run < 0) return 1;
    c->run = -1;
    return slice_end_(s, UUID_CPU + cn, ts);
}

/* Close every open slice at ts (a loss, or the end). */
static int close_all_(pf_state *s, uint64_t ts)
{
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_span_stack *st = &s->ctxs[i].stack;
        for (; st->n; st->n--)
            if (!slice_end_(s, UUID_CTX + i, ts)) return 0;
    }
    for (uint32_t c = 0; c < s->ncpus; c++) {
        for (; s->cpus[c].isr_depth; s->cpus[c].isr_depth--)
            if (!slice_end_(s, UUID_ISR + c, ts)) return 0;
        if (!close_running_(s, c, ts)) return 0;
    }
    return 1;
}

static evt_status event(void *state, const evt_event *ev)
{
    pf_state *s = state;
    if (!s->started && !start_(s)) return s->oom ? EVT_ERR_NOMEM : EVT_ERR_IO;
    uint64_t ts = ts_ns_(s, ev);
    if (ts > s->last_ns) s->last_ns = ts;
    uint32_t cn;
    pf_cpu *cpu = cpu_(s, ev, &cn);
    char lb[256], nb[64];
    int64_t ci = -1;
    if (ev->flags & EVT_HAS_CTX) {
        ci = ctx_(s, ev, 0);
        if (ci < 0) return s->oom ? EVT_ERR_NOMEM : EVT_ERR_IO;
    }
    /* Running slice on the CPU track. */
    if (ci >= 0 && ev->ctx_class != EVT_CTX_ISR && cpu->run != ci) {
        if (!cpu->described) {
            snprintf(nb, sizeof nb, "CPU %u", cn);
            if (!track_desc_(s, UUID_CPU + cn, nb, UUID_PROCESS, 0, 0)) return EVT_ERR_IO;
            cpu->described = 1;
        }
        if (!close_running_(s, cn, ts)) return EVT_ERR_IO;
        te_begin_(s, TYPE_SLICE_BEGIN, UUID_CPU + cn);
        te_name_(s, s->ctxs[ci].name, "running");
        if (!te_emit_(s, ts)) return EVT_ERR_IO;
        cpu->run = ci;
    }
    int is_begin;
    evt_span_cat cat = evt_span_cat_of(ev->kind, &is_begin);
    uint64_t track = ci >= 0 ? UUID_CTX + (uint64_t)ci : UUID_PROCESS;
    if (cat == EVT_SPAN_ISR) {
        if (!cpu->isr_described) {
            snprintf(nb, sizeof nb, "ISRs (CPU %u)", cn);
            if (!track_desc_(s, UUID_ISR + cn, nb, UUID_PROCESS, 0, 0)) return EVT_ERR_IO;
            cpu->isr_described = 1;
        }
        if (is_begin) {
            te_begin_(s, TYPE_SLICE_BEGIN, UUID_ISR + cn);
            te_name_(s, evt_event_label(ev, lb, sizeof lb), "isr");
            annotations_(s, ev);
            if (!te_emit_(s, ts)) return EVT_ERR_IO;
            cpu->isr_depth++;
        } else if (cpu->isr_depth) {
            if (!slice_end_(s, UUID_ISR + cn, ts)) return EVT_ERR_IO;
            cpu->isr_depth--;
        } else {
            te_begin_(s, TYPE_INSTANT, UUID_ISR + cn);
            te_name_(s, ev->name ? ev->name : "?", "isr_exit (unmatched)");
            annotations_(s, ev);
            if (!te_emit_(s, ts)) return EVT_ERR_IO;
        }
    } else if (cat != EVT_SPAN_NONE && ci >= 0) {
        evt_event_label(ev, lb, sizeof lb);
        uint32_t label = evt_strtab_intern(&s->labels, lb, strlen(lb), NULL);
        if (!label) return EVT_ERR_NOMEM;
        evt_span_stack *st = &s->ctxs[ci].stack;
        uint32_t k = is_begin ? 0 : evt_span_match(st, (uint8_t)cat, label);
        if (is_begin && evt_span_push(st, (uint8_t)cat, label, ev->ts)) {
            te_begin_(s, TYPE_SLICE_BEGIN, track);
            te_name_(s, lb, evt_span_cat_name(cat));
            annotations_(s, ev);
            if (!te_emit_(s, ts)) return EVT_ERR_IO;
        } else if (!is_begin && k) {
            for (; k; k--, st->n--)
                if (!slice_end_(s, track, ts)) return EVT_ERR_IO;
        } else {
            te_begin_(s, TYPE_INSTANT, track);
            te_name_(s, ev->name ? ev->name : "?", evt_kind_name(ev->kind));
            annotations_(s, ev);
            if (!te_emit_(s, ts)) return EVT_ERR_IO;
        }
    } else {
        if (ev->kind == EVT_KIND_LOST && !close_all_(s, ts)) return EVT_ERR_IO;
        te_begin_(s, TYPE_INSTANT, track);
        te_name_(s, ev->name ? ev->name : "?", evt_kind_name(ev->kind));
        annotations_(s, ev);
        if (!te_emit_(s, ts)) return EVT_ERR_IO;
        if (ev->kind == EVT_KIND_LOST) {
            if (!s->lost_described) {
                if (!track_desc_(s, UUID_LOST, "lost events", UUID_PROCESS, 0, 1)) return EVT_ERR_IO;
                s->lost_described = 1;
            }
            s->lost_total += (ev->flags & EVT_HAS_COUNT) ? ev->count : 0;
            te_begin_(s, TYPE_COUNTER, UUID_LOST);
            evt_pb_int(&s->te, F_TE_COUNTER_VALUE, (int64_t)s->lost_total);
            if (!te_emit_(s, ts)) return EVT_ERR_IO;
        }
    }
    if (ci >= 0 && ev->ctx_class != EVT_CTX_ISR && ev->kind == EVT_KIND_THREAD_STOP &&
        (!(ev->flags & EVT_HAS_TARGET) || ev->target == ev->ctx) && cpu->run == ci) {
        if (!close_running_(s, cn, ts)) return EVT_ERR_IO;
    }
    if (s->oom) return EVT_ERR_NOMEM;
    return ferror(s->out) ? EVT_ERR_IO : EVT_OK;
}

static void free_(pf_state *s)
{
    evt_pb *bufs[] = {&s->pkt, &s->te, &s->td, &s->sub, &s->interned, &s->names, &s->cats, &s->dnames, &s->tmp};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) evt_pb_free(bufs[i]);
    evt_strtab_free(&s->events);
    evt_strtab_free(&s->categories);
    evt_strtab_free(&s->dbgnames);
    evt_strtab_free(&s->labels);
    for (uint32_t i = 0; i < s->nctx; i++) {
        evt_free(s->ctxs[i].name);
        evt_span_stack_free(&s->ctxs[i].stack);
    }
    evt_free(s->ctxs);
    evt_u64map_free(&s->ctxmap);
    evt_free(s);
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    pf_state *s = state;
    int ok = (s->started || start_(s)) && close_all_(s, s->last_ns);
    if (ferror(s->out)) ok = 0;
    if (fclose(s->out) != 0) ok = 0;
    int oom = s->oom;
    free_(s);
    if (!ok) { snprintf(err, errlen, oom ? "out of memory" : "write error"); return oom ? EVT_ERR_NOMEM : EVT_ERR_IO; }
    return EVT_OK;
}

static void abort_(void *state)
{
    pf_state *s = state;
    fclose(s->out);
    free_(s);
}

const evt_exporter_desc evt_exporter_perfetto = {
    "perfetto", ".pftrace", "Perfetto protobuf trace (TrackEvent; ui.perfetto.dev, trace_processor)", 0,
    begin, event, end, abort_, 1,
};
