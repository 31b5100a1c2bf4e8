/* SQLite exporter: the trace as a database to query (`evtrace query`, sqlite3, any SQL tool).
 * Schema (documented in docs/exports.md, created by k_schema below):
 *   meta(key, value)            format, source, clock_hz, clock_source, time_unit ("ns" or "ticks":
 *                               the unit of contexts.cpu_time; events.t_ns is null with "ticks"),
 *                               events, lost, errors,
 *                               schema_version
 *   events(seq, ts, t_ns, id, name, kind, ctx, cpu, prio, seq_no, count, target, target_name,
 *          offset, args, fields, data, text)     one row per event, seq = order in the trace;
 *          args is a JSON array, fields a JSON object (as in `dump --json`), data a BLOB
 *   contexts(ctx, name, class, events, first_ts, last_ts, cpu_time, load_pct)  (stats.h model)
 *   objects(target, name, created_ts, created_seq, deleted_ts, deleted_seq, ctx)  from
 *          obj_create/obj_delete (and objects only deleted)
 *   lost(seq, ts, ctx, count, prev_ts, next_ts)   each loss with the timestamps around it
 *   spans(cat, name, ctx, begin_ts, end_ts, dur, depth)  isr/svc/func spans (spans.h pairing)
 * Indexes on events(ts), events(ctx, ts), events(name), events(kind), spans(name), objects(target)
 * are built at the end (faster than maintaining them). Streaming: rows are inserted as events
 * arrive, in transactions of 100k rows, with a bounded page cache (8 MB) and temp files on disk. */
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/analysis/stats.h"

#define TXN_ROWS 100000

static const char k_schema[] =
    "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA cache_size=-8192; PRAGMA temp_store=FILE;"
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value);"
    "CREATE TABLE events(seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, t_ns INTEGER, id INTEGER NOT NULL,"
    " name TEXT NOT NULL, kind TEXT NOT NULL, ctx INTEGER, cpu INTEGER, prio INTEGER, seq_no INTEGER,"
    " count INTEGER, target INTEGER, target_name TEXT, offset INTEGER, args TEXT NOT NULL, fields TEXT,"
    " data BLOB, text TEXT);"
    "CREATE TABLE contexts(ctx INTEGER, name TEXT, class TEXT, events INTEGER, first_ts INTEGER,"
    " last_ts INTEGER, cpu_time INTEGER, load_pct REAL);"
    "CREATE TABLE objects(target INTEGER NOT NULL, name TEXT, created_ts INTEGER, created_seq INTEGER,"
    " deleted_ts INTEGER, deleted_seq INTEGER, ctx INTEGER);"
    "CREATE INDEX objects_target ON objects(target);"
    "CREATE TABLE lost(seq INTEGER PRIMARY KEY, ts INTEGER, ctx INTEGER, count INTEGER, prev_ts INTEGER,"
    " next_ts INTEGER);"
    "CREATE TABLE spans(cat TEXT NOT NULL, name TEXT NOT NULL, ctx INTEGER, begin_ts INTEGER, end_ts INTEGER,"
    " dur INTEGER, depth INTEGER);"
    "BEGIN;";

static const char k_indexes[] =
    "CREATE INDEX events_ts ON events(ts);"
    "CREATE INDEX events_ctx_ts ON events(ctx, ts);"
    "CREATE INDEX events_name ON events(name);"
    "CREATE INDEX events_kind ON events(kind);"
    "CREATE INDEX spans_name ON spans(name);";

enum { Q_EVENT, Q_OBJ_NEW, Q_OBJ_DEL, Q_OBJ_DEL_NEW, Q_LOST, Q_LOST_NEXT, Q_SPAN, Q_COUNT };
static const char *const k_sql[Q_COUNT] = {
    "INSERT INTO events VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
    "INSERT INTO objects(target,name,created_ts,created_seq,ctx) VALUES(?1,?2,?3,?4,?5)",
    ("UPDATE objects SET deleted_ts=?2, deleted_seq=?3, name=coalesce(name,?4) WHERE rowid=(SELECT rowid FROM"
     " objects WHERE target=?1 AND deleted_seq IS NULL ORDER BY rowid DESC LIMIT 1)"),
    "INSERT INTO objects(target,name,deleted_ts,deleted_seq,ctx) VALUES(?1,?2,?3,?4,?5)",
    "INSERT INTO lost(seq,ts,ctx,count,prev_ts) VALUES(?1,?2,?3,?4,?5)",
    "UPDATE lost SET next_ts=?2 WHERE seq=?1",
    "INSERT INTO spans VALUES(?1,?2,?3,?4,?5,?6,?7)",
};

