/* RKH recorder: evt_rkh_get_stats from signal handlers (docs/recorder.md: an ISR may call the stats
 * calls) while two threads record into the same recorder. A handler that lands while its thread
 * waits for the lock, or while the other thread holds it, cannot have the lock (P3) and reads the
 * loss account without it, concurrently with the holder's updates: those must be atomic (TSan: no
 * data race; this test runs in the concurrency label, which test-tsan runs). The stats each
 * handler reads must be sane, and after the run they must add up exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_rkh_test.h"
#include "evt_port_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"

#define WORKERS 2
#define READS 2000u /* handler reads to make */

static _Alignas(128) evt_rkh_recorder g_r;
static uint8_t g_ring[512];
static atomic_int g_active;
static atomic_ulong g_reads, g_insane;
static atomic_int g_stop;
static atomic_ulong g_issued;

static uint32_t ts32(void) { return (uint32_t)evt_port_timestamp(); }

static void stats_isr(int signo)
{
    (void)signo;
    if (!atomic_load_explicit(&g_active, memory_order_acquire)) return;
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    atomic_fetch_add_explicit(&g_reads, 1u, memory_order_relaxed);
    if (s.written + s.dropped > atomic_load_explicit(&g_issued, memory_order_relaxed) + WORKERS ||
        s.loss_records > s.written + s.dropped + 1u)
        atomic_fetch_add_explicit(&g_insane, 1u, memory_order_relaxed);
}

typedef struct worker {
    pthread_t t;
    atomic_int ready;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    atomic_store(&w->ready, 1);
    for (uint32_t i = 0; !atomic_load_explicit(&g_stop, memory_order_relaxed); i++) {
        atomic_fetch_add_explicit(&g_issued, 1u, memory_order_relaxed);
        if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) continue;
        evt_rkh_sym(&g_r, 0x20001000u);
        evt_rkh_sym(&g_r, i);
        evt_rkh_end(&g_r);
    }
    return NULL;
}

static void test_stats_from_handlers(void **st)
{
    (void)st;
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_rkh_init(&g_r, &c, g_ring, sizeof g_ring, ts32, 1000000u); /* a flight ring: it overwrites */
    evt_rkh_filter_all(&g_r, 1);
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &s, &old); /* only the workers take the signal */
    evt_port_test_on_signal_flags(SIGUSR1, stats_isr, SA_RESTART);
    atomic_store(&g_active, 1);
    worker w[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        atomic_init(&w[i].ready, 0);
        assert_int_equal(pthread_create(&w[i].t, NULL, worker_main, &w[i]), 0);
    }
    /* signal the workers until the handlers made READS reads (at most 20 s) */
    for (unsigned k = 0; atomic_load(&g_reads) < READS && k < 1000000u; k++) {
        for (int i = 0; i < WORKERS; i++)
            if (atomic_load(&w[i].ready)) pthread_kill(w[i].t, SIGUSR1);
        struct timespec d = {0, 20000};
        nanosleep(&d, NULL);
    }
    atomic_store(&g_active, 0);
    atomic_store(&g_stop, 1);
    for (int i = 0; i < WORKERS; i++) pthread_join(w[i].t, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    assert_int_equal(atomic_load(&g_insane), 0);
    assert_true(atomic_load(&g_reads) >= READS);
    evt_rkh_flush(&g_r);
    evt_rec_stats t;
    evt_rkh_get_stats(&g_r, &t);
    assert_int_equal(t.written + t.dropped, (evt_rec_count)atomic_load(&g_issued));
    assert_int_equal(t.pending, 0);
    assert_int_equal(t.dropped + t.overwritten, t.lost_reported);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_from_handlers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
