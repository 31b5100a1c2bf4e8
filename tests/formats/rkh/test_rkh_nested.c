/* RKH recorder, nested contexts, deterministic: a record begun inside an open record of the same
 * recorder (from the sink, from a raw signal handler raised between begin and end) is dropped and
 * counted, never spliced; the lock is free afterwards; the loss record reaches the stream before
 * the next record and at flush; a port-installed simulated ISR raised inside a record is held off
 * and records after it; a record larger than the ring is dropped; a wrapped flight ring decodes to
 * exactly what was issued. Every case decodes the stream with the host reader and checks
 * data records + reported lost == issued. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include "evt_rkh_test.h"
#include "evt_counter_clock.h"
#include "evt_test.h"
#include "evtrace/rkh.h"
#include "formats/rkh/rkh_defs.h"


static evt_rkh_recorder g_r;
static uint8_t g_ring[4096];
static evt_rkh_test_buf g_out;
static unsigned g_issued;

static void start(uint32_t ring_size, int with_sink)
{
    evt_rkh_config c;
    evt_rkh_config_default(&c);
    evt_test_ticks = 0;
    g_issued = 0;
    evt_rkh_test_buf_free(&g_out);
    evt_rkh_test_buf_init(&g_out, 1u << 20);
    evt_rkh_init(&g_r, &c, g_ring, ring_size, evt_test_clock32, 1000000u);
    evt_rkh_filter_all(&g_r, 1);
    if (with_sink) evt_rkh_set_sink(&g_r, evt_rkh_test_sink, &g_out);
}

/* One SM_STATE record (ao, state); returns begin's result. */
static int state_rec(uint32_t ao, uint32_t st)
{
    g_issued++;
    if (!evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1)) return 0;
    evt_rkh_sym(&g_r, ao);
    evt_rkh_sym(&g_r, st);
    evt_rkh_end(&g_r);
    return 1;
}

static void check_exact(const char *what)
{
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    if (d.data + d.lost != g_issued)
        fail_msg("%s: decoded %llu + lost %llu != issued %u", what, (unsigned long long)d.data,
                 (unsigned long long)d.lost, g_issued);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.written + s.dropped, g_issued);
    assert_int_equal(s.pending, 0);
}

/* ---- 1. the sink records into the same recorder --------------------------------------------- */
static int g_sink_nested, g_sink_begin_result = -1;
static void recording_sink(void *user, const uint8_t *p, uint32_t n)
{
    evt_rkh_test_sink(user, p, n);
    if (g_sink_nested) {
        g_sink_nested = 0;
        g_sink_begin_result = state_rec(0xAAAA0001u, 0xBBBB0001u);
    }
}

static void test_sink_records_nested(void **st)
{
    (void)st;
    start(sizeof g_ring, 0);
    evt_rkh_set_sink(&g_r, recording_sink, &g_out);
    assert_true(state_rec(0x20001000u, 0x20002000u));
    g_sink_nested = 1;
    assert_true(state_rec(0x20001000u, 0x20002001u)); /* its sink call records: dropped */
    assert_int_equal(g_sink_begin_result, 0);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.dropped, 1);
    assert_int_equal(s.pending, 0);        /* the end of the record flushed the loss record */
    assert_int_equal(s.loss_records, 1);
    assert_false(evt_posix_lock_held(&g_r.lock)); /* lock free: no `lock=1 open=0` */
    assert_true(state_rec(0x20001000u, 0x20002002u));
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.data, 3);
    assert_int_equal(d.loss_records, 1);
    assert_int_equal(d.lost, 1);
    assert_int_equal(d.errors, 0); /* nothing spliced: every frame is whole */
    check_exact("sink nested");
}

/* ---- 2. a raw signal handler records between begin and end ------------------------------------ */
static volatile sig_atomic_t g_handler_result = -1;
static void raw_handler(int signo)
{
    (void)signo;
    g_handler_result = state_rec(0xCCCC0001u, 0xDDDD0001u);
}

static void install_raw(int signo)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = raw_handler;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(signo, &sa, NULL), 0);
}

static void *other_thread_records(void *arg)
{
    (void)arg;
    /* On another thread: would hang here if the interrupted end had kept the lock. */
    evt_rkh_recorder *r = &g_r;
    if (evt_rkh_begin_ao(r, RKH_TE_SM_STATE, 1)) {
        evt_rkh_sym(r, 0xEEEE0001u);
        evt_rkh_sym(r, 0xEEEE0002u);
        evt_rkh_end(r);
        return (void *)1;
    }
    return NULL;
}

static void raised_between(int at_field, int with_sink)
{
    start(sizeof g_ring, with_sink);
    install_raw(SIGUSR1);
    assert_true(state_rec(1, 2));
    g_issued++;
    assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
    if (at_field == 0) raise(SIGUSR1);             /* right after begin */
    evt_rkh_sym(&g_r, 0x7E7D7E7Du);                /* stuffed bytes in the open frame */
    if (at_field == 1) raise(SIGUSR1);             /* between the two fields */
    evt_rkh_sym(&g_r, 0x20002000u);
    if (at_field == 2) raise(SIGUSR1);             /* just before end */
    evt_rkh_end(&g_r);
    assert_int_equal(g_handler_result, 0);         /* the nested record was dropped */
    assert_false(evt_posix_lock_held(&g_r.lock));
    pthread_t t;
    void *ok = NULL;
    g_issued++;
    assert_int_equal(pthread_create(&t, NULL, other_thread_records, NULL), 0);
    assert_int_equal(pthread_join(t, &ok), 0);
    assert_non_null(ok);
    raise(SIGUSR1);                                 /* outside a record: recorded */
    assert_int_equal(g_handler_result, 1);
    evt_rkh_flush(&g_r);
    if (!with_sink) g_out.n = evt_rkh_get_whole_block(&g_r, g_out.p, (uint32_t)g_out.cap);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.errors, 0);
    assert_int_equal(d.data, 4);                    /* first, outer (intact), other thread, handler */
    assert_int_equal(d.lost, 1);
    assert_int_equal(d.loss_records, 1);
    check_exact("raised between begin and end");
    signal(SIGUSR1, SIG_DFL);
}
static void test_raise_after_begin(void **st) { (void)st; raised_between(0, 1); }
static void test_raise_between_fields(void **st) { (void)st; raised_between(1, 1); }
static void test_raise_before_end_ring(void **st) { (void)st; raised_between(2, 0); }

