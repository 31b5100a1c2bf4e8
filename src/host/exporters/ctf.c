/* CTF 1.8 exporter laid out as LTTng lays out a kernel or UST trace, readable by babeltrace2 and
 * Trace Compass: a directory with the TSDL `metadata` and one stream file per CPU, `stream_N`
 * (the event's cpu when the format records one, else CPU 0), packet context with `cpu_id`.
 *
 * - Byte layout: ctf.h. Compact 32-bit event header (5-bit class id, 27-bit clock) as LTTng's,
 *   extended (13 bytes) when the id is over 30 or the clock jumped by 2^27 or more.
 * - Clock `evtrace_clock` (freq 1 GHz): the event's t_ns when the clock is known, so every
 *   output shows the same ns; otherwise the raw ticks, 1 tick shown as 1 ns, and the clock's
 *   description and `env.time_unit` say "ticks". Within a stream a clock value that goes
 *   backwards is written as the previous one.
 * - Event classes (ctf_class.c): names, kinds and format ids live in the metadata, one class per
 *   layout (name, kind, format id, fields), integers sized to the values (8/16/32/64 bits).
 *   Payload: ctx (a dense context index), prio, seq, count, target, arg0..argN-1, the reader's
 *   fields, then text (a string) or data (bytes); each only where the event has it. Short string
 *   fields are label indexes (CTF enumerations, ctf.h); a raw arg that repeats a decoded field
 *   is an alias, not written (ctf.h). The raw tick `ts` and the source offset are not written
 *   (the header carries the time).
 * - Names once: the first event of a context (and one whose context name changed) is preceded
 *   by an `evtrace_ctx_name` event {ctx index, ctx id, ctx class, name}; an event whose target
 *   has a new name by `evtrace_obj_name` {target, name}. Same stream, same time.
 * - A lost event ends its CPU's current packet, adds its count to that stream's (cumulative)
 *   events_discarded, so babeltrace2 reports the discarded events there, and is also written.
 * - Scheduling as LTTng records it: every event is first fed to the one timeline, whose
 *   switches, wake-ups and ISRs are written as sched_switch, sched_waking, irq_handler_entry /
 *   irq_handler_exit before the event (ctf_sched.c).
 * Memory: one packet buffer per CPU (1 KiB, grown to 32 KiB as used), the classes (per layout), the context and object tables, the timeline;
 * the metadata is written at the end, when every class is known. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "formats/common/bytes.h"
#include "host/ro_image.h"
#include "host/strtab.h"
#include "host/u64map.h"
#include "host/exporters/ctf.h"

#define EVT_CTF_PACKET 32768       /* bytes per packet (bigger when one event needs it) */
#define FIRST_CAP 1024             /* a stream's first buffer: grown to the packet size as used */
#define MAX_OPEN 200               /* stream files kept open; the others are appended to on flush */
/* The largest clock value written. babeltrace2 converts a clock value to signed 64-bit ns from
 * the origin and refuses a stream with a value of INT64_MAX or more ("Failed to convert raw
 * timestamp to nanoseconds since Epoch", "Cannot convert clock cycles to nanoseconds from
 * origin"); it also takes a timestamp_end of 2^64-1 as "unknown" and then
 * aborts on a packet with discarded events. A larger time (a damaged timestamp, t_ns saturated
 * at 2^64-1) is written as this value and counted in env.time_clamped. */
#define CTF_CLOCK_MAX ((uint64_t)INT64_MAX - 1)

typedef struct ctf_stream {
    uint32_t cpu;
    uint8_t *buf;            /* current packet (header filled at flush) */
    size_t n, cap;           /* bytes used (from CTF_HDR_SIZE), capacity */
    size_t room;             /* room_of_(cap): n + an event's bytes up to this need no room_ */
    uint64_t ts_begin, ts_end; /* first/last clock value in the packet */
    uint64_t last_ts;        /* last clock value written: what a reader's clock holds */
    uint64_t discarded;      /* cumulative events_discarded */
    uint64_t seq;            /* packet_seq_num of the next packet */
    uint32_t nev;            /* events in the current packet */
    FILE *fp;                /* open file, or NULL */
    int created;             /* file exists */
} ctf_stream;

/* The flags that decide which literal fields an event has (ctx prio seq count target). */
#define SHAPE_FLAGS (EVT_HAS_CTX | EVT_HAS_PRIO | EVT_HAS_SEQ | EVT_HAS_COUNT | EVT_HAS_TARGET)

/* The last event of a (kind, id) hash slot, for fast_class_: its (kind, id), shape (SHAPE_FLAGS,
 * nargs << 8, nfields << 16, data kind << 24: 1 text, 2 bytes), its reader fields' types (2 bits
 * each) and its layout id (0: slot unused); cid: a class of that layout found to have raw keys
 * where events of this shape have reader fields, and aliases of integer value fields only
 * (UINT32_MAX: none yet). */
