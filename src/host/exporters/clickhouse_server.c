/* Statements to a ClickHouse server for the export: schema check against system.columns,
 * removal of a trace's earlier rows (clickhouse_server.h). */
#include "clickhouse_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "clickhouse_schema.h"
#include "evtrace/alloc.h"

#define MUTATION_WAIT_S 600 /* EVT_CH_MUTATION_WAIT_S overrides */

int evt_ch_trace_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 64) return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = id[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || strchr("._:-", ch)))
            return 0;
    }
    return 1;
}

int evt_ch_conn_init(evt_ch_conn *c, const char *url, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    if (!evt_http_parse_url(url, &c->url, err, errlen)) return 0;
    strcpy(c->db, "default");
    for (const char *p = c->url.query; *p;) { /* find database=... among &-separated params */
        const char *amp = strchr(p, '&'), *end = amp ? amp : p + strlen(p);
        if (strncmp(p, "database=", 9) == 0) {
            size_t n = (size_t)(end - p - 9);
            if (n >= sizeof c->db) n = sizeof c->db - 1;
            memcpy(c->db, p + 9, n);
            c->db[n] = '\0';
        }
        p = amp ? amp + 1 : end;
    }
    if (!evt_ch_identifier_ok(c->db)) {
        snprintf(err, errlen, "database '%s' in the URL: use a name of letters, digits and _", c->db);
        return 0;
    }
    return 1;
}

int evt_ch_target(const evt_ch_conn *c, const char *query, char *out, size_t outlen)
{
    int w;
    if (!query) w = snprintf(out, outlen, "%s%s%s", c->url.path, c->url.query[0] ? "?" : "", c->url.query);
    else {
        char enc[4096];
        if (!evt_http_urlencode(query, enc, sizeof enc)) return 0;
        w = snprintf(out, outlen, "%s?%s%squery=%s", c->url.path, c->url.query, c->url.query[0] ? "&" : "", enc);
    }
    return w >= 0 && (size_t)w < outlen;
}

int evt_ch_exec(const evt_ch_conn *c, const char *sql, char **out, char *err, size_t errlen)
{
    char target[2048];
    if (out) *out = NULL;
    if (!evt_ch_target(c, NULL, target, sizeof target)) { snprintf(err, errlen, "URL too long"); return 0; }
    char *body = NULL;
    int st = evt_http_post(&c->url, (evt_http_opts *)&c->http, target, sql, strlen(sql), &body, NULL, err, errlen);
    if (st != 200) { evt_free(body); return 0; }
    if (out) *out = body;
    else evt_free(body);
    return 1;
}

/* The type system.columns shows for (table, column) in the TSV answer, or NULL. */
static const char *find_type_(char *tsv, const char *table, const char *col, char *buf, size_t len)
{
    size_t tl = strlen(table), cl = strlen(col);
    for (char *line = tsv; *line;) {
        char *eol = strchr(line, '\n');
        size_t ll = eol ? (size_t)(eol - line) : strlen(line);
        if (ll > tl + cl + 2 && strncmp(line, table, tl) == 0 && line[tl] == '\t' &&
            strncmp(line + tl + 1, col, cl) == 0 && line[tl + 1 + cl] == '\t') {
            size_t n = ll - tl - cl - 2;
            if (n >= len) n = len - 1;
            memcpy(buf, line + tl + cl + 2, n);
            buf[n] = '\0';
            return buf;
        }
        line = eol ? eol + 1 : line + ll;
    }
    return NULL;
}

/* Column `name` of table d is missing: add it (appending "table.column type" to c->added), or 0
 * with a message when the tables are Distributed (the column is to be added on every shard). */
static int add_column_(evt_ch_conn *c, const evt_tl_table_desc *d, const char *name, const char *type,
                       char *err, size_t errlen)
{
    if (c->distributed) {
        snprintf(err, errlen, "schema mismatch: table %s.%s has no column %s (%s): an older evtrace created it; "
                 "add it on every shard (ALTER TABLE %s.%s_local ADD COLUMN `%s` %s), then to %s.%s",
                 c->db, d->name, name, type, c->db, d->name, name, type, c->db, d->name);
        return 0;
    }
    char sql[512], e[512];
    snprintf(sql, sizeof sql, "ALTER TABLE %s.%s ADD COLUMN `%s` %s", c->db, d->name, name, type);
    if (!evt_ch_exec(c, sql, NULL, e, sizeof e)) {
        /* another load may have added it meanwhile (its ALTER won): then it is there, typed right */
        char *now = NULL, e2[256];
        snprintf(sql, sizeof sql, "SELECT type FROM system.columns WHERE database = '%s' AND table = '%s' "
                 "AND name = '%s' FORMAT TSV", c->db, d->name, name);
        int there = evt_ch_exec(c, sql, &now, e2, sizeof e2) && strncmp(now, type, strlen(type)) == 0 &&
                    (now[strlen(type)] == '\n' || now[strlen(type)] == '\0');
        evt_free(now);
        if (there) return 1;
        snprintf(err, errlen, "schema mismatch: table %s.%s has no column %s (%s), and adding it failed: %s",
                 c->db, d->name, name, type, e);
        return 0;
    }
    size_t o = strlen(c->added);
    snprintf(c->added + o, sizeof c->added - o, "%s%s.%s %s", o ? ", " : "", d->name, name, type);
    return 1;
}

