/* Rows of the query tables (tl_tables.def) from the canonical event stream, through the one
 * timeline: what the SQLite and ClickHouse exporters write. Streaming: rows are handed to the
 * sink as soon as they are final (events at once, intervals when they close, contexts, objects
 * and the traces row at finish), so memory grows with contexts and objects, never with events. */
#ifndef EVT_ANALYSIS_TL_ROWS_H
#define EVT_ANALYSIS_TL_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"
#include "host/timeline/timeline.h"
#include "host/timeline/tl_tables.def"

typedef enum evt_tl_table {
#define EVT_TL_TABLE_ENUM_(name, doc) EVT_TL_T_##name,
    EVT_TL_TABLES(EVT_TL_TABLE_ENUM_)
#undef EVT_TL_TABLE_ENUM_
    EVT_TL_T_COUNT_
} evt_tl_table;

typedef enum evt_tl_coltype { EVT_TL_I64, EVT_TL_F64, EVT_TL_TEXT, EVT_TL_BLOB } evt_tl_coltype;

typedef struct evt_tl_column {
    const char *name;
    evt_tl_coltype type;
    int nullable;
    const char *doc;
} evt_tl_column;

typedef struct evt_tl_table_desc {
    const char *name;
    const char *doc;
    const evt_tl_column *cols;
    uint32_t ncols;
} evt_tl_table_desc;

const evt_tl_table_desc *evt_tl_table_at(evt_tl_table t);

/* One value of a row. */
typedef struct evt_tl_val {
    int is_null;
    int64_t i;        /* EVT_TL_I64 */
    double f;         /* EVT_TL_F64 */
    const char *s;    /* EVT_TL_TEXT / EVT_TL_BLOB: s[0..n) (TEXT is valid UTF-8) */
    size_t n;
} evt_tl_val;

/* Receives rows; vals has the table's ncols values, valid during the call. Returns 0 to stop
 * (the error is the sink's to report); evt_tl_rows_add/finish then return 0. */
typedef struct evt_tl_row_sink {
    void *user;
    int (*row)(void *user, evt_tl_table t, const evt_tl_val *vals);
} evt_tl_row_sink;

/* Trace-level facts for the traces row. */
typedef struct evt_tl_trace_info {
    const char *format;
    const char *source;       /* may be NULL */
    uint64_t clock_hz;        /* 0 unknown */
    const char *clock_source; /* may be NULL */
    uint64_t errors;
    const struct evt_reader *reader; /* may be NULL: what the trace holds (caps, priority order) */
} evt_tl_trace_info;

typedef struct evt_tl_rows evt_tl_rows; /* opaque */

/* Start; info->clock_hz fixes the time unit. NULL when out of memory. */
evt_tl_rows *evt_tl_rows_new(const evt_tl_trace_info *info, const evt_tl_row_sink *sink);
/* One event (also feeds the timeline). Returns 0 when the sink stopped or memory ran out. */
int evt_tl_rows_add(evt_tl_rows *r, const evt_event *ev);
/* After the last event: closes the timeline, writes contexts, objects and the traces row.
 * errors: decode errors to record in traces.errors. Returns 0 as above. */
int evt_tl_rows_finish(evt_tl_rows *r, uint64_t errors);
/* Rows written per table so far. */
uint64_t evt_tl_rows_count(const evt_tl_rows *r, evt_tl_table t);
/* The timeline inside (for counts: lost, overflow). */
const evt_tl *evt_tl_rows_timeline(const evt_tl_rows *r);
void evt_tl_rows_free(evt_tl_rows *r);

#endif
