/* The ClickHouse exporter (clickhouse.h): rows of the query tables from the row producer
 * (tl_rows.h), RowBinary-encoded (clickhouse_rowbinary.h) behind the trace id and labels, into
 * one INSERT per table at a time over HTTP(S) (http_client.h, libcurl); the traces row last, alone.
 *
 * Per table: `buf` holds encoded rows not yet handed to the connection (flushed at FLUSH_BYTES),
 * `req` is the INSERT being sent, `in_flight` its rows; when the server acknowledges it (HTTP 200)
 * they move to `committed`. Invariant: committed counts only acknowledged rows. */
#include "clickhouse.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clickhouse_rowbinary.h"
#include "clickhouse_schema.h"
#include "clickhouse_server.h"
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"

#define FLUSH_BYTES (64u * 1024u)

typedef struct table_ins {
    evt_rb_buf buf;
    evt_http_req *req;
    uint64_t in_flight;
    uint64_t committed;
} table_ins;

struct evt_ch_load {
    evt_ch_conn conn;
    evt_reader *r;
    char trace_id[72];
    evt_rb_buf prefix;        /* trace_id, labels.key, labels.value: the same bytes on every row */
    evt_tl_rows *rows;        /* created at the first event (its clock fixes the time unit) */
    table_ins t[EVT_TL_T_COUNT_];
    uint64_t batch;
    char err[1536];           /* the first failure inside the row sink */
};

static int uuid4_(char *out, size_t len)
{
    unsigned char b[16];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    if (n != (ssize_t)sizeof b) return 0;
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(out, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
             b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 1;
}

void evt_ch_committed_text(const evt_ch_load *l, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int t = 0; t < EVT_TL_T_COUNT_ && o < len; t++) {
        if (!l->t[t].committed) continue;
        int w = snprintf(buf + o, len - o, "%s%s %llu", o ? ", " : "", evt_ch_table((evt_tl_table)t)->name,
                         (unsigned long long)l->t[t].committed);
        if (w < 0) break;
        o += (size_t)w;
    }
    if (!o) snprintf(buf, len, "none");
}

/* The failure message: what happened, then what the server holds of this trace now: the rows it
 * acknowledged, and the rows sent or about to be sent without an acknowledgement (an INSERT that
 * failed part-way may have stored some of them). */
static void fail_(evt_ch_load *l, evt_tl_table t, const char *what)
{
    if (l->err[0]) return; /* keep the first */
    char done[512], open_rows[512] = "";
    evt_ch_committed_text(l, done, sizeof done);
    size_t o = 0;
    for (int i = 0; i < EVT_TL_T_COUNT_ && o < sizeof open_rows; i++) {
        if (!l->t[i].in_flight) continue;
        int w = snprintf(open_rows + o, sizeof open_rows - o, "%s%s %llu", o ? ", " : "",
                         evt_ch_table((evt_tl_table)i)->name, (unsigned long long)l->t[i].in_flight);
        if (w < 0) break;
        o += (size_t)w;
    }
    snprintf(l->err, sizeof l->err,
             "trace %s: %s INSERT failed: %s; rows committed: %s%s%s%s; the traces row (the commit marker) was "
             "not written: rerun with --trace-id %s to replace the trace",
             l->trace_id, evt_ch_table(t)->name, what, done, o ? "; not acknowledged: " : "", open_rows,
             o ? " (some of these may be stored)" : "", l->trace_id);
}

/* Hand the encoded rows of table t to its INSERT, opening it first. */
static int send_(evt_ch_load *l, evt_tl_table t)
{
    table_ins *ti = &l->t[t];
    char e[1024] = "";
    if (!ti->req) {
        char cols[2048], sql[2300], target[8192];
        evt_ch_column_list(t, cols, sizeof cols);
        snprintf(sql, sizeof sql, "INSERT INTO %s.%s (%s) FORMAT RowBinary", l->conn.db, evt_ch_table(t)->name, cols);
        if (!evt_ch_target(&l->conn, sql, target, sizeof target)) { fail_(l, t, "request too long"); return 0; }
        ti->req = evt_http_post_begin(&l->conn.url, &l->conn.http, target, e, sizeof e);
        if (!ti->req) { fail_(l, t, e); return 0; }
    }
    if (ti->buf.n && !evt_http_write(ti->req, ti->buf.p, ti->buf.n, e, sizeof e)) {
        fail_(l, t, e); /* (in_flight still counts the rows of this INSERT) */
        evt_http_abort(ti->req);
        ti->req = NULL;
        return 0;
    }
    evt_rb_reset(&ti->buf);
    return 1;
}