#define CTF_FAST_RO 8 /* reader keys remembered per slot (ctf_fast.ro_key) */
typedef struct ctf_fast {
    uint64_t key;
    uint64_t types;
    uint32_t shape;
    uint32_t lid;
    uint32_t cid;
    /* Since cid was set: the event name and the first CTF_FAST_RO reader keys found equal to the
     * class's, each kept only when it lies in the program's read-only image (evt_ro_image: its
     * text never changes, so an event with the same pointer has the same text); NULL: none. A
     * reader's other strings live only until its next event (model.h) and are compared. */
    const char *ro_name;
    const char *ro_key[CTF_FAST_RO];
} ctf_fast;

typedef struct ctf_state {
    char *dir;
    const evt_reader *r;     /* open until end(): its clock is read at the first event */
    int started;             /* hz is fixed (the first event was seen) */
    uint64_t hz;             /* clock rate; 0: timestamps are ticks */
    uint8_t uuid[16];
    ctf_stream *st;
    uint32_t nst, cap, nopen;
    evt_u64map cpumap;       /* cpu -> stream index */
    uint32_t last_cpu, last_si; /* the latest stream_of_ answer (valid when has_last) */
    int has_last;
    ctf_classes cls;
    evt_u64map ctxmap;       /* ctx id -> ctx index */
    struct ctf_ctxname { uint32_t id; const char *s; } *ctxname; /* [index]: name id in names (0: none
                             * yet) and its text there (strtab strings never move) */
    uint32_t nctx, ctxcap;
    evt_u64map objmap;       /* target -> name id in names */
    evt_strtab names;
    evt_strtab labels;       /* short strings of reader fields written as label indexes (ctf.h) */
    struct ctf_recent_label { const char *s; size_t len; uint32_t id; } rlabel[16]; /* labels found lately
                             * (len 0: none), by a hash of length, first and last byte */
    uint64_t lctx;           /* the context id of the latest ctx_index_ call, its index lctx_ix */
    uint32_t lctx_ix;
    int has_lctx;
    struct ctf_recent_obj { uint64_t target; const char *s; } robj[64]; /* objmap entries met lately
                             * (s NULL: none), by target: its name's text in names */
    ctf_sched sched;         /* the timeline and its scheduling records (started with the clock) */
    uint64_t time_clamped;   /* clock values past CTF_CLOCK_MAX written as CTF_CLOCK_MAX */
    struct { uint64_t key; int ok; char s[64]; } emf[256]; /* EMF URI of recent (kind, id) pairs */
    ctf_fast fast[256];      /* by the same hash of (kind, id) */
    evt_ro_image ro;         /* the program's read-only image (ctf_fast's remembered strings) */
} ctf_state;

/* ---- streams ------------------------------------------------------------------------------ */
/* Write the current packet of stream i (an empty one only when `force`). */
static int flush_(ctf_state *s, uint32_t i, int force)
{
    ctf_stream *c = &s->st[i];
    if (c->nev == 0 && !force) return 1;
    uint8_t *h = c->buf;
    uint64_t bits = (uint64_t)c->n * 8;
    evt_put_u32le(h + 0, CTF_MAGIC);
    memcpy(h + 4, s->uuid, 16);
    evt_put_u32le(h + 20, 0);          /* stream_id */
    evt_put_u64le(h + 24, c->cpu);     /* stream_instance_id */
    evt_put_u64le(h + 32, c->ts_begin);
    evt_put_u64le(h + 40, c->ts_end);
    evt_put_u64le(h + 48, bits);       /* content_size */
    evt_put_u64le(h + 56, bits);       /* packet_size */
    evt_put_u64le(h + 64, c->seq);
    evt_put_u64le(h + 72, c->discarded);
    evt_put_u32le(h + 80, c->cpu);
    FILE *fp = c->fp;
    if (!fp) {
        char p[4200];
        if (snprintf(p, sizeof p, "%s/stream_%" PRIu32, s->dir, c->cpu) >= (int)sizeof p) return 0;
        fp = evt_out_fopen(p, c->created ? "ab" : "wb");
        if (!fp) return 0;
        c->created = 1;
        if (s->nopen < MAX_OPEN) { c->fp = fp; s->nopen++; }
    }
    int ok = fwrite(c->buf, 1, c->n, fp) == c->n;
    if (!c->fp && fclose(fp) != 0) ok = 0;
    c->n = CTF_HDR_SIZE;
    c->nev = 0;
    c->seq++;
    return ok;
}

/* The bytes a stream of this capacity holds without a flush or growth (8 spare: ctf.c's puts). */
static size_t room_of_(size_t cap) { return cap - 8 < EVT_CTF_PACKET ? cap - 8 : EVT_CTF_PACKET; }

static int64_t stream_new_(ctf_state *s, uint32_t cpu);

/* Index of CPU cpu's stream (made on first use); -1 when out of memory. */
static inline int64_t stream_of_(ctf_state *s, uint32_t cpu)
{
    if (s->has_last && s->last_cpu == cpu) return s->last_si; /* most events: the CPU of the one before */
    return stream_new_(s, cpu);
}

