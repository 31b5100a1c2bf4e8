/* Threads and signal handlers calling evt_printf through the RKH recorder while the threads also
 * write records of their own with the recorder's API (evt_rkh_begin .. evt_rkh_end, an SM_STATE
 * record after every line): a handler that lands inside such a record of its thread has its line
 * stashed and written at the record's end (user_nest_enc.c N2, N5), so every line comes back
 * (user_signals.h: exact, once, in time order, none lost) and so does every application record,
 * with nothing dropped. Concurrency label: also under TSan (there: every missing line or record
 * counted lost). */
#define EVT_CFG_USER_BACKEND rkh
#define US_NO_CTX /* RKH user records carry no thread */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_rkh_test.h"
#include "evt_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

static evt_rkh_recorder g_rec;
static atomic_ulong g_app_issued, g_app_written;

/* The application's own record: SM_STATE (ao, state), three fields' worth of work. */
static void app_record(unsigned w, unsigned n)
{
    atomic_fetch_add_explicit(&g_app_issued, 1u, memory_order_relaxed);
    if (evt_rkh_begin(&g_rec, RKH_TE_SM_STATE)) {
        evt_rkh_sym(&g_rec, 0x1000u + w);
        evt_rkh_sym(&g_rec, 0x20000u + n);
        evt_rkh_end(&g_rec);
        atomic_fetch_add_explicit(&g_app_written, 1u, memory_order_relaxed);
    }
}
#define US_APP_RECORD(w, n) app_record((w), (n))
#include "user_signals.h"
#include "user_signals_rkh.h"

static uint8_t g_ring[64u << 10];

static void test_signals_rkh_app(void **st)
{
    (void)st;
    static evt_rkh_test_buf out;
    evt_rkh_test_buf_init(&out, 128u << 20);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rec, &c, g_ring, sizeof g_ring, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_filter_off_event(&g_rec, RKH_TE_SM_STATE);
    evt_rkh_set_sink(&g_rec, evt_rkh_test_sink, &out);
    evt_rkh_user_attach(&g_rec);
    us_run();
    evt_rkh_user_attach(NULL);
    evt_rkh_flush(&g_rec);
    assert_int_equal(out.overflow, 0);
    unsigned long issued = atomic_load(&g_app_issued), written = atomic_load(&g_app_written);
    printf("rkh+app: stream %zu bytes, app records %lu issued %lu written, recorder dropped %llu\n", out.n, issued,
           written, (unsigned long long)g_rec.loss.dropped);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(out.p, out.n, &d), 0);
    assert_int_equal(d.errors, 0);
    assert_true(issued > 0);
    assert_true(d.by_id[RKH_TE_SM_STATE] == written);
#if US_TSAN
    assert_true(issued - written <= d.lost);
#else
    assert_int_equal(g_rec.loss.dropped, 0);
    assert_int_equal(written, issued);
#endif
    us_rkh_check_stream(&out);
    evt_rkh_test_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_rkh_app)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
