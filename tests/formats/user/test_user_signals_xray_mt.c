/* Threads and signal handlers calling evt_printf through the XRay recorder (user_signals.h;
 * per-thread buffers, a nesting guard per thread, no lock): every line back from the FDR file,
 * exact, once, in time order, none lost: a handler that lands inside a record of its own thread
 * has its user record stashed and written right after the interrupted one (user_nest_enc.c
 * N2-N3). Concurrency label: also under TSan. */
#define EVT_CFG_USER_BACKEND xray
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/recorder.h"
#include "user_signals.h"

static void test_signals_xray(void **st)
{
    (void)st;
    evt_xray_config cfg = {1u << 20, 64, 1}; /* 64 MiB: the whole run, no buffer overwritten */
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_user_resend();
    us_run();
    assert_int_equal(evt_xray_stop(), 0);
    evt_rec_stats s;
    evt_xray_get_rec_stats(&s);
    printf("xray: written %llu dropped %llu buffers lost %llu\n", (unsigned long long)s.written,
           (unsigned long long)s.dropped, (unsigned long long)evt_xray_buffers_lost());
    assert_int_equal(s.dropped, 0);
    assert_int_equal(evt_xray_buffers_lost(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/user_signals.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    size_t len;
    uint8_t *buf = evt_test_read_file(path, &len);
    ut_trace t;
    assert_int_equal(ut_decode(buf, len, "xray", NULL, &t), EVT_END);
    us_check(&t);
    free(t.ev);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_xray)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
