/* Stress test of the TXTB recorder with "interrupts" (concurrency label, also under TSan): three
 * threads record user events into a small buffer that wraps thousands of times while a fourth
 * thread sends them signals at random moments. Two kinds of handler stand in for ISRs: a raw
 * sigaction handler (not known to the port: it can land anywhere, even inside the recorder's
 * critical section, and must be dropped and counted there) and one installed with
 * evt_posix_isr_install (held off while its thread is in a section, as a masked interrupt). Each
 * handler records ISR enter, a user event and ISR exit. After disable, the decoded records plus the
 * LOST records' counts must equal every record issued, exactly; nothing may hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"

#define NWORKERS   3
#define RUN_NS     300000000ull /* each run records for 0.3 s */
#define SLOTS      512u
#define BUF_SIZE   (48u + 48u * 2u + 32u * SLOTS)
#define USER_ID    0x6000u
#define ISR_USER   0x6100u

static uint8_t g_buf[BUF_SIZE];
static atomic_ulong g_worker_issued;
static atomic_ulong g_isr_issued;   /* records the handlers issued (lock-free: signal-safe) */
static atomic_ulong g_isr_calls;
static atomic_int g_workers_done;  /* workers that finished recording */
static atomic_int g_irq_stopped;   /* the interrupter sends no more signals */

static void isr_body(int raw)
{
    evt_tx_trace_isr_enter_insert(raw ? 11u : 12u);
    (void)evt_tx_trace_user_event_insert(ISR_USER + (unsigned)raw, 1, 2, 3, 4);
    evt_tx_trace_isr_exit_insert(raw ? 11u : 12u);
    atomic_fetch_add_explicit(&g_isr_issued, 3u, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_isr_calls, 1u, memory_order_relaxed);
}
static void raw_handler(int signo) { (void)signo; isr_body(1); }
static void port_isr(int signo) { (void)signo; isr_body(0); }

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker(void *p)
{
    uintptr_t tid = (uintptr_t)p;
    uint64_t end = now_ns() + RUN_NS;
    uint32_t seq = 0;
    while (now_ns() < end) {
        for (int k = 0; k < 256; k++, seq++)
            (void)evt_tx_trace_user_event_insert(USER_ID + (uint32_t)tid, seq, (uint32_t)tid, ~seq, 0);
    }
    atomic_fetch_add(&g_worker_issued, seq);
    /* Stay alive (still taking interrupts) until no more signals come: pthread_kill must never
     * name a thread that has exited. */
    atomic_fetch_add(&g_workers_done, 1);
    while (!atomic_load(&g_irq_stopped)) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void *interrupter(void *p)
{
    pthread_t *ws = p;
    uint32_t rng = 0x12345u;
    /* Until every worker is done and at least 64 interrupts ran (a loaded machine schedules the
     * interrupter rarely), or 10 s. */
    uint64_t give_up = now_ns() + 10000000000ull;
    while ((atomic_load(&g_workers_done) < NWORKERS || atomic_load(&g_isr_calls) < 64u) && now_ns() < give_up) {
        rng = rng * 1103515245u + 12345u;
        int sig = (rng >> 16) & 1u ? SIGUSR1 : SIGUSR2;
        pthread_kill(ws[(rng >> 8) % NWORKERS], sig);
        for (volatile uint32_t spin = (rng >> 20) % 20000u; spin; spin--) {}
    }
    atomic_store(&g_irq_stopped, 1);
    return NULL;
}

static void run_once(void)
{
    atomic_store(&g_isr_issued, 0);
    atomic_store(&g_worker_issued, 0);
    atomic_store(&g_isr_calls, 0);
    atomic_store(&g_workers_done, 0);
    atomic_store(&g_irq_stopped, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raw_handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);

    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 2), EVT_TX_SUCCESS);
    pthread_t ws[NWORKERS], irq;
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(pthread_create(&irq, NULL, interrupter, ws), 0);
    pthread_join(irq, NULL);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    /* A signal sent to a worker ran its handler before the worker was joined, or never will (a
     * thread's pending signals go with it); handlers count only what they issued. */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);

    uint64_t issued = 2u /* RUNNING */ + atomic_load(&g_worker_issued) + atomic_load(&g_isr_issued);
    evt_rec_stats rs;
    evt_tx_trace_get_rec_stats(&rs);
    assert_int_equal(rs.written + rs.dropped, issued);
    assert_int_equal(rs.pending, 0);

    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_buf, BUF_SIZE, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0, prev_ts = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        assert_true(ev.ts >= prev_ts);
        prev_ts = ev.ts;
        if (ev.kind == EVT_KIND_LOST) continue;
        data++;
        /* no torn slot: every worker record is self-consistent */
        if (ev.id >= USER_ID && ev.id < USER_ID + NWORKERS) {
            assert_int_equal(ev.args[1], ev.id - USER_ID);
            assert_int_equal((uint32_t)ev.args[2], ~(uint32_t)ev.args[0]);
        }
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    assert_int_equal(data + r->lost, issued);
    assert_int_equal(r->lost, rs.lost_reported);
    print_message("txtb stress: issued %llu, decoded %llu, lost %llu (dropped %llu), %lu interrupts\n",
                  (unsigned long long)issued, (unsigned long long)data, (unsigned long long)r->lost,
                  (unsigned long long)rs.dropped, atomic_load(&g_isr_calls));
    assert_true(atomic_load(&g_isr_calls) > 20u);
    evt_reader_close(r);
}

static void test_threads_and_signal_isrs(void **st)
{
    (void)st;
    for (int k = 0; k < 3; k++) run_once();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_and_signal_isrs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
