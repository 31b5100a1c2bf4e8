/* The test trace builder (tests/support/trace_builder.h) through the TXTB reader: every record
 * comes back with its context, priority word, id, info words and timestamp, after the two RUNNING
 * records of enable; registry names resolve; both byte orders; the registry bytes are where
 * txtb_defs.h says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/reader.h"
#include "formats/common/bytes.h"
#include "trace_builder.h"

#define TA 0x20001000u
#define TB 0x20001100u
#define QQ 0x20002000u

static evt_reader *open_built(tb_trace *t, uint8_t **buf)
{
    size_t len;
    *buf = tb_bytes(t, &len);
    evt_reader *r = NULL;
    char err[256] = "";
    if (evt_reader_open_mem(*buf, len, "threadx", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK)
        fail_msg("open: %s", err);
    return r;
}

static void check_order(int big)
{
    tb_trace *t = tb_new();
    tb_opts(t)->big_endian = big;
    tb_opts(t)->stk = 0x2000FF00u;
    tb_thread(t, TA, "thread A", 10, 0x20010000u, 1024);
    tb_thread(t, TB, "thread B", 20, 0x20011000u, 2048);
    tb_object(t, TXTB_OBJ_QUEUE, QQ, "queue Q", 1, 0x20003000u);
    tb_queue_receive(t, 100, TA, QQ, 0);
    tb_block(t, 110, TA, TB_STATE_QUEUE, TB);
    tb_isr_enter(t, 150, 7, TB);
    tb_queue_send(t, 160, TB_CTX_ISR, QQ, 0);
    tb_resume(t, 161, TB_CTX_ISR, TA, TB_STATE_QUEUE, TB);
    tb_isr_exit(t, 170, 7, TB);
    tb_rec(t, 200, TB, 0x12345678u, 4100, 1, 2, 3, 4);

    uint8_t *buf;
    evt_reader *r = open_built(t, &buf);
    /* registry slot 1 = thread B: stack start/size in param 1/2, priority bytes (txtb_defs.h) */
    const uint8_t *e1 = buf + TXTB_HEADER_SIZE + (TXTB_REG_FIXED_SIZE + TXTB_DEFAULT_NAME_SIZE);
    uint32_t p1 = big ? evt_ld_u32be(e1 + TXTB_REG_PARAM1) : evt_ld_u32le(e1 + TXTB_REG_PARAM1);
    uint32_t p2 = big ? evt_ld_u32be(e1 + TXTB_REG_PARAM2) : evt_ld_u32le(e1 + TXTB_REG_PARAM2);
    assert_int_equal(p1, 0x20011000u);
    assert_int_equal(p2, 2048);
    assert_int_equal(e1[TXTB_REG_TYPE], TXTB_OBJ_THREAD);
    assert_int_equal(e1[TXTB_REG_RESERVED2], 20);
    assert_string_equal((const char *)e1 + TXTB_REG_NAME, "thread B");

    static const struct { uint32_t ts, ctx, prio, id, info[4]; } want[] = {
        {100, TA, 0x800A000Au, TXTB_EVENT_QUEUE_RECEIVE, {QQ, 0, 0xFFFFFFFFu, 0}},
        {110, TA, 0x800A000Au, TXTB_EVENT_THREAD_SUSPEND, {TA, TB_STATE_QUEUE, 0x2000FF00u, TB}},
        {150, TXTB_CTX_ISR, TB, TXTB_EVENT_ISR_ENTER, {0x2000FF00u, 7, 1, 0}},
        {160, TXTB_CTX_ISR, 0, TXTB_EVENT_QUEUE_SEND, {QQ, 0, 0xFFFFFFFFu, 0}},
        {161, TXTB_CTX_ISR, 0, TXTB_EVENT_THREAD_RESUME, {TA, TB_STATE_QUEUE, 0x2000FF00u, TB}},
        {170, TXTB_CTX_ISR, TB, TXTB_EVENT_ISR_EXIT, {0x2000FF00u, 7, 1, 0}},
        {200, TB, 0x12345678u, 4100, {1, 2, 3, 4}},
    };
    evt_event ev;
    for (int k = 0; k < 2; k++) { /* enable's two RUNNING records, init context, first ts */
        evt_event_reset(&ev);
        assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
        assert_int_equal(ev.id, TXTB_EVENT_RUNNING);
        assert_int_equal(ev.ctx, TXTB_CTX_INIT);
        assert_int_equal(ev.ts, 100);
    }
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        evt_event_reset(&ev);
        assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
        assert_int_equal(ev.ts, want[i].ts);
        assert_int_equal(ev.ctx, want[i].ctx);
        assert_int_equal(ev.prio, want[i].prio);
        assert_int_equal(ev.id, want[i].id);
        assert_int_equal(ev.nargs, 4);
        for (int a = 0; a < 4; a++) assert_int_equal(ev.args[a], want[i].info[a]);
        if (want[i].ctx == TA) assert_string_equal(ev.ctx_name, "thread A");
        if (want[i].id == TXTB_EVENT_QUEUE_RECEIVE) assert_string_equal(ev.target_name, "queue Q");
    }
    evt_event_reset(&ev);
    assert_int_equal(evt_reader_next(r, &ev), EVT_END);
    assert_int_equal(r->errors, 0);
    evt_reader_close(r);
    free(buf);
    tb_free(t);
}

static void test_little_endian(void **state) { (void)state; check_order(0); }
static void test_big_endian(void **state) { (void)state; check_order(1); }

/* A 16-bit down-counting timer, as real targets have: raw values are written as given, the reader
 * unwraps them into growing ts. */
static void test_down_counter(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_opts(t)->time_mask = 0xFFFFu;
    tb_thread(t, TA, "A", 1, 0, 0);
    tb_ev(t, 0x0010, TA, 4096, 0, 0, 0, 0);
    tb_ev(t, 0xFFF0, TA, 4096, 0, 0, 0, 0); /* 0x20 ticks later, across the wrap */
    tb_ev(t, 0xFF00, TA, 4096, 0, 0, 0, 0); /* 0xF0 later */
    uint8_t *buf;
    evt_reader *r = open_built(t, &buf);
    evt_event ev;
    uint64_t ts[5];
    for (int i = 0; i < 5; i++) {
        evt_event_reset(&ev);
        assert_int_equal(evt_reader_next(r, &ev), EVT_OK);
        ts[i] = ev.ts;
    }
    assert_int_equal(ts[3] - ts[2], 0x20);
    assert_int_equal(ts[4] - ts[3], 0xF0);
    evt_reader_close(r);
    free(buf);
    tb_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_little_endian),
        cmocka_unit_test(test_big_endian),
        cmocka_unit_test(test_down_counter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
