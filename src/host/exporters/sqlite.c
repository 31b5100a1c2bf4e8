/* SQLite exporter: the trace as a database to query (`evtrace query`, sqlite3, any SQL tool).
 * A row sink of the query tables (src/host/timeline/tl_rows.h): the tables of tl_tables.def are
 * created from their column descriptors (events.seq is the INTEGER PRIMARY KEY), rows inserted
 * by a batched multi-row INSERT per table (sqlite_batch.h). Schema documented in docs/sqlite.md (version 2).
 * Kept for queries written against version 1:
 *   meta(key, value)  schema_version (2), format, source, clock_hz, clock_source, time_unit,
 *                     events, lost, errors
 *   lost(seq, ts, ctx, count, prev_ts, next_ts)  a table: each loss record with the raw
 *                     timestamps of the events around it (filled here from the event stream)
 *   spans(cat, name, ctx, begin_ts, end_ts, dur, depth)  a VIEW over isrs and slices (times in
 *                     traces.time_unit; ctx NULL for ISRs)
 * Indexes the documented queries need are built at the end (faster than maintaining them).
 * Streaming: rows are inserted as they are final, in transactions of TXN_ROWS rows, with a
 * bounded page cache and temp files on disk, so memory does not grow with the trace. */
#include <stdio.h>
#include <string.h>
#include <sqlite3.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/timeline/tl_rows.h"
#include "sqlite_batch.h"

#define TXN_ROWS 1000000
#define SCHEMA_VERSION 2

static const char k_pragmas[] =
    "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA cache_size=-8192; PRAGMA temp_store=FILE;";

static const char k_legacy[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value);"
    "CREATE TABLE lost(seq INTEGER PRIMARY KEY, ts INTEGER, ctx INTEGER, count INTEGER, prev_ts INTEGER,"
    " next_ts INTEGER);"
    "CREATE VIEW spans(cat, name, ctx, begin_ts, end_ts, dur, depth) AS"
    " SELECT 'isr', name, isr_ctx, t0, t1, dur, depth FROM isrs"
    " UNION ALL SELECT cat, name, ctx, t0, t1, dur, depth FROM slices;";

/* What the queries of docs/sqlite.md filter and join on; built after the last row. */
static const char k_indexes[] =
    "CREATE INDEX thread_states_ctx_t0 ON thread_states(ctx, t0);"
    "CREATE INDEX thread_states_t0 ON thread_states(t0);"
    "CREATE INDEX objects_target ON objects(target);";

enum { Q_LOST, Q_LOST_NEXT, Q_COUNT };

typedef struct sq_state {
    sqlite3 *db;
    evt_reader *r;            /* open until end(): its clock is read at the first event */
    evt_tl_rows *rows;        /* created at the first event, when the time unit is known */
    sq_batch b[EVT_TL_T_COUNT_]; /* the INSERT of each table */
    sqlite3_stmt *q[Q_COUNT]; /* the legacy lost table's */
    uint64_t txn;             /* rows in the current transaction */
    uint64_t seq, prev_ts;
    int64_t pending_lost;     /* seq of a lost row waiting for next_ts, -1 none */
    int failed;               /* SQLite refused a row (the message is in the db handle) */
} sq_state;

static const char *const k_sql_types[] = {"INTEGER", "REAL", "TEXT", "BLOB"}; /* by evt_tl_coltype */

/* CREATE TABLE text of a table, from its descriptor. */
static int table_sql_(evt_tl_table t, char *create, size_t clen)
{
    const evt_tl_table_desc *d = evt_tl_table_at(t);
    size_t cn = (size_t)snprintf(create, clen, "CREATE TABLE %s(", d->name);
    for (uint32_t i = 0; i < d->ncols && cn < clen; i++) {
        const evt_tl_column *c = &d->cols[i];
        int key = t == EVT_TL_T_events && i == 0; /* events.seq: the rowid, trace order */
        cn += (size_t)snprintf(create + cn, clen - cn, "%s\"%s\" %s%s", i ? ", " : "", c->name,
                               key ? "INTEGER PRIMARY KEY" : k_sql_types[c->type],
                               c->nullable || key ? "" : " NOT NULL");
    }
    if (cn < clen) cn += (size_t)snprintf(create + cn, clen - cn, ");");
    return cn < clen;
}

static int step_(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE;
}

static int commit_maybe_(sq_state *s)
{
    if (++s->txn < TXN_ROWS) return 1;
    s->txn = 0;
    return sqlite3_exec(s->db, "COMMIT; BEGIN;", NULL, NULL, NULL) == SQLITE_OK;
}

/* The row sink of tl_rows. */
static int row_(void *user, evt_tl_table t, const evt_tl_val *v)
{
    sq_state *s = user;
    if (!sq_batch_add(&s->b[t], v) || !commit_maybe_(s)) { s->failed = 1; return 0; }
    return 1;
}

static int flush_(sq_state *s)
{
    for (int t = 0; t < EVT_TL_T_COUNT_; t++)
        if (!sq_batch_flush(&s->b[t])) return 0;
    return 1;
}

