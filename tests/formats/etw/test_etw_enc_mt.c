/* ETW recorder under concurrency (TSan in `make check`): 4 threads log through one session with
 * per-thread buffers; the reader gets every event back, each thread's events in its own order,
 * the whole file merged by time, and nothing counted lost. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "evt_etw_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"
#include "formats/common/bytes.h"

#define NTHREADS 4
#define PER_THREAD 5000

static uint8_t *g_file;
static size_t g_len;
static uint8_t g_mem[NTHREADS * 8192];
static evt_etw_provider g_prov;
static const evt_etw_guid k_guid = {0xabcdef01u, 0x1234, 0x5678, {1, 2, 3, 4, 5, 6, 7, 8}};

/* Called inside the recorder's critical section: no lock of its own needed. */
static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > g_len) return -1;
    memcpy(g_file + off, p, n);
    return 0;
}

static void *worker(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < PER_THREAD; i++) {
        uint32_t v[2] = {t, i};
        evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 4, 0}};
        evt_etw_trace_header h;
        evt_etw_test_header2(&h, &k_guid);
        if (evt_etw_write(&g_prov, 1, &h, mof) != EVT_ETW_SUCCESS) return (void *)1;
    }
    return NULL;
}

static void test_threads(void **st)
{
    (void)st;
    g_len = 64u << 20;
    g_file = calloc(1, g_len);
    assert_non_null(g_file);
    evt_etw_session_config c;
    evt_etw_test_config(&c, EVT_ETW_SLOTS_PER_THREAD, 8192, NTHREADS, 0, sink);
    evt_etw_session s;
    assert_int_equal(evt_etw_session_start(&s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    evt_etw_enable(&s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 1, 0);
    pthread_t th[NTHREADS];
    for (uintptr_t t = 0; t < NTHREADS; t++) assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)t), 0);
    for (int t = 0; t < NTHREADS; t++) {
        void *rv;
        pthread_join(th[t], &rv);
        assert_null(rv);
    }
    assert_int_equal(evt_etw_session_stop(&s), EVT_ETW_SUCCESS);
    evt_etw_stats stt;
    evt_etw_session_stats(&s, &stt);
    assert_int_equal(stt.events, NTHREADS * PER_THREAD);
    assert_int_equal(stt.events_lost, 0);
    size_t len = (size_t)stt.buffers_written * c.buffer_size;

    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_file, len, "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    uint32_t next[NTHREADS] = {0};
    uint64_t last_ts = 0, n = 0;
    assert_int_equal(evt_reader_next(r, &ev), EVT_OK); /* logfile header */
    while (evt_reader_next(r, &ev) == EVT_OK) {
        assert_int_equal(ev.data_len, 8);
        uint32_t t = evt_ld_u32le(ev.data), i = evt_ld_u32le(ev.data + 4);
        assert_true(t < NTHREADS);
        assert_int_equal(i, next[t]);
        next[t]++;
        assert_true(ev.ts >= last_ts);
        last_ts = ev.ts;
        n++;
    }
    assert_int_equal(n, NTHREADS * PER_THREAD);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    free(g_file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
