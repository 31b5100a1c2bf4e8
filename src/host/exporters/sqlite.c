/* SQLite exporter: the trace as a database to query (`evtrace query`, sqlite3, any SQL tool).
 * A row sink of the query tables (src/host/timeline/tl_rows.h). SQLite creates the database,
 * the tables of tl_tables.def from their column descriptors (events.seq is the INTEGER PRIMARY
 * KEY) and the version-1 tables below, and closes it; the rows are then written as SQLite's own
 * b-tree pages, appended as they fill (sqlite_pages.h: no INSERT per row), and so are the
 * entries of the indexes (created empty with the tables; sorted, then written at the end). SQLite
 * then opens the file again and fills `meta`. Schema documented in docs/sqlite.md
 * (version 2). Kept for queries written against version 1:
 *   meta(key, value)  schema_version (2), format, source, clock_hz, clock_source, time_unit,
 *                     events, lost, errors
 *   lost(seq, ts, ctx, count, prev_ts, next_ts)  a table: each loss record with the raw
 *                     timestamps of the events around it (filled here from the event stream)
 *   spans(cat, name, ctx, begin_ts, end_ts, dur, depth)  a VIEW over isrs and slices (times in
 *                     traces.time_unit; ctx NULL for ISRs)
 * The indexes are those the documented queries need (k_indexes).
 * Streaming: rows go out in pages as they are final; memory holds one page per table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sqlite3.h>
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/timeline/tl_rows.h"
#include "sqlite_pages.h"

#define SCHEMA_VERSION 2

/* Page size, auto_vacuum and the other header facts sqlite_pages.h relies on are set before the
 * first table; the rest hold for each connection (the one that creates the database, the one
 * that fills meta after the pages are in). */
static const char k_pragmas_new[] = "PRAGMA page_size=65536; PRAGMA auto_vacuum=NONE;";
static const char k_pragmas[] =
    "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA cache_size=-8192; PRAGMA temp_store=FILE;";

static const char k_legacy[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value);"
    "CREATE VIEW spans(cat, name, ctx, begin_ts, end_ts, dur, depth) AS"
    " SELECT 'isr', name, isr_ctx, t0, t1, dur, depth FROM isrs"
    " UNION ALL SELECT cat, name, ctx, t0, t1, dur, depth FROM slices;";

/* What the queries of docs/sqlite.md filter and join on. Created on the empty tables; their
 * entries are written by the page writer (sq_pages_index) with the rows. */
typedef struct sq_index_def { const char *name; evt_tl_table table; const char *cols[2]; } sq_index_def;
static const sq_index_def k_indexes[] = {
    {"thread_states_ctx_t0", EVT_TL_T_thread_states, {"ctx", "t0"}},
    {"thread_states_t0", EVT_TL_T_thread_states, {"t0", NULL}},
    {"objects_target", EVT_TL_T_objects, {"target", NULL}},
};
#define N_INDEXES (sizeof k_indexes / sizeof k_indexes[0])

/* The version-1 lost table's columns, for the page writer (seq is its INTEGER PRIMARY KEY). */
enum { L_SEQ, L_TS, L_CTX, L_COUNT, L_PREV_TS, L_NEXT_TS, L_NCOLS };
static const evt_tl_column k_lost_cols[L_NCOLS] = {
    {"seq", EVT_TL_I64, 0, ""},  {"ts", EVT_TL_I64, 1, ""},      {"ctx", EVT_TL_I64, 1, ""},
    {"count", EVT_TL_I64, 1, ""}, {"prev_ts", EVT_TL_I64, 1, ""}, {"next_ts", EVT_TL_I64, 1, ""},
};

typedef struct sq_state {
    evt_reader *r;            /* open until end(): its clock is read at the first event */
    evt_tl_rows *rows;        /* created at the first event, when the time unit is known */
    char path[4096];
    sq_pages *pages;          /* every table's rows but meta's */
    int tab[EVT_TL_T_COUNT_]; /* each query table's handle in pages */
    int lost_tab;             /* the lost table's */
    evt_tl_val lost[L_NCOLS]; /* a loss row waiting for the next event's ts (lost_pending) */
    int lost_pending;
    uint64_t seq, prev_ts;
    int failed;               /* a row was refused or not written (sq_pages_error says why) */
} sq_state;

