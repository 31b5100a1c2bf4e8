/* Stress test of the XRay recorder with "interrupts" (concurrency label, also under TSan): four
 * threads record enter/exit pairs through the explicit API into a pool of 8 small buffers that
 * rotates thousands of times, while an interrupter sends them signals at random moments; a raw
 * sigaction handler and a port simulated ISR each record a pair (dropped and counted when they land
 * inside a record of their thread). After stop, the file read back holds records plus a lost
 * count that equal the records issued, exactly; each thread's surviving records are in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "evt_irq.h"
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"

#define NWORKERS 4
#define RUN_NS   300000000ull /* each run records for 0.3 s */
#define ISR_FID  0x0FFFFFF0u

static evt_irq g_irq;
static atomic_ulong g_issued;
static atomic_ulong g_isr_calls;

static void isr_body(void)
{
    evt_xray_enter(ISR_FID);
    evt_xray_exit(ISR_FID);
    atomic_fetch_add_explicit(&g_issued, 2u, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_isr_calls, 1u, memory_order_relaxed);
}
static void raw_handler(int signo) { (void)signo; isr_body(); }
static void port_isr(int signo) { (void)signo; isr_body(); }

/* Function ids: worker w, sequence s -> (w + 1) << 22 | s (22 bits, wrapping). */
static void *worker(void *p)
{
    uint32_t w = (uint32_t)(uintptr_t)p, seq = 0;
    uint64_t n = 0, t0 = evt_irq_now_ns();
    /* at least RUN_NS, on until 50 interrupts were taken (evt_irq_keep_recording bounds it) */
    while (evt_irq_keep_recording(t0, RUN_NS, atomic_load(&g_isr_calls), 50u)) {
        for (int k = 0; k < 64; k++, seq = (seq + 1u) & 0x3FFFFFu) {
            evt_xray_enter(((w + 1u) << 22) | seq);
            evt_xray_exit(((w + 1u) << 22) | seq);
            n += 2;
        }
    }
    atomic_fetch_add(&g_issued, n);
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void run_once(int k)
{
    atomic_store(&g_issued, 0);
    atomic_store(&g_isr_calls, 0);
    evt_xray_config cfg = {1024, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    assert_int_equal(evt_irq_install(raw_handler, port_isr), 0);
    evt_irq_init(&g_irq);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    evt_irq_uninstall();
    assert_int_equal(evt_xray_stop(), 0);
    uint64_t issued = atomic_load(&g_issued);

    char path[512];
    snprintf(path, sizeof path, "%s/stress%d.xray", evt_test_tmpdir(), k);
    assert_int_equal(evt_xray_write_file(path), 0);
    evt_rec_stats rs;
    evt_xray_get_rec_stats(&rs);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_file(path, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0, last_seq[NWORKERS + 1] = {0};
    int seen[NWORKERS + 1] = {0};
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind == EVT_KIND_LOST) continue;
        data++;
        uint32_t fid = (uint32_t)ev.args[0];
        if (fid == ISR_FID) continue;
        uint32_t w = fid >> 22, seq = fid & 0x3FFFFFu;
        assert_true(w >= 1 && w <= NWORKERS);
        /* per thread, in order: the same id (enter then exit) or a later one (mod 2^22) */
        if (seen[w]) assert_true(((seq - (uint32_t)last_seq[w]) & 0x3FFFFFu) < 0x200000u);
        seen[w] = 1;
        last_seq[w] = seq;
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    print_message("xray stress: issued %llu, decoded %llu, lost %llu (dropped %llu, overwritten %llu, "
                  "%llu loss records), %lu interrupts\n",
                  (unsigned long long)issued, (unsigned long long)data, (unsigned long long)r->lost,
                  (unsigned long long)rs.dropped, (unsigned long long)rs.overwritten,
                  (unsigned long long)rs.loss_records, atomic_load(&g_isr_calls));
    assert_int_equal(data + r->lost, issued);
    assert_true(evt_xray_buffers_lost() > 0); /* the pool rotated */
    assert_true(atomic_load(&g_isr_calls) > 0u); /* interrupts were taken (50 unless 3 x RUN_NS passed; 1 at least) */
    evt_reader_close(r);
}

static void test_threads_and_signal_isrs(void **st)
{
    (void)st;
    for (int k = 0; k < 3; k++) run_once(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_and_signal_isrs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
