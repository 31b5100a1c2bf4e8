/* ETW: a flush, or a second stop, that races a stop (concurrency label, also under TSan). Both test
 * `running` before they take the session; when the stop took it first they must find the session
 * stopped (INVALID_HANDLE) and write nothing: stop's header is final. Before the fix they ran after
 * the stop's section: a flush wrote the pending losses (already in the header's EventsLost) as a
 * loss record into a buffer that overwrote another one of the circular file, so the file read back
 * no longer added up (losses counted twice, the overwritten events not at all), and both of two
 * concurrent stops returned SUCCESS.
 *
 * The interleaving is made certain: a recording thread fills its buffer and blocks inside the
 * session's section (in the file-write callback of its inline flush) while the racing flush (or
 * stop) and the stop both pass their `running` test and wait for the section; then it is released.
 * A circular file of one data buffer makes the stop leave losses pending (its own flushes overwrite
 * each other), which is what a late flush would write. Every slot mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "evt_etw_test.h"
#include "evt_test.h"
#include "evtrace/etw.h"
#include "evtrace/reader.h"

#define BUF_SIZE 4096u
#define ATTEMPTS 12

static uint8_t g_file[2u * BUF_SIZE]; /* header buffer + a circular ring of one data buffer */
static _Alignas(8) uint8_t g_mem[2u * BUF_SIZE + 2u * sizeof(evt_rec_count)];
static evt_etw_session g_s;
static evt_etw_provider g_prov;
static const evt_etw_guid k_guid = {0xf1a5b0b0u, 0x1, 0x2, {3, 4, 5, 6, 7, 8, 9, 10}};
static atomic_int g_armed, g_in_sink, g_release;
static pthread_t g_blocker;
static atomic_uint g_header_writes, g_data_after_stop; /* writes at offset 0; data writes after stop's */

static void sleep_ms(long ms)
{
    struct timespec d = {0, ms * 1000000L};
    nanosleep(&d, NULL);
}

/* The file (called inside the session's section). The recording thread's first data-buffer write
 * blocks until released, holding the section. */
static int sink(void *user, uint64_t off, const void *p, uint32_t n)
{
    (void)user;
    if (off + n > sizeof g_file) return -1;
    if (off == 0) atomic_fetch_add(&g_header_writes, 1u);
    else if (off >= BUF_SIZE && atomic_load(&g_header_writes) >= 2u) atomic_fetch_add(&g_data_after_stop, 1u);
    if (off >= BUF_SIZE && atomic_load(&g_armed) && pthread_equal(pthread_self(), g_blocker)) {
        atomic_store(&g_armed, 0);
        atomic_store(&g_in_sink, 1);
        while (!atomic_load(&g_release)) sleep_ms(1);
    }
    memcpy(g_file + off, p, n);
    return 0;
}

static atomic_ulong g_issued;

static void emit(uint32_t seq)
{
    uint32_t v[3] = {1, seq, ~seq};
    evt_etw_mof_field mof[2] = {{&v[0], 4, 0}, {&v[1], 8, 0}};
    evt_etw_trace_header h;
    evt_etw_test_header2(&h, &k_guid);
    uint32_t rc = evt_etw_trace_event(&g_prov, &h, mof);
    if (rc == EVT_ETW_SUCCESS || rc == EVT_ETW_ERROR_NOT_ENOUGH_MEMORY) atomic_fetch_add(&g_issued, 1u);
}

/* Records until its first buffer goes to the file (blocked there until released), then one more. */
static void *blocker(void *arg)
{
    (void)arg;
    g_blocker = pthread_self(); /* before its first record: the sink compares */
    for (uint32_t seq = 0; atomic_load(&g_armed); seq++) emit(seq);
    emit(1000u);
    return NULL;
}

static atomic_uint g_rc_racer, g_rc_stop;
static int g_racer_stops; /* the racer is a second stop (else a flush) */

static void *racer(void *arg)
{
    (void)arg;
    atomic_store(&g_rc_racer, g_racer_stops ? evt_etw_session_stop(&g_s) : evt_etw_session_flush(&g_s));
    return NULL;
}
static void *stopper(void *arg)
{
    (void)arg;
    atomic_store(&g_rc_stop, evt_etw_session_stop(&g_s));
    return NULL;
}

