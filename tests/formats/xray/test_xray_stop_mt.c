/* XRay POSIX runtime: stop while threads record (concurrency label, also under TSan/ASan).
 *  - a record in flight when stop is called (held inside the record by the test hook) completes
 *    before stop returns: it is in the file and in the stats, and the restart that follows (which
 *    frees the old pool) is not written into by it (before: stop returned at once, the record
 *    landed after the file was written, and a restart made it a heap use-after-free);
 *  - buffers still held by live threads (and the main thread) at stop count as written: after stop
 *    written + dropped == issued (before: written counted only buffers of exited threads, 0 here);
 *  - start/stop/write cycles while four threads keep recording, with signal handlers that record:
 *    every file read back holds data records + lost == written + dropped of that session. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "evt_test.h"
#include "evt_port_test.h"
#include "evt_reader_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"

/* Data records and lost count of the file at path (read without errors). */
static void read_back(const char *path, uint64_t *data, uint64_t *lost)
{
    uint64_t errors;
    evt_test_count_file(path, "xray", data, lost, &errors);
    assert_int_equal(errors, 0);
}

static void sleep_ms(long ms)
{
    struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}

/* ---- a record held in flight across stop ------------------------------------------------------ */

static pthread_t g_slow_thread;
static atomic_int g_go, g_in_hook, g_hook_done;

static void hold_in_record(void)
{
    if (!pthread_equal(pthread_self(), g_slow_thread)) return;
    atomic_store(&g_in_hook, 1);
    sleep_ms(100); /* stop is called meanwhile */
    atomic_store(&g_hook_done, 1);
}

static void *slow_recorder(void *arg)
{
    (void)arg;
    while (!atomic_load(&g_go)) sleep_ms(1);
    evt_xray_enter(7); /* held inside by the hook */
    return NULL;
}

