/* The TXTB reader's numeric fields from info words with a role (txtb_defs.h TXTB_INFO_ROLE_TABLE):
 * queue depth, semaphore count, pool availability, event flags, suspended counts, mutex owner and
 * count, stack samples with the recording thread's registry stack, and THREAD_CREATE's stack; on a
 * trace built with tests/support/trace_builder.h, where every value is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/reader.h"
#include "trace_builder.h"

#define TA 0x20001000u
#define QQ 0x20002000u
#define SS 0x20002100u
#define MM 0x20002200u
#define FF 0x20002300u
#define BP 0x20002400u

/* Value of numeric field key, or -1 when absent. */
static long long field(const evt_event *ev, const char *key)
{
    for (uint32_t i = 0; i < ev->nfields; i++)
        if (!ev->fields[i].is_str && strcmp(ev->fields[i].key, key) == 0) return (long long)ev->fields[i].num;
    return -1;
}

static void test_role_fields(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_opts(t)->stk = 0x20010300u;
    tb_thread(t, TA, "A", 5, 0x20010000u, 0x400);
    tb_object(t, TXTB_OBJ_QUEUE, QQ, "Q", 16, 1);
    tb_object(t, TXTB_OBJ_SEMAPHORE, SS, "S", 0, 0);
    tb_object(t, TXTB_OBJ_MUTEX, MM, "M", 1, 0);
    tb_object(t, TXTB_OBJ_EVENT_FLAGS, FF, "F", 0, 0);
    tb_object(t, TXTB_OBJ_BYTE_POOL, BP, "P", 4096, 0);
    tb_queue_send(t, 10, TA, QQ, 3);
    tb_sem_put(t, 20, TA, SS, 7, 2);
    tb_mutex_get(t, 30, TA, MM, 0x20001100u, 1);
    tb_mutex_put(t, 40, TA, MM, 1);
    tb_ev(t, 50, TA, TXTB_EVENT_EVENT_FLAGS_GET, FF, 0x3, 0x5, 0);
    tb_ev(t, 60, TA, TXTB_EVENT_BYTE_RELEASE, BP, 0x30000000u, 1, 2048);
    tb_ev(t, 70, TB_CTX_INIT, TXTB_EVENT_THREAD_CREATE, 0x20001200u, 9, 0x20020000u, 512);
    tb_isr_enter(t, 80, 3, TA);
    uint8_t *buf;
    size_t len;
    buf = tb_bytes(t, &len);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(buf, len, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    for (int i = 0; i < 2; i++) { evt_event_reset(&ev); assert_int_equal(evt_reader_next(r, &ev), EVT_OK); }
#define NEXT() do { evt_event_reset(&ev); assert_int_equal(evt_reader_next(r, &ev), EVT_OK); } while (0)
    NEXT(); /* QUEUE_SEND */
    assert_int_equal(field(&ev, "enqueued"), 3);
    assert_int_equal(field(&ev, "stk"), -1);
    NEXT(); /* SEMAPHORE_PUT */
    assert_int_equal(field(&ev, "sem_count"), 7);
    assert_int_equal(field(&ev, "suspended"), 2);
    assert_int_equal(field(&ev, "stk"), 0x20010300u);
    assert_int_equal(field(&ev, "ctx_stack_start"), 0x20010000u);
    assert_int_equal(field(&ev, "ctx_stack_size"), 0x400);
    /* the same as meaning (what the stack analysis reads) */
    assert_true(ev.m.has & EVT_M_SP);
    assert_int_equal(ev.m.sp, 0x20010300u);
    assert_true(ev.m.has & EVT_M_STACK);
    assert_int_equal(ev.m.stack_start, 0x20010000u);
    assert_int_equal(ev.m.stack_size, 0x400);
    NEXT(); /* MUTEX_GET */
    assert_int_equal(field(&ev, "owner"), 0x20001100u);
    assert_int_equal(field(&ev, "ownership_count"), 1);
    NEXT(); /* MUTEX_PUT */
    assert_int_equal(field(&ev, "owner"), TA);
    assert_int_equal(field(&ev, "ownership_count"), 1);
    assert_int_equal(field(&ev, "stk"), 0x20010300u);
    NEXT(); /* EVENT_FLAGS_GET */
    assert_int_equal(field(&ev, "flags"), 5);
    NEXT(); /* BYTE_RELEASE */
    assert_int_equal(field(&ev, "available"), 2048);
    assert_int_equal(field(&ev, "suspended"), 1);
    NEXT(); /* THREAD_CREATE in init context */
    assert_int_equal(field(&ev, "stack_start"), 0x20020000u);
    assert_int_equal(field(&ev, "stack_size"), 512);
    assert_true(ev.m.has & EVT_M_STACK); /* the created thread's stack */
    assert_false(ev.m.has & EVT_M_SP);
    assert_int_equal(ev.m.stack_start, 0x20020000u);
    assert_int_equal(ev.m.stack_size, 512);
    NEXT(); /* ISR_ENTER: a sample, but not of a thread's stack */
    assert_int_equal(field(&ev, "stk"), 0x20010300u);
    assert_int_equal(field(&ev, "ctx_stack_start"), -1);
    assert_true(ev.m.has & EVT_M_SP);
    assert_false(ev.m.has & EVT_M_STACK);
#undef NEXT
    evt_reader_close(r);
    free(buf);
    tb_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_role_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
