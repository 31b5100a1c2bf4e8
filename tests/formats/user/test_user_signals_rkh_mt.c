/* Threads and signal handlers calling evt_printf through the RKH recorder (user_signals.h; one
 * recorder lock, a sink that drains inside it): every line back from the stream, exact, once, in
 * time order, none lost: a handler that lands inside a user record of its own thread has its
 * record stashed and written right after it (user_nest_enc.c N2-N5), one that lands in its
 * thread's wait for the recorder's lock waits too (port P3b, N4). Concurrency label: also under
 * TSan (there: every missing line counted lost). */
#define EVT_CFG_USER_BACKEND rkh
#define US_NO_CTX /* RKH user records carry no thread */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_rkh_test.h"
#include "evt_test.h"
#include "user_signals.h"
#include "user_signals_rkh.h"

static uint8_t g_ring[64u << 10];

static void test_signals_rkh(void **st)
{
    (void)st;
    static evt_rkh_test_buf out;
    evt_rkh_test_buf_init(&out, 96u << 20);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    static evt_rkh_recorder r;
    evt_rkh_init(&r, &c, g_ring, sizeof g_ring, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_set_sink(&r, evt_rkh_test_sink, &out);
    evt_rkh_user_attach(&r);
    us_run();
    us_rkh_finish(&r, &out, "rkh");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_rkh)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
