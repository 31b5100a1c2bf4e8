/* RKH recorder: runtime filter changes from a signal handler (docs/recorder.md: an ISR may call the
 * filter calls) that lands inside a filter change of its own thread. The handler re-enters the
 * recorder's lock (P2), so both changes run "under the lock" interleaved: a change of a bit in the
 * same byte of a filter table (event, AO, signal) or of the published table (emit) must not undo
 * the handler's change. A worker thread toggles event 0x61, AO 2 and signal 2 without pause; a raw
 * handler on it first checks that the state its previous run set is the one in effect (a record
 * that the handler suppressed must not get through), then flips event 0x62, AO 3 and signal 3.
 * Before the fix about one handler run in 300 found its previous change undone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_port_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

#define RUNS 20000u /* handler runs to make (at most 10 s) */

static evt_rkh_recorder g_r;
static uint8_t g_ring[4096];
static int g_expect = 1;                /* the state the handler's last run set: 1 emitted */
static atomic_ulong g_runs, g_undone;   /* handler runs; runs that found the last change undone */
static atomic_int g_stop;

static uint32_t ts1(void) { return 1; }

/* 1 when a record of id with AO prio and signal sig gets through (ended at once). */
static int passes(unsigned id, int prio, int sig)
{
    if (!evt_rkh_begin_ao_sig(&g_r, id, prio, sig)) return 0;
    evt_rkh_end(&g_r);
    return 1;
}

static void filter_isr(int signo)
{
    (void)signo;
    /* A begin may also be dropped (0), never let through while suppressed (1). */
    if (!g_expect && (passes(RKH_TE_SM_TRN, -1, -1) || passes(RKH_TE_SM_STATE, 3, -1) ||
                      passes(RKH_TE_SMA_FIFO, -1, 3)))
        atomic_fetch_add_explicit(&g_undone, 1u, memory_order_relaxed);
    unsigned long k = atomic_fetch_add_explicit(&g_runs, 1u, memory_order_relaxed) + 1u;
    g_expect = (int)(k & 1u);
    if (g_expect) {
        evt_rkh_filter_off_event(&g_r, RKH_TE_SM_TRN);
        evt_rkh_filter_off_sma(&g_r, 3);
        evt_rkh_filter_off_signal(&g_r, 3);
    } else {
        evt_rkh_filter_on_event(&g_r, RKH_TE_SM_TRN);
        evt_rkh_filter_on_sma(&g_r, 3);
        evt_rkh_filter_on_signal(&g_r, 3);
    }
}

static void *worker_main(void *arg)
{
    (void)arg;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    while (!atomic_load_explicit(&g_stop, memory_order_relaxed)) {
        evt_rkh_filter_off_event(&g_r, 0x61); /* SM_TRN is 0x62: same byte, same group */
        evt_rkh_filter_on_event(&g_r, 0x61);
        evt_rkh_filter_off_sma(&g_r, 2);
        evt_rkh_filter_on_sma(&g_r, 2);
        evt_rkh_filter_off_signal(&g_r, 2);
        evt_rkh_filter_on_signal(&g_r, 2);
    }
    pthread_sigmask(SIG_BLOCK, &s, NULL);
    return NULL;
}

static void test_filter_changes_from_handler(void **st)
{
    (void)st;
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_r, &c, g_ring, sizeof g_ring, ts1, 1000u);
    evt_rkh_filter_all(&g_r, 1);
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &s, &old);
    evt_port_test_on_signal(SIGUSR1, filter_isr);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker_main, NULL), 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        pthread_kill(t, SIGUSR1);
        struct timespec d = {0, 3000};
        nanosleep(&d, NULL);
        clock_gettime(CLOCK_MONOTONIC, &t1);
    } while (atomic_load(&g_runs) < RUNS && t1.tv_sec - t0.tv_sec < 10);
    atomic_store(&g_stop, 1);
    pthread_join(t, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (atomic_load(&g_undone))
        fail_msg("%lu of %lu handler runs found their previous filter change undone",
                 atomic_load(&g_undone), atomic_load(&g_runs));
    assert_true(atomic_load(&g_runs) > 1000u);
    /* the last change is in effect */
    assert_int_equal(passes(RKH_TE_SM_TRN, -1, -1), g_expect);
    assert_int_equal(passes(RKH_TE_SM_STATE, 3, -1), g_expect);
    assert_int_equal(passes(RKH_TE_SMA_FIFO, -1, 3), g_expect);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter_changes_from_handler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
