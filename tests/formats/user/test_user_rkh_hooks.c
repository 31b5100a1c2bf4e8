/* User events and the kernel hooks on one RKH stream (a FreeRTOS stream with printf-style events:
 * evt_freertos_start_stream attaches the hooks, evt_rkh_user_attach the user records, in either
 * order). Each names its own user record numbers by FWK_TUSR symbols: the two sets must not share
 * a number, or the later name takes over the other's records (hook.obj_op and the user carrier
 * were both user event 24: every object operation decoded as a damaged user record, or every
 * printf as an object operation). Here both decode, whichever attached first. */
#define EVT_CFG_USER_BACKEND rkh
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evt_rkh_test.h"
#include "evtrace/user.h"
#include "formats/rkh/rkh_hooks.h"
#include "user_test_util.h"

EVT_HOOK_DECLARE_BACKEND(rkh)

static uint8_t g_ring[4096];
static uint32_t g_t;
static uint32_t clock_fn(void) { return g_t += 10u; }

/* No number of the hooks table is the user carrier's (rkh_hooks_defs.h, evtrace/user_defs.h). */
#define NOT_CARRIER_(n, name, s) typedef char carrier_not_##name[(n) != EVT_USER_RKH_NUM ? 1 : -1];
RKH_HOOKS_TABLE(NOT_CARRIER_)
#undef NOT_CARRIER_

static void run(int hooks_first)
{
    evt_rkh_test_buf out;
    evt_rkh_recorder r;
    evt_rkh_test_streamed(&r, g_ring, sizeof g_ring, clock_fn, 1000000u, &out, 1 << 20);
    if (hooks_first) evt_rkh_hooks_attach(&r);
    evt_rkh_user_attach(&r);
    if (!hooks_first) evt_rkh_hooks_attach(&r);
    evt_rkh_hook_obj_op(0x110, 0x1234, 0);
    evt_printf("app", "n=%d", 7);
    evt_rkh_hook_obj_op(0x111, 0x1234, -1);
    evt_value("level", 42);
    evt_rkh_user_attach(NULL);
    evt_rkh_hooks_attach(NULL);
    evt_rkh_flush(&r);

    ut_trace t;
    assert_int_equal(ut_decode(out.p, out.n, "rkh", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    unsigned texts = 0, values = 0, ops = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        if (!strcmp(e->name, "app")) { assert_string_equal(e->text, "n=7"); texts++; }
        else if (!strcmp(e->name, "level")) { assert_int_equal(e->value, 42); values++; }
    }
    assert_int_equal(texts, 1);
    assert_int_equal(values, 1);
    free(t.ev);
    /* the object operations keep their meaning (code, object, result) */
    evt_reader *rd = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(out.p, out.n, "rkh", NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK)
        if ((ev.m.has & EVT_M_OP) && ev.m.obj == 0x1234u) ops++;
    evt_reader_close(rd);
    assert_int_equal(ops, 2);
    evt_rkh_test_buf_free(&out);
}

static void test_hooks_then_user(void **st) { (void)st; run(1); }
static void test_user_then_hooks(void **st) { (void)st; run(0); }

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hooks_then_user), cmocka_unit_test(test_user_then_hooks)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
