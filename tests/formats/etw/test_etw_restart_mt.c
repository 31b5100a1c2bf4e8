/* ETW: one session object stopped and started again, over and over, while threads and their signal
 * "interrupts" keep calling TraceEvent on its provider and another thread keeps flushing it
 * (concurrency label, also under TSan). A call that loaded the session before a stop may still be
 * running when the stop's caller starts the same object again: stop waits for such calls
 * (evt_port_calls_quiesce), so start never re-initialises memory a call is reading (TSan: no race)
 * and no call writes into the new session with the old one's state. Every call is classified by
 * its return code; over all rounds, the records read back from each round's file plus the losses
 * they report equal the calls that returned SUCCESS or a drop code, exactly. Per-CPU slots under
 * the session lock, THREAD_OWNED slots (with threads detaching) and the POSIX default. Another
 * thread keeps enabling the provider on the session (enabler), one more evaluates its filter. */
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

#define NWORKERS 3
#define BUF_SIZE 4096u
#define NBUFS    8u  /* sequential file of the header and up to this many data buffers */
#define ROUNDS   40

static uint8_t g_file[(1u + NBUFS) * BUF_SIZE];
static _Alignas(8) uint8_t g_mem[(NWORKERS + 1) * BUF_SIZE];
static evt_etw_session g_s; /* the one session object, started ROUNDS times */
static evt_etw_provider g_prov;
static evt_irq g_irq;
static atomic_int g_run;
static atomic_ulong g_issued;  /* returned SUCCESS or a drop code */
static atomic_ulong g_refused; /* returned INVALID_HANDLE (no session, or stopped) */
static const evt_etw_guid k_guid = {0x7e57a47u, 0x5, 0x6, {1, 2, 3, 4, 5, 6, 7, 8}};

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1; /* the file is full: the session counts the loss */
    memcpy(g_file + off, p, n);
    return 0;
}

/* One TraceEvent, classified by its return code. */
static void emit(uint32_t tag, uint32_t seq)
{
    uint32_t v[3] = {tag, seq, ~seq};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    uint32_t rc = evt_etw_trace_event(&g_prov, &h, mof);
    if (rc == EVT_ETW_ERROR_INVALID_HANDLE) {
        atomic_fetch_add_explicit(&g_refused, 1u, memory_order_relaxed);
        return;
    }
    if (rc != EVT_ETW_SUCCESS && rc != EVT_ETW_ERROR_NOT_ENOUGH_MEMORY && rc != EVT_ETW_ERROR_MORE_DATA)
        fail_msg("TraceEvent returned %u", rc);
    atomic_fetch_add_explicit(&g_issued, 1u, memory_order_relaxed);
}

static void isr(int signo)
{
    (void)signo;
    emit(0xA5A5A5A5u, 1);
}

/* Records until the main thread is done; every 4096 calls gives its THREAD_OWNED slot back (a
 * call on a session in another mode, or stopped, is refused: no effect). */
static void *worker(void *p)
{
    uint32_t tag = (uint32_t)(uintptr_t)p, seq = 0;
    while (atomic_load_explicit(&g_run, memory_order_relaxed)) {
        emit(tag, seq++);
        if ((seq & 4095u) == 0) (void)evt_etw_thread_detach(&g_s);
    }
    evt_irq_target_done(&g_irq);
    return NULL;
}

/* Enables the provider on the session again and again (the same level; keyword masks that pass
 * every call: the records stay those of emit), refused while it is stopped. An enable is bracketed
 * as the calls are: before 3 Dec 2026 one that raced a stop and the next start held the lock that
 * start re-initialised (TSan: a race in every run; then a stop could fail, and a session stay
 * running). It also rewrites the masks that kw_reader reads without the lock (relaxed). */