typedef struct sq_state {
    sqlite3 *db;
    const evt_reader *r;      /* open until end(): its clock is read at the first event */
    sqlite3_stmt *q[Q_COUNT];
    evt_stats stats;          /* contexts table and span pairing */
    uint64_t seq;             /* next event number */
    uint64_t rows;            /* rows in the current transaction */
    uint64_t prev_ts;
    int64_t pending_lost;     /* seq of a lost row waiting for next_ts, -1 none */
    char *js;                 /* JSON scratch */
    size_t jn, jcap;
    int oom;
} sq_state;

/* ---- JSON text for args/fields --------------------------------------------------------------- */
static void jput_(sq_state *s, const char *p, size_t n)
{
    if (s->jn + n + 1 > s->jcap) {
        size_t nc = s->jcap ? s->jcap * 2 : 512;
        while (nc < s->jn + n + 1) nc *= 2;
        char *np = evt_realloc(s->js, nc);
        if (!np) { s->oom = 1; return; }
        s->js = np;
        s->jcap = nc;
    }
    memcpy(s->js + s->jn, p, n);
    s->jn += n;
    s->js[s->jn] = '\0';
}
static void jstr_(sq_state *s, const char *str)
{
    jput_(s, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
        char b[8];
        if (*c == '"' || *c == '\\') { b[0] = '\\'; b[1] = (char)*c; jput_(s, b, 2); }
        else if (*c < 0x20 || *c == 0x7f) { snprintf(b, sizeof b, "\\u%04x", *c); jput_(s, b, 6); }
        /* bytes >= 0x80 as they are: the reader made every string valid UTF-8 */
        else jput_(s, (const char *)c, 1);
    }
    jput_(s, "\"", 1);
}
static void jnum_(sq_state *s, uint64_t v, int is_signed)
{
    char b[32];
    int n = is_signed ? snprintf(b, sizeof b, "%" PRId64, (int64_t)v) : snprintf(b, sizeof b, "%" PRIu64, v);
    jput_(s, b, (size_t)n);
}

static int64_t i64_(uint64_t v) { return (int64_t)v; } /* SQLite integers are signed 64-bit */

/* ---- statements ------------------------------------------------------------------------------ */
static int step_(sq_state *s, sqlite3_stmt *st)
{
    (void)s;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE) return 0;
    return 1;
}

static void bind_ctx_(sqlite3_stmt *st, int col, const evt_event *ev)
{
    if (ev->flags & EVT_HAS_CTX) sqlite3_bind_int64(st, col, i64_(ev->ctx));
    else sqlite3_bind_null(st, col);
}

static int commit_maybe_(sq_state *s)
{
    if (++s->rows < TXN_ROWS) return 1;
    s->rows = 0;
    return sqlite3_exec(s->db, "COMMIT; BEGIN;", NULL, NULL, NULL) == SQLITE_OK;
}

static void free_(sq_state *s)
{
    for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(s->q[i]);
    if (s->db) sqlite3_close(s->db);
    evt_stats_free(&s->stats);
    evt_free(s->js);
    evt_free(s);
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    sq_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->pending_lost = -1;
    s->r = r;
    if (!evt_stats_init(&s->stats, r->clock_hz)) { free_(s); snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, evt_out_sqlite_vfs()) != SQLITE_OK ||
        sqlite3_exec(s->db, k_schema, NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot create database %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "?");
        free_(s);
        return EVT_ERR_IO;
    }
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v2(s->db, k_sql[i], -1, &s->q[i], NULL) != SQLITE_OK) {
            snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(s->db));
            free_(s);
            return EVT_ERR_IO;
        }
    *state = s;
    return EVT_OK;
}