static void test_stop_waits_for_record_in_flight(void **st)
{
    (void)st;
    evt_xray_config cfg = {1024, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    atomic_store(&g_go, 0);
    atomic_store(&g_in_hook, 0);
    atomic_store(&g_hook_done, 0);
    assert_int_equal(pthread_create(&g_slow_thread, NULL, slow_recorder, NULL), 0);
    evt_xray_test_in_record_hook = hold_in_record;
    atomic_store(&g_go, 1);
    while (!atomic_load(&g_in_hook)) sleep_ms(1);
    assert_int_equal(evt_xray_stop(), 0);
    assert_int_equal(atomic_load(&g_hook_done), 1); /* stop waited for the record */
    evt_rec_stats rs;
    evt_xray_get_rec_stats(&rs);
    assert_int_equal(rs.written, 1);
    assert_int_equal(rs.dropped, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/stop_in_flight.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    uint64_t data, lost;
    read_back(path, &data, &lost);
    assert_int_equal(data, 1);
    assert_int_equal(lost, 0);
    /* restart (frees the old pool) while the thread is still alive, then let it exit */
    assert_int_equal(evt_xray_start(&cfg), 0);
    assert_int_equal(pthread_join(g_slow_thread, NULL), 0);
    evt_xray_test_in_record_hook = NULL;
    assert_int_equal(evt_xray_stop(), 0);
}

/* ---- buffers held by live threads at stop -------------------------------------------------------- */

static atomic_int g_recorded, g_go_home;

static void *live_recorder(void *arg)
{
    (void)arg;
    for (uint32_t i = 1; i <= 50; i++) {
        evt_xray_enter(i);
        evt_xray_exit(i);
    }
    atomic_store(&g_recorded, 1);
    while (!atomic_load(&g_go_home)) sleep_ms(1); /* alive, holding its buffer, until after stop */
    return NULL;
}

static void test_stop_counts_held_buffers(void **st)
{
    (void)st;
    evt_xray_config cfg = {4096, 8, 1};
    assert_int_equal(evt_xray_start(&cfg), 0);
    atomic_store(&g_recorded, 0);
    atomic_store(&g_go_home, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, live_recorder, NULL), 0);
    for (uint32_t i = 1; i <= 10; i++) {
        evt_xray_enter(i);
        evt_xray_exit(i);
    }
    while (!atomic_load(&g_recorded)) sleep_ms(1);
    assert_int_equal(evt_xray_stop(), 0);
    evt_rec_stats rs;
    evt_xray_get_rec_stats(&rs);
    assert_int_equal(rs.written, 120); /* 100 of the live thread + 20 of this one */
    assert_int_equal(rs.dropped, 0);
    assert_int_equal(rs.pending, 0);
    char path[512];
    snprintf(path, sizeof path, "%s/stop_held.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    uint64_t data, lost;
    read_back(path, &data, &lost);
    assert_int_equal(data, 120);
    assert_int_equal(lost, 0);
    atomic_store(&g_go_home, 1);
    assert_int_equal(pthread_join(t, NULL), 0); /* exits after stop: its buffer is not counted twice */
    evt_xray_get_rec_stats(&rs);
    assert_int_equal(rs.written, 120);
}

/* ---- start/stop/write cycles while threads record --------------------------------------------- */

#define NWORKERS 4
#define CYCLES   40
static atomic_int g_quit;

static void on_signal(int signo)
{
    (void)signo;
    evt_xray_enter(0x0FFFFFF0u);
    evt_xray_exit(0x0FFFFFF0u);
}

static void *cycling_recorder(void *arg)
{
    uint32_t w = (uint32_t)(uintptr_t)arg, seq = 0;
    while (!atomic_load_explicit(&g_quit, memory_order_relaxed)) {
        uint32_t fid = ((w + 1u) << 20) | (seq++ & 0xFFFFFu);
        evt_xray_enter(fid);
        evt_xray_exit(fid);
    }
    return NULL;
}

static void test_cycles_while_recording(void **st)
{
    (void)st;
    evt_port_test_on_signal_flags(SIGUSR1, on_signal, SA_RESTART);
    evt_xray_config cfg = {256, 4, 1}; /* fewer buffers than threads + main: drops and rotation */
    assert_int_equal(evt_xray_start(&cfg), 0);
    atomic_store(&g_quit, 0);
    pthread_t ws[NWORKERS];
    for (uintptr_t i = 0; i < NWORKERS; i++) assert_int_equal(pthread_create(&ws[i], NULL, cycling_recorder, (void *)i), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/stop_cycles.xray", evt_test_tmpdir());
    uint64_t total = 0;
    for (int k = 0; k < CYCLES; k++) {
        for (int i = 0; i < 8; i++) {
            pthread_kill(ws[(k + i) % NWORKERS], SIGUSR1);
            sleep_ms(1);
        }
        assert_int_equal(evt_xray_stop(), 0);
        evt_rec_stats rs;
        evt_xray_get_rec_stats(&rs);
        assert_int_equal(rs.dropped + rs.overwritten, rs.lost_reported + rs.pending);
        assert_int_equal(evt_xray_write_file(path), 0);
        if (rs.written + rs.dropped) {
            uint64_t data, lost;
            read_back(path, &data, &lost);
            assert_int_equal(data + lost, rs.written + rs.dropped); /* nothing lands after stop */
        }
        total += rs.written + rs.dropped;
        assert_int_equal(evt_xray_start(&cfg), 0); /* frees the pool the threads were writing */
    }
    atomic_store(&g_quit, 1);
    for (int i = 0; i < NWORKERS; i++) assert_int_equal(pthread_join(ws[i], NULL), 0);
    assert_int_equal(evt_xray_stop(), 0);
    signal(SIGUSR1, SIG_IGN);
    print_message("xray stop cycles: %d cycles, %llu records issued\n", CYCLES, (unsigned long long)total);
    assert_true(total > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stop_waits_for_record_in_flight),
        cmocka_unit_test(test_stop_counts_held_buffers),
        cmocka_unit_test(test_cycles_while_recording),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
