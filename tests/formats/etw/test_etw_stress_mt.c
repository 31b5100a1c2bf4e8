/* Stress test of the ETW recorder with "interrupts" (concurrency label, also under TSan): four
 * threads write TraceEvents into one session (per-thread buffers, a circular file of 6 buffers
 * that wraps hundreds of times) while an interrupter sends them signals at random moments; a raw
 * sigaction handler (may land inside the session's section: dropped and counted) and a port
 * simulated ISR (held off until the section ends) each write 2 events. After stop, the reader's
 * events plus its lost count equal the events issued, exactly; no record is torn; nothing hangs.
 * Run with per-thread slots under the session lock, with THREAD_OWNED slots (no lock per event) and
 * in the default mode (a zero per_thread: THREAD_OWNED with NWORKERS - 1 slots to claim and the
 * last one shared under the lock, so one worker at least records there). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "evt_irq.h"
#include "evt_etw_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"
#include "formats/common/bytes.h"

#define NWORKERS 4
#define RUN_NS   300000000ull /* each run records for 0.3 s */
#define BUF_SIZE 4096u
#define RING     6u           /* data buffers in the circular file */
#define ISR_TAG  0xA5A5A5A5u

static uint8_t g_file[(1u + RING) * BUF_SIZE];
static _Alignas(8) uint8_t g_mem[NWORKERS * BUF_SIZE + RING * 2 * sizeof(evt_rec_count)];
static evt_etw_provider g_prov;
static evt_irq g_irq;
static atomic_ulong g_issued;
static atomic_ulong g_isr_calls;
static const evt_etw_guid k_guid = {0x5eedf00du, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};

/* Called inside the session's section: the file needs no lock of its own. */
static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1;
    memcpy(g_file + off, p, n);
    return 0;
}

/* One event: (tag, seq, ~seq) so a torn or spliced record shows. */
static void emit(uint32_t tag, uint32_t seq)
{
    uint32_t v[3] = {tag, seq, ~seq};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    (void)evt_etw_write(&g_prov, 0, &h, mof); /* dropped or written: issued either way */
}

static void isr_body(void)
{
    emit(ISR_TAG, 1);
    emit(ISR_TAG, 2);
    atomic_fetch_add_explicit(&g_issued, 2u, memory_order_relaxed);
    atomic_fetch_add_explicit(&g_isr_calls, 1u, memory_order_relaxed);
}
static void raw_handler(int signo) { (void)signo; isr_body(); }
static void port_isr(int signo) { (void)signo; isr_body(); }

static void *worker(void *p)
{
    uint32_t tag = (uint32_t)(uintptr_t)p, seq = 0;
    uint64_t t0 = evt_irq_now_ns();
    /* at least RUN_NS, on until 50 interrupts were taken (evt_irq_keep_recording bounds it) */
    while (evt_irq_keep_recording(t0, RUN_NS, atomic_load(&g_isr_calls), 50u))
        for (int k = 0; k < 64; k++) emit(tag, seq++);
    atomic_fetch_add(&g_issued, seq);
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void run_once(int per_thread)
{
    atomic_store(&g_issued, 0);
    atomic_store(&g_isr_calls, 0);
    memset(g_file, 0, sizeof g_file);
    evt_etw_session_config c;
    evt_etw_test_config(&c, per_thread, BUF_SIZE, NWORKERS, 1u + RING, sink);
    if (per_thread == EVT_ETW_SLOTS_DEFAULT) c.sync_writers = NULL; /* the default fills it in */
    evt_etw_session s;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
    assert_int_equal(evt_irq_install(raw_handler, port_isr), 0);
    evt_irq_init(&g_irq);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    evt_irq_uninstall();
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);

    uint64_t issued = atomic_load(&g_issued);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    assert_int_equal(rs.written + rs.dropped, issued);

    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_file, sizeof g_file, "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0, shared = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (ev.kind != EVT_KIND_USER) continue;
        data++;
        shared += ev.cpu == NWORKERS - 1u; /* default mode: the shared slot's stream */
        assert_int_equal(ev.data_len, 12); /* no torn record */
        uint32_t tag = evt_ld_u32le(ev.data), seq = evt_ld_u32le(ev.data + 4);
        assert_true(tag < NWORKERS || tag == ISR_TAG);
        assert_int_equal(evt_ld_u32le(ev.data + 8), ~seq);
    }
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    print_message("etw stress: issued %llu, decoded %llu, lost %llu (dropped %llu, overwritten %llu), %lu interrupts\n",
                  (unsigned long long)issued, (unsigned long long)data, (unsigned long long)r->lost,
                  (unsigned long long)rs.dropped, (unsigned long long)rs.overwritten, atomic_load(&g_isr_calls));
    assert_int_equal(data + r->lost, issued);
    if (per_thread == EVT_ETW_SLOTS_DEFAULT) {
        print_message("etw stress, default slots: %llu events decoded from the shared slot\n", (unsigned long long)shared);
        assert_true(shared > 0); /* 4 workers, 3 slots to claim: one wrote into the shared slot */
        assert_int_equal(evt_etw_thread_detach(&s), EVT_ETW_ERROR_INVALID_HANDLE); /* stopped */
    }
    assert_true(rs.overwritten > 0); /* the circular file wrapped */
    assert_true(atomic_load(&g_isr_calls) > 0u); /* interrupts were taken (50 unless 3 x RUN_NS passed; 1 at least) */
    evt_reader_close(r);
}

static void test_threads_and_signal_isrs(void **st)
{
    (void)st;
    for (int k = 0; k < 3; k++) run_once(EVT_ETW_SLOTS_PER_THREAD);
}

/* The same with THREAD_OWNED slots: no lock per event, each handler drops (mid-record) or writes
 * into its thread's slot. */
static void test_thread_owned_slots_and_signal_isrs(void **st)
{
    (void)st;
    for (int k = 0; k < 3; k++) run_once(EVT_ETW_SLOTS_THREAD_OWNED);
}

/* The default mode (zero per_thread): THREAD_OWNED slots for three workers, the shared slot under
 * the lock for the fourth. */
static void test_default_slots_and_signal_isrs(void **st)
{
    (void)st;
    for (int k = 0; k < 3; k++) run_once(EVT_ETW_SLOTS_DEFAULT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_slots_and_signal_isrs),
        cmocka_unit_test(test_threads_and_signal_isrs),
        cmocka_unit_test(test_thread_owned_slots_and_signal_isrs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