/* End table t's INSERT and wait for the server's answer. */
static int commit_(evt_ch_load *l, evt_tl_table t)
{
    table_ins *ti = &l->t[t];
    if (!ti->in_flight) return 1;
    if (!send_(l, t)) return 0;
    char e[1024] = "";
    evt_http_req *q = ti->req;
    ti->req = NULL;
    int st = evt_http_post_end(q, NULL, NULL, e, sizeof e);
    if (st != 200) {
        fail_(l, t, e[0] ? e : "no answer");
        return 0;
    }
    ti->committed += ti->in_flight;
    ti->in_flight = 0;
    return 1;
}

static int row_(void *user, evt_tl_table t, const evt_tl_val *v)
{
    evt_ch_load *l = user;
    table_ins *ti = &l->t[t];
    const evt_tl_table_desc *d = evt_ch_table(t);
    evt_rb_buf *b = &ti->buf;
    evt_rb_bytes(b, l->prefix.p, l->prefix.n);
    for (uint32_t i = 0; i < d->ncols; i++) {
        const evt_tl_column *c = &d->cols[i];
        if (c->nullable) {
            if (!evt_rb_null_flag(b, v[i].is_null)) continue;
        } else if (v[i].is_null) {
            char m[160];
            snprintf(m, sizeof m, "NULL in column %s, which is not nullable (a bug: please report it)", c->name);
            fail_(l, t, m);
            return 0;
        }
        switch (c->type) {
        case EVT_TL_I64: evt_rb_i64(b, v[i].i); break;
        case EVT_TL_F64: evt_rb_f64(b, v[i].f); break;
        case EVT_TL_TEXT:
        case EVT_TL_BLOB: evt_rb_string(b, v[i].s ? v[i].s : "", v[i].s ? v[i].n : 0); break;
        }
    }
    if (b->oom) { fail_(l, t, "out of memory"); return 0; }
    ti->in_flight++;
    if (t == EVT_TL_T_traces) return 1; /* the commit marker waits for evt_ch_end */
    if (b->n >= FLUSH_BYTES && !send_(l, t)) return 0;
    if (ti->in_flight >= l->batch && !commit_(l, t)) return 0;
    return 1;
}

evt_ch_load *evt_ch_begin(const char *url, evt_reader *r, const evt_ch_opts *o, char *err, size_t errlen)
{
    evt_ch_load *l = evt_calloc(1, sizeof *l);
    if (!l) { snprintf(err, errlen, "out of memory"); return NULL; }
    l->r = r;
    if (!evt_ch_conn_init(&l->conn, url, err, errlen)) { evt_free(l); return NULL; }
    if (o) {
        l->conn.http.user = o->user;
        l->conn.http.password = o->password;
        l->conn.http.ca_file = o->ca_file;
        l->conn.http.insecure = o->insecure;
        l->conn.http.budget_s = l->conn.http.budget_total = o->timeout_s > 0 ? o->timeout_s : 0;
    }
    if (o && o->trace_id) {
        if (!evt_ch_trace_id_ok(o->trace_id)) {
            snprintf(err, errlen, "--trace-id '%s': use 1 to 64 letters, digits, '.', '_', ':' or '-'", o->trace_id);
            evt_free(l);
            return NULL;
        }
        snprintf(l->trace_id, sizeof l->trace_id, "%s", o->trace_id);
    } else if (!uuid4_(l->trace_id, sizeof l->trace_id)) {
        snprintf(err, errlen, "cannot read /dev/urandom for a trace id: give --trace-id");
        evt_free(l);
        return NULL;
    }
    l->batch = o && o->batch_rows ? o->batch_rows : EVT_CH_BATCH_ROWS;
    const char *env = getenv("EVT_CH_BATCH_ROWS");
    if (!(o && o->batch_rows) && env && strtoull(env, NULL, 10) > 0) l->batch = strtoull(env, NULL, 10);
    /* the leading columns: trace_id String, labels.key Array(String), labels.value Array(String) */
    size_t nl = o ? o->nlabels : 0;
    evt_rb_string(&l->prefix, l->trace_id, strlen(l->trace_id));
    for (int part = 0; part < 2; part++) {
        evt_rb_varint(&l->prefix, nl);
        for (size_t i = 0; i < nl; i++) {
            const char *kv = o->labels[i], *eq = strchr(kv, '=');
            if (!eq) eq = kv + strlen(kv);
            if (part == 0) evt_rb_string(&l->prefix, kv, (size_t)(eq - kv));
            else evt_rb_string(&l->prefix, *eq ? eq + 1 : eq, strlen(*eq ? eq + 1 : eq));
        }
    }
    if (l->prefix.oom) { snprintf(err, errlen, "out of memory"); evt_ch_free(l); return NULL; }
    uint64_t removed = 0;
    char e[1024];
    if (!evt_ch_check_schema(&l->conn, e, sizeof e) || !evt_ch_remove_trace(&l->conn, l->trace_id, &removed, e, sizeof e)) {
        snprintf(err, errlen, "trace %s: %s (nothing loaded)", l->trace_id, e);
        evt_ch_free(l);
        return NULL;
    }
    return l;
}