/* stream_of_ for a CPU other than the last one asked for. */
static int64_t stream_new_(ctf_state *s, uint32_t cpu)
{
    uint32_t idx;
    if (evt_u64map_get(&s->cpumap, cpu, &idx)) {
        s->last_cpu = cpu;
        s->last_si = idx;
        s->has_last = 1;
        return idx;
    }
    if (s->nst == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 4;
        ctf_stream *n = evt_realloc(s->st, nc * sizeof *n);
        if (!n) return -1;
        s->st = n;
        s->cap = nc;
    }
    idx = s->nst;
    ctf_stream *c = &s->st[idx];
    memset(c, 0, sizeof *c);
    c->cpu = cpu;
    c->cap = FIRST_CAP;
    c->room = room_of_(FIRST_CAP);
    c->buf = evt_malloc(c->cap);
    if (!c->buf) return -1;
    c->n = CTF_HDR_SIZE;
    s->nst++;
    if (!evt_u64map_put(&s->cpumap, cpu, idx)) return -1;
    return idx;
}

/* ---- writing one event -------------------------------------------------------------------- */
/* Room for an event of `need` bytes in stream si: the packet flushed when it would pass
 * EVT_CTF_PACKET (unless empty), the buffer grown to hold it and 8 spare bytes. */
static __attribute__((noinline)) evt_status room_(ctf_state *s, uint32_t si, size_t need)
{
    ctf_stream *c = &s->st[si];
    if (c->n + need > EVT_CTF_PACKET && c->nev > 0 && !flush_(s, si, 0)) return EVT_ERR_IO;
    if (c->n + need + 8 > c->cap) {
        size_t nc = c->cap;
        while (nc < c->n + need + 8) nc *= 2;
        uint8_t *np = evt_realloc(c->buf, nc);
        if (!np) return EVT_ERR_NOMEM;
        c->buf = np;
        c->cap = nc;
        c->room = room_of_(nc);
    }
    return EVT_OK;
}

/* Every value of u is in the range of its written field of class k (ctf_class.put). */
static int fits_(const ctf_class *k, const uint64_t *u)
{
    for (uint32_t j = 0; j < k->nw; j++)
        if ((u[k->put[j].i] + k->put[j].add) & k->put[j].out) return 0;
    return 1;
}

/* Append an event of class `id` with values u (integers, label indexes) and sb (whole strings,
 * bytes) to stream si at clock value t, following the class's write plan (ctf_class.put).
 * Integers are stored as 8 bytes and the cursor moves by their width (the buffer keeps 8 bytes
 * spare). fit non-NULL: the class is only likely, and when a value is out of its field's range
 * nothing is written (the stream as it was) and *fit is set to 0: the caller finds the class it
 * needs (ctf_class_for). Always inlined (three callers): the call of seven arguments was about
 * 30 instructions an event. */
static inline __attribute__((always_inline)) evt_status emit_(ctf_state *s, uint32_t si, uint32_t id, uint64_t t,
                                                              const uint64_t *u, const ctf_bytes *sb, int *fit)
{
    const ctf_class *k = s->cls.cls[id];
    ctf_stream *c = &s->st[si];
    size_t need = CTF_EXTENDED_SIZE + k->fixed;
    if (k->nvar)
        for (uint32_t j = 0; j < k->nw; j++)
            if (!k->put[j].w) need += sb[k->put[j].i].len + (k->f[k->put[j].i].type == CTF_FT_BYTES ? 4 : 1);
    if (c->n + need > c->room) {
        /* room_ may flush, which only the class written may decide */
        if (fit && !fits_(k, u)) { *fit = 0; return EVT_OK; }
        evt_status st = room_(s, si, need);
        if (st != EVT_OK) return st;
    }
    uint64_t tc = t > CTF_CLOCK_MAX ? CTF_CLOCK_MAX : t;
    uint64_t ts = tc < c->last_ts ? c->last_ts : tc;
    /* A reader's clock holds timestamp_begin at a packet's start, then each event's value. */
    uint64_t base = c->nev == 0 ? ts : c->last_ts;
    uint8_t *p = c->buf + c->n;
    if (id <= CTF_COMPACT_MAX_ID && ts - base < ((uint64_t)1 << CTF_COMPACT_TS_BITS)) {
        evt_put_u32le(p, id | (uint32_t)((ts & ((1u << CTF_COMPACT_TS_BITS) - 1)) << 5));
        p += 4;
    } else {
        p[0] = CTF_COMPACT_MAX_ID + 1;
        evt_put_u32le(p + 1, id);
        evt_put_u64le(p + 5, ts);
        p += CTF_EXTENDED_SIZE;
    }
    uint64_t out = 0; /* non-zero: a value out of its field's range */
    const struct ctf_put *e = k->put, *end = e + k->nw;
    if (!k->nvar) /* integers and label indexes only (most classes): their low w bytes, little-endian */
        for (; e < end; e++) {
            out |= (u[e->i] + e->add) & e->out;
            evt_put_u64le(p, u[e->i]);
            p += e->w;
        }
    for (; e < end; e++) {
        if (e->w) {
            out |= (u[e->i] + e->add) & e->out;
            evt_put_u64le(p, u[e->i]);
            p += e->w;
            continue;
        }
        const ctf_bytes *x = &sb[e->i];
        if (k->f[e->i].type == CTF_FT_BYTES) {
            evt_put_u32le(p, (uint32_t)x->len);
            if (x->len) memcpy(p + 4, x->p, x->len);
            p += 4 + x->len;
        } else { /* a whole string */
            memcpy(p, x->p, x->len);
            p[x->len] = 0;
            p += x->len + 1;
        }
    }
    if (fit && out) { *fit = 0; return EVT_OK; } /* written past c->n only: dropped */
    if (t > CTF_CLOCK_MAX) s->time_clamped++;
    if (c->nev == 0) c->ts_begin = ts;
    c->ts_end = c->last_ts = ts;
    c->nev++;
    c->n = (size_t)(p - c->buf);
    return EVT_OK;
}

