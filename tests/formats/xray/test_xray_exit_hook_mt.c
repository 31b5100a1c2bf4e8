/* XRay POSIX runtime: records a thread makes after its exit hook (concurrency label). A thread
 * records from its own thread-specific destructor in every destructor round (it re-arms its key, as
 * POSIX allows), so its last records come after the runtime's exit hook; the next thread reuses
 * its stack, records and stays while the recorder is stopped (before: the thread registered again
 * after its exit hook, nothing unlinked it, the next thread's registration linked the same
 * thread-local entry twice, and stop looped forever). Runs in a forked child the parent kills
 * after 20 s; the stats and the file read back hold every record issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "evt_fork_test.h"
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"

static pthread_key_t g_key;
static atomic_int g_phase, g_done;
static char g_path[512];

#if defined(__SANITIZE_THREAD__)
static const int k_tsan = 1;
#else
static const int k_tsan = 0;
#endif

static void sleep_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL); }

/* Records a pair on every destructor round; re-armed for the next round up to four calls. */
static void destructor(void *v)
{
    uintptr_t n = (uintptr_t)v;
    evt_xray_enter(7);
    evt_xray_exit(7);
    if (n < 4u) (void)pthread_setspecific(g_key, (void *)(n + 1u));
}

static void *exiting(void *arg)
{
    (void)arg;
    evt_xray_enter(1);
    evt_xray_exit(1);
    (void)pthread_setspecific(g_key, (void *)(uintptr_t)1);
    return NULL;
}

static void *staying(void *arg)
{
    (void)arg;
    evt_xray_enter(2);
    evt_xray_exit(2);
    atomic_store(&g_phase, 1);
    while (!atomic_load(&g_done)) sleep_ms(1);
    return NULL;
}

static void child(void)
{
    evt_xray_config c = {4096, 32, 1};
    if (evt_xray_start(&c) != 0) _exit(10);
    evt_xray_enter(9); /* the runtime's key first: the test's destructor runs after its exit hook */
    evt_xray_exit(9);
    if (pthread_key_create(&g_key, destructor) != 0) _exit(11);
    pthread_t t;
    for (int i = 0; i < 3; i++) { /* each on the stack (and thread-local block) of the one before */
        if (pthread_create(&t, NULL, exiting, NULL) != 0) _exit(12);
        pthread_join(t, NULL);
    }
    if (pthread_create(&t, NULL, staying, NULL) != 0) _exit(13);
    while (!atomic_load(&g_phase)) sleep_ms(1);
    if (evt_xray_stop() != 0) _exit(14);
    atomic_store(&g_done, 1);
    pthread_join(t, NULL);
    const uint64_t issued = 2u + 3u * (2u + 4u * 2u) + 2u;
    evt_rec_stats rs;
    evt_xray_get_rec_stats(&rs);
    if (rs.written + rs.dropped != issued) _exit(15);
    if (evt_xray_write_file(g_path) != 0) _exit(16);
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_file(g_path, "xray", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) _exit(17);
    evt_event ev;
    evt_status st;
    uint64_t data = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind != EVT_KIND_LOST) data++;
    if (st != EVT_END || r->errors) _exit(18);
    _exit(data + r->lost == issued ? 0 : 19);
}

static void test_records_after_exit_hook(void **st)
{
    (void)st;
    if (k_tsan) { /* ThreadSanitizer ends a thread before its last destructor round: no record may come there */
        skip();
        return;
    }
    snprintf(g_path, sizeof g_path, "%s/xray_exit_hook.xray", evt_test_tmpdir());
    int r = evt_test_fork_run_for(child, 20);
    if (r != 0) fail_msg("child: %s %d", evt_test_fork_how(r), r & 255);
    remove(g_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_after_exit_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
