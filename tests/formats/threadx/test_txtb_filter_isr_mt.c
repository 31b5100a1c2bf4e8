/* TXTB recorder: filter changes from a signal handler (docs/recorder.md: an ISR may call the filter
 * calls) that lands inside a filter change of its own thread (concurrency label, also under TSan).
 * The handler re-enters the recorder's lock (port P2), so its change runs inside the thread's: once
 * the thread's call has returned, the gate the hot path tests must hold both changes. A worker
 * toggles filter bit A without pause and, after each call (a handler landing in the check changes
 * nothing), checks that bit B is in the state the handler's last change left (an insert with bit B is written exactly
 * when B is unfiltered, seen in the account); a raw handler flips B. Before the fix about 1 handler
 * run in 100 had its change undone until the next change: the thread's publish stored the bits it
 * had read before the handler ran (and the thread's plain read-modify-write of the filter word
 * could undo the handler's bit there too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include "evt_irq.h"
#include "evtrace/txtb.h"

#define BIT_A   0x00000100u
#define BIT_B   0x00000200u
#define RUN_NS  3000000000ull /* at most 3 s of signals */
#define RUNS    10000ul       /* or this many handler runs */

static uint8_t g_buf[48u + 48u * 2u + 32u * 1024u];
static volatile sig_atomic_t g_expect_b = 1; /* B unfiltered: the handler's last change (or enable) */
static atomic_ulong g_runs, g_undone, g_not_done;
static atomic_int g_stop;

static uint64_t account(void)
{
    evt_rec_stats s;
    evt_tx_trace_get_rec_stats(&s);
    return s.written + s.dropped;
}

static volatile sig_atomic_t g_checking; /* the worker is checking B: a handler changes nothing */

static void handler(int signo)
{
    (void)signo;
    if (g_checking) return;
    unsigned rc = g_expect_b ? evt_tx_trace_event_filter(BIT_B) : evt_tx_trace_event_unfilter(BIT_B);
    if (rc == EVT_TX_SUCCESS) g_expect_b = !g_expect_b;
    else atomic_fetch_add(&g_not_done, 1u);
    atomic_fetch_add(&g_runs, 1u);
}

/* Between the worker's filter calls: whether B lets an insert through as the handler's last change
 * says (no handler changes B meanwhile: cheaper than blocking the signal, which would keep the
 * worker out of its filter calls most of the time). */
static void check_b(void)
{
    g_checking = 1;
    atomic_signal_fence(memory_order_seq_cst);
    uint64_t before = account();
    evt_tx_trace_insert(4200u, 1u, 2u, 3u, 4u, BIT_B);
    uint64_t issued = account() - before; /* nothing else records: 1 iff B let it through */
    if (issued != (uint64_t)g_expect_b) atomic_fetch_add(&g_undone, 1u);
    atomic_signal_fence(memory_order_seq_cst);
    g_checking = 0;
}

static void *worker(void *p)
{
    (void)p;
    while (!atomic_load(&g_stop)) {
        assert_int_equal(evt_tx_trace_event_filter(BIT_A), EVT_TX_SUCCESS);
        check_b();
        assert_int_equal(evt_tx_trace_event_unfilter(BIT_A), EVT_TX_SUCCESS);
        check_b();
    }
    return NULL;
}

static void test_handler_filter_inside_thread_filter(void **st)
{
    (void)st;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    assert_int_equal(evt_tx_trace_enable(g_buf, sizeof g_buf, 2u), EVT_TX_SUCCESS);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker, NULL), 0);
    uint64_t t0 = evt_irq_now_ns();
    unsigned seed = 1u;
    while (atomic_load(&g_runs) < RUNS && evt_irq_now_ns() - t0 < RUN_NS) {
        unsigned long runs = atomic_load(&g_runs);
        pthread_kill(t, SIGUSR1);
        /* one signal at a time (a pending one is not queued twice): until it ran, or 1 ms */
        for (uint64_t t1 = evt_irq_now_ns(); atomic_load(&g_runs) == runs && evt_irq_now_ns() - t1 < 1000000u;) {}
        seed = seed * 1103515245u + 12345u;
        for (volatile unsigned k = 0; k < (seed >> 16 & 2047u); k++) {}
    }
    atomic_store(&g_stop, 1);
    pthread_join(t, NULL);
    signal(SIGUSR1, SIG_IGN);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    print_message("txtb filter isr: %lu handler runs, %lu checks found a change undone, %lu not done\n",
                  atomic_load(&g_runs), atomic_load(&g_undone), atomic_load(&g_not_done));
    assert_true(atomic_load(&g_runs) > 0u);
    assert_int_equal(atomic_load(&g_undone), 0);
    assert_int_equal(atomic_load(&g_not_done), 0); /* the handler re-enters its thread's lock */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handler_filter_inside_thread_filter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
