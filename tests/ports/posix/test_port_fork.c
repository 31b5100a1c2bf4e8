/* POSIX port, P5: fork while other threads record. The child has only the forking thread; a
 * recorder lock another thread held at that instant is never given back. Before P5 the child's
 * first record into such a recorder waited forever (TXTB: 177 of 200 children hung). Now every
 * child finishes: its records into a dead-locked recorder are dropped and counted, and it can
 * disable the trace and re-initialise an RKH recorder. Each child has a 20 s alarm: a hang fails
 * the test instead of stalling it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>
#include "evt_fork_test.h"
#include "evtrace/rkh.h"
#include "evtrace/txtb.h"
#include "formats/rkh/rkh_defs.h"

static uint8_t g_tx[48 + 32 * 64];
static evt_rkh_recorder g_rkh;
static uint8_t g_ring[1024];
static atomic_int g_stop;

static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }

static void *worker(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_stop)) {
        (void)evt_tx_trace_user_event_insert(0x5000u, 1, 2, 3, 4);
        if (evt_rkh_begin(&g_rkh, RKH_TE_SM_STATE)) {
            evt_rkh_sym(&g_rkh, 1);
            evt_rkh_sym(&g_rkh, 2);
            evt_rkh_end(&g_rkh);
        }
    }
    return NULL;
}

/* The child: records, stats, disable, an RKH re-init; exit 0 if it got there. */
static void child(void)
{
    alarm(20);
    for (unsigned i = 0; i < 1000u; i++) {
        (void)evt_tx_trace_user_event_insert(0x6000u, i, 0, 0, 0);
        if (evt_rkh_begin(&g_rkh, RKH_TE_SM_STATE)) {
            evt_rkh_sym(&g_rkh, i);
            evt_rkh_sym(&g_rkh, 3);
            evt_rkh_end(&g_rkh);
        }
    }
    evt_rec_stats s;
    evt_tx_trace_get_rec_stats(&s);
    evt_rkh_get_stats(&g_rkh, &s);
    uint8_t b[64];
    (void)evt_rkh_get_whole_block(&g_rkh, b, sizeof b);
    evt_rkh_flush(&g_rkh);
    (void)evt_tx_trace_disable();
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rkh, &c, g_ring, sizeof g_ring, ts32, 1000u); /* a fresh recorder works */
    evt_rkh_filter_all(&g_rkh, 1);
    if (!evt_rkh_begin(&g_rkh, RKH_TE_SM_STATE)) _exit(3);
    evt_rkh_end(&g_rkh);
    _exit(0);
}

static void test_fork_while_recording(void **st)
{
    (void)st;
    assert_int_equal(evt_tx_trace_enable(g_tx, sizeof g_tx, 0), EVT_TX_SUCCESS);
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_rkh, &c, g_ring, sizeof g_ring, ts32, 1000u);
    evt_rkh_filter_all(&g_rkh, 1);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, worker, NULL), 0);
    unsigned done = 0;
    for (int k = 0; k < 40; k++) {
        int rc = evt_test_fork_run(child);
        if (rc != 0) {
            atomic_store(&g_stop, 1);
            for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
            fail_msg("fork child %d: %s %d", k, evt_test_fork_how(rc), rc & 255);
        }
        done++;
    }
    atomic_store(&g_stop, 1);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(done, 40);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fork_while_recording),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
