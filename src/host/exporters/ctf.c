/* CTF 1.8 exporter: a directory with TSDL `metadata` and one binary stream file per context
 * (`stream_N`; events without a context go to `stream_0`), readable by babeltrace2 and Trace
 * Compass.
 *
 * - One stream class; little-endian, byte-aligned integers. Packet header: magic, stream_id,
 *   stream_instance_id. Packet context: timestamp_begin/end, content_size, packet_size,
 *   events_discarded (cumulative per stream, as CTF wants). Event header: id (uint32) and a
 *   64-bit timestamp mapped to the clock `evtrace_clock` (freq 1 GHz): the event's t_ns when the
 *   clock is known, so every output shows the same ns; otherwise the raw ticks, 1 tick shown as
 *   1 ns, and the clock's description and `env.time_unit` say "ticks". Within a stream a timestamp
 *   that goes backwards is written as the previous one; the payload keeps the raw `ts`.
 * - One event class per distinct (name, kind, payload layout); its payload mirrors
 *   `evtrace dump --json`: id, kind, ts, has_ctx + ctx, then the optional ctx_name, cpu, prio,
 *   seq, count, offset, args (sequence), fields (a struct: target, target_name and the reader's
 *   fields, ints as uint64/int64, strings as strings), data (byte sequence) and text. Field names
 *   are written with a leading underscore (which CTF readers strip), so keys that are TSDL keywords
 *   are fine; characters outside [A-Za-z0-9_] become '_'.
 * - A lost event ends the current packet of its stream, adds its count to events_discarded (so
 *   babeltrace2 reports discarded events there) and is also written as an event.
 * Memory: one packet buffer per stream (EVT_CTF_PACKET bytes) and the event-class table; the
 * metadata is written at the end, when every class is known. */
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
#include "host/analysis/strtab.h"
#include "host/analysis/u64map.h"

#define EVT_CTF_PACKET 8192        /* bytes per packet (bigger when one event needs it) */
#define CTF_MAGIC 0xC1FC1FC1u
#define HDR_SIZE 56                /* packet header (16) + packet context (40) */
#define MAX_OPEN 200               /* stream files kept open; the others are appended to on flush */

typedef struct ctf_stream {
    uint64_t ctx;            /* context id (stream 0: events without context) */
    uint8_t *buf;            /* current packet (header filled at flush) */
    size_t n, cap;           /* bytes used (from HDR_SIZE), capacity */
    uint64_t ts_begin, ts_end; /* first/last clock value in the packet */
    uint64_t last_ts;        /* last clock value written (monotonic) */
    uint64_t discarded;      /* cumulative events_discarded */
    uint32_t nev;            /* events in the current packet */
    FILE *fp;                /* open file, or NULL */
    int created;             /* file exists */
} ctf_stream;

typedef struct ctf_state {
    char *dir;
    const evt_reader *r;     /* open until end(): its clock is read at the first event */
    int started;             /* hz is fixed (the first event was seen) */
    uint64_t hz;             /* clock rate; 0: timestamps are ticks */
    const char *fmt;
    ctf_stream *st;
    uint32_t nst, cap, nopen;
    evt_u64map ctxmap;       /* ctx -> stream index */
    evt_strtab sigs;         /* event-class signatures (id = class id + 1) */
    char **tsdl;             /* TSDL of each class */
    uint32_t ntsdl, tsdlcap;
    char *sig;               /* scratch: signature */
    size_t sigcap;
    int err;
} ctf_state;

/* ---- small growable text buffer ---------------------------------------------------------- */
typedef struct tbuf { char *p; size_t n, cap; int oom; } tbuf;

