/* ETW: stop while threads and their signal "interrupts" keep recording (concurrency label, also
 * under TSan). A TraceEvent that races the stop is either written, or dropped and counted before
 * the stop's last loss record, or not issued at all (INVALID_HANDLE, as a call after stop); never
 * counted as dropped once the file is final. Each call is classified by its return code, and the
 * file read back must hold, exactly: data records + lost == calls that returned SUCCESS or a drop
 * code; the session's own account (written + dropped) agrees. Per-CPU and per-thread slots under
 * the session lock, and THREAD_OWNED slots; a small circular file that wraps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_etw_test.h"
#include "evt_irq.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"

#define NWORKERS 4
#define BUF_SIZE 4096u
#define RING     4u /* data buffers in the circular file */
#define ROUNDS   30
#define AFTER    200u /* calls each worker makes after it first sees INVALID_HANDLE */

static uint8_t g_file[(1u + RING) * BUF_SIZE];
static _Alignas(8) uint8_t g_mem[NWORKERS * BUF_SIZE + RING * 2 * sizeof(evt_rec_count)]; /* + the circular file's counts */
static evt_etw_provider g_prov;
static evt_irq g_irq;
static atomic_ulong g_issued;   /* returned SUCCESS or a drop code */
static atomic_ulong g_refused;  /* returned INVALID_HANDLE */
static const evt_etw_guid k_guid = {0x51a7e5aau, 0x3, 0x4, {8, 7, 6, 5, 4, 3, 2, 1}};

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1;
    memcpy(g_file + off, p, n);
    return 0;
}

/* One TraceEvent, classified: 1 issued (written or dropped), 0 not issued (stopped). */
static int emit(uint32_t tag, uint32_t seq)
{
    uint32_t v[3] = {tag, seq, ~seq};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    uint32_t rc = evt_etw_trace_event(&g_prov, &h, mof);
    if (rc == EVT_ETW_ERROR_INVALID_HANDLE) {
        atomic_fetch_add_explicit(&g_refused, 1u, memory_order_relaxed);
        return 0;
    }
    if (rc != EVT_ETW_SUCCESS && rc != EVT_ETW_ERROR_NOT_ENOUGH_MEMORY) fail_msg("TraceEvent returned %u", rc);
    atomic_fetch_add_explicit(&g_issued, 1u, memory_order_relaxed);
    return 1;
}

static void isr(int signo)
{
    (void)signo;
    emit(0xA5A5A5A5u, 1);
    emit(0xA5A5A5A5u, 2);
}

/* Records until it has seen the stop AFTER times (so calls keep racing the stop's every step). */
static void *worker(void *p)
{
    uint32_t tag = (uint32_t)(uintptr_t)p, seq = 0, refused = 0;
    while (refused < AFTER)
        if (!emit(tag, seq++)) refused++;
    evt_irq_target_done(&g_irq);
    return NULL;
}

static void diag(void *user, uint64_t off, const char *msg)
{
    (void)user;
    print_message("etw stop race: reader error at offset %llu: %s\n", (unsigned long long)off, msg);
}

static void sleep_us(long us)
{
    struct timespec ts = {0, us * 1000L};
    nanosleep(&ts, NULL);
}

static void round_once(int mode, int k)
{
    atomic_store(&g_issued, 0);
    atomic_store(&g_refused, 0);
    memset(g_file, 0, sizeof g_file);
    evt_etw_session_config c;
    evt_etw_test_config(&c, mode, BUF_SIZE, NWORKERS, 1u + RING, sink);
    evt_etw_session s;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
    evt_irq_init(&g_irq);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    sleep_us(1000 + 400 * (k % 10)); /* stop at varying points of the workers' records */
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);

    uint64_t issued = atomic_load(&g_issued);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&s, &rs);
    evt_etw_stats es;
    evt_etw_session_stats(&s, &es);
    /* The file so far: an early stop may leave ring positions never written. */
    size_t len = (size_t)(es.buffers_written < 1u + RING ? es.buffers_written : 1u + RING) * BUF_SIZE;
    char err[256];
    evt_reader *r = NULL;
    assert_int_equal(evt_reader_open_mem(g_file, len, "etw", NULL, diag, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind == EVT_KIND_USER) data++;
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    if (data + r->lost != issued || rs.written + rs.dropped != issued)
        print_message("etw stop race, mode %d round %d: issued %llu, decoded %llu + lost %llu, session written "
                      "%llu + dropped %llu, refused %lu\n",
                      mode, k, (unsigned long long)issued, (unsigned long long)data, (unsigned long long)r->lost,
                      (unsigned long long)rs.written, (unsigned long long)rs.dropped, atomic_load(&g_refused));
    assert_int_equal(rs.written + rs.dropped, issued); /* a refused call is not counted */
    assert_int_equal(data + r->lost, issued);
    assert_true(atomic_load(&g_refused) >= (unsigned long)NWORKERS * AFTER);
    evt_reader_close(r);
}

static void run_mode(int mode)
{
    assert_int_equal(evt_irq_install(isr, isr), 0);
    for (int k = 0; k < ROUNDS; k++) round_once(mode, k);
    evt_irq_uninstall();
}

static void test_stop_race_per_cpu(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU);
}

static void test_stop_race_per_thread(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_THREAD);
}

static void test_stop_race_thread_owned(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED);
}

static void test_stop_race_default(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_DEFAULT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_race_default),
        cmocka_unit_test(test_stop_race_per_cpu),
        cmocka_unit_test(test_stop_race_per_thread),
        cmocka_unit_test(test_stop_race_thread_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