/* ---- 3. the drop after the last record reaches the stream at flush ---------------------------- */
static void test_loss_after_last_record_flushed(void **st)
{
    (void)st;
    start(sizeof g_ring, 0);
    install_raw(SIGUSR1);
    g_issued++;
    assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
    raise(SIGUSR1);
    evt_rkh_sym(&g_r, 1);
    evt_rkh_sym(&g_r, 2);
    evt_rkh_end(&g_r);
    signal(SIGUSR1, SIG_DFL);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.pending, 1);
    evt_rkh_flush(&g_r);
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.lost_reported, 1);
    g_out.n = evt_rkh_get_whole_block(&g_r, g_out.p, (uint32_t)g_out.cap);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.data, 1);
    assert_int_equal(d.lost, 1);
    check_exact("flush");
}

/* ---- 4. a simulated ISR of the port is held off, then records ---------------------------------- */
static void port_isr(int signo)
{
    (void)signo;
    assert_true(evt_port_in_isr());
    g_handler_result = state_rec(0x15115115u, 0x15115116u);
}

static void test_port_isr_held_off(void **st)
{
    (void)st;
    start(sizeof g_ring, 1);
    assert_int_equal(evt_posix_isr_install(SIGUSR2, port_isr), 0);
    g_handler_result = -1;
    g_issued++;
    assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
    raise(SIGUSR2);
    assert_int_equal(g_handler_result, -1);        /* held off inside the section */
    evt_rkh_sym(&g_r, 0x10u);
    evt_rkh_sym(&g_r, 0x20u);
    evt_rkh_end(&g_r);
    assert_int_equal(g_handler_result, 1);         /* ran at the exit, and recorded */
    signal(SIGUSR2, SIG_DFL);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.data, 2);
    assert_int_equal(d.lost, 0);
    check_exact("port isr");
}

/* ---- 5. a record larger than the ring is dropped, the ring stays sound ------------------------- */
static void test_record_larger_than_ring(void **st)
{
    (void)st;
    start(64, 1);
    assert_true(state_rec(1, 2));
    g_issued++;
    static const uint8_t big[120] = {0x7E, 0x7D};
    assert_true(evt_rkh_begin(&g_r, RKH_TE_USER));
    evt_rkh_usr_mem(&g_r, big, sizeof big);
    evt_rkh_end(&g_r);
    assert_true(state_rec(3, 4));
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.dropped, 1);
    assert_int_equal(s.written, 2);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.errors, 0);  /* taken back whole, sequence number too: no gap */
    assert_int_equal(d.data, 2);
    assert_int_equal(d.lost, 1);
    check_exact("larger than the ring");
}

#if EVT_RKH_FLIGHT
/* ---- 6. a flight ring that wrapped many times, with a nested drop, read after flush -------------- */
static void test_flight_ring_exact(void **st)
{
    (void)st;
    start(1000, 0);
    install_raw(SIGUSR1);
    for (unsigned i = 0; i < 5000; i++) {
        if (i == 4990) {
            g_issued++;
            assert_true(evt_rkh_begin_ao(&g_r, RKH_TE_SM_STATE, 1));
            raise(SIGUSR1);
            evt_rkh_sym(&g_r, i);
            evt_rkh_sym(&g_r, i);
            evt_rkh_end(&g_r);
        }
        state_rec(0x7E000000u + i, i);
    }
    signal(SIGUSR1, SIG_DFL);
    evt_rkh_flush(&g_r);
    g_out.n = evt_rkh_get_whole_block(&g_r, g_out.p, (uint32_t)g_out.cap);
    evt_rkh_decoded d;
    assert_int_equal(evt_rkh_test_decode(g_out.p, g_out.n, &d), 0);
    assert_int_equal(d.errors, 0);         /* whole records were evicted: a clean start */
    assert_true(d.data > 20 && d.data < 100);
    evt_rec_stats s;
    evt_rkh_get_stats(&g_r, &s);
    assert_int_equal(s.dropped, 1);
    assert_int_equal(s.overwritten, s.written - d.data);
    check_exact("flight ring");
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sink_records_nested),
        cmocka_unit_test(test_raise_after_begin),
        cmocka_unit_test(test_raise_between_fields),
        cmocka_unit_test(test_raise_before_end_ring),
        cmocka_unit_test(test_loss_after_last_record_flushed),
        cmocka_unit_test(test_port_isr_held_off),
        cmocka_unit_test(test_record_larger_than_ring),
#if EVT_RKH_FLIGHT /* a wrapping flight ring (a streamed-only build drops instead: test_rkh_stream) */
        cmocka_unit_test(test_flight_ring_exact),
#endif
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_rkh_test_buf_free(&g_out);
    return rc;
}