static ctf_bytes str_(const char *sv)
{
    ctf_bytes b = {sv ? sv : "", sv ? strlen(sv) : 0};
    return b;
}

/* The label index of a string field's value in *index, CTF_WHOLE when it is written whole (ctf.h);
 * returns 0, or -1 when out of memory. */
static int label_(ctf_state *s, const char *str, size_t len, uint64_t *index)
{
    *index = CTF_WHOLE;
    if (len == 0 || len > CTF_LABEL_LEN) return 0;
    /* a label seen lately: its text (checked when it was added) compared, nothing searched; the
     * hash multiplies, so the few labels of a field (states) rarely share a slot */
    uint32_t h = (uint32_t)len * 0x9E3779B1u ^ (unsigned char)str[0] * 0x85EBCA77u ^
                 (unsigned char)str[len - 1] * 0xC2B2AE3Du;
    struct ctf_recent_label *rl = &s->rlabel[h >> 28];
    if (rl->len == len && memcmp(rl->s, str, len) == 0) {
        *index = rl->id - 1;
        return 0;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)str[i];
        if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\') return 0;
    }
    uint32_t id = evt_strtab_find(&s->labels, str, len);
    if (!id) {
        if (s->labels.n >= CTF_LABEL_MAX) return 0;
        id = evt_strtab_intern(&s->labels, str, len, NULL);
        if (!id) return -1;
    }
    rl->s = evt_strtab_str(&s->labels, id); /* strtab strings never move */
    rl->len = len;
    rl->id = id;
    *index = id - 1;
    return 0;
}

/* The clock value of an event: ns when the clock is known, else ticks. */
static uint64_t time_of_(const ctf_state *s, const evt_event *ev)
{
    if (!s->hz) return ev->ts;
    return (ev->flags & EVT_HAS_TNS) ? ev->t_ns : evt_ticks_to_ns(ev->ts, s->hz);
}

/* Append a built-in event (ctf.h, CTF_BUILTIN_TABLE) with values in its fields' order. */
static evt_status builtin_(ctf_state *s, uint32_t si, uint64_t t, ctf_builtin bi, const uint64_t *u,
                           const ctf_bytes *b)
{
    int64_t cid = s->cls.builtin[bi] ? (int64_t)s->cls.builtin[bi] - 1 : ctf_class_builtin(&s->cls, bi);
    if (cid < 0) return EVT_ERR_NOMEM;
    return emit_(s, si, (uint32_t)cid, t, u, b, NULL);
}

evt_status ctf_put_builtin(ctf_state *s, uint32_t cpu, uint64_t t, ctf_builtin bi, const uint64_t *u, const ctf_bytes *b,
                           int *clamped)
{
    int64_t si = stream_of_(s, cpu);
    if (si < 0) return EVT_ERR_NOMEM;
    *clamped = t < s->st[si].last_ts;
    return builtin_(s, (uint32_t)si, t, bi, u, b);
}

