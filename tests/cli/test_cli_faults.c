/* Fault injection like SQLite's, through the whole command (cli_parse + the subcommand, in this
 * process): for every exporter and the report, the write numbered N fails (disk full) or comes up
 * short, and separately the allocation numbered N (and every later one) fails, for N = 1, 2, ...
 * until the command succeeds; allocation failures also over one small input of every reader. Each
 * failing run must exit 3 with a message, leave nothing at the
 * output path and no temporary file beside it; the ASan build checks that nothing leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/out.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"
#define NCASES(a) (sizeof (a) / sizeof (a)[0])
#define MAX_N 20000 /* more write/allocation points than the sample needs: the loop must end */

/* The command lines under test: every exporter and the report. */
typedef struct fault_case { const char *cmd, *kind, *name, *input; } fault_case;
static const fault_case k_cases[] = {
    {"convert", "chrome", "f.json", SAMPLE}, {"convert", "perfetto", "f.pftrace", SAMPLE},
    {"convert", "ctf", "f.ctf", SAMPLE},     {"convert", "sqlite", "f.sqlite", SAMPLE},
    {"report", NULL, "f.html", SAMPLE},
};
/* One small input per reader, exported to Chrome JSON (allocation failures in the readers). */
static const fault_case k_readers[] = {
    {"convert", "chrome", "rkh.json", EVT_TEST_DATA_DIR "/rkh/usr_events.bin"},
    {"convert", "chrome", "etw.json", EVT_TEST_DATA_DIR "/etw/perfview_smallEtlFile.etl"},
    {"convert", "chrome", "xray.json", EVT_TEST_DATA_DIR "/xray/fdr-v5-small.xray"},
    {"convert", "chrome", "tracex.json", EVT_TEST_DATA_DIR "/threadx_tracex/demo_threadx.trx"},
    {"convert", "chrome", "syn.json", EVT_SOURCE_DIR "/tests/host/data/small.syn"},
};

/* Run the command of case c writing to out, in this process; returns its exit code. */
static int run_case(const fault_case *c, const char *out)
{
    char words[8][4200];
    char *argv[9];
    int n = 0;
    snprintf(words[n++], sizeof words[0], "%s", c->cmd);
    snprintf(words[n++], sizeof words[0], "-q");
    snprintf(words[n++], sizeof words[0], "%s", c->input);
    if (c->kind) {
        snprintf(words[n++], sizeof words[0], "--to");
        snprintf(words[n++], sizeof words[0], "%s", c->kind);
    }
    snprintf(words[n++], sizeof words[0], "-o");
    snprintf(words[n++], sizeof words[0], "%s", out);
    for (int i = 0; i < n; i++) argv[i] = words[i];
    argv[n] = NULL;
    const cli_command *cmd = cli_command_find(c->cmd);
    assert_non_null(cmd);
    cli_args a;
    assert_int_equal(cli_parse(cmd, n, argv, &a), 0);
    return cmd->run(&a);
}

static void assert_no_tmp(void)
{
    const char *t = evt_test_find_name(evt_test_tmpdir(), ".tmp-");
    if (t) fail_msg("temporary output left behind: %s", t);
}

static void out_path(char *p, size_t len, const fault_case *c)
{
    snprintf(p, len, "%s/%s", evt_test_tmpdir(), c->name);
}

/* The fault being injected: arm it at point n, disarm it, and how many points the last run
 * passed (0: not counted). */
typedef struct fault_kind {
    const char *what;
    void (*arm)(unsigned long n);
    unsigned long (*points)(void);
} fault_kind;

static evt_out_fault g_write_mode;
static void arm_write(unsigned long n) { evt_out_fail_after(n, n ? g_write_mode : EVT_OUT_FAULT_NONE); }
static void arm_alloc(unsigned long n) { evt_alloc_fail_after(n, 1); }
static unsigned long no_count(void) { return 0; }

/* Fault at point 1, 2, ... of every case until the command succeeds. */
static void every_point(const fault_kind *f, const fault_case *cases, size_t ncases)
{
    for (size_t i = 0; i < ncases; i++) {
        const fault_case *c = &cases[i];
        char out[4200];
        out_path(out, sizeof out, c);
        unsigned long n, failures = 0;
        for (n = 1; n <= MAX_N; n++) {
            f->arm(n);
            int rc = run_case(c, out);
            unsigned long passed = f->points();
            f->arm(0);
            if (rc == 0) {
                if (n <= passed) fail_msg("%s %s: %s %lu injected but the command succeeded", c->cmd, c->name, f->what, n);
                break;
            }
            if (rc != EXIT_INPUT) fail_msg("%s %s: %s %lu: exit %d, want 3", c->cmd, c->name, f->what, n, rc);
            if (evt_test_exists(out)) fail_msg("%s %s: %s %lu left %s", c->cmd, c->name, f->what, n, out);
            assert_no_tmp();
            failures++;
        }
        assert_true(n <= MAX_N);
        assert_true(failures >= 2); /* every case has more than one such point */
        print_message("%s %s (%s): %lu %s points, then success\n", c->cmd, c->name, c->input, failures, f->what);
        assert_true(evt_test_exists(out));
        assert_int_equal(evt_out_remove_tree(out), 0);
    }
}

static void disk_full_at_every_write(void **st)
{
    (void)st;
    g_write_mode = EVT_OUT_FAULT_NOSPC;
    every_point(&(fault_kind){"disk-full write", arm_write, evt_out_writes}, k_cases, NCASES(k_cases));
}

static void short_write_at_every_write(void **st)
{
    (void)st;
    g_write_mode = EVT_OUT_FAULT_SHORT;
    every_point(&(fault_kind){"short write", arm_write, evt_out_writes}, k_cases, NCASES(k_cases));
}

static void out_of_memory_at_every_allocation(void **st)
{
    (void)st;
    every_point(&(fault_kind){"failed allocation", arm_alloc, no_count}, k_cases, NCASES(k_cases));
}

static void out_of_memory_in_every_reader(void **st)
{
    (void)st;
    every_point(&(fault_kind){"failed allocation", arm_alloc, no_count}, k_readers, NCASES(k_readers));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(disk_full_at_every_write),
        cmocka_unit_test(short_write_at_every_write),
        cmocka_unit_test(out_of_memory_at_every_allocation),
        cmocka_unit_test(out_of_memory_in_every_reader),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