static void tb_put(tbuf *t, const char *s, size_t n)
{
    if (t->oom) return;
    if (t->n + n + 1 > t->cap) {
        size_t nc = t->cap ? t->cap : 256;
        while (nc < t->n + n + 1) nc *= 2;
        char *np = evt_realloc(t->p, nc);
        if (!np) { t->oom = 1; return; }
        t->p = np;
        t->cap = nc;
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = '\0';
}
static void tb_s(tbuf *t, const char *s) { tb_put(t, s, strlen(s)); }

/* Field identifier: '_' + key with characters outside [A-Za-z0-9_] replaced. */
static void tb_ident(tbuf *t, const char *key)
{
    tb_put(t, "_", 1);
    for (const char *c = key; *c; c++) {
        char ch = *c;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        tb_put(t, ok ? &ch : "_", 1);
    }
}

/* String literal with escapes. */
static void tb_quoted(tbuf *t, const char *s)
{
    tb_put(t, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') { tb_put(t, "\\", 1); tb_put(t, (const char *)c, 1); }
        else if (*c < 0x20 || *c >= 0x7f) { char b[8]; snprintf(b, sizeof b, "\\x%02x", *c); tb_s(t, b); }
        else tb_put(t, (const char *)c, 1);
    }
    tb_put(t, "\"", 1);
}

/* ---- streams ------------------------------------------------------------------------------ */
static int stream_path_(ctf_state *s, uint32_t i, char *p, size_t len)
{
    return snprintf(p, len, "%s/stream_%u", s->dir, i) < (int)len;
}

/* Write the current packet of stream i (an empty one only when `force`). */
static int flush_(ctf_state *s, uint32_t i, int force)
{
    ctf_stream *c = &s->st[i];
    if (c->nev == 0 && !force) return 1;
    uint8_t *h = c->buf;
    uint64_t bits = (uint64_t)c->n * 8;
    evt_put_u32le(h + 0, CTF_MAGIC);
    evt_put_u32le(h + 4, 0);                  /* stream_id */
    evt_put_u32le(h + 8, i); evt_put_u32le(h + 12, 0); /* stream_instance_id (u64) */
    evt_put_u32le(h + 16, (uint32_t)c->ts_begin); evt_put_u32le(h + 20, (uint32_t)(c->ts_begin >> 32));
    evt_put_u32le(h + 24, (uint32_t)c->ts_end); evt_put_u32le(h + 28, (uint32_t)(c->ts_end >> 32));
    evt_put_u32le(h + 32, (uint32_t)bits); evt_put_u32le(h + 36, (uint32_t)(bits >> 32)); /* content_size */
    evt_put_u32le(h + 40, (uint32_t)bits); evt_put_u32le(h + 44, (uint32_t)(bits >> 32)); /* packet_size */
    evt_put_u32le(h + 48, (uint32_t)c->discarded); evt_put_u32le(h + 52, (uint32_t)(c->discarded >> 32));
    FILE *fp = c->fp;
    if (!fp) {
        char p[4200];
        if (!stream_path_(s, i, p, sizeof p)) return 0;
        fp = evt_out_fopen(p, c->created ? "ab" : "wb");
        if (!fp) return 0;
        c->created = 1;
        if (s->nopen < MAX_OPEN) { c->fp = fp; s->nopen++; }
    }
    int ok = fwrite(c->buf, 1, c->n, fp) == c->n;
    if (!c->fp && fclose(fp) != 0) ok = 0;
    c->n = HDR_SIZE;
    c->nev = 0;
    return ok;
}

static int64_t stream_of_(ctf_state *s, const evt_event *ev)
{
    uint64_t key = (ev->flags & EVT_HAS_CTX) ? ev->ctx : 0;
    uint32_t idx;
    int has = (ev->flags & EVT_HAS_CTX) != 0;
    if (!has && s->nst > 0) return 0;
    if (has && evt_u64map_get(&s->ctxmap, key, &idx)) return idx;
    if (s->nst == 0 && has) {
        /* stream 0 is reserved for events without context */
        evt_event none;
        memset(&none, 0, sizeof none);
        if (stream_of_(s, &none) < 0) return -1;
    }
    if (s->nst == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 16;
        ctf_stream *n = evt_realloc(s->st, nc * sizeof *n);
        if (!n) return -1;
        s->st = n;
        s->cap = nc;
    }
    idx = s->nst;
    ctf_stream *c = &s->st[idx];
    memset(c, 0, sizeof *c);
    c->ctx = key;
    c->cap = EVT_CTF_PACKET;
    c->buf = evt_malloc(c->cap);
    if (!c->buf) return -1;
    c->n = HDR_SIZE;
    s->nst++;
    if (has && !evt_u64map_put(&s->ctxmap, key, idx)) return -1;
    return idx;
}

/* ---- event classes ------------------------------------------------------------------------ */
/* Signature of the payload layout (and name/kind): equal signatures share a class. */
static const char *signature_(ctf_state *s, const evt_event *ev, size_t *len)
{
    tbuf t = {s->sig, 0, s->sigcap, 0};
    tb_s(&t, ev->name ? ev->name : "");
    tb_put(&t, "\n", 1);
    tb_s(&t, evt_kind_name(ev->kind));
    char fl[32];
    snprintf(fl, sizeof fl, "\n%x%c%c%c", ev->flags & ~(unsigned)EVT_HAS_CTX, ev->ctx_name ? 'n' : '-',
             ev->target_name ? 't' : '-', ev->data ? (ev->data_is_text ? 'T' : 'D') : '-');
    tb_s(&t, fl);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        tb_put(&t, "\n", 1);
        tb_s(&t, f->key ? f->key : "");
        tb_put(&t, f->is_str ? "s" : f->is_signed ? "i" : "u", 1);
    }
    s->sig = t.p;
    s->sigcap = t.cap;
    if (t.oom) return NULL;
    *len = t.n;
    return t.p;
}