/* ---- the name tables ---------------------------------------------------------------------- */
/* Index of the event's context; writes evtrace_ctx_name when the context or its name is new. */
static evt_status ctx_index_(ctf_state *s, uint32_t si, uint64_t t, const evt_event *ev, uint32_t *index)
{
    /* most events: the context of the one before (an id keeps its index), without a name */
    uint32_t idx = s->lctx_ix;
    int known = s->has_lctx && s->lctx == ev->ctx;
    if (known && !ev->ctx_name) { *index = idx; return EVT_OK; }
    if (!known) known = evt_u64map_get(&s->ctxmap, ev->ctx, &idx);
    if (!known) {
        if (s->nctx == s->ctxcap) {
            uint32_t nc = s->ctxcap ? s->ctxcap * 2 : 64;
            struct ctf_ctxname *np = evt_realloc(s->ctxname, nc * sizeof *np);
            if (!np) return EVT_ERR_NOMEM;
            s->ctxname = np;
            s->ctxcap = nc;
        }
        idx = s->nctx++;
        s->ctxname[idx].id = 0;
        s->ctxname[idx].s = NULL;
        if (!evt_u64map_put(&s->ctxmap, ev->ctx, idx)) return EVT_ERR_NOMEM;
    }
    s->lctx = ev->ctx;
    s->lctx_ix = idx;
    s->has_lctx = 1;
    *index = idx;
    uint32_t nid = 0;
    /* the name it has already (what interning it would find): nothing to write */
    if (known && ev->ctx_name && s->ctxname[idx].s && strcmp(s->ctxname[idx].s, ev->ctx_name) == 0)
        return EVT_OK;
    if (ev->ctx_name) {
        nid = evt_strtab_intern(&s->names, ev->ctx_name, strlen(ev->ctx_name), NULL);
        if (!nid) return EVT_ERR_NOMEM;
    }
    if (known && (nid == 0 || nid == s->ctxname[idx].id)) return EVT_OK;
    if (nid) {
        s->ctxname[idx].id = nid;
        s->ctxname[idx].s = evt_strtab_str(&s->names, nid);
    }
    uint64_t u[4] = {idx, ev->ctx, (uint64_t)ev->ctx_class, 0};
    ctf_bytes b[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, str_(ev->ctx_name)};
    return builtin_(s, si, t, CTF_B_CTX_NAME, u, b);
}

/* Writes evtrace_obj_name when the event names its target differently from before. */
static evt_status obj_name_(ctf_state *s, uint32_t si, uint64_t t, const evt_event *ev)
{
    /* the name it has already (what interning it would find): nothing to write; a target met
     * lately has that name's text at hand (it mirrors objmap) */
    struct ctf_recent_obj *ro = &s->robj[(uint32_t)(ev->target * 0x9E3779B97F4A7C15ull >> 58)];
    if (ro->s && ro->target == ev->target && strcmp(ro->s, ev->target_name) == 0) return EVT_OK;
    uint32_t old;
    int known = evt_u64map_get(&s->objmap, ev->target, &old);
    if (known) {
        ro->target = ev->target;
        ro->s = evt_strtab_str(&s->names, old);
        if (strcmp(ro->s, ev->target_name) == 0) return EVT_OK;
    }
    uint32_t nid = evt_strtab_intern(&s->names, ev->target_name, strlen(ev->target_name), NULL);
    if (!nid) return EVT_ERR_NOMEM;
    if (known && old == nid) return EVT_OK;
    if (!evt_u64map_put(&s->objmap, ev->target, nid)) return EVT_ERR_NOMEM;
    ro->target = ev->target;
    ro->s = evt_strtab_str(&s->names, nid);
    uint64_t u[2] = {ev->target, 0};
    ctf_bytes b[2] = {{NULL, 0}, str_(ev->target_name)};
    return builtin_(s, si, t, CTF_B_OBJ_NAME, u, b);
}

/* ---- an event's fields -------------------------------------------------------------------- */
static const char *const arg_ident_[EVT_MAX_ARGS] = {"arg0", "arg1", "arg2",  "arg3",  "arg4",  "arg5",  "arg6",  "arg7",
                                                     "arg8", "arg9", "arg10", "arg11", "arg12", "arg13", "arg14", "arg15"};

/* Field n: ident a string literal when lit (ctf.h), else the raw key (ctf_class_for). */
static void field_(ctf_field *f, uint32_t *n, const char *ident, int lit, ctf_ftype t, ctf_role role, uint8_t wlog)
{
    f[*n].ident = ident;
    f[*n].lit = (uint8_t)lit;
    f[*n].type = (uint8_t)t;
    f[*n].wlog = wlog;
    f[*n].role = (uint8_t)role;
    f[*n].alias = -1;
    (*n)++;
}

/* The field list of an event whose values u event() took (data as there), each with the width
 * its value needs: what ctf_class_for is given. Returns the number of fields. */