static const char *const k_sql_types[] = {"INTEGER", "REAL", "TEXT", "BLOB"}; /* by evt_tl_coltype */

/* CREATE TABLE text of a table from its columns; ipk: column 0 is its INTEGER PRIMARY KEY. */
static int table_sql_(const char *name, const evt_tl_column *cols, uint32_t ncols, int ipk, char *create, size_t clen)
{
    size_t cn = (size_t)snprintf(create, clen, "CREATE TABLE %s(", name);
    for (uint32_t i = 0; i < ncols && cn < clen; i++) {
        const evt_tl_column *c = &cols[i];
        int key = ipk && i == 0;
        cn += (size_t)snprintf(create + cn, clen - cn, "%s\"%s\" %s%s", i ? ", " : "", c->name,
                               key ? "INTEGER PRIMARY KEY" : k_sql_types[c->type],
                               c->nullable || key ? "" : " NOT NULL");
    }
    if (cn < clen) cn += (size_t)snprintf(create + cn, clen - cn, ");");
    return cn < clen;
}

/* The row sink of tl_rows. */
static int row_(void *user, evt_tl_table t, const evt_tl_val *v)
{
    sq_state *s = user;
    if (!sq_pages_add(s->pages, s->tab[t], v)) { s->failed = 1; return 0; }
    return 1;
}

/* The root page SQLite gave table or index `name`, 0 when not found. */
static uint32_t root_of_(sqlite3 *db, const char *name)
{
    sqlite3_stmt *q;
    uint32_t root = 0;
    if (sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_schema WHERE type IN ('table','index') AND name=?1", -1,
                           &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) root = (uint32_t)sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return root;
}

static void free_(sq_state *s)
{
    sq_pages_free(s->pages);
    evt_tl_rows_free(s->rows);
    evt_free(s);
}

static int exec_(sqlite3 *db, const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK; }

static int open_db_(const char *path, sqlite3 **db, int flags)
{
    /* NOMUTEX: one thread uses this connection (no lock per call) */
    return sqlite3_open_v2(path, db, flags | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, evt_out_sqlite_vfs()) ==
           SQLITE_OK;
}

/* The column numbers of index i in its table's descriptor; returns how many (0: a name unknown). */
static uint32_t index_cols_(size_t i, uint32_t *cols)
{
    const evt_tl_table_desc *d = evt_tl_table_at(k_indexes[i].table);
    uint32_t n = 0;
    for (; n < 2 && k_indexes[i].cols[n]; n++) {
        uint32_t c = 0;
        while (c < d->ncols && strcmp(d->cols[c].name, k_indexes[i].cols[n]) != 0) c++;
        if (c == d->ncols) return 0;
        cols[n] = c;
    }
    return n;
}

/* CREATE INDEX text of index i. */
static void index_sql_(size_t i, char *sql, size_t len)
{
    const sq_index_def *x = &k_indexes[i];
    snprintf(sql, len, "CREATE INDEX %s ON %s(%s%s%s);", x->name, evt_tl_table_at(x->table)->name, x->cols[0],
             x->cols[1] ? ", " : "", x->cols[1] ? x->cols[1] : "");
}

/* SQLite makes the database: its schema, every table and index empty; their root pages into
 * roots, lost_root and iroots. */