/* Record the spans an event closes, before the stats engine pops them. */
static int spans_(sq_state *s, const evt_event *ev)
{
    int is_begin;
    evt_span_cat cat = evt_span_cat_of(ev->kind, &is_begin);
    if (cat == EVT_SPAN_NONE || is_begin) return 1;
    evt_stats *st = &s->stats;
    sqlite3_stmt *q = s->q[Q_SPAN];
    if (cat == EVT_SPAN_ISR) {
        uint32_t cn = (ev->flags & EVT_HAS_CPU) ? ev->cpu : 0;
        if (cn >= EVT_STATS_MAX_CPUS) cn = EVT_STATS_MAX_CPUS - 1;
        evt_stats_cpu *c = &st->cpus[cn];
        if (!c->isr_n) return 1;
        evt_isr_open *o = &c->isr[c->isr_n - 1];
        evt_stats_ctx *x = &st->ctxs[o->ctx];
        sqlite3_bind_text(q, 1, "isr", -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, evt_strtab_str(&st->strs, o->label), -1, SQLITE_TRANSIENT);
        if (x->has_ctx) sqlite3_bind_int64(q, 3, i64_(x->ctx)); else sqlite3_bind_null(q, 3);
        sqlite3_bind_int64(q, 4, i64_(o->ts));
        sqlite3_bind_int64(q, 5, i64_(ev->ts));
        sqlite3_bind_int64(q, 6, ev->ts >= o->ts ? i64_(ev->ts - o->ts) : 0);
        sqlite3_bind_int64(q, 7, c->isr_n - 1);
        return step_(s, q);
    }
    if (!(ev->flags & EVT_HAS_CTX)) return 1;
    uint32_t ci;
    if (!evt_u64map_get(&st->ctxmap, ev->ctx, &ci)) return 1;
    evt_span_stack *sk = &st->ctxs[ci].stack;
    char lb[256];
    evt_event_label(ev, lb, sizeof lb);
    uint32_t label = evt_strtab_find(&st->strs, lb, strlen(lb));
    uint32_t k = evt_span_match(sk, (uint8_t)cat, label ? label : UINT32_MAX);
    for (uint32_t i = 0; i < k; i++) {
        const evt_span *sp = &sk->v[sk->n - 1 - i];
        sqlite3_bind_text(q, 1, evt_span_cat_name((evt_span_cat)sp->cat), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, evt_strtab_str(&st->strs, sp->label), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(q, 3, i64_(ev->ctx));
        sqlite3_bind_int64(q, 4, i64_(sp->ts));
        sqlite3_bind_int64(q, 5, i64_(ev->ts));
        sqlite3_bind_int64(q, 6, ev->ts >= sp->ts ? i64_(ev->ts - sp->ts) : 0);
        sqlite3_bind_int64(q, 7, sk->n - 1 - i);
        if (!step_(s, q)) return 0;
    }
    return 1;
}

static evt_status event(void *state, const evt_event *ev)
{
    sq_state *s = state;
    if (s->seq == 0) s->stats.clock_hz = s->r->clock_hz; /* the time unit, fixed at the first event (RKH: TCFG) */
    uint64_t seq = s->seq++;
    if (s->pending_lost >= 0) {
        sqlite3_bind_int64(s->q[Q_LOST_NEXT], 1, s->pending_lost);
        sqlite3_bind_int64(s->q[Q_LOST_NEXT], 2, i64_(ev->ts));
        if (!step_(s, s->q[Q_LOST_NEXT])) return EVT_ERR_IO;
        s->pending_lost = -1;
    }
    sqlite3_stmt *q = s->q[Q_EVENT];
    sqlite3_bind_int64(q, 1, i64_(seq));
    sqlite3_bind_int64(q, 2, i64_(ev->ts));
    if (ev->flags & EVT_HAS_TNS) sqlite3_bind_int64(q, 3, i64_(ev->t_ns));
    else if (s->stats.clock_hz) sqlite3_bind_int64(q, 3, i64_(evt_stats_event_time(&s->stats, ev)));
    sqlite3_bind_int64(q, 4, ev->id);
    sqlite3_bind_text(q, 5, ev->name ? ev->name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, evt_kind_name(ev->kind), -1, SQLITE_STATIC);
    bind_ctx_(q, 7, ev);
    if (ev->flags & EVT_HAS_CPU) sqlite3_bind_int64(q, 8, ev->cpu);
    if (ev->flags & EVT_HAS_PRIO) sqlite3_bind_int64(q, 9, i64_(ev->prio));
    if (ev->flags & EVT_HAS_SEQ) sqlite3_bind_int64(q, 10, i64_(ev->seq));
    if (ev->flags & EVT_HAS_COUNT) sqlite3_bind_int64(q, 11, i64_(ev->count));
    if (ev->flags & EVT_HAS_TARGET) sqlite3_bind_int64(q, 12, i64_(ev->target));
    if (ev->target_name) sqlite3_bind_text(q, 13, ev->target_name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 14, i64_(ev->offset));
    s->jn = 0;
    jput_(s, "[", 1);
    for (uint32_t i = 0; i < ev->nargs; i++) { if (i) jput_(s, ",", 1); jnum_(s, ev->args[i], 0); }
    jput_(s, "]", 1);
    size_t args_len = s->jn;
    if (ev->nfields || (ev->flags & EVT_HAS_TARGET)) {
        jput_(s, "{", 1);
        int first = 1;
        if (ev->flags & EVT_HAS_TARGET) {
            jput_(s, "\"target\":", 9);
            jnum_(s, ev->target, 0);
            if (ev->target_name) { jput_(s, ",\"target_name\":", 15); jstr_(s, ev->target_name); }
            first = 0;
        }
        for (uint32_t i = 0; i < ev->nfields; i++) {
            const evt_field *f = &ev->fields[i];
            if (!first) jput_(s, ",", 1);
            first = 0;
            jstr_(s, f->key ? f->key : "");
            jput_(s, ":", 1);
            if (f->is_str) jstr_(s, f->str ? f->str : "");
            else jnum_(s, f->num, f->is_signed);
        }
        jput_(s, "}", 1);
    }
    if (s->oom) return EVT_ERR_NOMEM;
    sqlite3_bind_text(q, 15, s->js, (int)args_len, SQLITE_STATIC);
    if (s->jn > args_len) sqlite3_bind_text(q, 16, s->js + args_len, (int)(s->jn - args_len), SQLITE_STATIC);
    if (ev->data) {
        sqlite3_bind_blob(q, 17, ev->data, (int)ev->data_len, SQLITE_STATIC);
        if (ev->data_is_text) sqlite3_bind_text(q, 18, (const char *)ev->data, (int)ev->data_len, SQLITE_STATIC);
    }
    if (!step_(s, q)) return EVT_ERR_IO;

    if (ev->kind == EVT_KIND_OBJ_CREATE && (ev->flags & EVT_HAS_TARGET)) {
        q = s->q[Q_OBJ_NEW];
        sqlite3_bind_int64(q, 1, i64_(ev->target));
        if (ev->target_name) sqlite3_bind_text(q, 2, ev->target_name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, i64_(ev->ts));
        sqlite3_bind_int64(q, 4, i64_(seq));
        bind_ctx_(q, 5, ev);
        if (!step_(s, q)) return EVT_ERR_IO;
    } else if (ev->kind == EVT_KIND_OBJ_DELETE && (ev->flags & EVT_HAS_TARGET)) {
        q = s->q[Q_OBJ_DEL];
        sqlite3_bind_int64(q, 1, i64_(ev->target));
        sqlite3_bind_int64(q, 2, i64_(ev->ts));
        sqlite3_bind_int64(q, 3, i64_(seq));
        if (ev->target_name) sqlite3_bind_text(q, 4, ev->target_name, -1, SQLITE_STATIC);
        if (!step_(s, q)) return EVT_ERR_IO;
        if (sqlite3_changes(s->db) == 0) {
            q = s->q[Q_OBJ_DEL_NEW];
            sqlite3_bind_int64(q, 1, i64_(ev->target));
            if (ev->target_name) sqlite3_bind_text(q, 2, ev->target_name, -1, SQLITE_STATIC);
            sqlite3_bind_int64(q, 3, i64_(ev->ts));
            sqlite3_bind_int64(q, 4, i64_(seq));
            bind_ctx_(q, 5, ev);
            if (!step_(s, q)) return EVT_ERR_IO;
        }
    } else if (ev->kind == EVT_KIND_LOST) {
        q = s->q[Q_LOST];
        sqlite3_bind_int64(q, 1, i64_(seq));
        sqlite3_bind_int64(q, 2, i64_(ev->ts));
        bind_ctx_(q, 3, ev);
        if (ev->flags & EVT_HAS_COUNT) sqlite3_bind_int64(q, 4, i64_(ev->count));
        if (seq > 0) sqlite3_bind_int64(q, 5, i64_(s->prev_ts));
        if (!step_(s, q)) return EVT_ERR_IO;
        s->pending_lost = (int64_t)seq;
    }
    if (!spans_(s, ev)) return EVT_ERR_IO;
    if (!evt_stats_add(&s->stats, ev)) return EVT_ERR_NOMEM;
    s->prev_ts = ev->ts;
    return commit_maybe_(s) ? EVT_OK : EVT_ERR_IO;
}

static int meta_(sq_state *s, const char *k, const char *sv, int64_t iv, int is_int)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO meta VALUES(?1,?2)", -1, &q, NULL) != SQLITE_OK) return 0;
    sqlite3_bind_text(q, 1, k, -1, SQLITE_STATIC);
    if (is_int) sqlite3_bind_int64(q, 2, iv);
    else if (sv) sqlite3_bind_text(q, 2, sv, -1, SQLITE_TRANSIENT);
    int ok = sqlite3_step(q) == SQLITE_DONE;
    sqlite3_finalize(q);
    return ok;
}