/* One race; returns 1 if the stop took the session before the racer. */
static int race_once(int per_thread)
{
    memset(g_file, 0, sizeof g_file);
    atomic_store(&g_issued, 0);
    atomic_store(&g_header_writes, 0);
    atomic_store(&g_data_after_stop, 0);
    atomic_store(&g_in_sink, 0);
    atomic_store(&g_release, 0);
    evt_etw_session_config c;
    evt_etw_test_config(&c, per_thread, BUF_SIZE, 2, 2, sink);
    assert_int_equal(evt_etw_session_start(&g_s, &c, g_mem, sizeof g_mem), EVT_ETW_SUCCESS);
    evt_etw_register(&g_prov, &k_guid, NULL, NULL);
    assert_int_equal(evt_etw_enable(&g_s, &g_prov, ETW_CONTROL_ENABLE_PROVIDER, ETW_LEVEL_VERBOSE, 0, 0), EVT_ETW_SUCCESS);
    for (uint32_t i = 0; i < 5; i++) emit(i); /* this thread's slot */

    atomic_store(&g_armed, 1);
    pthread_t tb, tr, ts;
    assert_int_equal(pthread_create(&tb, NULL, blocker, NULL), 0);
    while (!atomic_load(&g_in_sink)) sleep_ms(1);
    assert_int_equal(pthread_create(&tr, NULL, racer, NULL), 0);
    sleep_ms(30); /* the racer has tested `running` (1: the section is held) and waits for it */
    assert_int_equal(pthread_create(&ts, NULL, stopper, NULL), 0);
    sleep_ms(30); /* so has the stop */
    atomic_store(&g_release, 1);
    assert_int_equal(pthread_join(tb, NULL), 0);
    assert_int_equal(pthread_join(tr, NULL), 0);
    assert_int_equal(pthread_join(ts, NULL), 0);

    uint32_t rc_stop = atomic_load(&g_rc_stop), rc_racer = atomic_load(&g_rc_racer);
    int stop_first;
    if (g_racer_stops) { /* exactly one of the two stops succeeds */
        assert_true((rc_stop == EVT_ETW_SUCCESS) != (rc_racer == EVT_ETW_SUCCESS));
        assert_int_equal(rc_stop == EVT_ETW_SUCCESS ? rc_racer : rc_stop, EVT_ETW_ERROR_INVALID_HANDLE);
        stop_first = rc_stop == EVT_ETW_SUCCESS;
    } else {
        assert_int_equal(rc_stop, EVT_ETW_SUCCESS);
        assert_true(rc_racer == EVT_ETW_SUCCESS || rc_racer == EVT_ETW_ERROR_INVALID_HANDLE);
        stop_first = rc_racer == EVT_ETW_ERROR_INVALID_HANDLE;
    }
    assert_int_equal(atomic_load(&g_header_writes), 2); /* start, one stop */
    assert_int_equal(atomic_load(&g_data_after_stop), 0);

    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(g_file, sizeof g_file, "etw", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status st;
    uint64_t data = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind == EVT_KIND_USER) data++;
    assert_int_equal(st, EVT_END);
    assert_int_equal(r->errors, 0);
    assert_int_equal(data + r->lost, atomic_load(&g_issued));
    assert_true(r->lost > 0); /* the stop's flushes overwrote each other: losses were pending */
    evt_reader_close(r);
    return stop_first;
}

static void run(int per_thread, int racer_stops)
{
    g_racer_stops = racer_stops;
    int stop_first = 0;
    for (int k = 0; k < ATTEMPTS; k++) stop_first += race_once(per_thread);
    print_message("etw %s racing stop, slot mode %d: the stop came first in %d of %d races\n",
                  racer_stops ? "stop" : "flush", per_thread, stop_first, ATTEMPTS);
}

static void test_flush_races_stop_per_cpu(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_CPU, 0); }
static void test_flush_races_stop_per_thread(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_THREAD, 0); }
static void test_flush_races_stop_thread_owned(void **st) { (void)st; run(EVT_ETW_SLOTS_THREAD_OWNED, 0); }
static void test_stop_races_stop_per_thread(void **st) { (void)st; run(EVT_ETW_SLOTS_PER_THREAD, 1); }
static void test_stop_races_stop_thread_owned(void **st) { (void)st; run(EVT_ETW_SLOTS_THREAD_OWNED, 1); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_races_stop_per_cpu),
        cmocka_unit_test(test_flush_races_stop_per_thread),
        cmocka_unit_test(test_flush_races_stop_thread_owned),
        cmocka_unit_test(test_stop_races_stop_per_thread),
        cmocka_unit_test(test_stop_races_stop_thread_owned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
