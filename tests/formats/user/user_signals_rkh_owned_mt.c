/* Threads and signal handlers calling evt_printf through a thread-owned RKH recorder
 * (user_signals.h; evt_rkh_own, rkh_enc.c O1-O6; built with EVT_RKH_OWNED=1 as
 * test_user_signals_rkh_owned_mt, signals.cmake): worker 0 owns it (its lines take no lock), the
 * other workers' lines claim it from the owner (O3). Every line back from the stream, exact, once,
 * in time order, none lost: a handler that lands inside one of the owner's records finds its flag
 * set and has its line stashed and written right after that record (rkh_user_enc.c
 * in_owned_record, user_nest_enc.c N2-N5), as it would inside a locked record. Concurrency label:
 * also under TSan (there: every missing line counted lost). */
#define EVT_CFG_USER_BACKEND rkh
#define US_NO_CTX /* RKH user records carry no thread */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdatomic.h>
#include "evt_port_test.h"
#include "evt_rkh_test.h"
#include "evt_test.h"

static evt_rkh_recorder g_rec;
static atomic_int g_owned; /* worker 0's evt_rkh_own: 1 */
#define US_WORKER_START(w)                                                                          \
    do {                                                                                            \
        if ((w) == 0u) atomic_store(&g_owned, evt_rkh_own(&g_rec));                                \
    } while (0)
#include "user_signals.h"
#include "user_signals_rkh.h"

static uint8_t g_ring[64u << 10];

static void test_signals_rkh_owned(void **st)
{
    (void)st;
    if (!evt_port_test_membarrier_available("thread ownership (evt_rkh_own)")) return;
    static evt_rkh_test_buf out;
    evt_rkh_test_buf_init(&out, 96u << 20);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rec, &c, g_ring, sizeof g_ring, evt_rkh_test_clock_us, 1000000u);
    evt_rkh_set_sink(&g_rec, evt_rkh_test_sink, &out);
    evt_rkh_user_attach(&g_rec);
    us_run();
    assert_int_equal(atomic_load(&g_owned), 1);
    assert_int_equal(g_rec.own, 0u); /* worker 0 owned it to its exit, which gave it up (rkh_enc.c O6) */
    us_rkh_finish(&g_rec, &out, "rkh owned");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_rkh_owned)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
