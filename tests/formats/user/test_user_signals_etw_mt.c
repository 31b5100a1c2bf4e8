/* Threads and signal handlers calling evt_printf through the ETW recorder (user_signals.h), in two
 * slot modes: per-CPU buffers under the session lock, and THREAD_OWNED slots (no lock): every
 * line back from the .etl, exact, once, in time order, none lost: a handler that lands inside a
 * user record of its own thread (the session's or the slot's nesting guard held) has its record
 * stashed and written right after it (user_nest_enc.c N2-N3, etw_user_enc.c), one that lands in
 * its thread's wait for the session lock waits too (port P3b, N4). Concurrency label: also under
 * TSan. */
#define EVT_CFG_USER_BACKEND etw
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_test.h"
#include "user_signals.h"

#define FILE_SIZE (64u << 20)
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
    c.buffer_size = 256u << 10;
    c.buffers = buffers;
    c.per_thread = per_thread;
    c.log_file_mode = ETW_FILE_MODE_SEQUENTIAL;
    c.write = mem_write;
    c.thread_id = evt_etw_posix_thread_id;
    c.process_id = evt_etw_posix_process_id;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, buffers * c.buffer_size), EVT_ETW_SUCCESS);
    assert_int_equal(evt_etw_user_attach(&s, ETW_LEVEL_INFORMATION), EVT_ETW_SUCCESS);
    us_run();
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_etw_stats es;
    evt_etw_session_stats(&s, &es);
    printf("etw (slots %d): events %llu lost %llu, buffers %llu lost %llu\n", per_thread,
           (unsigned long long)es.events, (unsigned long long)es.events_lost, (unsigned long long)es.buffers_written,
           (unsigned long long)es.buffers_lost);
    assert_int_equal(es.buffers_lost, 0);
#if !US_TSAN
    assert_int_equal(es.events_lost, 0);
#endif
    ut_trace t;
    assert_int_equal(ut_decode(g_file, (size_t)g_len, "etw", NULL, &t), EVT_END);
    us_check(&t);
    free(t.ev);
}

static void test_signals_etw_per_cpu(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_PER_CPU, 4u);
}

static void test_signals_etw_thread_owned(void **st)
{
    (void)st;
    run_mode(EVT_ETW_SLOTS_THREAD_OWNED, 8u); /* a slot per worker and handler-only threads */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_signals_etw_per_cpu),
                                       cmocka_unit_test(test_signals_etw_thread_owned)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
