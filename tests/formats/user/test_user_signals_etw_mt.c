/* Threads and signal handlers calling evt_printf through the ETW recorder (user_signals.h), in two
 * slot modes: per-CPU buffers under the session lock, and THREAD_OWNED slots (no lock): every
 * line back from the .etl, exact, once, in time order, none lost: a handler that lands inside a
 * user record of its own thread (the session's or the slot's nesting guard held) has its record
 * stashed and written right after it (user_nest_enc.c N2-N3, etw_user_enc.c), one that lands in
 * its thread's wait for the session lock waits too (port P3b, N4).
 * The *_app tests also have each worker write an ETW event of its own through the public API
 * (evt_etw_trace_event on an application provider) after every line: a handler that lands inside
 * one has its line stashed and written at that record's end (N5: per-CPU slots at the session
 * section's outermost exit, port P4; THREAD_OWNED slots at the record's own exit, etw_enc.c
 * owned_after_record), and every application event comes back too. Before that, a handler's line
 * inside a THREAD_OWNED application record was dropped (32-38 counted per run). Concurrency label:
 * also under TSan (there: every missing line or event counted lost). */
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
static int g_app_on; /* the *_app tests: workers write events of their own */
static atomic_ulong g_app_issued, g_app_ok;

/* The application's own event: (worker, line, ~line) as two MOF fields. */
static void app_record(unsigned w, unsigned n)
{
    if (!g_app_on) return;
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

static void run_mode(int per_thread, uint32_t buffers, int app)
{
    static evt_etw_session s;
    evt_etw_session_config c;
    evt_etw_test_config(&c, per_thread, 256u << 10, buffers, 0u, mem_write);
    g_len = 0;
    g_app_on = app;
    atomic_store(&us_alrm_k, 0);
    atomic_store(&us_kill_k, 0);
    atomic_store(&g_app_issued, 0);
    atomic_store(&g_app_ok, 0);
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, buffers * c.buffer_size), EVT_ETW_SUCCESS);
    if (app) {
        evt_etw_register(&g_app, &k_app_guid, NULL, NULL);
        assert_int_equal(evt_etw_enable(&s, &g_app, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0),
                         EVT_ETW_SUCCESS);
    }
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION), EVT_ETW_SUCCESS);
    us_run();
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_etw_stats es;
    evt_etw_session_stats(&s, &es);
    unsigned long issued = atomic_load(&g_app_issued), ok = atomic_load(&g_app_ok);
    printf("etw (slots %d%s): events %llu lost %llu, buffers %llu lost %llu; app events %lu issued %lu accepted\n",
           per_thread, app ? ", app events" : "", (unsigned long long)es.events, (unsigned long long)es.events_lost,
           (unsigned long long)es.buffers_written, (unsigned long long)es.buffers_lost, issued, ok);
    assert_int_equal(es.buffers_lost, 0);
    ut_trace t;
    assert_int_equal(ut_decode(g_file, (size_t)g_len, "etw", NULL, &t), EVT_END);
    /* the application's events apart (no text), the printf lines to us_check */
    unsigned long app_back = 0;
    unsigned keep = 0;
    for (unsigned i = 0; i < t.n; i++) {
        if (t.ev[i].has & EVT_M_TEXT) t.ev[keep++] = t.ev[i];
        else app_back++;
    }
    t.n = keep;
    printf("etw (slots %d%s): app events decoded %lu\n", per_thread, app ? ", app events" : "", app_back);
    assert_true(!app || issued > 0);
#if US_TSAN
    assert_true(issued - app_back <= es.events_lost);
#else
    assert_int_equal(es.events_lost, 0);
    assert_int_equal(ok, issued);
    assert_int_equal(app_back, issued);
#endif
    us_check(&t);
    free(t.ev);
}

static void test_signals_etw_per_cpu(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU, 4u, 0);
}

static void test_signals_etw_thread_owned(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED, 8u, 0); /* a slot per worker and handler-only threads */
}

static void test_signals_etw_per_cpu_app(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU, 4u, 1);
}

static void test_signals_etw_thread_owned_app(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED, 8u, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signals_etw_per_cpu), cmocka_unit_test(test_signals_etw_thread_owned),
        cmocka_unit_test(test_signals_etw_per_cpu_app), cmocka_unit_test(test_signals_etw_thread_owned_app)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