static int create_(const char *path, uint32_t *roots, uint32_t *lost_root, uint32_t *iroots, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    int ok = open_db_(path, &db, SQLITE_OPEN_CREATE) && exec_(db, k_pragmas_new) && exec_(db, k_pragmas) &&
             exec_(db, "BEGIN;");
    for (int t = 0; ok && t < EVT_TL_T_COUNT_; t++) {
        char create[2048];
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        ok = table_sql_(d->name, d->cols, d->ncols, t == EVT_TL_T_events, create, sizeof create) && /* events.seq: the rowid */
             exec_(db, create);
    }
    char lost[512];
    ok = ok && table_sql_("lost", k_lost_cols, L_NCOLS, 1, lost, sizeof lost) && exec_(db, lost);
    for (size_t i = 0; ok && i < N_INDEXES; i++) {
        char sql[256];
        index_sql_(i, sql, sizeof sql);
        ok = exec_(db, sql);
    }
    ok = ok && exec_(db, k_legacy) && exec_(db, "COMMIT;");
    for (int t = 0; ok && t < EVT_TL_T_COUNT_; t++) ok = (roots[t] = root_of_(db, evt_tl_table_at((evt_tl_table)t)->name)) != 0;
    for (size_t i = 0; ok && i < N_INDEXES; i++) ok = (iroots[i] = root_of_(db, k_indexes[i].name)) != 0;
    ok = ok && (*lost_root = root_of_(db, "lost")) != 0;
    if (!ok) snprintf(err, errlen, "cannot create database %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
    if (sqlite3_close(db) != SQLITE_OK && ok) { /* nothing of SQLite's may stay unwritten */
        snprintf(err, errlen, "cannot create database %s: it did not close", path);
        ok = 0;
    }
    return ok;
}

static evt_status begin(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    sq_state *s = evt_calloc(1, sizeof *s);
    if (!s) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    s->r = r;
    snprintf(err, errlen, "output path too long"); /* replaced by the reason of any later failure */
    uint32_t roots[EVT_TL_T_COUNT_], iroots[N_INDEXES], lost_root = 0;
    size_t plen = strlen(path);
    if (plen < sizeof s->path) {
        memcpy(s->path, path, plen + 1);
        snprintf(err, errlen, "out of memory");
    }
    int ok = plen < sizeof s->path && create_(path, roots, &lost_root, iroots, err, errlen) &&
             (s->pages = sq_pages_open(path, SQ_PAGES_PENDING_BYTE, err, errlen)) != NULL;
    for (int t = 0; ok && t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        ok = (s->tab[t] = sq_pages_table(s->pages, roots[t], d->cols, d->ncols, t == EVT_TL_T_events)) >= 0;
    }
    for (size_t i = 0; ok && i < N_INDEXES; i++) {
        uint32_t cols[2], n = index_cols_(i, cols);
        ok = n && sq_pages_index(s->pages, s->tab[k_indexes[i].table], iroots[i], cols, n);
    }
    ok = ok && (s->lost_tab = sq_pages_table(s->pages, lost_root, k_lost_cols, L_NCOLS, 1)) >= 0;
    if (!ok) {
        free_(s);
        return EVT_ERR_IO;
    }
    err[0] = '\0';
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

/* The version-1 lost table: each loss with the raw timestamps of its neighbours (a row is
 * written when the next event gives its next_ts, or at the end without one). */
static int lost_(sq_state *s, const evt_event *ev, uint64_t seq)
{
    if (s->lost_pending) {
        s->lost[L_NEXT_TS] = (evt_tl_val){.i = ev ? (int64_t)ev->ts : 0, .is_null = !ev};
        s->lost_pending = 0;
        if (!sq_pages_add(s->pages, s->lost_tab, s->lost)) return 0;
    }
    if (!ev || ev->kind != EVT_KIND_LOST) return 1;
    s->lost[L_SEQ] = (evt_tl_val){.i = (int64_t)seq};
    s->lost[L_TS] = (evt_tl_val){.i = (int64_t)ev->ts};
    s->lost[L_CTX] = (evt_tl_val){.i = (int64_t)ev->ctx, .is_null = !(ev->flags & EVT_HAS_CTX)};
    s->lost[L_COUNT] = (evt_tl_val){.i = (int64_t)ev->count, .is_null = !(ev->flags & EVT_HAS_COUNT)};
    s->lost[L_PREV_TS] = (evt_tl_val){.i = (int64_t)s->prev_ts, .is_null = seq == 0};
    s->lost_pending = 1;
    return 1;
}

static evt_status event(void *state, const evt_event *ev)
{
    sq_state *s = state;
    if (!s->rows && !rows_start_(s)) return EVT_ERR_NOMEM;
    uint64_t seq = s->seq++;
    if (!lost_(s, ev, seq)) { s->failed = 1; return EVT_ERR_IO; }
    s->prev_ts = ev->ts;
    if (!evt_tl_rows_add(s->rows, ev)) return s->failed ? EVT_ERR_IO : EVT_ERR_NOMEM;
    return EVT_OK;
}

static int meta_(sqlite3 *db, const char *k, const char *sv, int64_t iv, int is_int)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "INSERT INTO meta VALUES(?1,?2)", -1, &q, NULL) != SQLITE_OK) return 0;
    sqlite3_bind_text(q, 1, k, -1, SQLITE_STATIC);
    if (is_int) sqlite3_bind_int64(q, 2, iv);
    else if (sv) sqlite3_bind_text(q, 2, sv, -1, SQLITE_TRANSIENT);
    int ok = sqlite3_step(q) == SQLITE_DONE;
    sqlite3_finalize(q);
    return ok;
}