/* Whether the TSV of system.tables says table `name` is Distributed ("name\tDistributed"). */
static int distributed_(const char *tables, const char *name)
{
    size_t nl = strlen(name);
    for (const char *line = tables; *line;) {
        const char *eol = strchr(line, '\n');
        if (strncmp(line, name, nl) == 0 && line[nl] == '\t' && strncmp(line + nl + 1, "Distributed", 11) == 0)
            return 1;
        if (!eol) break;
        line = eol + 1;
    }
    return 0;
}

int evt_ch_check_schema(evt_ch_conn *c, char *err, size_t errlen)
{
    char sql[512], *cols = NULL, *tables = NULL;
    c->added[0] = '\0';
    snprintf(sql, sizeof sql, "SELECT table, name, type FROM system.columns WHERE database = '%s' FORMAT TSV", c->db);
    if (!evt_ch_exec(c, sql, &cols, err, errlen)) return 0;
    snprintf(sql, sizeof sql, "SELECT name, engine FROM system.tables WHERE database = '%s' FORMAT TSV", c->db);
    if (!evt_ch_exec(c, sql, &tables, err, errlen)) { evt_free(cols); return 0; }
    for (int t = 0; t < EVT_TL_T_COUNT_; t++)
        if (distributed_(tables, evt_ch_table((evt_tl_table)t)->name)) c->distributed = 1;
    int ok = 1;
    for (int t = 0; t < EVT_TL_T_COUNT_ && ok; t++) {
        const evt_tl_table_desc *d = evt_ch_table((evt_tl_table)t);
        char got[128];
        for (size_t i = 0; i < EVT_CH_LEAD_COLS + d->ncols && ok; i++) {
            const char *name = evt_ch_col_name((evt_tl_table)t, i), *want = evt_ch_col_type((evt_tl_table)t, i);
            const char *have = find_type_(cols, d->name, name, got, sizeof got);
            if (i == 0 && !have) {
                snprintf(err, errlen, "schema mismatch: table %s.%s does not exist (create the tables with: "
                         "evtrace clickhouse-schema --database %s | clickhouse-client --multiquery)", c->db, d->name, c->db);
                ok = 0;
            } else if (!have && i < EVT_CH_LEAD_COLS) {
                snprintf(err, errlen, "schema mismatch: table %s.%s has no column %s (%s)", c->db, d->name, name, want);
                ok = 0;
            } else if (!have) {
                ok = add_column_(c, d, name, want, err, errlen);
            } else if (strcmp(have, want) != 0) {
                snprintf(err, errlen, "schema mismatch: column %s.%s.%s is %s, evtrace writes %s", c->db, d->name, name, have, want);
                ok = 0;
            }
        }
    }
    evt_free(cols);
    evt_free(tables);
    return ok;
}

static int count_(const evt_ch_conn *c, const char *sql, uint64_t *n, char *err, size_t errlen)
{
    char *out = NULL;
    if (!evt_ch_exec(c, sql, &out, err, errlen)) return 0;
    char *end;
    *n = strtoull(out, &end, 10);
    int ok = end != out;
    if (!ok) snprintf(err, errlen, "unexpected answer to %s: %.100s", sql, out);
    evt_free(out);
    return ok;
}

int evt_ch_remove_trace(const evt_ch_conn *c, const char *id, uint64_t *removed, char *err, size_t errlen)
{
    char sql[512];
    *removed = 0;
    int altered = 0;
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const char *name = evt_ch_table((evt_tl_table)t)->name;
        uint64_t n;
        snprintf(sql, sizeof sql, "SELECT count() FROM %s.%s WHERE trace_id = '%s'", c->db, name, id);
        if (!count_(c, sql, &n, err, errlen)) return 0;
        if (n == 0) continue;
        if (c->distributed) {
            snprintf(err, errlen, "trace %s is already loaded (%llu rows in %s.%s, a Distributed table, which "
                     "takes no ALTER DELETE): remove it on every shard first (ALTER TABLE %s.<table>_local "
                     "DELETE WHERE trace_id = '%s') or load it under another --trace-id",
                     id, (unsigned long long)n, c->db, name, c->db, id);
            return 0;
        }
        snprintf(sql, sizeof sql, "ALTER TABLE %s.%s DELETE WHERE trace_id = '%s'", c->db, name, id);
        if (!evt_ch_exec(c, sql, NULL, err, errlen)) return 0;
        *removed += n;
        altered = 1;
    }
    if (!altered) return 1;
    const char *env = getenv("EVT_CH_MUTATION_WAIT_S");
    long wait_s = env && atol(env) > 0 ? atol(env) : MUTATION_WAIT_S;
    time_t t0 = time(NULL);
    for (;;) { /* the mutations run in the background: wait for ours (those naming this trace id) */
        uint64_t pending;
        snprintf(sql, sizeof sql, "SELECT count() FROM system.mutations WHERE database = '%s' AND is_done = 0 "
                 "AND position(command, 'trace_id = \\'%s\\'') > 0", c->db, id);
        if (!count_(c, sql, &pending, err, errlen)) return 0;
        if (pending == 0) return 1;
        if (time(NULL) - t0 > wait_s) {
            char *which = NULL;
            snprintf(sql, sizeof sql, "SELECT table, mutation_id, command, parts_to_do FROM system.mutations "
                     "WHERE database = '%s' AND is_done = 0 FORMAT TSV", c->db);
            char e2[256];
            if (!evt_ch_exec(c, sql, &which, e2, sizeof e2)) which = NULL;
            snprintf(err, errlen, "removing the earlier rows of trace %s: %llu mutations of %s not done after %ld s: %.300s",
                     id, (unsigned long long)pending, c->db, wait_s, which ? which : "?");
            evt_free(which);
            return 0;
        }
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
