/* evtrace clickhouse-schema: prints the ClickHouse DDL of the query tables (clickhouse_schema.h),
 * for `clickhouse-client --multiquery` or an HTTP POST per statement. */
#include <stdio.h>
#include "cli.h"
#include "host/exporters/clickhouse_schema.h"

static int run(const cli_args *a)
{
    const char *db = a->database ? a->database : "evtrace";
    if (!evt_ch_identifier_ok(db)) {
        cli_err("clickhouse-schema", "--database needs a name of letters, digits and _, not '%s'", db);
        return EXIT_USAGE;
    }
    if (a->cluster && !evt_ch_identifier_ok(a->cluster)) {
        cli_err("clickhouse-schema", "--cluster needs a name of letters, digits and _, not '%s'", a->cluster);
        return EXIT_USAGE;
    }
    evt_ch_schema_write(stdout, db, a->cluster);
    return 0;
}

const cli_command cli_cmd_clickhouse_schema = {
    "clickhouse-schema", "[--database DB] [--cluster NAME]", "print the ClickHouse DDL of the query tables",
    "Prints CREATE statements for the tables `convert --to clickhouse` loads (the same tables as\n"
    "the SQLite export: traces, contexts, objects, events, thread_states, slices, isrs, counters,\n"
    "flows, losses), each led by trace_id and labels.key/labels.value, MergeTree ordered by\n"
    "(trace_id, time). With --cluster NAME: MergeTree tables <table>_local ON CLUSTER NAME and\n"
    "Distributed tables <table> over them, sharded by cityHash64(trace_id) (ON CLUSTER needs\n"
    "distributed DDL, i.e. ZooKeeper; without it run the statements on every server with the\n"
    "ON CLUSTER clause removed). Load with: evtrace clickhouse-schema | clickhouse-client --multiquery\n"
    "See docs/clickhouse.md.",
    OPT_CH_SCHEMA | OPT_NO_FILE, 0, 0, run,
};
