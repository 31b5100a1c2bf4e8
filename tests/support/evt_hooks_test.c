/* Recording the generic kernel hooks in a test through either backend (evt_hooks_test.h). */
#include "evt_hooks_test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <cmocka.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/hooks.h"

EVT_HOOK_DECLARE_BACKEND(rkh)

void evt_hooks_test_txtb(uint32_t kernel, evt_hooks_test_script script, evt_hooks_test_check check)
{
    static uint8_t buf[16384];
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.time_source = evt_test_clock32;
    evt_txtb_hooks_reset();
    assert_int_equal(evt_txtb_hooks_enable(buf, sizeof buf, 8, &o, kernel), EVT_TX_SUCCESS);
    script();
    evt_tx_trace_disable();
    check(buf, sizeof buf, "threadx");
}

void evt_hooks_test_rkh(uint32_t kernel, evt_hooks_test_script script, evt_hooks_test_check check)
{
    static evt_rkh_recorder r;
    static uint8_t ring[2048];
    evt_rkh_test_buf out;
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_test_buf_init(&out, 1u << 16);
    evt_rkh_init(&r, &cfg, ring, sizeof ring, evt_test_clock32, 1000u);
    evt_rkh_set_sink(&r, evt_rkh_test_sink, &out);
    evt_rkh_hooks_attach(&r);
    evt_rkh_hook_kernel_info(kernel, 1);
    script();
    evt_rkh_hooks_attach(NULL);
    assert_false(out.overflow);
    check(out.p, out.n, "rkh");
    evt_rkh_test_buf_free(&out);
}