static char *class_tsdl_(const evt_event *ev, uint32_t id)
{
    tbuf t = {0};
    char b[160];
    tb_s(&t, "event {\n\tname = ");
    tb_quoted(&t, ev->name ? ev->name : "");
    snprintf(b, sizeof b, ";\n\tid = %u;\n\tstream_id = 0;\n\tfields := struct {\n", id);
    tb_s(&t, b);
    tb_s(&t, "\t\tuint32_t _id;\n\t\tstring _kind;\n\t\tuint64_t _ts;\n\t\tuint8_t _has_ctx;\n\t\tuint64_t _ctx;\n");
    if (ev->ctx_name) tb_s(&t, "\t\tstring _ctx_name;\n");
    if (ev->flags & EVT_HAS_CPU) tb_s(&t, "\t\tuint32_t _cpu;\n");
    if (ev->flags & EVT_HAS_PRIO) tb_s(&t, "\t\tuint64_t _prio;\n");
    if (ev->flags & EVT_HAS_SEQ) tb_s(&t, "\t\tuint64_t _seq;\n");
    if (ev->flags & EVT_HAS_COUNT) tb_s(&t, "\t\tuint64_t _count;\n");
    tb_s(&t, "\t\tuint64_t _offset;\n\t\tuint32_t _nargs;\n\t\tuint64_t _args[_nargs];\n");
    if (ev->nfields || (ev->flags & EVT_HAS_TARGET)) {
        tb_s(&t, "\t\tstruct {\n");
        if (ev->flags & EVT_HAS_TARGET) {
            tb_s(&t, "\t\t\tuint64_t _target;\n");
            if (ev->target_name) tb_s(&t, "\t\t\tstring _target_name;\n");
        }
        for (uint32_t i = 0; i < ev->nfields; i++) {
            const evt_field *f = &ev->fields[i];
            tb_s(&t, f->is_str ? "\t\t\tstring " : f->is_signed ? "\t\t\tint64_t " : "\t\t\tuint64_t ");
            tb_ident(&t, f->key ? f->key : "");
            /* a key repeated in one event gets a suffix so identifiers stay unique */
            int dup = 0;
            for (uint32_t k = 0; k < i; k++)
                if (ev->fields[k].key && f->key && strcmp(ev->fields[k].key, f->key) == 0) dup++;
            if ((ev->flags & EVT_HAS_TARGET) && f->key && (strcmp(f->key, "target") == 0 || strcmp(f->key, "target_name") == 0)) dup++;
            if (dup) { snprintf(b, sizeof b, "_%d", dup + 1); tb_s(&t, b); }
            tb_s(&t, ";\n");
        }
        tb_s(&t, "\t\t} _fields;\n");
    }
    if (ev->data) {
        tb_s(&t, "\t\tuint32_t _data_len;\n\t\tuint8_t _data[_data_len];\n");
        if (ev->data_is_text) tb_s(&t, "\t\tstring _text;\n");
    }
    tb_s(&t, "\t};\n};\n\n");
    if (t.oom) { evt_free(t.p); return NULL; }
    return t.p;
}

static int64_t class_of_(ctf_state *s, const evt_event *ev)
{
    size_t n;
    const char *sig = signature_(s, ev, &n);
    if (!sig) return -1;
    int added;
    uint32_t id = evt_strtab_intern(&s->sigs, sig, n, &added);
    if (!id) return -1;
    if (added) {
        if (s->ntsdl == s->tsdlcap) {
            uint32_t nc = s->tsdlcap ? s->tsdlcap * 2 : 64;
            char **np = evt_realloc(s->tsdl, nc * sizeof *np);
            if (!np) return -1;
            s->tsdl = np;
            s->tsdlcap = nc;
        }
        char *t = class_tsdl_(ev, id - 1);
        if (!t) return -1;
        s->tsdl[s->ntsdl++] = t;
    }
    return id - 1;
}

