/* The RTOS hooks (thread_switch, thread_ready, prio_set, obj_name, obj_op: evtrace/hooks.h) through
 * both hooks backends and their readers, end to end: the TXTB snapshot and the RKH stream written by
 * the backends are read by evt_reader, and each record comes back with the same meaning
 * (formats/common/hook_meaning.c): a one-record switch (stop state, next context, blocked-on object
 * by its renamed name), a wake, an inheritance with the new priority, and an operation named and
 * judged by the FreeRTOS kernel profile the trace carries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_hooks_test.h"
#include "evtrace/freertos_svc.h"
#include "evtrace/hooks.h"
#include "evtrace/reader.h"

EVT_HOOK_DECLARE_BACKEND(txtb)
EVT_HOOK_DECLARE_BACKEND(rkh)

#define TA 0x20000100u /* thread "alpha" */
#define TB 0x20000200u /* thread "beta" */
#define Q  0x20000300u /* a queue, named after its creation */

/* The same script on either backend (functions of one backend). */
#define SCRIPT(b)                                                                                       \
    do {                                                                                                \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_THREAD, TA, "alpha", 2);                                 \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_THREAD, TB, "beta", 3);                                  \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_QUEUE, Q, "", 0);                                      \
        evt_##b##_hook_obj_name(EVT_HOOK_OBJ_QUEUE, Q, "work_q");                                     \
        evt_##b##_hook_thread_switch(0, EVT_HOOK_STATE_READY, 0, 0, TA, 2);                             \
        evt_##b##_hook_thread_ready(TB);                                                                \
        evt_##b##_hook_obj_op((int32_t)EVT_FREERTOS_QCODE(EVT_FREERTOS_QEV_QUEUE_SEND_FAILED, 0), Q, 0); \
        evt_##b##_hook_thread_switch(TA, EVT_HOOK_STATE_WAITING, 2, Q, TB, 3);                          \
        evt_##b##_hook_prio_set(TA, 3, EVT_HOOK_PRIO_INHERIT);                                          \
    } while (0)

/* Read every event; check the five RTOS records in order. */
static void check(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    assert_string_equal(rd->desc->name, fmt);
    evt_event ev;
    int seen = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        if ((m->has & EVT_M_NEXT) && ev.kind == EVT_KIND_THREAD_RUN) { /* the first switch: nothing ran */
            assert_int_equal(seen, 0);
            assert_int_equal(m->next_ctx, TA);
            assert_string_equal(m->next_name, "alpha");
            assert_int_equal(ev.target, TA);
            seen = 1;
        } else if (m->has & EVT_M_WAKE) {
            assert_int_equal(seen, 1);
            assert_int_equal(ev.kind, EVT_KIND_THREAD_RUN);
            assert_int_equal(ev.target, TB);
            assert_string_equal(ev.target_name, "beta");
            seen = 2;
        } else if ((m->has & EVT_M_OP) && !(m->has & EVT_M_PRIO_SET)) {
            assert_int_equal(seen, 2);
            assert_int_equal(ev.kind, EVT_KIND_SVC);
            assert_string_equal(m->label, "xQueueSend");
            assert_int_equal(m->op, EVT_OP_SEND);
            assert_int_equal(m->op_result, EVT_RES_TIMEOUT);
            assert_int_equal(m->obj, Q);
            assert_string_equal(m->obj_name, "work_q"); /* the rename, not the creation's "" */
            assert_true(m->has & EVT_M_OBJ_TYPE);
            assert_int_equal(m->obj_type, EVT_HOOK_OBJ_QUEUE);
            assert_int_equal(ev.ctx, TA);
            seen = 3;
        } else if ((m->has & EVT_M_NEXT) && ev.kind == EVT_KIND_THREAD_STOP) {
            assert_int_equal(seen, 3);
            assert_int_equal(ev.ctx, TA);
            assert_int_equal(m->next_ctx, TB);
            assert_string_equal(m->next_name, "beta");
            assert_int_equal(m->next_prio, 3);
            assert_true(m->has & EVT_M_STOP_STATE);
            assert_int_equal(m->stop_state, EVT_HOOK_STATE_WAITING);
            assert_true(m->has & EVT_M_BLOCKED_ON);
            assert_int_equal(m->obj, Q);
            assert_string_equal(m->obj_name, "work_q");
            seen = 4;
        } else if (m->has & EVT_M_PRIO_SET) {
            assert_int_equal(seen, 4);
            assert_int_equal(ev.target, TA);
            assert_int_equal(m->new_prio, 3);
            assert_int_equal(m->op, EVT_OP_INHERIT);
            assert_true(m->has & EVT_M_OBJ_TYPE); /* an operation on a thread, the holder */
            assert_int_equal(m->obj_type, EVT_HOOK_OBJ_THREAD);
            assert_int_equal(ev.ctx, TB); /* recorded while beta runs */
            seen = 5;
        }
    }
    assert_int_equal(seen, 5);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

static void script_txtb(void) { SCRIPT(txtb); }
static void script_rkh(void) { SCRIPT(rkh); }
static void test_txtb_snapshot(void **st) { (void)st; evt_hooks_test_txtb(EVT_HOOK_KERNEL_FREERTOS, script_txtb, check); }
static void test_rkh_stream(void **st) { (void)st; evt_hooks_test_rkh(EVT_HOOK_KERNEL_FREERTOS, script_rkh, check); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_txtb_snapshot),
        cmocka_unit_test(test_rkh_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
