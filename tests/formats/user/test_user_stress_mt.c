/* Stress test of the user-event API (concurrency label, also under TSan): three threads call
 * evt_printf with integers and a string (two TXTB slots a record) while an interrupter thread
 * (tests/support/evt_irq.h) sends them signals whose handlers call evt_printf and evt_value too
 * (a raw sigaction handler that may land inside a record, and a port-known one). The buffer never
 * wraps. Every line decoded must be the text snprintf gives for its arguments, on its channel,
 * once, with timestamps that never go back; a line that is missing must be covered by the LOST
 * records' counts (a handler's record nested in its thread's record is dropped and counted), and
 * no record may be undecodable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evt_irq.h"
#include "evt_test.h"
#include "evtrace/user.h"
#include "user_test_util.h"

#define NWORKERS 3
#define RUN_NS   200000000ull
#define MAX_LINES 20000u       /* per worker */
#define MAX_IRQ   200000u
#define BUF_SIZE (24u << 20)

static uint8_t g_buf[BUF_SIZE];
static evt_irq g_irq;
static atomic_ulong g_irq_seq;     /* handler lines issued (k = 1..) */
static atomic_ulong g_isr_calls;
static unsigned g_lines[NWORKERS];
static const char *const k_words[] = {"alpha", "be", "gamma-ray", ""};

static void isr_body(int raw)
{
    unsigned long k = atomic_fetch_add_explicit(&g_irq_seq, 1u, memory_order_relaxed) + 1u;
    if (k <= MAX_IRQ) evt_printf("irq", "raw=%d k=%lu h=%#x", raw, k, (unsigned)(k * 2654435761u));
    evt_value("irqv", (int64_t)k);
    atomic_fetch_add_explicit(&g_isr_calls, 1u, memory_order_relaxed);
}
static void raw_handler(int signo) { (void)signo; isr_body(1); }
static void port_isr(int signo) { (void)signo; isr_body(0); }

/* Set once the interrupter runs: a worker's lines are capped (MAX_LINES), and on a fast machine the
 * three wrote them all before the interrupter's first signal (30 Nov, Zen 5 VM: no handler ran). */
static atomic_int g_go;

static void *worker(void *p)
{
    unsigned tid = (unsigned)(uintptr_t)p, n = 0;
    while (!atomic_load(&g_go)) sched_yield();
    uint64_t t0 = evt_irq_now_ns();
    while (n < MAX_LINES && evt_irq_keep_recording(t0, RUN_NS, atomic_load(&g_isr_calls), 64u)) {
        for (int k = 0; k < 64 && n < MAX_LINES; k++, n++)
            evt_printf("thr", "w%u n%u x=%d s=%s|%5.1f", tid, n, -(int)n * 7, k_words[n % 4], n / 8.0);
    }
    /* its lines all written before any handler ran (a loaded machine): a target until one has */
    while (atomic_load(&g_isr_calls) == 0u && evt_irq_keep_recording(t0, RUN_NS, 0u, 64u)) sched_yield();
    g_lines[tid] = n;
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void test_threads_and_signals(void **st)
{
    (void)st;
    assert_int_equal(evt_irq_install(raw_handler, port_isr), 0);
    evt_irq_init(&g_irq);
    assert_int_equal(evt_tx_trace_enable(g_buf, BUF_SIZE, 4), EVT_TX_SUCCESS);
    evt_user_resend();
    evt_tx_stats s0;
    evt_tx_trace_get_stats(&s0);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    atomic_store(&g_go, 1);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    assert_int_equal(evt_tx_trace_disable(), EVT_TX_SUCCESS);
    evt_irq_uninstall();
    evt_tx_stats s1;
    evt_tx_trace_get_stats(&s1);
    assert_int_equal(s1.wraps - s0.wraps, 0);

    ut_trace t;
    assert_int_equal(ut_decode(g_buf, BUF_SIZE, "threadx", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    unsigned long irq_issued = atomic_load(&g_irq_seq);
    if (irq_issued > MAX_IRQ) irq_issued = MAX_IRQ;
    uint8_t *seen = calloc(NWORKERS * MAX_LINES + MAX_IRQ + 1, 1);
    unsigned long decoded = 0, issued = irq_issued, values = 0;
    for (int i = 0; i < NWORKERS; i++) issued += g_lines[i];
    uint64_t last_ts = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        char want[256];
        assert_true(e->ts >= last_ts);
        last_ts = e->ts;
        assert_true(e->ctx != 0);
        if (!strcmp(e->name, "thr")) {
            unsigned tid, n;
            assert_int_equal(sscanf(e->text, "w%u n%u", &tid, &n), 2);
            assert_true(tid < NWORKERS && n < g_lines[tid]);
            snprintf(want, sizeof want, "w%u n%u x=%d s=%s|%5.1f", tid, n, -(int)n * 7, k_words[n % 4], n / 8.0);
            assert_string_equal(e->text, want);
            assert_int_equal(seen[tid * MAX_LINES + n]++, 0);
        } else if (!strcmp(e->name, "irq")) {
            int raw;
            unsigned long k;
            assert_int_equal(sscanf(e->text, "raw=%d k=%lu", &raw, &k), 2);
            assert_true(k >= 1 && k <= irq_issued);
            snprintf(want, sizeof want, "raw=%d k=%lu h=%#x", raw, k, (unsigned)(k * 2654435761u));
            assert_string_equal(e->text, want);
            assert_int_equal(seen[NWORKERS * MAX_LINES + k]++, 0);
        } else if (!strcmp(e->name, "irqv")) {
            assert_true(e->has & EVT_M_VALUE);
            values++;
            continue;
        } else {
            fail_msg("unexpected user event '%s' text '%s'", e->name, e->text);
        }
        decoded++;
    }
    assert_true(atomic_load(&g_isr_calls) > 0);
    assert_true(decoded > 0);
    /* every line is back or its slots were reported lost (a line takes 1-2 slots) */
    printf("lines issued %lu decoded %lu (handlers %lu), values %lu, slots lost %llu\n", issued, decoded, irq_issued,
           values, (unsigned long long)t.lost);
    assert_true(issued - decoded <= t.lost);
    if (t.lost == 0) assert_int_equal(decoded, issued);
    free(seen);
    free(t.ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_threads_and_signals)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