/* ---- payload ------------------------------------------------------------------------------ */
static int reserve_(ctf_stream *c, size_t more)
{
    if (c->n + more <= c->cap) return 1;
    size_t nc = c->cap;
    while (nc < c->n + more) nc *= 2;
    uint8_t *np = evt_realloc(c->buf, nc);
    if (!np) return 0;
    c->buf = np;
    c->cap = nc;
    return 1;
}
static void w32_(ctf_stream *c, uint32_t v) { evt_put_u32le(c->buf + c->n, v); c->n += 4; }
static void w64_(ctf_stream *c, uint64_t v) { w32_(c, (uint32_t)v); w32_(c, (uint32_t)(v >> 32)); }
static void wstr_(ctf_stream *c, const char *s, size_t n)
{
    /* CTF strings end at the first NUL: embedded NULs cut the string */
    for (size_t i = 0; i < n; i++) { if (!s[i]) break; c->buf[c->n++] = (uint8_t)s[i]; }
    c->buf[c->n++] = 0;
}

static size_t payload_size_(const evt_event *ev)
{
    size_t n = 4 + 8 + 4 + 16 + 8 + 1 + 8 + 4 + 8 + 8 + 8 + 8 + 4 + 8 * (size_t)ev->nargs + 16;
    if (ev->ctx_name) n += strlen(ev->ctx_name) + 1;
    n += 16 + (ev->target_name ? strlen(ev->target_name) + 1 : 0);
    for (uint32_t i = 0; i < ev->nfields; i++)
        n += ev->fields[i].is_str ? (ev->fields[i].str ? strlen(ev->fields[i].str) : 0) + 1 : 8;
    if (ev->data) n += 4 + 2 * ev->data_len + 1;
    return n;
}

/* The clock value of an event: ns when the clock is known, else ticks. */
static uint64_t time_of_(const ctf_state *s, const evt_event *ev)
{
    if (!s->hz) return ev->ts;
    return (ev->flags & EVT_HAS_TNS) ? ev->t_ns : evt_ticks_to_ns(ev->ts, s->hz);
}

static evt_status write_event_(ctf_state *s, uint32_t si, uint32_t cls, const evt_event *ev)
{
    ctf_stream *c = &s->st[si];
    size_t need = payload_size_(ev);
    if (c->n + need > EVT_CTF_PACKET && c->nev > 0 && !flush_(s, si, 0)) return EVT_ERR_IO;
    if (!reserve_(c, need)) return EVT_ERR_NOMEM;
    uint64_t t = time_of_(s, ev);
    uint64_t ts = t < c->last_ts ? c->last_ts : t;
    c->last_ts = ts;
    if (c->nev == 0) c->ts_begin = ts;
    c->ts_end = ts;
    c->nev++;
    w32_(c, cls);
    w64_(c, ts);
    w32_(c, ev->id);
    const char *k = evt_kind_name(ev->kind);
    wstr_(c, k, strlen(k));
    w64_(c, ev->ts);
    c->buf[c->n++] = (ev->flags & EVT_HAS_CTX) ? 1 : 0;
    w64_(c, (ev->flags & EVT_HAS_CTX) ? ev->ctx : 0);
    if (ev->ctx_name) wstr_(c, ev->ctx_name, strlen(ev->ctx_name));
    if (ev->flags & EVT_HAS_CPU) w32_(c, ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) w64_(c, ev->prio);
    if (ev->flags & EVT_HAS_SEQ) w64_(c, ev->seq);
    if (ev->flags & EVT_HAS_COUNT) w64_(c, ev->count);
    w64_(c, ev->offset);
    w32_(c, ev->nargs);
    for (uint32_t i = 0; i < ev->nargs; i++) w64_(c, ev->args[i]);
    if (ev->nfields || (ev->flags & EVT_HAS_TARGET)) {
        if (ev->flags & EVT_HAS_TARGET) {
            w64_(c, ev->target);
            if (ev->target_name) wstr_(c, ev->target_name, strlen(ev->target_name));
        }
        for (uint32_t i = 0; i < ev->nfields; i++) {
            const evt_field *f = &ev->fields[i];
            if (f->is_str) wstr_(c, f->str ? f->str : "", f->str ? strlen(f->str) : 0);
            else w64_(c, f->num);
        }
    }
    if (ev->data) {
        w32_(c, (uint32_t)ev->data_len);
        memcpy(c->buf + c->n, ev->data, ev->data_len);
        c->n += ev->data_len;
        if (ev->data_is_text) wstr_(c, (const char *)ev->data, ev->data_len);
    }
    return EVT_OK;
}

