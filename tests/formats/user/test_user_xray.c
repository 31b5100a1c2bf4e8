/* User events through the XRay recorder (EVT_CFG_USER_BACKEND xray: typed events) and the XRay
 * reader: the printf text, values, intervals and states come back with their channels; llvm-xray's
 * own typed-event framing is untouched (other typed events stay "typed_event"). */
#define EVT_CFG_USER_BACKEND xray
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evtrace/user.h"
#include "user_test_util.h"

static void test_xray_roundtrip(void **st)
{
    (void)st;
    evt_xray_config cfg = {4096, 8, 1};
    evt_printf("off", "%d", 1); /* not recording: nothing */
    assert_int_equal(evt_xray_start(&cfg), 0);
    evt_user_resend();
    evt_printf("net", "rx %u bytes from %s port %hu, rtt %.2f ms", 1500u, "10.0.0.1", (unsigned short)8080, 0.75);
    evt_value("queue", 12);
    evt_interval_begin("frame", 9);
    evt_xray_typed_event(9, "ab", 2);
    evt_interval_end("frame", 9);
    EVT_STATE_MACHINE(link, "link", "down,up");
    evt_state(link, 1);
    assert_int_equal(evt_xray_stop(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/user.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    size_t len;
    uint8_t *buf = evt_test_read_file(path, &len);
    ut_trace t;
    assert_int_equal(ut_decode(buf, len, "xray", NULL, &t), EVT_END);
    char expect[128];
    snprintf(expect, sizeof expect, "rx %u bytes from %s port %hu, rtt %.2f ms", 1500u, "10.0.0.1", (unsigned short)8080, 0.75);
    unsigned seen = 0;
    for (unsigned i = 0; i < t.n; i++) {
        const ut_ev *e = &t.ev[i];
        if (!strcmp(e->name, "net")) { assert_string_equal(e->text, expect); seen |= 1; }
        if (!strcmp(e->name, "queue")) { assert_int_equal(e->value, 12); seen |= 2; }
        if (!strcmp(e->name, "frame")) { assert_int_equal(e->interval_id, 9); seen |= e->interval_end ? 8 : 4; }
        if (!strcmp(e->name, "link")) { assert_string_equal(e->state, "up"); seen |= 16; }
        if (!strcmp(e->name, "typed_event")) seen |= 32;
        assert_string_not_equal(e->name, "off");
    }
    assert_int_equal(seen, 63);
    assert_int_equal(t.sites, 5);
    assert_int_equal(t.errors, 0);
    free(t.ev);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_xray_roundtrip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
