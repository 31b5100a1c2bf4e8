/* Stress test of the TXTB recorder with "interrupts" (concurrency label, also under TSan): three
 * threads record user events into a small buffer that wraps thousands of times while a fourth
 * thread (tests/support/evt_irq.h) sends them signals at random moments. Two kinds of handler stand in for ISRs: a raw
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
#include "evt_irq.h"
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
static evt_irq g_irq;               /* the interrupter (tests/support/evt_irq.h) */
static atomic_ulong g_worker_issued;
static atomic_ulong g_isr_issued;   /* records the handlers issued (lock-free: signal-safe) */
static atomic_ulong g_isr_calls;

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

static void *worker(void *p)
{
    uintptr_t tid = (uintptr_t)p;
    uint64_t t0 = evt_irq_now_ns();
    uint32_t seq = 0;
    /* at least RUN_NS, on until 64 interrupts were taken (evt_irq_keep_recording bounds it) */
    while (evt_irq_keep_recording(t0, RUN_NS, atomic_load(&g_isr_calls), 64u)) {
        for (int k = 0; k < 256; k++, seq++)
            (void)evt_tx_trace_user_event_insert(USER_ID + (uint32_t)tid, seq, (uint32_t)tid, ~seq, 0);
    }
    atomic_fetch_add(&g_worker_issued, seq);
    evt_irq_target_done(&g_irq); /* stays alive, taking interrupts, until the interrupter stops */
    return NULL;
}

static void run_once(void)
{
    atomic_store(&g_isr_issued, 0);
    atomic_store(&g_worker_issued, 0);
    atomic_store(&g_isr_calls, 0);
    assert_int_equal(evt_irq_install(raw_handler, port_isr), 0);
    evt_irq_init(&g_irq);

    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 2), EVT_TX_SUCCESS);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    /* A signal sent to a worker ran its handler before the worker was joined, or never will (a
     * thread's pending signals go with it); handlers count only what they issued. */
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_irq_uninstall();

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
    assert_true(atomic_load(&g_isr_calls) > 0u); /* 64 unless 3 x RUN_NS passed; 1 at least */
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