/* ---- exporter ----------------------------------------------------------------------------- */
static void free_(ctf_state *s)
{
    for (uint32_t i = 0; i < s->nst; i++) {
        if (s->st[i].fp) fclose(s->st[i].fp);
        evt_free(s->st[i].buf);
    }
    for (uint32_t i = 0; i < s->ntsdl; i++) evt_free(s->tsdl[i]);
    evt_free(s->tsdl);
    evt_free(s->st);
    evt_free(s->sig);
    evt_free(s->dir);
    evt_u64map_free(&s->ctxmap);
    evt_strtab_free(&s->sigs);
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
    if (mkdir(path, 0777) != 0 && !(errno == EEXIST && empty_dir_(path))) {
        snprintf(err, errlen, "cannot create directory %s: %s", path, strerror(errno));
        free_(s);
        return EVT_ERR_IO;
    }
    s->r = r;
    s->fmt = r->desc->name;
    *state = s;
    return EVT_OK;
}

static evt_status event(void *state, const evt_event *ev)
{
    ctf_state *s = state;
    if (!s->started) { /* the time unit, fixed by the clock as known at the first event (RKH: TCFG) */
        s->hz = s->r->clock_hz;
        s->started = 1;
    }
    int64_t si = stream_of_(s, ev);
    if (si < 0) return EVT_ERR_NOMEM;
    int64_t cls = class_of_(s, ev);
    if (cls < 0) return EVT_ERR_NOMEM;
    if (ev->kind == EVT_KIND_LOST) {
        /* End the packet so the loss sits between packets, then count it as discarded. */
        ctf_stream *c = &s->st[si];
        if (!c->created && c->nev == 0) {
            /* an empty first packet, so the loss has a start (babeltrace2 then gives its count) */
            c->ts_begin = c->ts_end = c->last_ts = time_of_(s, ev);
            if (!flush_(s, (uint32_t)si, 1)) return EVT_ERR_IO;
        }
        if (!flush_(s, (uint32_t)si, 0)) return EVT_ERR_IO;
        s->st[si].discarded += (ev->flags & EVT_HAS_COUNT) ? ev->count : 0;
    }
    return write_event_(s, (uint32_t)si, (uint32_t)cls, ev);
}

static int write_metadata_(ctf_state *s, evt_reader *r)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/metadata", s->dir);
    FILE *f = evt_out_fopen(p, "w");
    if (!f) return 0;
    char desc[160];
    if (s->hz)
        snprintf(desc, sizeof desc, "ns, from the trace clock of %" PRIu64 " Hz (%s)", s->hz,
                 evt_clock_source_name(evt_reader_clock_source(r)));
    else snprintf(desc, sizeof desc, "ticks: clock rate unknown, 1 tick shown as 1 ns (give it with --clock-hz HZ)");
    tbuf src = {0};
    tb_quoted(&src, r->src.path ? r->src.path : "");
    fprintf(f,
            "/* CTF 1.8 */\n\n"
            "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
            "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
            "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
            "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
            "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
            "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n"
            "\t\tuint64_t stream_instance_id;\n\t};\n};\n\n"
            "env {\n\ttracer_name = \"evtrace\";\n\tformat = \"%s\";\n\tsource = %s;\n\tclock_hz = %" PRIu64 ";\n"
            "\tclock_source = \"%s\";\n\ttime_unit = \"%s\";\n};\n\n"
            "clock {\n\tname = evtrace_clock;\n\tdescription = \"%s\";\n\tfreq = 1000000000;\n\toffset = 0;\n};\n\n"
            "typealias integer { size = 64; align = 8; signed = false; map = clock.evtrace_clock.value; } := clock_t;\n\n"
            "stream {\n\tid = 0;\n"
            "\tpacket.context := struct {\n\t\tclock_t timestamp_begin;\n\t\tclock_t timestamp_end;\n"
            "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t\tuint64_t events_discarded;\n\t};\n"
            "\tevent.header := struct {\n\t\tuint32_t id;\n\t\tclock_t timestamp;\n\t};\n};\n\n",
            s->fmt, src.p ? src.p : "\"\"", s->hz, evt_clock_source_name(evt_reader_clock_source(r)),
            s->hz ? "ns" : "ticks", desc);
    evt_free(src.p);
    for (uint32_t i = 0; i < s->ntsdl; i++) fputs(s->tsdl[i], f);
    int ok = !ferror(f);
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
    "ctf", NULL, "CTF 1.8 directory (metadata + streams) for babeltrace2 and Trace Compass", 1,
    begin, event, end, abort_,
};