/* The pages are in: SQLite opens the file again for meta. */
static int meta_table_(sq_state *s, evt_reader *r, char *err, size_t errlen)
{
    const evt_tl *tl = evt_tl_rows_timeline(s->rows);
    sqlite3 *db = NULL;
    int ok = open_db_(s->path, &db, 0) && exec_(db, k_pragmas) && exec_(db, "BEGIN;") &&
             meta_(db, "schema_version", NULL, SCHEMA_VERSION, 1) && meta_(db, "format", r->desc->name, 0, 0) &&
             meta_(db, "source", r->src.path, 0, 0) && meta_(db, "clock_hz", NULL, (int64_t)r->clock_hz, 1) &&
             meta_(db, "clock_source", evt_clock_source_name(evt_reader_clock_source(r)), 0, 0) &&
             meta_(db, "time_unit", tl->clock_hz ? "ns" : "ticks", 0, 0) &&
             meta_(db, "events", NULL, (int64_t)s->seq, 1) && meta_(db, "lost", NULL, (int64_t)r->lost, 1) &&
             meta_(db, "errors", NULL, (int64_t)r->errors, 1) && exec_(db, "COMMIT;");
    if (!ok) snprintf(err, errlen, "sqlite: %s", db ? sqlite3_errmsg(db) : "out of memory");
    if (sqlite3_close(db) != SQLITE_OK && ok) {
        snprintf(err, errlen, "sqlite: the database did not close");
        ok = 0;
    }
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
    int rows_ok = evt_tl_rows_finish(s->rows, r->errors);
    if (!rows_ok || !lost_(s, NULL, 0)) {
        int io = !rows_ok ? s->failed : 1; /* the rows stopped for a refused or unwritten row, or memory */
        evt_status st = io ? EVT_ERR_IO : EVT_ERR_NOMEM;
        snprintf(err, errlen, "%s", io ? sq_pages_error(s->pages) : "out of memory");
        free_(s);
        errno = 0;
        return st;
    }
    int ok = sq_pages_finish(s->pages);
    if (!ok) snprintf(err, errlen, "%s", sq_pages_error(s->pages));
    ok = ok && meta_table_(s, r, err, errlen);
    free_(s);
    if (!ok) errno = 0; /* err says it all (a write's errno included): not said twice */
    return ok ? EVT_OK : EVT_ERR_IO;
}

static void abort_(void *state) { free_(state); }

const evt_exporter_desc evt_exporter_sqlite = {
    "sqlite", ".sqlite",
    "SQLite database (traces, contexts, objects, events, thread_states, slices, isrs, counters, flows, losses; "
    "evtrace query)",
    0, begin, event, end, abort_,
};