static void free_(sq_state *s)
{
    for (int i = 0; i < Q_COUNT; i++) sqlite3_finalize(s->q[i]);
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) sq_batch_close(&s->b[t]);
    if (s->db) sqlite3_close(s->db);
    evt_tl_rows_free(s->rows);
    evt_free(s);
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    sq_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->pending_lost = -1;
    s->r = r;
    /* NOMUTEX: one thread uses this connection (no lock per call) */
    int ok = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             evt_out_sqlite_vfs()) == SQLITE_OK &&
             sqlite3_exec(s->db, k_pragmas, NULL, NULL, NULL) == SQLITE_OK;
    for (int t = 0; ok && t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        char create[2048];
        ok = table_sql_((evt_tl_table)t, create, sizeof create) &&
             sqlite3_exec(s->db, create, NULL, NULL, NULL) == SQLITE_OK &&
             sq_batch_open(&s->b[t], s->db, d->name, d->cols, d->ncols);
        if (ok && t == EVT_TL_T_events) sq_batch_ipk(&s->b[t]); /* events.seq */
    }
    ok = ok && sqlite3_exec(s->db, k_legacy, NULL, NULL, NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(s->db, "INSERT INTO lost(seq,ts,ctx,count,prev_ts) VALUES(?1,?2,?3,?4,?5)", -1,
                            &s->q[Q_LOST], NULL) == SQLITE_OK &&
         sqlite3_prepare_v2(s->db, "UPDATE lost SET next_ts=?2 WHERE seq=?1", -1, &s->q[Q_LOST_NEXT], NULL) ==
             SQLITE_OK &&
         sqlite3_exec(s->db, "BEGIN;", NULL, NULL, NULL) == SQLITE_OK;
    if (!ok) {
        snprintf(err, errlen, "cannot create database %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "?");
        free_(s);
        return EVT_ERR_IO;
    }
    *state = s;
    return EVT_OK;
}

/* The row producer, with the reader's clock as it is now (the first event fixes the unit). */
static int rows_start_(sq_state *s)
{
    evt_tl_trace_info info = {s->r->desc->name, s->r->src.path, s->r->clock_hz,
                              evt_clock_source_name(evt_reader_clock_source(s->r)), 0};
    info.reader = s->r;
    evt_tl_row_sink sink = {s, row_};
    s->rows = evt_tl_rows_new(&info, &sink);
    return s->rows != NULL;
}

/* The legacy lost table: each loss with the raw timestamps of its neighbours. */
static int lost_(sq_state *s, const evt_event *ev, uint64_t seq)
{
    if (s->pending_lost >= 0) {
        sqlite3_stmt *q = s->q[Q_LOST_NEXT];
        sqlite3_bind_int64(q, 1, s->pending_lost);
        sqlite3_bind_int64(q, 2, (int64_t)ev->ts);
        if (!step_(q)) return 0;
        s->pending_lost = -1;
    }
    if (ev->kind != EVT_KIND_LOST) return 1;
    sqlite3_stmt *q = s->q[Q_LOST];
    sqlite3_clear_bindings(q);
    sqlite3_bind_int64(q, 1, (int64_t)seq);
    sqlite3_bind_int64(q, 2, (int64_t)ev->ts);
    if (ev->flags & EVT_HAS_CTX) sqlite3_bind_int64(q, 3, (int64_t)ev->ctx);
    if (ev->flags & EVT_HAS_COUNT) sqlite3_bind_int64(q, 4, (int64_t)ev->count);
    if (seq > 0) sqlite3_bind_int64(q, 5, (int64_t)s->prev_ts);
    if (!step_(q)) return 0;
    s->pending_lost = (int64_t)seq;
    return 1;
}

static evt_status event(void *state, const evt_event *ev)
{
    sq_state *s = state;
    if (!s->rows && !rows_start_(s)) return EVT_ERR_NOMEM;
    uint64_t seq = s->seq++;
    if (!lost_(s, ev, seq)) return EVT_ERR_IO;
    s->prev_ts = ev->ts;
    if (!evt_tl_rows_add(s->rows, ev)) return s->failed ? EVT_ERR_IO : EVT_ERR_NOMEM;
    return EVT_OK;
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

static evt_status end(void *state, evt_reader *r, char *err, size_t errlen)
{
    sq_state *s = state;
    if (!s->rows && !rows_start_(s)) {
        free_(s);
        snprintf(err, errlen, "out of memory");
        return EVT_ERR_NOMEM;
    }
    if (!evt_tl_rows_finish(s->rows, r->errors)) {
        evt_status st = s->failed ? EVT_ERR_IO : EVT_ERR_NOMEM;
        snprintf(err, errlen, "%s", s->failed ? sqlite3_errmsg(s->db) : "out of memory");
        free_(s);
        return st;
    }
    const evt_tl *tl = evt_tl_rows_timeline(s->rows);
    int ok = meta_(s, "schema_version", NULL, SCHEMA_VERSION, 1) && meta_(s, "format", r->desc->name, 0, 0) &&
             meta_(s, "source", r->src.path, 0, 0) && meta_(s, "clock_hz", NULL, (int64_t)r->clock_hz, 1) &&
             meta_(s, "clock_source", evt_clock_source_name(evt_reader_clock_source(r)), 0, 0) &&
             meta_(s, "time_unit", tl->clock_hz ? "ns" : "ticks", 0, 0) &&
             meta_(s, "events", NULL, (int64_t)s->seq, 1) && meta_(s, "lost", NULL, (int64_t)r->lost, 1) &&
             meta_(s, "errors", NULL, (int64_t)r->errors, 1) && flush_(s) &&
             sqlite3_exec(s->db, "COMMIT;", NULL, NULL, NULL) == SQLITE_OK &&
             sqlite3_exec(s->db, k_indexes, NULL, NULL, NULL) == SQLITE_OK;
    if (!ok) snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(s->db));
    free_(s);
    return ok ? EVT_OK : EVT_ERR_IO;
}

static void abort_(void *state) { free_(state); }

const evt_exporter_desc evt_exporter_sqlite = {
    "sqlite", ".sqlite",
    "SQLite database (traces, contexts, objects, events, thread_states, slices, isrs, counters, flows, losses; "
    "evtrace query)",
    0, begin, event, end, abort_,
};
