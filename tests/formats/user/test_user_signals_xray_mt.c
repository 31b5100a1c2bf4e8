/* Threads and signal handlers calling evt_printf through the XRay recorder (user_signals.h;
 * per-thread buffers, a nesting guard per thread, no lock): every line back from the FDR file,
 * exact, once, in time order, none lost: a handler that lands inside a record of its own thread
 * has its user record stashed and written right after the interrupted one (user_nest_enc.c
 * N2-N3). The *_functions test also has each worker record a function entry and exit after every
 * line (what an XRay-instrumented program's handlers write, through the public
 * evt_xray_enter/evt_xray_exit): a handler that lands inside one of those has its line stashed
 * and written at that record's end (N5, xray_runtime.c xr_leave), and every function record comes
 * back too. Before that, such lines were dropped (1,083-1,508 counted per run). Concurrency label:
 * also under TSan (there: every missing line or record counted lost). */
#define EVT_CFG_USER_BACKEND xray
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdatomic.h>
#include "evt_test.h"
#include "evtrace/recorder.h"
#include "evtrace/xray.h"

static int g_fn_on;             /* the *_functions test: workers record function entries and exits */
static atomic_ulong g_fn_pairs; /* enter+exit pairs issued */

/* An instrumented function's entry and exit around nothing: two records per line. */
static void app_record(unsigned w, unsigned n)
{
    (void)n;
    if (!g_fn_on) return;
    atomic_fetch_add_explicit(&g_fn_pairs, 1u, memory_order_relaxed);
    evt_xray_enter(100u + w);
    evt_xray_exit(100u + w);
}
#define US_APP_RECORD(w, n) app_record((w), (n))
#include "user_signals.h"

/* Function entries and exits in the decoded file. */
static void count_functions(const uint8_t *buf, size_t len, uint64_t *enters, uint64_t *exits)
{
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(buf, len, "xray", NULL, NULL, NULL, &r, NULL, 0), EVT_OK);
    evt_event ev;
    evt_status st;
    *enters = *exits = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_FUNC_ENTER) ++*enters;
        if (ev.kind == EVT_KIND_FUNC_EXIT) ++*exits;
    }
    assert_int_equal(st, EVT_END);
    evt_reader_close(r);
}

static void run(int functions)
{
    g_fn_on = functions;
    atomic_store(&g_fn_pairs, 0);
    atomic_store(&us_alrm_k, 0);
    atomic_store(&us_kill_k, 0);
    evt_xray_config cfg = {1u << 20, 64, 1}; /* 64 MiB: the whole run, no buffer overwritten */
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_user_resend();
    us_run();
    assert_int_equal(evt_xray_stop(), 0);
    evt_rec_stats s;
    evt_xray_get_rec_stats(&s);
    unsigned long pairs = atomic_load(&g_fn_pairs);
    printf("xray%s: written %llu dropped %llu buffers lost %llu, function pairs %lu\n", functions ? "+functions" : "",
           (unsigned long long)s.written, (unsigned long long)s.dropped, (unsigned long long)evt_xray_buffers_lost(),
           pairs);
    assert_int_equal(evt_xray_buffers_lost(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/user_signals.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    size_t len;
    uint8_t *buf = evt_test_read_file(path, &len);
    uint64_t enters, exits;
    count_functions(buf, len, &enters, &exits);
    assert_true(!functions || pairs > 0);
#if US_TSAN
    assert_true(2u * pairs - (enters + exits) <= s.dropped);
#else
    assert_int_equal(s.dropped, 0);
    assert_int_equal(enters, pairs);
    assert_int_equal(exits, pairs);
#endif
    ut_trace t;
    assert_int_equal(ut_decode(buf, len, "xray", NULL, &t), EVT_END);
    us_check(&t);
    free(t.ev);
    free(buf);
}

static void test_signals_xray(void **st)
{
    (void)st;
    run(0);
}

static void test_signals_xray_functions(void **st)
{
    (void)st;
    run(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_xray), cmocka_unit_test(test_signals_xray_functions)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