#define KW 0x10u
static void *enabler(void *p)
{
    (void)p;
    uint64_t n = 0;
    while (atomic_load_explicit(&g_run, memory_order_relaxed)) {
        uint32_t rc = evt_etw_enable(&g_s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, KW | (n++ & 1u) << 8, 0);
        if (rc != EVT_ETW_SUCCESS && rc != EVT_ETW_ERROR_INVALID_HANDLE) fail_msg("enable returned %u", rc);
    }
    return NULL;
}
/* ETW's filter rule on the provider (its masks read inline) while enabler rewrites them. */
static void *kw_reader(void *p)
{
    (void)p;
    while (atomic_load_explicit(&g_run, memory_order_relaxed)) (void)evt_etw_event_enabled(&g_prov, ETW_LEVEL_INFORMATION, KW);
    return NULL;
}

/* Flushes the session while it runs (refused while it is stopped). */
static void *flusher(void *p)
{
    (void)p;
    struct timespec ts = {0, 50000};
    while (atomic_load_explicit(&g_run, memory_order_relaxed)) {
        (void)evt_etw_session_flush(&g_s);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void diag(void *user, uint64_t off, const char *msg)
{
    (void)user;
    print_message("etw restart: reader error at offset %llu: %s\n", (unsigned long long)off, msg);
}

/* One round: start the object, enable the provider, let the calls run, stop; the records and
 * losses its file holds (and the session's own account, which must agree). */
static void one_round(int mode, int k, uint64_t *file_total, uint64_t *account_total)
{
    memset(g_file, 0, sizeof g_file);
    evt_etw_session_config c;
    evt_etw_test_config(&c, mode, BUF_SIZE, NWORKERS + 1, 0, sink);
    assert_int_equal(evt_etw_session_start(&g_s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    assert_int_equal(evt_etw_enable(&g_s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0),
                     EVT_ETW_SUCCESS);
    struct timespec ts = {0, 200000L + 50000L * (k % 8)};
    nanosleep(&ts, NULL);
    assert_int_equal(evt_etw_session_stop(&g_s), EVT_ETW_SUCCESS);
    evt_rec_stats rs;
    evt_etw_get_rec_stats(&g_s, &rs);
    evt_etw_stats es;
    evt_etw_session_stats(&g_s, &es);
    size_t len = (size_t)(es.buffers_written < 1u + NBUFS ? es.buffers_written : 1u + NBUFS) * BUF_SIZE;
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
    assert_int_equal(data + r->lost, rs.written + rs.dropped); /* the file agrees with the account */
    *file_total += data + r->lost;
    *account_total += rs.written + rs.dropped;
    evt_reader_close(r);
}

static void run_mode(int mode)
{
    atomic_store(&g_issued, 0);
    atomic_store(&g_refused, 0);
    atomic_store(&g_run, 1);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    assert_int_equal(evt_irq_install(isr, isr), 0);
    evt_irq_init(&g_irq);
    pthread_t ws[NWORKERS], fl, en, kw;
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, worker, (void *)i), 0);
    assert_int_equal(pthread_create(&fl, NULL, flusher, NULL), 0);
    assert_int_equal(pthread_create(&en, NULL, enabler, NULL), 0);
    assert_int_equal(pthread_create(&kw, NULL, kw_reader, NULL), 0);
    assert_int_equal(evt_irq_start(&g_irq, ws, NWORKERS), 0);
    uint64_t file_total = 0, account_total = 0;
    for (int k = 0; k < ROUNDS; k++) one_round(mode, k, &file_total, &account_total);
    atomic_store(&g_run, 0);
    evt_irq_join(&g_irq);
    for (int i = 0; i < NWORKERS; i++) pthread_join(ws[i], NULL);
    pthread_join(fl, NULL);
    pthread_join(en, NULL);
    pthread_join(kw, NULL);
    evt_irq_uninstall();
    uint64_t issued = atomic_load(&g_issued);
    print_message("etw restart, mode %d: %d rounds, issued %llu = read + lost %llu, refused %lu\n", mode, ROUNDS,
                  (unsigned long long)issued, (unsigned long long)file_total, atomic_load(&g_refused));
    assert_int_equal(account_total, issued);
    assert_int_equal(file_total, issued);
    assert_true(issued > 0);
}

static void test_restart_per_cpu(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU);
}

static void test_restart_thread_owned(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED);
}

static void test_restart_default(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_DEFAULT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restart_default),
        cmocka_unit_test(test_restart_per_cpu),
        cmocka_unit_test(test_restart_thread_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
