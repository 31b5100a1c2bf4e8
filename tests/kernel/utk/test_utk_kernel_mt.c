/* The host μT-Kernel under ThreadSanitizer (label concurrency): its task threads hand the one
 * simulated CPU over through the kernel lock, the hooks run on whichever thread is current.
 * Runs the scripted scenario twice with the virtual clock (identical accounting) and once with
 * the real-time clock (the same work gets done). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "formats/threadx/txtb_hooks.h"
#include "utk_kernel.h"
#include "utk_scenario.h"

static uint8_t g_buf[48u + 32u * 48u + 1024u * 32u];

static utk_acct run(int real_time)
{
    evt_tx_options o;
    memset(&o, 0, sizeof o);
    o.time_source = utk_now32;
    evt_txtb_hooks_reset();
    assert_int_equal(evt_txtb_hooks_enable(g_buf, sizeof g_buf, 32, &o, EVT_HOOK_KERNEL_UTKERNEL), EVT_TX_SUCCESS);
    utk_scenario scn = UTK_SCENARIO_DEFAULT;
    if (real_time) scn.run_ms = 40;   /* slack for slow thread hand-overs (sanitizers, load) */
    utk_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.real_time = real_time;
    assert_int_equal(utk_boot(&cfg, utk_scenario_main, 1, &scn), 0);
    evt_tx_trace_disable();
    return *utk_accounting();
}

static void test_virtual_twice(void **state)
{
    (void)state;
    utk_acct a = run(0), b = run(0);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.svc[UTK_FNCD_INDEX(UTK_TFN_tk_wai_sem)].count, 5);
}

static void test_real_time(void **state)
{
    (void)state;
    utk_acct a = run(1);
    /* 5 ADC rounds: sensor's tk_wai_sem returned 5 times, sent 5 messages; logger got them. */
    assert_int_equal(a.svc[UTK_FNCD_INDEX(UTK_TFN_tk_wai_sem)].count, 5);
    assert_int_equal(a.svc[UTK_FNCD_INDEX(UTK_TFN_tk_snd_mbx)].count, 5);
    assert_true(a.svc[UTK_FNCD_INDEX(UTK_TFN_tk_rcv_mbx)].count >= 5);
    assert_true(a.end >= 40000);            /* init slept 40 ms of real time */
    assert_true(a.isr_count >= 5 + 40);     /* adc + at least 40 ticks */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_virtual_twice),
        cmocka_unit_test(test_real_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
