/* evtrace query: run SQL on a trace. FILE is either a database written by `convert --to sqlite`
 * or any trace, which is first converted into a temporary database (removed afterwards). Rows
 * are printed tab-separated with a header line, or with --json as JSON Lines (one object per
 * row, keys = column names). Schema: docs/exports.md. The query cannot write anything: the
 * database is opened read-only and guarded by an authorizer (query_guard.c). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "evtrace/exporter.h"
#include "evtrace/json.h"
#include "host/safe_text.h"
#include "host/timeline/tl_rows.h"
#include "query_guard.h"

static int is_sqlite_file(const char *path)
{
    struct stat st; /* only a regular file: a FIFO's bytes belong to the trace reader */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == 16 && memcmp(head, "SQLite format 3", 16) == 0;
}

/* Convert the trace into db_path; returns an exit code (0 = ok). */
static int convert_into(const cli_args *a, const char *db_path)
{
    const evt_exporter_desc *x = evt_exporter_find("sqlite");
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    char err[512] = "";
    void *xs = NULL;
    if (!x || x->begin(db_path, r, &xs, err, sizeof err) != EVT_OK) {
        cli_err("query", "cannot create the temporary database: %s", err);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    evt_event ev;
    evt_status st, wst = EVT_OK;
    cli_progress prog;
    cli_progress_init(&prog, "query", r, a->quiet);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if ((wst = x->event(xs, &ev)) != EVT_OK) break;
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    if (wst != EVT_OK) {
        x->abort(xs);
        cli_err("query", "temporary database: %s", evt_status_message(wst));
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    if (x->end(xs, r, err, sizeof err) != EVT_OK) {
        cli_err("query", "temporary database: %s", err);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    code = cli_finish(r, st); /* EXIT_DATA: errors were reported; the events read are queried */
    evt_reader_close(r);
    return code;
}

static void print_row_text(sqlite3_stmt *q, int ncol)
{
    for (int i = 0; i < ncol; i++) {
        if (i) putchar('\t');
        if (sqlite3_column_type(q, i) == SQLITE_BLOB) {
            const unsigned char *b = sqlite3_column_blob(q, i);
            for (int k = 0; k < sqlite3_column_bytes(q, i); k++) printf("%02x", b[k]);
        } else if (sqlite3_column_type(q, i) != SQLITE_NULL) {
            /* terminal-safe: a tab or newline inside a value cannot shift columns or forge rows */
            const char *v = (const char *)sqlite3_column_text(q, i); /* before _bytes: its length in UTF-8 */
            evt_text_fput(v, (size_t)sqlite3_column_bytes(q, i), stdout);
        }
    }
    putchar('\n');
}

static void print_row_json(sqlite3_stmt *q, int ncol)
{
    evt_json j;
    evt_json_init(&j, stdout, 0);
    evt_json_obj_begin(&j);
    for (int i = 0; i < ncol; i++) {
        evt_json_key(&j, sqlite3_column_name(q, i));
        switch (sqlite3_column_type(q, i)) {
        case SQLITE_INTEGER: evt_json_i64(&j, sqlite3_column_int64(q, i)); break;
        case SQLITE_FLOAT: evt_json_f64(&j, sqlite3_column_double(q, i)); break;
        case SQLITE_TEXT:
            evt_json_strn(&j, (const char *)sqlite3_column_text(q, i), (size_t)sqlite3_column_bytes(q, i));
            break;
        case SQLITE_BLOB:
            evt_json_hex(&j, sqlite3_column_blob(q, i), (size_t)sqlite3_column_bytes(q, i));
            break;
        default: evt_json_null(&j);
        }
    }
    evt_json_obj_end(&j);
    putchar('\n');
}

#define QUERY_TIMEOUT_S 60.0        /* --timeout default */
#define QUERY_MAX_ROWS 1000000ull    /* --max-rows default */

static double now_s_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The deadline: SQLite calls this every QUERY_PROGRESS_OPS virtual-machine steps; non-zero
 * interrupts the statement (SQLITE_INTERRUPT). */
#define QUERY_PROGRESS_OPS 10000
static int past_deadline_(void *user)
{
    const double *deadline = user;
    return now_s_() > *deadline;
}

/* "file:" URI of path with %, ?, # escaped, opened immutable (nothing is ever written beside the
 * database: no -wal, -shm nor -journal). Returns 0 when it does not fit. */
static int immutable_uri_(const char *path, char *uri, size_t cap)
{
    size_t o = (size_t)snprintf(uri, cap, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (o + 4 >= cap) return 0;
        if (*p == '%' || *p == '?' || *p == '#') o += (size_t)snprintf(uri + o, cap - o, "%%%02X", *p);
        else uri[o++] = (char)*p;
    }
    return snprintf(uri + o, cap - o, "?immutable=1") < (int)(cap - o);
}

static int run_sql(const cli_args *a, const char *db_path)
{
    sqlite3 *db = NULL;
    char uri[8300], wal[4200];
    if (!immutable_uri_(db_path, uri, sizeof uri)) { cli_err("query", "%s: path too long", a->file); return EXIT_USAGE; }
    struct stat wst;
    if (snprintf(wal, sizeof wal, "%s-wal", db_path) < (int)sizeof wal && stat(wal, &wst) == 0 && wst.st_size > 0)
        cli_err("query", "warning: %s holds changes not yet checkpointed into the database; they are not read "
                "(the database is opened immutable, so nothing is written beside it)", wal);
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
        cli_err("query", "%s: %s", a->file, db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return EXIT_INPUT;
    }
    if (!query_guard(db)) { /* read-only: authorizer + limits (query_guard.c) */
        cli_err("query", "cannot make the connection read-only");
        sqlite3_close(db);
        return EXIT_INPUT;
    }
    const char *sql = a->extra[0];
    int code = EXIT_OK_;
    double limit_s = a->has_timeout ? a->timeout_s : QUERY_TIMEOUT_S;
    double deadline = now_s_() + limit_s;
    sqlite3_progress_handler(db, QUERY_PROGRESS_OPS, past_deadline_, &deadline);
    uint64_t max_rows = a->has_max_rows ? a->max_rows : QUERY_MAX_ROWS, rows = 0;
    while (sql && *sql) {
        sqlite3_stmt *q = NULL;
        const char *tail = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &q, &tail) != SQLITE_OK) {
            cli_err("query", "SQL error: %s", sqlite3_errmsg(db));
            code = EXIT_USAGE;
            break;
        }
        sql = tail;
        if (!q) continue; /* whitespace or comment */
        if (!query_stmt_allowed(q)) {
            cli_err("query", "SQL error: not authorized: query only reads (%s)", sqlite3_sql(q));
            sqlite3_finalize(q);
            code = EXIT_USAGE;
            break;
        }
        int ncol = sqlite3_column_count(q);
        if (!a->json && ncol > 0) {
            for (int i = 0; i < ncol; i++) printf("%s%s", i ? "\t" : "", cli_safe(sqlite3_column_name(q, i)));
            putchar('\n');
        }
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            if (max_rows && rows == max_rows) {
                cli_err("query", "stopped after %llu rows (--max-rows %llu): the result is incomplete",
                        (unsigned long long)rows, (unsigned long long)max_rows);
                rc = SQLITE_DONE;
                code = EXIT_DATA;
                break;
            }
            rows++;
            if (a->json) print_row_json(q, ncol);
            else print_row_text(q, ncol);
        }
        if (rc == SQLITE_INTERRUPT) {
            cli_err("query", "stopped after %g s (--timeout %g): the result is incomplete", limit_s, limit_s);
            code = EXIT_DATA;
        } else if (rc != SQLITE_DONE) {
            cli_err("query", "SQL error: %s", sqlite3_errmsg(db));
            code = EXIT_USAGE;
        }
        sqlite3_finalize(q);
        if (code) break;
    }
    sqlite3_close(db);
    return code;
}

