/* ETW POSIX file glue on a full disk: a child process records into an .etl file under a file-size
 * limit (RLIMIT_FSIZE, SIGXFSZ ignored: the write that crosses it is short, then EFBIG), in every
 * slot mode, sequential and circular. Stop must succeed (buffer 0 is within the limit), close must
 * report the failed writes, and the file read back must add up: events + lost == issued, no reader
 * error. Before, the glue wrote through stdio: a buffer written in several calls whose last one
 * failed stayed in the file in part (a truncated buffer, a reader error) with the loss record it
 * held, whose count the recorder had re-pended into EventsLost as well (9670 lost read for 4835
 * issued). Also: an unwritable path and /dev/full fail cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "evt_etw_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"

#define BUF_SIZE 4096u
#define EVENTS 5000
#define LIMIT 20000 /* bytes: buffer 0, three data buffers and part of a fourth */

static const evt_etw_guid k_guid = {0xd15cf011u, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};

/* The child: record EVENTS events (24-byte payload, a flush every 1000) under the limit. Exit
 * status: 0 as expected, else the step that went wrong. */
static int record_child(const char *path, int mode, uint32_t max_file_buffers)
{
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit r = {LIMIT, LIMIT};
    if (setrlimit(RLIMIT_FSIZE, &r) != 0) return 10;
    static _Alignas(8) uint8_t mem[2u * BUF_SIZE + 64u * 2u * sizeof(evt_rec_count)];
    evt_etw_session_config c;
    evt_etw_test_config(&c, mode, BUF_SIZE, 2u, max_file_buffers, NULL);
    struct evt_etw_file *f = evt_etw_file_open(path, &c);
    if (!f) return 11;
    static evt_etw_session s;
    evt_etw_provider p;
    if (evt_etw_session_start(&s, &c, mem, sizeof mem) != EVT_ETW_SUCCESS) return 12;
    evt_etw_register(&p, &k_guid, NULL, NULL);
    if (evt_etw_enable(&s, &p, ETW_CONTROL_ENABLE_PROVIDER, 0, 0, 0) != EVT_ETW_SUCCESS) return 13;
    for (uint32_t i = 0; i < EVENTS; i++) {
        uint32_t v[6] = {i, ~i, 1, 2, 3, 4};
        evt_etw_trace_header h;
        evt_etw_test_header_flat(&h, &k_guid, sizeof v);
        if (evt_etw_trace_event(&p, &h, v) != EVT_ETW_SUCCESS) return 14; /* written (maybe lost later) */
        if (i % 1000u == 999u) (void)evt_etw_session_flush(&s);
    }
    if (evt_etw_session_stop(&s) != EVT_ETW_SUCCESS) return 15;
    evt_rec_stats st;
    evt_etw_get_rec_stats(&s, &st);
    if (st.overwritten == 0) return 16; /* the limit was hit */
    if (evt_etw_file_close(f) != -1) return 17;
    return 0;
}

static void run(int mode, uint32_t max_file_buffers)
{
    char path[512];
    snprintf(path, sizeof path, "%s/full_%d_%u.etl", evt_test_tmpdir(), mode, max_file_buffers);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) _exit(record_child(path, mode, max_file_buffers));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    evt_reader *rd;
    char err[512];
    assert_int_equal(evt_reader_open_file(path, "etw", NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status rc;
    uint64_t data = 0;
    while ((rc = evt_reader_next(rd, &ev)) == EVT_OK)
        if (ev.kind == EVT_KIND_USER) data++;
    assert_int_equal(rc, EVT_END);
    print_message("mode %d, %s: %llu events + %llu lost, %llu reader errors\n", mode,
                  max_file_buffers ? "circular" : "sequential", (unsigned long long)data,
                  (unsigned long long)rd->lost, (unsigned long long)rd->errors);
    assert_int_equal(rd->errors, 0);
    assert_int_equal(data + rd->lost, EVENTS);
    evt_reader_close(rd);
}

static void test_full_per_cpu(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_CPU, 0); }
static void test_full_per_thread(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_THREAD, 0); }
static void test_full_thread_owned(void **st) { (void)st; run(EVT_ETW_SLOTS_THREAD_OWNED, 0); }
static void test_full_circular_per_cpu(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_CPU, 8); }
static void test_full_circular_thread_owned(void **st) { (void)st; run(EVT_ETW_SLOTS_THREAD_OWNED, 8); }
static void test_full_default(void **st) { (void)st; run(EVT_ETW_SLOTS_DEFAULT, 0); }
static void test_full_circular_default(void **st) { (void)st; run(EVT_ETW_SLOTS_DEFAULT, 8); }

static void test_unwritable(void **st)
{
    (void)st;
    evt_etw_session_config c;
    evt_etw_test_config(&c, EVT_ETW_SLOTS_PER_CPU, BUF_SIZE, 1u, 0u, NULL);
    errno = 0;
    assert_null(evt_etw_file_open("/nonexistent-dir/x.etl", &c));
    assert_int_equal(errno, ENOENT);
    assert_null(evt_etw_file_open(NULL, &c));
    assert_int_equal(evt_etw_file_close(NULL), -1);
    if (access("/dev/full", W_OK) != 0) return;
    struct evt_etw_file *f = evt_etw_file_open("/dev/full", &c);
    assert_non_null(f);
    static _Alignas(8) uint8_t mem[BUF_SIZE];
    evt_etw_session s;
    assert_int_equal(evt_etw_session_start(&s, &c, mem, sizeof mem), EVT_ETW_ERROR_NOT_ENOUGH_MEMORY);
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_ERROR_INVALID_HANDLE);
    assert_int_equal(evt_etw_file_close(f), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_per_cpu),
        cmocka_unit_test(test_full_per_thread),
        cmocka_unit_test(test_full_default),
        cmocka_unit_test(test_full_circular_default),
        cmocka_unit_test(test_full_thread_owned),
        cmocka_unit_test(test_full_circular_per_cpu),
        cmocka_unit_test(test_full_circular_thread_owned),
        cmocka_unit_test(test_unwritable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
