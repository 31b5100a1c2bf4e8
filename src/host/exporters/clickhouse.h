/* The ClickHouse export: the query tables of one trace (tl_rows.h, the same rows as the SQLite
 * export) streamed into a ClickHouse server over HTTP or HTTPS (libcurl) as RowBinary, every row led by the trace id
 * and the labels. Per table one INSERT at a time, sent as it is produced (chunked), ended every
 * `batch_rows` rows; memory stays bounded (a few buffers per table).
 *
 * Load semantics (docs/clickhouse.md): before loading, the schema is checked (system.columns)
 * and rows already stored under the trace id are removed (ALTER ... DELETE, waited for); the
 * traces row is written last, alone, as the commit marker: a trace is complete when its traces
 * row exists. A failure leaves no traces row and says how many rows of which tables were
 * committed; rerunning with the same trace id replaces them. */
#ifndef EVT_CLICKHOUSE_H
#define EVT_CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/reader.h"
#include "evtrace/status.h"
#include "host/timeline/tl_rows.h"

#define EVT_CH_BATCH_ROWS 1000000u /* rows per INSERT per table (EVT_CH_BATCH_ROWS env overrides) */

typedef struct evt_ch_opts {
    const char *trace_id;         /* NULL: a random UUID v4 (from /dev/urandom) */
    const char *const *labels;    /* "key=value", nlabels of them */
    size_t nlabels;
    uint64_t batch_rows;          /* 0: EVT_CH_BATCH_ROWS or the environment's */
    const char *user;             /* HTTP basic authentication (NULL: none, or the URL's user@) */
    const char *password;         /* NULL: none, or the URL's */
    const char *ca_file;          /* https: CA certificates to verify the server with (NULL: the system's) */
    int insecure;                 /* https: no certificate or host name check */
    double timeout_s;             /* the most time spent waiting on the server for this trace (0: no limit) */
} evt_ch_opts;

typedef struct evt_ch_load evt_ch_load;

/* Connect, check the schema, remove the trace's earlier rows. url: http[s]://HOST:PORT/?database=DB.
 * r: the open reader (format, source name, clock at the first event). NULL with a message. */
evt_ch_load *evt_ch_begin(const char *url, evt_reader *r, const evt_ch_opts *o, char *err, size_t errlen);
/* The trace id in use (the generated one when none was given). */
const char *evt_ch_trace_id(const evt_ch_load *l);
/* The columns evt_ch_begin added to tables an older evtrace created ("table.column Type, ...";
 * "" when none), and the database they are in. */
const char *evt_ch_added_columns(const evt_ch_load *l);
const char *evt_ch_database(const evt_ch_load *l);
/* One event. 0 with a message (which says what was committed) on failure. */
int evt_ch_event(evt_ch_load *l, const evt_event *ev, char *err, size_t errlen);
/* Finish every INSERT, then write the traces row. 0 with a message on failure. Does not free. */
int evt_ch_end(evt_ch_load *l, char *err, size_t errlen);
/* Rows committed (acknowledged by the server) per table. */
uint64_t evt_ch_committed(const evt_ch_load *l, evt_tl_table t);
/* "events 1200, thread_states 300, ..." (tables with rows) into buf. */
void evt_ch_committed_text(const evt_ch_load *l, char *buf, size_t len);
void evt_ch_free(evt_ch_load *l);

#endif
