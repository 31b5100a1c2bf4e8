/* The ClickHouse schema of the query tables (src/host/timeline/tl_tables.def, the same tables as
 * the SQLite export): every table leads with trace_id String and labels Nested(key String, value
 * String) (system.columns shows labels.key, labels.value: Array(String)), then the table's
 * columns: I64 -> Int64, F64 -> Float64, TEXT and BLOB -> String, nullable ones Nullable(...).
 * MergeTree ORDER BY (trace_id, t or t0) where the table has such a time column, else trace_id.
 * With a cluster: MergeTree tables <name>_local ON CLUSTER and Distributed tables <name> over
 * them, sharded by cityHash64(trace_id) (a trace's rows stay on one shard). Queries and the
 * loader always use <name>. */
#ifndef EVT_CLICKHOUSE_SCHEMA_H
#define EVT_CLICKHOUSE_SCHEMA_H

#include <stddef.h>
#include <stdio.h>
#include "host/timeline/tl_rows.h"

#define EVT_CH_LEAD_COLS 3 /* trace_id, labels.key, labels.value */

/* The tables of tl_tables.def, in creation order (the traces table first). */
const evt_tl_table_desc *evt_ch_table(evt_tl_table t);
/* ClickHouse type of a column: "Int64", "Nullable(String)", ... */
const char *evt_ch_type(const evt_tl_column *c);
/* Name and type of column i of table t counting the leading ones (i < EVT_CH_LEAD_COLS + ncols). */
const char *evt_ch_col_name(evt_tl_table t, size_t i);
const char *evt_ch_col_type(evt_tl_table t, size_t i);
/* "trace_id, `labels.key`, `labels.value`, `seq`, ..." into out; 0 when it does not fit. */
int evt_ch_column_list(evt_tl_table t, char *out, size_t outlen);
/* A database or cluster name ClickHouse takes unquoted: [A-Za-z_][A-Za-z0-9_]*, at most 64. */
int evt_ch_identifier_ok(const char *s);
/* The DDL: CREATE DATABASE and every table, statements separated by ";\n" (clickhouse-client
 * --multiquery reads it). cluster NULL: plain MergeTree tables. */
void evt_ch_schema_write(FILE *o, const char *database, const char *cluster);

#endif
