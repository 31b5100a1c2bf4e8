/* A stand-in ClickHouse HTTP server on 127.0.0.1 (threads in the calling process) for tests and
 * benches of the ClickHouse export: it answers the export's schema check (system.columns of the
 * evtrace tables with the types evtrace writes, from clickhouse_schema.h), count() queries with
 * 0, any other statement with an empty 200, and every INSERT ... FORMAT RowBinary by reading the
 * chunked body to its end. With `decode` set it keeps each INSERT body and decodes its rows
 * against the table's columns (counting rows per table, checking every row's trace_id);
 * otherwise it drops the bytes (a /dev/null for speed figures). Its memory is plain malloc, so
 * evt_alloc fault injection does not touch it. */
#ifndef EVT_FAKE_CLICKHOUSE_H
#define EVT_FAKE_CLICKHOUSE_H

#include <stdint.h>
#include "host/timeline/tl_rows.h"

typedef struct evt_fake_ch evt_fake_ch;

/* Start listening; NULL on failure. */
evt_fake_ch *evt_fake_ch_start(int decode);
/* "http://127.0.0.1:PORT/?database=evtrace" */
const char *evt_fake_ch_url(const evt_fake_ch *f);
/* With decode: rows decoded so far for table t (complete INSERTs only). */
uint64_t evt_fake_ch_rows(const evt_fake_ch *f, evt_tl_table t);
/* With decode: INSERTs whose body did not decode as whole rows, or a trace_id other than the
 * last INSERT's; 0 when every body was well-formed. */
uint64_t evt_fake_ch_bad(const evt_fake_ch *f);
/* The trace_id of the latest decoded row ("" before any). */
const char *evt_fake_ch_trace_id(const evt_fake_ch *f);
/* Forget the counts (a new load). */
void evt_fake_ch_reset(evt_fake_ch *f);
/* Stop accepting and free (waits for the connections being served). */
void evt_fake_ch_stop(evt_fake_ch *f);

#endif
