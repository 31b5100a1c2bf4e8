/* The ClickHouse exporter (src/host/exporters/clickhouse.c) against the stand-in server
 * (tests/support/evt_fake_clickhouse.c), which decodes every RowBinary INSERT: every row of the
 * row producer arrives once, whole, with the trace id, in batches of any size; the generated trace
 * id is a UUID v4; bad trace ids and URLs are refused before anything is sent; under allocation
 * failure it fails cleanly and succeeds once memory suffices. The real server's behaviour
 * (schema check, reruns, failures) is tests/host/clickhouse_check.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_fake_clickhouse.h"
#include "host/http_client.h"
#include "evt_test.h"
#include "evtrace/alloc.h"
#include "evtrace/reader.h"
#include "host/exporters/clickhouse.h"
#include "host/exporters/clickhouse_schema.h"

#define SAMPLE EVT_TEST_DATA_DIR "/threadx_tracex/demo_threadx.trx"

/* Load SAMPLE (the allocations from the fail_at-th on failing, 0: none); returns 1 on success and
 * fills the committed counts. */
static int load_at_(evt_fake_ch *f, const evt_ch_opts *o, uint64_t committed[EVT_TL_T_COUNT_], uint64_t *events,
                    char *id, size_t idlen, unsigned long fail_at)
{
    evt_reader *r = NULL;
    char err[2048];
    assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_alloc_fail_after(fail_at, 1);
    evt_ch_load *l = evt_ch_begin(evt_fake_ch_url(f), r, o, err, sizeof err);
    int ok = l != NULL;
    evt_event ev;
    while (ok && evt_reader_next(r, &ev) == EVT_OK) ok = evt_ch_event(l, &ev, err, sizeof err);
    if (ok) ok = evt_ch_end(l, err, sizeof err);
    if (l) {
        for (int t = 0; t < EVT_TL_T_COUNT_; t++) committed[t] = evt_ch_committed(l, (evt_tl_table)t);
        if (id) snprintf(id, idlen, "%s", evt_ch_trace_id(l));
    }
    if (!ok) assert_true(err[0] != '\0'); /* a failure always says why */
    *events = r->events;
    evt_ch_free(l);
    evt_alloc_fail_after(0, 0);
    evt_reader_close(r);
    return ok;
}

static int load_(evt_fake_ch *f, const evt_ch_opts *o, uint64_t committed[EVT_TL_T_COUNT_], uint64_t *events,
                 char *id, size_t idlen)
{
    return load_at_(f, o, committed, events, id, idlen, 0);
}

static void every_row_arrives_once(void **st)
{
    (void)st;
    const char *labels[] = {"board=b7", "fw=6.4.1"};
    uint64_t batches[] = {0, 5, 1}; /* default (one INSERT per table), 5 rows, one row per INSERT */
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
        /* the server counts an INSERT's rows before it answers: the counts are final at the end */
        evt_fake_ch *f = evt_fake_ch_start(1);
        assert_non_null(f);
        evt_ch_opts o = {"board7-run42", labels, 2, batches[b]};
        uint64_t committed[EVT_TL_T_COUNT_], events;
        assert_true(load_(f, &o, committed, &events, NULL, 0));
        assert_int_equal(evt_fake_ch_bad(f), 0);
        assert_string_equal(evt_fake_ch_trace_id(f), "board7-run42");
        assert_int_equal(committed[EVT_TL_T_traces], 1);
        assert_int_equal(committed[EVT_TL_T_events], events);
        assert_true(events > 900);
        assert_true(committed[EVT_TL_T_thread_states] > 0 && committed[EVT_TL_T_slices] > 0);
        for (int t = 0; t < EVT_TL_T_COUNT_; t++)
            if (evt_fake_ch_rows(f, (evt_tl_table)t) != committed[t])
                fail_msg("batch %llu: table %s: server decoded %llu rows, exporter committed %llu",
                         (unsigned long long)batches[b], evt_ch_table((evt_tl_table)t)->name,
                         (unsigned long long)evt_fake_ch_rows(f, (evt_tl_table)t), (unsigned long long)committed[t]);
        evt_fake_ch_stop(f);
    }
}

static void generated_ids_are_uuid4(void **st)
{
    (void)st;
    evt_fake_ch *f = evt_fake_ch_start(1);
    uint64_t committed[EVT_TL_T_COUNT_], events;
    char a[80], b[80];
    assert_true(load_(f, NULL, committed, &events, a, sizeof a));
    assert_true(load_(f, NULL, committed, &events, b, sizeof b));
    evt_fake_ch_stop(f);
    assert_string_not_equal(a, b);
    assert_int_equal(strlen(a), 36);
    for (int i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) assert_int_equal(a[i], '-');
        else assert_non_null(strchr("0123456789abcdef", a[i]));
    }
    assert_int_equal(a[14], '4');
    assert_non_null(strchr("89ab", a[19]));
}

static void bad_ids_and_urls_are_refused(void **st)
{
    (void)st;
    evt_reader *r = NULL;
    char err[1024];
    assert_int_equal(evt_reader_open_file(SAMPLE, NULL, NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_ch_opts o = {"x'; DROP TABLE events; --", NULL, 0, 0};
    assert_null(evt_ch_begin("http://127.0.0.1:1/?database=evtrace", r, &o, err, sizeof err));
    assert_non_null(strstr(err, "--trace-id"));
    o.trace_id = "ok";
    assert_null(evt_ch_begin("ftp://h/", r, &o, err, sizeof err));
    assert_non_null(strstr(err, "must start with http:// or https://"));
    /* CR/LF never reach a request; the message names the position, never the URL (a password) */
    assert_null(evt_ch_begin("http://u:s3cret@127.0.0.1:1/?database=evtrace\r\nX-Evil: 1", r, &o, err, sizeof err));
    assert_non_null(strstr(err, "control byte"));
    assert_null(strstr(err, "s3cret"));
    evt_http_url u;
    assert_true(evt_http_parse_url("https://ev%40il:p%3Aw@[::1]/x?database=d", &u, err, sizeof err));
    assert_true(u.https);
    assert_string_equal(u.user, "ev@il");
    assert_string_equal(u.password, "p:w");
    assert_string_equal(u.host, "::1");
    assert_string_equal(u.port, "8443");
    assert_string_equal(u.path, "/x");
    assert_string_equal(u.query, "database=d");
    assert_false(evt_http_parse_url("http://u:bad%zzpw@h/", &u, err, sizeof err));
    assert_null(strstr(err, "bad%zzpw"));
    assert_false(evt_http_parse_url("http://h:99999/", &u, err, sizeof err));
    assert_false(evt_http_parse_url("http://[::1/", &u, err, sizeof err));
    assert_null(evt_ch_begin("http://127.0.0.1:8123/?database=a-b", r, &o, err, sizeof err));
    assert_non_null(strstr(err, "database 'a-b'"));
    evt_reader_close(r);
}

static void out_of_memory_fails_cleanly(void **st)
{
    (void)st;
    evt_fake_ch *f = evt_fake_ch_start(0);
    evt_ch_opts o = {"oom", NULL, 0, 100};
    uint64_t committed[EVT_TL_T_COUNT_], events;
    int succeeded = 0;
    for (unsigned long n = 1; n <= 600 && !succeeded; n++) succeeded = load_at_(f, &o, committed, &events, NULL, 0, n);
    assert_true(succeeded); /* enough allocations eventually let it finish */
    evt_fake_ch_stop(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_arrives_once),
        cmocka_unit_test(generated_ids_are_uuid4),
        cmocka_unit_test(bad_ids_and_urls_are_refused),
        cmocka_unit_test(out_of_memory_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
