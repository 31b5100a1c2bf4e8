/* ETW calls in progress (the POSIX port's Q4-Q5) at the edges a stop's wait met (concurrency
 * label). Each scenario runs in a forked child the parent kills after 20 s (a hang blocks every
 * signal of the child: an alarm could not end it).
 *  - A thread inside a TraceEvent call takes a signal whose handler stops a second session while
 *    another thread's stop of the first waits for that call: the handler's stop needs the
 *    registry, which the waiting stop held (before: both waited forever).
 *  - A thread records from its own thread-specific destructor in every destructor round (it re-arms
 *    its key, as POSIX allows), so its last call comes after the port's destructor has unlinked it;
 *    the next thread reuses its stack, records and stays while the session is stopped (before: the
 *    thread registered again after its last unlink, the next thread's registration linked the same
 *    thread-local entry twice, and the stop looped forever). The file holds every call issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "evt_etw_test.h"
#include "evt_fork_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"

#define BUF_SIZE 4096u
#define NBUFS 16u

static uint8_t g_file[(1u + NBUFS) * BUF_SIZE];
static _Alignas(8) uint8_t g_mem1[4 * BUF_SIZE], g_mem2[4 * BUF_SIZE];
static evt_etw_session g_s1, g_s2;
static evt_etw_provider g_prov;
static const evt_etw_guid k_guid = {0x7e57ca11u, 0x1, 0x2, {1, 2, 3, 4, 5, 6, 7, 8}};
static atomic_int g_phase;
static atomic_ulong g_issued;

static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1;
    memcpy(g_file + off, p, n);
    return 0;
}
static int sink_none(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user, (void)off, (void)p, (void)n;
    return 0;
}

#if defined(__SANITIZE_THREAD__)
static const int k_tsan = 1;
#else
static const int k_tsan = 0;
#endif

static void sleep_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

/* One TraceEvent; SUCCESS or a drop code counts as issued. */
static void emit(void)
{
    uint32_t v[3] = {1, 2, 3};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    uint32_t rc = evt_etw_trace_event(&g_prov, &h, mof);
    if (rc == EVT_ETW_SUCCESS || rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY || rc == EVT_ETW_ERROR_MORE_DATA)
        atomic_fetch_add(&g_issued, 1u);
}

static void start(evt_etw_session *s, uint8_t *mem, uint32_t size, int (*write)(void *, uint64_t, const void *, uint32_t),
                  uint32_t (*tid)(void))
{
    evt_etw_session_config c;
    evt_etw_test_config(&c, EVT_ETW_SLOTS_DEFAULT, BUF_SIZE, 4, 0, write);
    if (tid) c.thread_id = tid;
    if (evt_etw_session_start(s, &c, mem, size) != EVT_ETW_SUCCESS) _exit(10);
}

/* ---- a stop in a handler that interrupted a call, while another stop waits for that call ------- */

/* The thread id hook runs inside the recording thread's call (after the session was loaded): the
 * armed call tells the main thread to stop session 1, lets that stop reach its wait for this
 * call, then raises the signal whose handler stops session 2. */
static uint32_t tid_in_call(void)
{
    int armed = 1;
    if (atomic_compare_exchange_strong(&g_phase, &armed, 2)) {
        sleep_ms(200);
        raise(SIGUSR1);
    }
    return evt_etw_posix_thread_id();
}

static void stop_s2(int signo)
{
    (void)signo;
    if (evt_etw_session_stop(&g_s2) == EVT_ETW_SUCCESS) atomic_store(&g_phase, 3);
}

static void *recorder(void *arg)
{
    (void)arg;
    emit(); /* registered, slot claimed */
    atomic_store(&g_phase, 1);
    emit(); /* the armed call */
    return NULL;
}

