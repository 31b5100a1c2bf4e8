/* Threads and signal handlers calling evt_printf through the ETW recorder while the threads also
 * write ETW events of their own through the public API (evt_etw_trace_event on an application
 * provider, after every line), in both slot modes: a handler that lands inside such a record of
 * its thread has its line stashed and written at that record's end (user_nest_enc.c N2, N5:
 * per-CPU slots at the session section's outermost exit, port P4; THREAD_OWNED slots at the
 * slot's record exit, etw_enc.c), so every line comes back (user_signals.h: exact, once, in time
 * order, none lost) and so does every application event, with nothing lost. Before, a handler's
 * line inside a THREAD_OWNED application record was dropped (counted). Concurrency label: also
 * under TSan (there: every missing line or event counted lost). */
#define EVT_CFG_USER_BACKEND etw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdatomic.h>
#include "evt_etw_test.h"
#include "evt_test.h"

static const evt_etw_guid k_app_guid = {0x61707031u, 0x0001, 0x0002, {1, 2, 3, 4, 5, 6, 7, 8}};
static evt_etw_provider g_app;
static atomic_ulong g_app_issued, g_app_ok;

/* The application's own event: (worker, line, ~line) as two MOF fields. */
static void app_record(unsigned w, unsigned n)
{
    uint32_t v[3] = {w, n, ~n};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_app_guid);
    atomic_fetch_add_explicit(&g_app_issued, 1u, memory_order_relaxed);
    if (evt_etw_trace_event(&g_app, &h, mof) == EVT_ETW_SUCCESS)
        atomic_fetch_add_explicit(&g_app_ok, 1u, memory_order_relaxed);
}
#define US_APP_RECORD(w, n) app_record((w), (n))
#include "user_signals.h"

#define FILE_SIZE (96u << 20)
static uint8_t g_file[FILE_SIZE];
static uint64_t g_len;
static _Alignas(8) uint8_t g_mem[8u * (256u << 10)];

static int mem_write(void *user, uint64_t off, const void *data, uint32_t len)
{
    (void)user;
    if (off + len > sizeof g_file) return -1;
    memcpy(g_file + off, data, len);
    if (off + len > g_len) g_len = off + len;
    return 0;
}

static void run_mode(int per_thread, uint32_t buffers)
{
    static evt_etw_session s;
    evt_etw_session_config c;
    memset(&c, 0, sizeof c);
    g_len = 0;
    atomic_store(&us_alrm_k, 0);
    atomic_store(&us_kill_k, 0);
    atomic_store(&g_app_issued, 0);
    atomic_store(&g_app_ok, 0);
    c.buffer_size = 256u << 10;
    c.buffers = buffers;
    c.per_thread = per_thread;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.write = mem_write;
    c.thread_id = evt_etw_posix_thread_id;
    c.process_id = evt_etw_posix_process_id;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, buffers * c.buffer_size), EVT_ETW_SUCCESS);
    evt_etw_register(&g_app, &k_app_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&s, &g_app, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION), EVT_ETW_SUCCESS);
    us_run();
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_etw_stats es;
    evt_etw_session_stats(&s, &es);
    unsigned long issued = atomic_load(&g_app_issued), ok = atomic_load(&g_app_ok);
    printf("etw+app (slots %d): app events %lu issued %lu accepted; events %llu lost %llu, buffers %llu lost %llu\n",
           per_thread, issued, ok, (unsigned long long)es.events, (unsigned long long)es.events_lost,
           (unsigned long long)es.buffers_written, (unsigned long long)es.buffers_lost);
    assert_int_equal(es.buffers_lost, 0);
    ut_trace t;
    assert_int_equal(ut_decode(g_file, (size_t)g_len, "etw", NULL, &t), EVT_END);
    /* the application's events apart (no text), the printf lines to us_check */
    unsigned long app = 0;
    unsigned keep = 0;
    for (unsigned i = 0; i < t.n; i++) {
        if (t.ev[i].has & EVT_M_TEXT) t.ev[keep++] = t.ev[i];
        else app++;
    }
    t.n = keep;
    printf("etw+app (slots %d): app events decoded %lu\n", per_thread, app);
    assert_true(issued > 0);
#if US_TSAN
    assert_true(issued - app <= es.events_lost);
#else
    assert_int_equal(es.events_lost, 0);
    assert_int_equal(ok, issued);
    assert_int_equal(app, issued);
#endif
    us_check(&t);
    free(t.ev);
}

static void test_signals_etw_app_per_cpu(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU, 4u);
}

static void test_signals_etw_app_thread_owned(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED, 8u); /* a slot per worker and handler-only threads */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_etw_app_per_cpu),
                                       cmocka_unit_test(test_signals_etw_app_thread_owned)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