static uint32_t fields_(const evt_event *ev, int data, const uint64_t *u, ctf_field *f)
{
    uint32_t n = 0;
    if (ev->flags & EVT_HAS_CTX) field_(f, &n, "ctx", 1, CTF_FT_UINT, CTF_ROLE_INDEX, ctf_wlog_u(u[n]));
    if (ev->flags & EVT_HAS_PRIO) field_(f, &n, "prio", 1, CTF_FT_UINT, CTF_ROLE_VALUE, ctf_wlog_u(u[n]));
    if (ev->flags & EVT_HAS_SEQ) field_(f, &n, "seq", 1, CTF_FT_UINT, CTF_ROLE_VALUE, ctf_wlog_u(u[n]));
    if (ev->flags & EVT_HAS_COUNT) field_(f, &n, "count", 1, CTF_FT_UINT, CTF_ROLE_VALUE, ctf_wlog_u(u[n]));
    if (ev->flags & EVT_HAS_TARGET) field_(f, &n, "target", 1, CTF_FT_UINT, CTF_ROLE_VALUE, ctf_wlog_u(u[n]));
    for (uint32_t i = 0; i < ev->nargs && i < EVT_MAX_ARGS; i++)
        field_(f, &n, arg_ident_[i], 1, CTF_FT_UINT, CTF_ROLE_ARG, ctf_wlog_u(u[n]));
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *x = &ev->fields[i];
        const char *key = x->key ? x->key : "";
        uint64_t y = u[n];
        if (x->is_str) /* a label index over 8/16 bits, or the whole string */
            field_(f, &n, key, 0, CTF_FT_STRING, CTF_ROLE_VALUE, y == CTF_WHOLE ? CTF_WLOG_STRING : ctf_wlog_u(y));
        else if (x->is_signed) field_(f, &n, key, 0, CTF_FT_SINT, CTF_ROLE_VALUE, ctf_wlog_s(y));
        else field_(f, &n, key, 0, CTF_FT_UINT, CTF_ROLE_VALUE, ctf_wlog_u(y));
    }
    if (data == 1) field_(f, &n, "text", 0, CTF_FT_STRING, CTF_ROLE_VALUE, CTF_WLOG_STRING);
    else if (data) field_(f, &n, "data", 0, CTF_FT_BYTES, CTF_ROLE_VALUE, 0);
    return n;
}

/* The raw keys ck are the keys of the n fields f (a field's key names the layout's member:
 * display, not meaning): a key that is the slot's remembered read-only pointer (ro_key) is, else
 * its text is compared, and remembered when equal and read-only. Not inlined: its loop keeps to a
 * few registers around strcmp. */
static __attribute__((noinline)) int same_keys_(const evt_ro_image *ro, const char **ro_key, const char *const *ck,
                                                const evt_field *f, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const char *key = f[i].key ? f[i].key : "";
        if (i < CTF_FAST_RO && key == ro_key[i]) continue;
        if (strcmp(ck[i], key) != 0) return 0;
        if (i < CTF_FAST_RO && evt_ro_image_has(ro, key)) ro_key[i] = key;
    }
    return 1;
}

/* The class of an event like the last one of its hint slot fp (same kind and id, shape and
 * reader field types: ctf_fast), without its field list: the slot's layout's newest class when
 * the event is of that layout and its aliases hold, else -1 (then ctf_class_for decides). Of the
 * layout: the shape fixes the literal fields (the same identifiers as the event that set the
 * slot, which was of that layout); the name and each raw key equal the class's (equal keys after
 * equal identifiers give equal identifiers); every type is the layout's (shape, types). As
 * ctf_class_for, an alias holds when the aliased field is an integer value field (not ctx, not an
 * arg: fixed by the class and the shape, so checked once per class in the slot) of equal value.
 * The other values' widths are checked as emit_ writes them (ctf_class.put). */
static int64_t fast_class_(ctf_state *s, ctf_fast *fp, const evt_event *ev, const char *name, int data,
                           const uint64_t *u, uint32_t n, uint32_t a0, uint32_t nargs)
{
    uint32_t cid = s->cls.cur[fp->lid - 1];
    const ctf_class *k = s->cls.cls[cid];
    if (k->nf != n) return -1;
    uint32_t r0 = a0 + nargs; /* position of the first reader field */
    if (fp->cid != cid) { /* what the class and the shape decide, once */
        for (uint32_t i = r0; i < n; i++) /* a raw key there (else a literal field of the layout) */
            if (!k->key[i]) return -1;
        for (uint32_t i = 0; i < n; i++) {
            if (k->f[i].alias < 0) continue;
            uint32_t a = (uint32_t)k->f[i].alias;
            int value = !((ev->flags & EVT_HAS_CTX) && a == 0) && !(a >= a0 && a < a0 + nargs);
            if (!value || (k->f[a].type != CTF_FT_UINT && k->f[a].type != CTF_FT_SINT)) return -1;
        }
        fp->cid = cid;
        fp->ro_name = NULL;
        memset(fp->ro_key, 0, sizeof fp->ro_key);
    }
    if (name != fp->ro_name) {
        if (strcmp(k->name, name) != 0) return -1;
        if (evt_ro_image_has(&s->ro, name)) fp->ro_name = name;
    }
    if (!same_keys_(&s->ro, fp->ro_key, &k->key[r0], ev->fields, ev->nfields)) return -1;
    if (data && strcmp(k->key[n - 1], data == 1 ? "text" : "data") != 0) return -1;
    for (const struct ctf_alias *a = k->al, *end = a + k->nal; a < end; a++)
        if (u[a->i] != u[a->a]) return -1;
    return cid;
}