static void child_handler_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_s2;
    sigaction(SIGUSR1, &sa, NULL);
    start(&g_s1, g_mem1, sizeof g_mem1, sink_none, tid_in_call);
    start(&g_s2, g_mem2, sizeof g_mem2, sink_none, NULL);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    if (evt_etw_enable(&g_s1, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0) != EVT_ETW_SUCCESS) _exit(11);
    pthread_t t;
    if (pthread_create(&t, NULL, recorder, NULL) != 0) _exit(12);
    while (atomic_load(&g_phase) != 2) sleep_ms(1);
    if (evt_etw_session_stop(&g_s1) != EVT_ETW_SUCCESS) _exit(13);
    pthread_join(t, NULL);
    _exit(atomic_load(&g_phase) == 3 ? 0 : 14); /* the handler's stop succeeded */
}

static void test_stop_in_handler_while_stop_waits(void **st)
{
    (void)st;
    int r = evt_test_fork_run_for(child_handler_stop, 20);
    if (r != 0) fail_msg("child: %s %d", evt_test_fork_how(r), r & 255);
}

/* ---- calls after the port's thread-exit destructor ------------------------------------------- */

static pthread_key_t g_key;
static atomic_int g_done;

/* Records on every destructor round; re-armed for the next round up to four calls. */
static void destructor(void *v)
{
    uintptr_t n = (uintptr_t)v;
    emit();
    if (n < 4u) (void)pthread_setspecific(g_key, (void *)(n + 1u));
}

static void *exiting(void *arg)
{
    (void)arg;
    emit();
    (void)pthread_setspecific(g_key, (void *)(uintptr_t)1);
    return NULL;
}

static void *staying(void *arg)
{
    (void)arg;
    emit();
    atomic_store(&g_phase, 1);
    while (!atomic_load(&g_done)) sleep_ms(1);
    return NULL;
}

static void child_after_exit(void)
{
    if (pthread_key_create(&g_key, destructor) != 0) _exit(20); /* after the port's key: its destructor runs after */
    start(&g_s1, g_mem1, sizeof g_mem1, sink, NULL);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    if (evt_etw_enable(&g_s1, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0) != EVT_ETW_SUCCESS) _exit(21);
    pthread_t t;
    for (int i = 0; i < 3; i++) { /* each on the stack (and thread-local block) of the one before */
        if (pthread_create(&t, NULL, exiting, NULL) != 0) _exit(22);
        pthread_join(t, NULL);
    }
    if (pthread_create(&t, NULL, staying, NULL) != 0) _exit(23);
    while (!atomic_load(&g_phase)) sleep_ms(1);
    if (evt_etw_session_stop(&g_s1) != EVT_ETW_SUCCESS) _exit(24);
    atomic_store(&g_done, 1);
    pthread_join(t, NULL);
    evt_etw_stats es;
    evt_etw_session_stats(&g_s1, &es);
    size_t len = (size_t)(es.buffers_written < 1u + NBUFS ? es.buffers_written : 1u + NBUFS) * BUF_SIZE;
    char err[256];
    evt_reader *r = NULL;
    if (evt_reader_open_mem(g_file, len, "etw", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) _exit(25);
    evt_event ev;
    evt_status s;
    uint64_t data = 0;
    while ((s = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind == EVT_KIND_USER) data++;
    if (s != EVT_END || r->errors) _exit(26);
    uint64_t total = data + r->lost;
    evt_reader_close(r);
    /* 3 threads x (1 + 4 destructor calls) + 1 */
    _exit(atomic_load(&g_issued) == 16u && total == 16u ? 0 : 27);
}

static void test_calls_after_exit_destructor(void **st)
{
    (void)st;
    if (k_tsan) { /* ThreadSanitizer ends a thread before its last destructor round: no call may come there */
        skip();
        return;
    }
    int r = evt_test_fork_run_for(child_after_exit, 20);
    if (r != 0) fail_msg("child: %s %d", evt_test_fork_how(r), r & 255);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_in_handler_while_stop_waits),
        cmocka_unit_test(test_calls_after_exit_destructor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