static int run(const cli_args *a)
{
    if (is_sqlite_file(a->file)) return run_sql(a, a->file);
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/evtrace-query-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) { cli_err("query", "cannot create a temporary file in %s", tmpdir ? tmpdir : "/tmp"); return EXIT_INPUT; }
    close(fd);
    cli_tmp_guard(path); /* an interrupted query leaves no database in $TMPDIR */
    int code = convert_into(a, path);
    if (code == EXIT_OK_ || code == EXIT_DATA) {
        int qcode = run_sql(a, path);
        if (qcode != EXIT_OK_) code = qcode;
    }
    unlink(path);
    cli_tmp_unguard();
    return code;
}

/* The tables, from the exporter's own registry (tl_tables.def) plus its fixed ones. */
static void tables_help_(FILE *o)
{
    fprintf(o, "Tables (docs/sqlite.md):");
    int col = 8;
    static const char *const fixed[] = {"meta", "lost", "spans (a view)"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + EVT_TL_T_COUNT_; i++) {
        const char *name = i < 3 ? fixed[i] : evt_tl_table_at((evt_tl_table)(i - 3))->name;
        if (col + strlen(name) + 2 > 96) { fprintf(o, "\n "); col = 0; }
        col += fprintf(o, " %s%s", name, i + 1 < sizeof fixed / sizeof fixed[0] + EVT_TL_T_COUNT_ ? "," : "\n");
    }
}

const cli_command cli_cmd_query = {
    "query", "[--json] [--timeout SECONDS] [--max-rows N] FILE \"SQL\"",
    "run SQL on a trace (tables events, contexts, objects, lost, spans, ...)",
    "Runs SQL (one or more statements) on FILE: a database from `convert --to sqlite`, or any trace,\n"
    "which is converted into a temporary database first. Prints a header line and tab-separated\n"
    "rows, or JSON Lines with --json. The SQL only reads: the database is opened immutable (nothing\n"
    "is written beside it, not even -wal/-shm files), stops after --timeout SECONDS (default 60)\n"
    "and after --max-rows N rows (default 1000000); either stop says so and exits 1.\n"
    "Example: evtrace query t.trx \"SELECT name, count(*) FROM events GROUP BY 1\"",
    OPT_JSON | OPT_QUIET | OPT_TIMEOUT | OPT_QUERY, 1, 1, run, tables_help_,
};
