/* Allocation-failure injection over every exporter and the stats/report engine: for each n, the
 * n-th allocation (and every later one) fails while a real sample is exported; the exporter must
 * report an error status (or finish), never crash or leak (ASan build), and with no failure it
 * must succeed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_fake_clickhouse.h"
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/exporter.h"
#include "evtrace/out.h"
#include "host/report/report.h"
#include "host/analyses/stats.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_real/nowrap_m32le.trx"

/* One export with failure injection from allocation n on (0 = none). Returns 1 when it succeeded. */
static int export_once(const evt_exporter_desc *x, unsigned long n, const char *out)
{
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_alloc_fail_after(n, 1);
    void *xs = NULL;
    int ok = 0;
    if (x->begin(out, r, &xs, err, sizeof err) == EVT_OK) {
        evt_event ev;
        evt_status st, wst = EVT_OK;
        while ((st = evt_reader_next(r, &ev)) == EVT_OK)
            if ((wst = x->event(xs, &ev)) != EVT_OK) break;
        if (wst != EVT_OK) x->abort(xs);
        else ok = x->end(xs, r, err, sizeof err) == EVT_OK && st == EVT_END;
    }
    evt_alloc_fail_after(0, 0);
    evt_reader_close(r);
    assert_true(evt_out_remove_tree(out) == 0 || errno == ENOENT);
    return ok;
}

static void exporters_survive_oom(void **st)
{
    (void)st;
    char out[4096];
    evt_fake_ch *ch = evt_fake_ch_start(0); /* the clickhouse exporter's "path" is a server URL */
    assert_non_null(ch);
    for (size_t i = 0; i < evt_exporter_count(); i++) {
        const evt_exporter_desc *x = evt_exporter_at(i);
        snprintf(out, sizeof out, "%s/out.%s", evt_test_tmpdir(), x->name);
        if (strcmp(x->name, "clickhouse") == 0) snprintf(out, sizeof out, "%s", evt_fake_ch_url(ch));
        assert_true(export_once(x, 0, out));
        unsigned long n;
        int succeeded = 0;
        for (n = 1; n <= 400 && !succeeded; n++) succeeded = export_once(x, n, out);
        assert_true(succeeded); /* enough allocations eventually let it finish */
    }
    evt_fake_ch_stop(ch);
}

static void stats_and_report_survive_oom(void **st)
{
    (void)st;
    for (unsigned long n = 1; n <= 300; n++) {
        evt_reader *r = NULL;
        char err[256];
        assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
        evt_alloc_fail_after(n, 1);
        evt_stats s;
        if (evt_stats_init(&s, 0)) {
            evt_stats_enable_timeline(&s);
            evt_event ev;
            while (evt_reader_next(r, &ev) == EVT_OK) evt_stats_add(&s, &ev);
            evt_stats_finish(&s);
        }
        evt_stats_free(&s);
        evt_alloc_fail_after(0, 0);
        evt_reader_close(r);
        assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
        evt_alloc_fail_after(n, 1);
        evt_report_info info = {"threadx", SAMPLE, 0, NULL};
        evt_report *rep = evt_report_new(&info);
        if (rep) {
            evt_event ev;
            while (evt_reader_next(r, &ev) == EVT_OK && evt_report_add(rep, &ev)) {}
            FILE *devnull = fopen("/dev/null", "w");
            evt_report_write(rep, devnull, 0);
            fclose(devnull);
        }
        evt_report_free(rep);
        evt_alloc_fail_after(0, 0);
        evt_reader_close(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exporters_survive_oom),
        cmocka_unit_test(stats_and_report_survive_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
