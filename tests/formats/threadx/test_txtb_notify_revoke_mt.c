/* evt_tx_trace_buffer_full_notify called inside a record whose biased lock another thread is
 * revoking (the buffer-full callback, or a handler inside a record, changing the callback) must
 * return at once: the revoker waits for this record to end, so a call that waited for the lock
 * would never return (before: a spin on the lock, a deadlock). Needs biased locks (membarrier). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include "evt_port_test.h"
#include "evtrace/recorder.h"
#include "evtrace/txtb.h"

#define SLOTS 8u
static uint8_t g_buf[48u + 32u * SLOTS];
static atomic_int g_revoker_go, g_revoker_done;
static int g_calls, g_acted;
static uint32_t g_inserts;

static void sleep_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void other_cb(void *hdr) { (void)hdr; }

/* The buffer-full callback, inside the record that wrapped (the lock held, biased to this thread):
 * start the revoker, give it time to begin revoking (it then waits for this record), change the
 * callback. */
static void on_full(void *hdr)
{
    (void)hdr;
    g_calls++;
    if (g_acted || g_inserts < 2u * EVT_POSIX_BIAS_AFTER) return; /* the lock is biased by now */
    g_acted = 1;
    atomic_store(&g_revoker_go, 1);
    sleep_ms(100);
    assert_int_equal(atomic_load(&g_revoker_done), 0); /* the revoker waits for this record */
    assert_int_equal(evt_tx_trace_buffer_full_notify(other_cb), EVT_TX_SUCCESS);
}

static void *revoker(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_revoker_go)) sched_yield();
    (void)evt_tx_trace_event_unfilter(0u); /* takes the lock: revokes the recording thread's bias */
    atomic_store(&g_revoker_done, 1);
    return NULL;
}

static void test_notify_inside_revoked_record(void **st)
{
    (void)st;
    alarm(20); /* a deadlock ends the test (SIGALRM) instead of its 300 s timeout */
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, revoker, NULL), 0);
    assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 0), EVT_TX_SUCCESS);
    evt_tx_trace_buffer_full_notify(on_full);
    for (g_inserts = 0; g_inserts < 4u * EVT_POSIX_BIAS_AFTER && !g_acted; g_inserts++) /* bias, wraps */
        (void)evt_tx_trace_user_event_insert(4096u, g_inserts, 0, 0, 0);
    assert_int_equal(g_acted, 1);
    int calls = g_calls;
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(atomic_load(&g_revoker_done), 1);
    for (uint32_t i = 0; i < 2u * SLOTS; i++) (void)evt_tx_trace_user_event_insert(4096u, i, 0, 0, 0);
    assert_int_equal(g_calls, calls); /* the new callback took over */
    alarm(0);
    evt_tx_trace_buffer_full_notify(NULL);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
}

int main(void)
{
    if (!evt_port_test_bias_available()) return 77; /* it said why; CTest: skipped, not passed */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notify_inside_revoked_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