const char *evt_ch_trace_id(const evt_ch_load *l) { return l->trace_id; }
const char *evt_ch_added_columns(const evt_ch_load *l) { return l->conn.added; }
const char *evt_ch_database(const evt_ch_load *l) { return l->conn.db; }
uint64_t evt_ch_committed(const evt_ch_load *l, evt_tl_table t) { return l->t[t].committed; }

static int rows_start_(evt_ch_load *l)
{
    evt_tl_trace_info info = {l->r->desc->name, l->r->src.path, l->r->clock_hz,
                              evt_clock_source_name(evt_reader_clock_source(l->r)), 0};
    info.reader = l->r;
    evt_tl_row_sink sink = {l, row_};
    l->rows = evt_tl_rows_new(&info, &sink);
    return l->rows != NULL;
}

int evt_ch_event(evt_ch_load *l, const evt_event *ev, char *err, size_t errlen)
{
    if (!l->rows && !rows_start_(l)) { snprintf(err, errlen, "trace %s: out of memory", l->trace_id); return 0; }
    if (evt_tl_rows_add(l->rows, ev)) return 1;
    if (!l->err[0]) fail_(l, EVT_TL_T_events, "out of memory");
    snprintf(err, errlen, "%s", l->err);
    return 0;
}

int evt_ch_end(evt_ch_load *l, char *err, size_t errlen)
{
    if (!l->rows && !rows_start_(l)) { snprintf(err, errlen, "trace %s: out of memory", l->trace_id); return 0; }
    int ok = evt_tl_rows_finish(l->rows, l->r->errors);
    for (int t = 0; ok && t < EVT_TL_T_COUNT_; t++)
        if (t != EVT_TL_T_traces) ok = commit_(l, (evt_tl_table)t);
    if (ok) ok = commit_(l, EVT_TL_T_traces); /* last: the trace is complete once this row is in */
    if (!ok) {
        if (!l->err[0]) fail_(l, EVT_TL_T_traces, "out of memory");
        snprintf(err, errlen, "%s", l->err);
    }
    return ok;
}

void evt_ch_free(evt_ch_load *l)
{
    if (!l) return;
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        evt_http_abort(l->t[t].req);
        evt_rb_free(&l->t[t].buf);
    }
    evt_rb_free(&l->prefix);
    if (l->rows) evt_tl_rows_free(l->rows);
    evt_free(l);
}

/* ---- the registered exporter (evtrace/exporter.h): path is the URL; a random trace id ---- */

typedef struct ch_state {
    evt_ch_load *l;
    char err[1536];
} ch_state;

static evt_status x_begin_(const char *path, evt_reader *r, void **state, char *err, size_t errlen)
{
    ch_state *s = evt_calloc(1, sizeof *s);
    if (!s) return EVT_ERR_NOMEM;
    s->l = evt_ch_begin(path, r, NULL, err, errlen);
    if (!s->l) { evt_free(s); return EVT_ERR_IO; }
    *state = s;
    return EVT_OK;
}

static evt_status x_event_(void *state, const evt_event *ev)
{
    ch_state *s = state;
    return evt_ch_event(s->l, ev, s->err, sizeof s->err) ? EVT_OK : EVT_ERR_IO;
}

static evt_status x_end_(void *state, evt_reader *r, char *err, size_t errlen)
{
    (void)r;
    ch_state *s = state;
    int ok = evt_ch_end(s->l, err, errlen);
    evt_ch_free(s->l);
    evt_free(s);
    return ok ? EVT_OK : EVT_ERR_IO;
}

static void x_abort_(void *state)
{
    ch_state *s = state;
    evt_ch_free(s->l);
    evt_free(s);
}

const evt_exporter_desc evt_exporter_clickhouse = {
    "clickhouse", NULL, "ClickHouse over HTTP: -o http://HOST:PORT/?database=DB (docs/clickhouse.md)", 0,
    x_begin_, x_event_, x_end_, x_abort_, 0,
};