static evt_status event(void *state, const evt_event *ev)
{
    ctf_state *s = state;
    if (!s->started) { /* the time unit, fixed by the clock as known at the first event (RKH: TCFG) */
        s->hz = s->r->clock_hz;
        s->started = 1;
        if (!ctf_sched_init(&s->sched, s, s->hz)) return EVT_ERR_NOMEM;
        evt_tl_set_reader(&s->sched.tl, s->r);
    }
    /* the scheduling records this event causes come first (they happen at or before it) */
    evt_status st = ctf_sched_add(&s->sched, ev);
    if (st != EVT_OK) return st;
    int64_t si64 = stream_of_(s, (ev->flags & EVT_HAS_CPU) ? ev->cpu : 0);
    if (si64 < 0) return EVT_ERR_NOMEM;
    uint32_t si = (uint32_t)si64;
    uint64_t t = time_of_(s, ev);
    if (ev->kind == EVT_KIND_LOST) {
        if (t > CTF_CLOCK_MAX) t = CTF_CLOCK_MAX; /* the packet bounds below; emit_ counts it */
        /* End the packet so the loss sits between packets, then count it as discarded. */
        ctf_stream *c = &s->st[si];
        if (!c->created && c->nev == 0) {
            /* an empty first packet, so the loss has a start (babeltrace2 then gives its count) */
            c->ts_begin = c->ts_end = c->last_ts = t;
            if (!flush_(s, si, 1)) return EVT_ERR_IO;
        }
        if (!flush_(s, si, 0)) return EVT_ERR_IO;
        c->discarded += (ev->flags & EVT_HAS_COUNT) ? ev->count : 0;
    }
    /* the values in field order (ctf.h: ctx prio seq count target args fields data); the shape
     * says which fields these are, the widths they need are found when a class is looked for */
    uint64_t u[CTF_MAX_FIELDS];
    ctf_bytes sb[CTF_MAX_FIELDS]; /* only those of strings and bytes are set */
    uint32_t n = 0;
    if (ev->flags & EVT_HAS_CTX) {
        uint32_t idx;
        if ((st = ctx_index_(s, si, t, ev, &idx)) != EVT_OK) return st;
        u[n++] = idx;
    }
    if ((ev->flags & EVT_HAS_TARGET) && ev->target_name && (st = obj_name_(s, si, t, ev)) != EVT_OK) return st;
    if (ev->flags & EVT_HAS_PRIO) u[n++] = ev->prio;
    if (ev->flags & EVT_HAS_SEQ) u[n++] = ev->seq;
    if (ev->flags & EVT_HAS_COUNT) u[n++] = ev->count;
    if (ev->flags & EVT_HAS_TARGET) u[n++] = ev->target;
    uint32_t a0 = n, nargs = ev->nargs < EVT_MAX_ARGS ? ev->nargs : EVT_MAX_ARGS;
    /* copies of fixed size, a few vector moves (a variable one, `rep movs`, is slow to start): the
     * first four words (most formats' args fit), else the whole array; the words past nargs are
     * overwritten by the next values or never read */
    _Static_assert(5 + EVT_MAX_ARGS <= CTF_MAX_FIELDS && EVT_MAX_ARGS >= 4, "u holds ctx..target and every arg");
    if (nargs <= 4) memcpy(u + n, ev->args, 4 * sizeof *u);
    else memcpy(u + n, ev->args, sizeof ev->args);
    n += nargs;
    uint64_t types = 0; /* ctf_ftype of each reader field, 2 bits each (CTF_FT_UINT: 0) */
    const evt_field *x = ev->fields;
    for (uint32_t i = 0; i < ev->nfields; i++, x++, n++) {
        if (!x->is_str) {
            u[n] = x->num;
            if (x->is_signed) types |= (uint64_t)CTF_FT_SINT << (2 * i);
            continue;
        }
        sb[n].p = x->str ? x->str : "";
        sb[n].len = strlen(sb[n].p);
        if (label_(s, sb[n].p, sb[n].len, &u[n]) < 0) return EVT_ERR_NOMEM;
        types |= (uint64_t)CTF_FT_STRING << (2 * i);
    }
    int data = 0; /* 0: none, 1: text, 2: bytes */
    if (ev->data) {
        /* text without NUL bytes as a string; other payloads as bytes */
        data = ev->data_is_text && !memchr(ev->data, 0, ev->data_len) ? 1 : 2;
        u[n] = 0;
        sb[n].p = ev->data;
        sb[n].len = ev->data_len;
        n++;
    }
    uint32_t shape = (ev->flags & SHAPE_FLAGS) | nargs << 8 | ev->nfields << 16 | (uint32_t)data << 24;
    uint64_t ekey = (uint64_t)ev->kind << 32 | ev->id;
    uint32_t eh = (ev->id * 2654435761u ^ (uint32_t)ev->kind) >> 24;
    const char *name = ev->name ? ev->name : "";
    ctf_fast *fp = &s->fast[eh];
    int64_t cid;
    if (fp->lid && fp->key == ekey && fp->shape == shape && fp->types == types &&
        (cid = fast_class_(s, fp, ev, name, data, u, n, a0, nargs)) >= 0) {
        int fit = 1; /* the slot's class, written unless a value is too wide for it */
        if ((st = emit_(s, si, (uint32_t)cid, t, u, sb, &fit)) != EVT_OK || fit) return st;
    }
    /* the field list, then the class by layout (ctf_class.c); the EMF URI depends on (kind, id)
     * only: formatted once while it stays in the cache */
    ctf_field f[CTF_MAX_FIELDS];
    fields_(ev, data, u, f);
    if (!s->emf[eh].ok || s->emf[eh].key != ekey) {
        snprintf(s->emf[eh].s, sizeof s->emf[eh].s, "evtrace:kind=%s;id=%" PRIu32, evt_kind_name(ev->kind), ev->id);
        s->emf[eh].key = ekey;
        s->emf[eh].ok = 1;
    }
    uint32_t lid;
    cid = ctf_class_for(&s->cls, ekey, name, s->emf[eh].s, f, u, n, &lid);
    if (cid < 0) return EVT_ERR_NOMEM;
    fp->key = ekey;
    fp->shape = shape;
    fp->types = types;
    fp->lid = lid;
    fp->cid = UINT32_MAX;
    return emit_(s, si, (uint32_t)cid, t, u, sb, NULL);
}

