/* User events through the RKH recorder (EVT_CFG_USER_BACKEND rkh: one user record "evtrace.user"
 * with a UI8 type and UI32 words) and the RKH reader: printf text (also a record of many words
 * with a string), values, intervals and a state machine come back with their channels; a user
 * record of the application's own with another shape stays a plain user record; filtered, nothing
 * is evaluated. */
#define EVT_CFG_USER_BACKEND rkh
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evt_rkh_test.h"
#include "evtrace/user.h"
#include "user_test_util.h"

static uint8_t g_ring[4096];
static uint32_t g_t;
static uint32_t clock_fn(void) { return g_t += 10u; }

static void test_rkh_roundtrip(void **st)
{
    (void)st;
    evt_rkh_test_buf out;
    evt_rkh_recorder r;
    evt_rkh_test_streamed(&r, g_ring, sizeof g_ring, clock_fn, 1000000u, &out, 1 << 20);
    int evaluated = 0;
    evt_printf("off", "%d", ++evaluated); /* not attached: nothing, not evaluated */
    assert_int_equal(evaluated, 0);
    evt_rkh_user_attach(&r);
    evt_printf("motor", "rpm %u, load %d%% (%s)", 3000u, -5, "nominal");
    evt_printf("motor", "long %s|%s|%lld", "abcdefghijklmnopqrstuvwxyz", "0123456789", -1234567890123LL);
    evt_value("rpm", 3000);
    evt_interval_begin("ramp", 4);
    evt_interval_end("ramp", 4);
    EVT_STATE_MACHINE(sm, "drive", "off,on");
    evt_state(sm, 1);
    /* an application's own user record 5 with its own fields */
    evt_rkh_filter_off_event(&r, 0xC0u + 5u);
    assert_true(evt_rkh_begin(&r, 0xC0u + 5u));
    evt_rkh_usr_int(&r, EVT_RKH_USR_UI32, 0, 77u);
    evt_rkh_end(&r);
    evt_rkh_filter_on_event(&r, 0xC0u + EVT_USER_RKH_NUM);
    evt_printf("motor", "filtered %d", ++evaluated);
    assert_int_equal(evaluated, 0);
    evt_rkh_user_attach(NULL);
    evt_rkh_flush(&r);

    ut_trace t;
    assert_int_equal(ut_decode(out.p, out.n, "rkh", NULL, &t), EVT_END);
    assert_int_equal(t.errors, 0);
    char want[2][160];
    snprintf(want[0], sizeof want[0], "rpm %u, load %d%% (%s)", 3000u, -5, "nominal");
    snprintf(want[1], sizeof want[1], "long %s|%s|%lld", "abcdefghijklmnopqrstuvwxyz", "0123456789", -1234567890123LL);
    unsigned k = 0, seen = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        if (!strcmp(e->name, "motor")) { assert_true(k < 2); assert_string_equal(e->text, want[k]); k++; }
        else if (!strcmp(e->name, "rpm")) { assert_int_equal(e->value, 3000); seen |= 1; }
        else if (!strcmp(e->name, "ramp")) seen |= e->interval_end ? 4 : 2;
        else if (!strcmp(e->name, "drive")) { assert_string_equal(e->state, "on"); seen |= 8; }
        else if (!strcmp(e->name, "USR#5")) seen |= 16;
    }
    assert_int_equal(k, 2);
    assert_int_equal(seen, 31);
    free(t.ev);
    evt_rkh_test_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_rkh_roundtrip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