static int contexts_(sq_state *s)
{
    evt_stats *st = &s->stats;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO contexts VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", -1, &q, NULL) != SQLITE_OK)
        return 0;
    uint64_t dur = evt_stats_duration(st);
    int ok = 1;
    char nb[64];
    for (uint32_t i = 0; ok && i < st->nctx; i++) {
        evt_stats_ctx *c = &st->ctxs[i];
        if (c->has_ctx) sqlite3_bind_int64(q, 1, i64_(c->ctx));
        sqlite3_bind_text(q, 2, evt_stats_ctx_name(st, c, nb, sizeof nb), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(q, 3, evt_stats_class_name(c->cls), -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 4, i64_(c->events));
        sqlite3_bind_int64(q, 5, i64_(c->first_ts));
        sqlite3_bind_int64(q, 6, i64_(c->last_ts));
        sqlite3_bind_int64(q, 7, i64_(c->cpu_ticks));
        sqlite3_bind_double(q, 8, dur ? (double)c->cpu_ticks * 100.0 / (double)dur : 0.0);
        ok = step_(s, q);
    }
    sqlite3_finalize(q);
    return ok;
}

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    sq_state *s = state;
    evt_stats_finish(&s->stats);
    int ok = contexts_(s) && meta_(s, "schema_version", NULL, 1, 1) && meta_(s, "format", r->desc->name, 0, 0) &&
             meta_(s, "source", r->src.path, 0, 0) && meta_(s, "clock_hz", NULL, i64_(r->clock_hz), 1) &&
             meta_(s, "clock_source", evt_clock_source_name(evt_reader_clock_source(r)), 0, 0) &&
             meta_(s, "time_unit", s->stats.clock_hz ? "ns" : "ticks", 0, 0) &&
             meta_(s, "events", NULL, i64_(s->seq), 1) && meta_(s, "lost", NULL, i64_(r->lost), 1) &&
             meta_(s, "errors", NULL, i64_(r->errors), 1) &&
             sqlite3_exec(s->db, "COMMIT;", NULL, NULL, NULL) == SQLITE_OK &&
             sqlite3_exec(s->db, k_indexes, NULL, NULL, NULL) == SQLITE_OK;
    if (!ok) snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(s->db));
    free_(s);
    return ok ? EVT_OK : EVT_ERR_IO;
}

static void abort_(void *state) { free_(state); }

const evt_exporter_desc evt_exporter_sqlite = {
    "sqlite", ".sqlite", "SQLite database (tables events, contexts, objects, lost, spans; evtrace query)", 0,
    begin, event, end, abort_,
};
