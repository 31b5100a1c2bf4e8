/* The ClickHouse options of the command line (src/cli/cli_parse.c, cmd_convert.c,
 * cmd_clickhouse_schema.c): several FILEs with --trace-id per FILE and repeatable --label for
 * convert, clickhouse-schema without FILE (--database, --cluster), and the usage errors: a label
 * without '=', several FILEs or labels with another kind, --trace-id count not matching the
 * FILEs, bad database and cluster names; the DDL names every table and column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "evt_cli_args.h"
#include "evt_test.h"

#define PARSE EVT_PARSE

static void convert_takes_files_ids_labels(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "convert", "a.trx", "b.trx", "c.trx", "--to", "clickhouse", "-o", "http://h:1/",
                           "--trace-id", "A", "--trace-id=B", "--trace-id", "C", "--label", "board=b7",
                           "--label=fw=6.4=rc1"), 0);
    assert_string_equal(a.file, "a.trx");
    assert_int_equal(a.nextra, 2);
    assert_string_equal(a.extra[1], "c.trx");
    assert_int_equal(a.ntrace_id, 3);
    assert_string_equal(a.trace_id[1], "B");
    assert_int_equal(a.nlabel, 2);
    assert_string_equal(a.label[1], "fw=6.4=rc1"); /* the value may hold '=' */
    assert_int_equal(PARSE(&a, "convert", "a.trx", "--label", "noequals", "-o", "x"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "convert", "a.trx", "--label", "=v", "-o", "x"), EXIT_USAGE);
    assert_int_equal(PARSE(&a, "dump", "a.trx", "--label", "k=v"), EXIT_USAGE); /* convert only */
    assert_int_equal(PARSE(&a, "convert", "a.trx", "--cluster", "c", "-o", "x"), EXIT_USAGE);
}

static void schema_takes_no_file(void **st)
{
    (void)st;
    cli_args a;
    assert_int_equal(PARSE(&a, "clickhouse-schema"), 0);
    assert_null(a.file);
    assert_int_equal(a.nextra, 0);
    assert_int_equal(PARSE(&a, "clickhouse-schema", "--database", "fleet", "--cluster=evt"), 0);
    assert_string_equal(a.database, "fleet");
    assert_string_equal(a.cluster, "evt");
    assert_int_equal(PARSE(&a, "clickhouse-schema", "stray"), EXIT_USAGE); /* no arguments */
    assert_int_equal(PARSE(&a, "clickhouse-schema", "--trace-id", "x"), EXIT_USAGE);
}

static int run_(const char *cmdline, char **out, char **err)
{
    const char *argv[24];
    char buf[1024];
    snprintf(buf, sizeof buf, "%s %s", evt_test_bin(), cmdline);
    int n = 0;
    for (char *tok = strtok(buf, " "); tok && n < 23; tok = strtok(NULL, " ")) argv[n++] = tok;
    argv[n] = NULL;
    return evt_test_runv(argv, out, NULL, err);
}

static void command_errors_and_ddl(void **st)
{
    (void)st;
    char *out = NULL, *err = NULL;
    const char *t = EVT_TEST_DATA_DIR "/threadx_tracex/demo_threadx.trx";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "convert %s %s -o x.json", t, t);
    assert_int_equal(run_(cmd, &out, &err), EXIT_USAGE);
    assert_non_null(strstr(err, "go with --to clickhouse only"));
    free(out), free(err);
    snprintf(cmd, sizeof cmd, "convert %s %s --to clickhouse -o http://127.0.0.1:1/ --trace-id a", t, t);
    assert_int_equal(run_(cmd, &out, &err), EXIT_USAGE);
    assert_non_null(strstr(err, "give --trace-id once per FILE (2 FILEs, 1 --trace-id)"));
    free(out), free(err);
    snprintf(cmd, sizeof cmd, "convert %s %s --to clickhouse -o http://127.0.0.1:1/ --trace-id a --trace-id a", t, t);
    assert_int_equal(run_(cmd, &out, &err), EXIT_USAGE);
    assert_non_null(strstr(err, "--trace-id a given twice"));
    free(out), free(err);
    assert_int_equal(run_("clickhouse-schema --database bad-name", &out, &err), EXIT_USAGE);
    assert_non_null(strstr(err, "--database needs a name"));
    free(out), free(err);
    assert_int_equal(run_("clickhouse-schema --cluster 9x", &out, &err), EXIT_USAGE);
    free(out), free(err);
    assert_int_equal(run_("clickhouse-schema --database fleet --cluster evt", &out, &err), 0);
    assert_non_null(strstr(out, "CREATE DATABASE IF NOT EXISTS fleet ON CLUSTER evt;"));
    assert_non_null(strstr(out, "CREATE TABLE IF NOT EXISTS fleet.events_local ON CLUSTER evt (\n"
                                "    trace_id String,\n    labels Nested(key String, value String),\n"
                                "    `seq` Int64,\n"));
    assert_non_null(strstr(out, "ENGINE = Distributed(evt, fleet, thread_states_local, cityHash64(trace_id));"));
    assert_non_null(strstr(out, "`t_ns` Nullable(Int64)"));
    assert_non_null(strstr(out, "`load_pct` Float64"));
    assert_non_null(strstr(out, ") ENGINE = MergeTree ORDER BY (trace_id, `t0`);"));
    free(out), free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(convert_takes_files_ids_labels),
        cmocka_unit_test(schema_takes_no_file),
        cmocka_unit_test(command_errors_and_ddl),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
