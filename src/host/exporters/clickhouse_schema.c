/* ClickHouse DDL and column types of the query tables (clickhouse_schema.h), generated from the
 * table descriptors of tl_rows.h (tl_tables.def: the one source of truth shared with the SQLite
 * export). */
#include "clickhouse_schema.h"

#include <string.h>

static const char *const k_lead_name[EVT_CH_LEAD_COLS] = {"trace_id", "labels.key", "labels.value"};
static const char *const k_lead_type[EVT_CH_LEAD_COLS] = {"String", "Array(String)", "Array(String)"};

/* The tables' descriptors are tl_rows.c's (expanded from tl_tables.def there). */
const evt_tl_table_desc *evt_ch_table(evt_tl_table t) { return evt_tl_table_at(t); }

const char *evt_ch_type(const evt_tl_column *c)
{
    static const char *const plain[] = {"Int64", "Float64", "String", "String"};
    static const char *const nullable[] = {"Nullable(Int64)", "Nullable(Float64)", "Nullable(String)", "Nullable(String)"};
    return c->nullable ? nullable[c->type] : plain[c->type];
}

const char *evt_ch_col_name(evt_tl_table t, size_t i)
{
    return i < EVT_CH_LEAD_COLS ? k_lead_name[i] : evt_tl_table_at(t)->cols[i - EVT_CH_LEAD_COLS].name;
}

const char *evt_ch_col_type(evt_tl_table t, size_t i)
{
    return i < EVT_CH_LEAD_COLS ? k_lead_type[i] : evt_ch_type(&evt_tl_table_at(t)->cols[i - EVT_CH_LEAD_COLS]);
}

int evt_ch_column_list(evt_tl_table t, char *out, size_t outlen)
{
    size_t o = 0;
    for (size_t i = 0; i < EVT_CH_LEAD_COLS + evt_tl_table_at(t)->ncols; i++) {
        int w = snprintf(out + o, outlen - o, "%s`%s`", i ? ", " : "", evt_ch_col_name(t, i));
        if (w < 0 || (size_t)w >= outlen - o) return 0;
        o += (size_t)w;
    }
    return 1;
}

int evt_ch_identifier_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64 || (s[0] >= '0' && s[0] <= '9')) return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

/* The time column a table is ordered by after trace_id: t or t0 (never NULL), else none. */
static const char *order_col_(const evt_tl_table_desc *d)
{
    for (uint32_t i = 0; i < d->ncols; i++)
        if (!d->cols[i].nullable && (strcmp(d->cols[i].name, "t") == 0 || strcmp(d->cols[i].name, "t0") == 0))
            return d->cols[i].name;
    return NULL;
}

void evt_ch_schema_write(FILE *o, const char *db, const char *cluster)
{
    char on[96] = "";
    if (cluster) snprintf(on, sizeof on, " ON CLUSTER %s", cluster);
    fprintf(o, "-- evtrace query tables (src/host/timeline/tl_tables.def), docs/clickhouse.md\n");
    fprintf(o, "CREATE DATABASE IF NOT EXISTS %s%s;\n", db, on);
    for (int t = 0; t < EVT_TL_T_COUNT_; t++) {
        const evt_tl_table_desc *d = evt_tl_table_at((evt_tl_table)t);
        fprintf(o, "\n-- %s: %s\n", d->name, d->doc);
        fprintf(o, "CREATE TABLE IF NOT EXISTS %s.%s%s%s (\n", db, d->name, cluster ? "_local" : "", on);
        fprintf(o, "    trace_id String,\n    labels Nested(key String, value String)");
        for (uint32_t i = 0; i < d->ncols; i++) fprintf(o, ",\n    `%s` %s", d->cols[i].name, evt_ch_type(&d->cols[i]));
        const char *oc = order_col_(d);
        if (oc) fprintf(o, "\n) ENGINE = MergeTree ORDER BY (trace_id, `%s`);\n", oc);
        else fprintf(o, "\n) ENGINE = MergeTree ORDER BY trace_id;\n");
        if (cluster)
            fprintf(o, "CREATE TABLE IF NOT EXISTS %s.%s%s AS %s.%s_local\n"
                       "    ENGINE = Distributed(%s, %s, %s_local, cityHash64(trace_id));\n",
                    db, d->name, on, db, d->name, cluster, db, d->name);
    }
}
