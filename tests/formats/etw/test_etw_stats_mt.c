/* ETW: the stats calls from signal handlers (docs/recorder.md: an ISR may call the stats calls; C7:
 * any context) while other threads record into a circular file that wraps and a flusher writes
 * buffers, and while the session object is stopped and started again (concurrency label: TSan finds
 * a data race, which this test is for). Before the fix evt_etw_session_stats read the buffer
 * counters (data_written, buffers_lost, overwritten) with plain loads while the session's lock
 * holder incremented them with plain stores, and start cleared the session, the loss account
 * included, with byte stores while a handler read it: TSan reported races in evt_etw_session_stats
 * and evt_loss_stats against place_buffer / buffer_done / evt_etw_session_start. Every mode also
 * checks the account after stop: written + dropped == calls issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_etw_test.h"
#include "evtrace/etw.h"

#define WORKERS  2
#define BUF_SIZE 4096u
#define RING     3u /* data buffers in the circular file: it wraps */

static evt_etw_session g_s;
static evt_etw_provider g_prov;
static atomic_int g_stop, g_flushing;
static atomic_ulong g_issued, g_reads;
static const evt_etw_guid k_guid = {0x57a75u, 0x1, 0x2, {1, 2, 3, 4, 5, 6, 7, 8}};
static _Alignas(8) uint8_t g_mem[(WORKERS + 2u) * BUF_SIZE + RING * 2u * sizeof(evt_rec_count)];
static uint8_t g_file[(1u + RING) * BUF_SIZE];

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1;
    memcpy(g_file + off, p, n);
    return 0;
}

static void emit(uint32_t tag)
{
    uint32_t v[3] = {tag, 1u, 2u};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    uint32_t rc = evt_etw_trace_event(&g_prov, &h, mof);
    if (rc == EVT_ETW_SUCCESS || rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY)
        atomic_fetch_add_explicit(&g_issued, 1u, memory_order_relaxed);
}

static void stats_isr(int signo)
{
    (void)signo;
    evt_etw_stats es;
    evt_rec_stats rs;
    evt_etw_session_stats(&g_s, &es);
    evt_etw_get_rec_stats(&g_s, &rs);
    atomic_fetch_add_explicit(&g_reads, 1u, memory_order_relaxed);
}

static void *worker(void *p)
{
    uint32_t tag = (uint32_t)(uintptr_t)p;
    while (!atomic_load_explicit(&g_stop, memory_order_relaxed)) emit(tag);
    return NULL;
}

static void *flusher(void *p)
{
    (void)p;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    while (atomic_load(&g_flushing)) {
        (void)evt_etw_session_flush(&g_s); /* INVALID_HANDLE between a stop and the next start */
        struct timespec d = {0, 200000};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static void start(int mode)
{
    evt_etw_session_config c;
    evt_etw_test_config(&c, mode, BUF_SIZE, WORKERS + 2u, 1u + RING, sink);
    assert_int_equal(evt_etw_session_start(&g_s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    assert_int_equal(evt_etw_enable(&g_s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0),
                     EVT_ETW_SUCCESS);
}

/* sessions: how many times the object is started (the last one is checked after its stop). */
static void run(int mode, int sessions)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stats_isr;
    sa.sa_flags = SA_RESTART;
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    atomic_store(&g_stop, 0);
    atomic_store(&g_flushing, 1);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    start(mode);
    pthread_t w[WORKERS], f;
    for (uintptr_t i = 0; i < WORKERS; i++) assert_int_equal(pthread_create(&w[i], NULL, worker, (void *)(i + 1u)), 0);
    assert_int_equal(pthread_create(&f, NULL, flusher, NULL), 0);
    for (int k = 0; k < sessions; k++) {
        evt_etw_stats now;
        /* signals for a while, and (one session) until the file has wrapped, at most ~10 s */
        for (int j = 0; j < 200 / sessions || (sessions == 1 && j < 200000); j++) {
            pthread_kill(w[j % WORKERS], SIGUSR1);
            struct timespec d = {0, 50000};
            nanosleep(&d, NULL);
            evt_etw_session_stats(&g_s, &now);
            if (j >= 200 / sessions && now.buffers_overwritten > 0u) break;
        }
        if (k + 1 == sessions) break;
        assert_int_equal(evt_etw_session_stop(&g_s), EVT_ETW_SUCCESS);
        pthread_kill(w[k % WORKERS], SIGUSR1); /* lands in the start that follows, or near it */
        start(mode);
    }
    atomic_store(&g_stop, 1);
    for (int i = 0; i < WORKERS; i++) pthread_join(w[i], NULL);
    atomic_store(&g_flushing, 0);
    pthread_join(f, NULL);
    signal(SIGUSR1, SIG_IGN);
    uint64_t before_stop = atomic_load(&g_issued);
    atomic_store(&g_issued, 0);
    assert_int_equal(evt_etw_session_stop(&g_s), EVT_ETW_SUCCESS);
    evt_etw_stats es;
    evt_etw_session_stats(&g_s, &es);
    print_message("etw stats, mode %d, %d sessions: %lu handler reads, last session %llu events, %llu buffers "
                  "written, %llu overwritten\n", mode, sessions, atomic_load(&g_reads), (unsigned long long)es.events,
                  (unsigned long long)es.buffers_written, (unsigned long long)es.buffers_overwritten);
    assert_true(atomic_load(&g_reads) > 0u);
    if (sessions == 1) { /* one session: its account holds every call issued */
        evt_rec_stats rs;
        evt_etw_get_rec_stats(&g_s, &rs);
        assert_int_equal(rs.written + rs.dropped, before_stop);
        assert_true(es.buffers_overwritten > 0u);
    }
    atomic_store(&g_reads, 0);
}

static void test_stats_per_cpu(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_CPU, 1); }
static void test_stats_thread_owned(void **st) { (void)st; run(EVT_ETW_SLOTS_THREAD_OWNED, 1); }
static void test_stats_default(void **st) { (void)st; run(EVT_ETW_SLOTS_DEFAULT, 1); }
static void test_stats_while_restarting(void **st) { (void)st; run(EVT_ETW_SLOTS_DEFAULT, 25); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_per_cpu),
        cmocka_unit_test(test_stats_thread_owned),
        cmocka_unit_test(test_stats_default),
        cmocka_unit_test(test_stats_while_restarting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