/* ---- exporter ----------------------------------------------------------------------------- */
static void free_(ctf_state *s)
{
    for (uint32_t i = 0; i < s->nst; i++) {
        if (s->st[i].fp) fclose(s->st[i].fp);
        evt_free(s->st[i].buf);
    }
    evt_free(s->st);
    evt_free(s->dir);
    evt_free(s->ctxname);
    evt_u64map_free(&s->cpumap);
    evt_u64map_free(&s->ctxmap);
    evt_u64map_free(&s->objmap);
    evt_strtab_free(&s->names);
    evt_strtab_free(&s->labels);
    ctf_classes_free(&s->cls);
    if (s->started) ctf_sched_free(&s->sched);
    evt_free(s);
}

/* path is an existing directory with nothing in it (a caller may reserve the name that way). */
static int empty_dir_(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return 0;
    int empty = 1;
    struct dirent *e;
    while (empty && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) empty = 0;
    closedir(d);
    return empty;
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    ctf_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->dir = evt_strdup(path);
    if (!s->dir) { evt_free(s); snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    if (!ctf_trace_uuid(r, s->uuid)) {
        snprintf(err, errlen, "cannot make the trace UUID (no memory or no randomness)");
        free_(s);
        return EVT_ERR_NOMEM;
    }
    if (mkdir(path, 0777) != 0 && !(errno == EEXIST && empty_dir_(path))) {
        snprintf(err, errlen, "cannot create directory %s: %s", path, strerror(errno));
        free_(s);
        return EVT_ERR_IO;
    }
    evt_ro_image_init(&s->ro);
    s->r = r;
    *state = s;
    return EVT_OK;
}

/* The trace's name: the input's file name ("evtrace" for standard input or memory). */
static const char *trace_name_(const evt_reader *r)
{
    const char *p = r->src.path;
    if (!p || !*p || strcmp(p, "-") == 0 || p[0] == '<') return "evtrace";
    const char *sl = strrchr(p, '/');
    return sl && sl[1] ? sl + 1 : p;
}

static int write_metadata_(ctf_state *s, evt_reader *r)
{
    char p[4200];
    if (snprintf(p, sizeof p, "%s/metadata", s->dir) >= (int)sizeof p) return 0;
    FILE *f = evt_out_fopen(p, "w");
    if (!f) return 0;
    int ok = ctf_write_metadata(f, &s->cls, &s->labels, r, s->hz, s->uuid, trace_name_(r), s->sched.clamped,
                                s->time_clamped);
    if (fclose(f) != 0) ok = 0;
    return ok;
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    ctf_state *s = state;
    int ok = 1;
    for (uint32_t i = 0; i < s->nst; i++) {
        ctf_stream *c = &s->st[i];
        /* a stream whose last packet ended at a loss still needs a packet to carry the count */
        int force = c->nev == 0 && c->discarded;
        if (force) c->ts_begin = c->ts_end = c->last_ts;
        if (!flush_(s, i, force)) ok = 0;
        if (c->fp && fclose(c->fp) != 0) ok = 0;
        c->fp = NULL;
    }
    if (ok && !write_metadata_(s, r)) ok = 0;
    free_(s);
    if (!ok) { snprintf(err, errlen, "write error"); return EVT_ERR_IO; }
    return EVT_OK;
}

static void abort_(void *state) { free_(state); }

const evt_exporter_desc evt_exporter_ctf = {
    "ctf", NULL, "CTF 1.8 directory (metadata + per-CPU streams, LTTng layout) for babeltrace2 and Trace Compass", 1,
    begin, event, end, abort_,
};
