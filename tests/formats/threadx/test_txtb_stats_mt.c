/* TXTB recorder: the stats calls from signal handlers (docs/recorder.md: an ISR may call the stats
 * calls; C7: any context) while other threads record into a buffer that wraps and a controller
 * disables and enables the trace (concurrency label: TSan finds a data race, which this test is
 * for). Before the fix enable reset the loss account and folded the session into the since-start
 * totals with plain stores, and a wrap counted `wraps` with a plain increment, while a handler on
 * another thread read them: TSan reported races in evt_loss_reset / evt_loss_stats, plain_wrapped
 * / evt_tx_trace_get_stats and enable / evt_tx_trace_get_stats. The totals must also add up: after
 * the run, written + dropped since program start == the sum of every session's account. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evtrace/txtb.h"

#define WORKERS 2
#define SESSIONS 60
static uint8_t g_buf[48u + 48u * 2u + 32u * 64u]; /* 64 slots: wraps all the time */
static atomic_int g_stop;
static atomic_ulong g_reads;

static void stats_isr(int signo)
{
    (void)signo;
    evt_tx_stats s;
    evt_rec_stats rs;
    evt_tx_trace_get_stats(&s);
    evt_tx_trace_get_rec_stats(&rs);
    atomic_fetch_add_explicit(&g_reads, 1u, memory_order_relaxed);
}

static void *worker(void *p)
{
    uint32_t tag = (uint32_t)(uintptr_t)p;
    for (uint32_t i = 0; !atomic_load_explicit(&g_stop, memory_order_relaxed); i++)
        (void)evt_tx_trace_user_event_insert(0x6000u + tag, i, tag, ~i, 0);
    return NULL;
}

static void sleep_us(long us)
{
    struct timespec ts = {0, us * 1000L};
    nanosleep(&ts, NULL);
}

static void test_stats_from_handlers_while_enabling(void **st)
{
    (void)st;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stats_isr;
    sa.sa_flags = SA_RESTART;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    evt_tx_stats base;
    evt_tx_trace_get_stats(&base);
    uint64_t sessions_total = 0;
    assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 2u), EVT_TX_SUCCESS);
    pthread_t w[WORKERS];
    for (uintptr_t i = 0; i < WORKERS; i++) assert_int_equal(pthread_create(&w[i], NULL, worker, (void *)i), 0);
    for (int k = 0; k < SESSIONS; k++) {
        for (int j = 0; j < 20; j++) {
            pthread_kill(w[j % WORKERS], SIGUSR1);
            sleep_us(20);
        }
        assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
        evt_rec_stats rs;
        evt_tx_trace_get_rec_stats(&rs);
        sessions_total += rs.written + rs.dropped;
        pthread_kill(w[k % WORKERS], SIGUSR1); /* lands in the enable that follows, or near it */
        assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 2u), EVT_TX_SUCCESS);
    }
    atomic_store(&g_stop, 1);
    for (int i = 0; i < WORKERS; i++) pthread_join(w[i], NULL);
    signal(SIGUSR1, SIG_IGN);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_rec_stats rs;
    evt_tx_trace_get_rec_stats(&rs);
    sessions_total += rs.written + rs.dropped;
    evt_tx_stats end;
    evt_tx_trace_get_stats(&end);
    print_message("txtb stats: %d sessions, %lu handler reads, %llu records, %llu wraps\n", SESSIONS + 1,
                  atomic_load(&g_reads), (unsigned long long)sessions_total,
                  (unsigned long long)(end.wraps - base.wraps));
    assert_true(atomic_load(&g_reads) > 0u);
    assert_true(end.wraps > base.wraps);
    assert_int_equal(end.written + end.dropped - base.written - base.dropped, sessions_total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_from_handlers_while_enabling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
