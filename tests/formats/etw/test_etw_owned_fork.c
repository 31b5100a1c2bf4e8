/* ETW THREAD_OWNED sessions and fork (P5 in src/ports/posix/evt_port_impl.h): a fork child has only
 * the forking thread, and a slot whose owner was inside a record at the fork keeps its `active`
 * flag set there forever. Stop waits for records in flight; in a fork child that wait is bounded
 * (evt_port_wait_bounded), so the child can record and stop. Before, 1 child in about 20 hung in
 * stop. The workers write 1 KiB events, so that a fork usually lands inside a record. Each child
 * has a 20 s alarm: a hang fails the test instead of stalling it. Not in the concurrency label:
 * TSan does not support fork in a multithreaded program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include "evt_etw_test.h"
#include "evt_fork_test.h"
#include "evtrace/etw.h"

#define BUF_SIZE (1u << 20) /* a buffer write (session lock) every ~970 records */
#define NSLOTS 4u
#define FORKS 40

static const evt_etw_guid k_guid = {0x0badf00du, 0x33, 0x44, {8, 7, 6, 5, 4, 3, 2, 1}};
static evt_etw_session g_s;
static evt_etw_provider g_p;
static uint8_t g_mem[NSLOTS * BUF_SIZE];
static uint8_t g_payload[1024];
static atomic_int g_stop;

/* The file: written buffers are counted, not kept (the test is about the child finishing). */
static int discard(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user, (void)off, (void)p, (void)n;
    return 0;
}

static uint32_t emit(uint32_t len)
{
    evt_etw_mof_field mof[1] = {{g_payload, len, 0}};
    evt_etw_trace_header h;
    memset(&h, 0, sizeof h);
    h.size = 48 + 16;
    h.type = 11;
    h.level = 4;
    h.guid = k_guid;
    h.flags = ETW_WNODE_FLAG_TRACED_GUID | ETW_WNODE_FLAG_USE_MOF_PTR;
    return evt_etw_trace_event(&g_p, &h, mof);
}

static void *worker(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_stop)) (void)emit(sizeof g_payload);
    return NULL;
}

/* The child: its own records (a fresh slot: its thread id is new), stop, the stats; exit 0 if it
 * got there with every record written, 5 if stop refused because a vanished thread held the
 * session's lock at the fork (P5: the session is unusable there, but nothing waits forever). */
static void child(void)
{
    alarm(20);
    for (uint32_t i = 0; i < 100u; i++)
        if (emit(16) != EVT_ETW_SUCCESS) _exit(2);
    uint32_t rc = evt_etw_session_stop(&g_s);
    if (rc != EVT_ETW_SUCCESS) _exit(rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY ? 5 : 3);
    evt_etw_stats st;
    evt_etw_session_stats(&g_s, &st);
    if (st.events < 100u) _exit(4);
    _exit(0);
}

static void test_fork_while_recording_owned(void **st)
{
    (void)st;
    evt_etw_session_config c;
    evt_etw_test_config(&c, EVT_ETW_SLOTS_THREAD_OWNED, BUF_SIZE, NSLOTS, 0, discard);
    assert_int_equal(evt_etw_session_start(&g_s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_register(&g_p, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&g_s, &g_p, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
    pthread_t t[2];
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, worker, NULL), 0);
    int done = 0, stopped = 0;
    for (int k = 0; k < FORKS; k++) {
        int rc = evt_test_fork_run(child);
        if (rc == 5) { done++; continue; }
        if (rc != 0) {
            atomic_store(&g_stop, 1);
            for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
            fail_msg("fork child %d: %s %d", k, evt_test_fork_how(rc), rc & 255);
        }
        done++;
        stopped++;
    }
    atomic_store(&g_stop, 1);
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(done, FORKS);
    print_message("etw owned fork: %d of %d children stopped the session, the rest found its lock held by a vanished thread\n", stopped, FORKS);
    assert_true(stopped >= FORKS / 2);
    assert_int_equal(evt_etw_session_stop(&g_s), EVT_ETW_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fork_while_recording_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
