/* Talking to a ClickHouse server over HTTP for the export (beyond the INSERTs): run one
 * statement, check that the database holds the evtrace tables with the types evtrace writes
 * (clickhouse_schema.h), and remove a trace's rows before it is loaded again. */
#ifndef EVT_CLICKHOUSE_SERVER_H
#define EVT_CLICKHOUSE_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include "host/http_client.h"

typedef struct evt_ch_conn {
    evt_http_url url;
    evt_http_opts http;    /* credentials, TLS, the load's time budget */
    char db[72];           /* the URL's database= parameter, else "default" */
    int distributed;       /* the tables are Distributed (a cluster) */
    char added[512];       /* "wakeups.cause Nullable(String), ...": the columns the schema check
                            * added to tables an older evtrace created ("" when none) */
} evt_ch_conn;

/* Parse http[s]://HOST:PORT/?database=DB[&...]: the other parameters (ClickHouse settings) go
 * with every request; c->http is zeroed (the caller fills credentials, TLS and the budget).
 * Returns 1, or 0 with a message. */
int evt_ch_conn_init(evt_ch_conn *c, const char *url, char *err, size_t errlen);
/* Request target for a statement sent in the body (query NULL) or in the URL (an INSERT). */
int evt_ch_target(const evt_ch_conn *c, const char *query, char *out, size_t outlen);
/* Run one statement (its text in the body). Returns 1 with the answer in *out (evt_free it; out
 * may be NULL), or 0 with the server's error (or the connection's) in err. */
int evt_ch_exec(const evt_ch_conn *c, const char *sql, char **out, char *err, size_t errlen);
/* Every evtrace table exists in c->db with every column evtrace writes, of the same type; sets
 * c->distributed. A column missing from a MergeTree table (one an older evtrace created: tables
 * only gain columns, at their end) is added (ALTER TABLE ... ADD COLUMN) and listed in c->added.
 * 0 with a message naming the table and column otherwise: a missing table or leading column, a
 * type that differs, a column missing behind a Distributed table (to add on every shard). */
int evt_ch_check_schema(evt_ch_conn *c, char *err, size_t errlen);
/* Rows of trace_id in any table: removed (ALTER TABLE ... DELETE, then waiting until
 * system.mutations says done). On Distributed tables (which take no ALTER DELETE) a trace that
 * has rows is refused instead. *removed receives the number of rows removed. */
int evt_ch_remove_trace(const evt_ch_conn *c, const char *trace_id, uint64_t *removed, char *err, size_t errlen);
/* A trace id evtrace accepts: [A-Za-z0-9._:-], 1 to 64 characters (quoted in SQL as is). */
int evt_ch_trace_id_ok(const char *id);

#endif
