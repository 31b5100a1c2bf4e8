/* The -finstrument-functions hook with a raw signal handler at every instruction of a function's
 * first call (x86-64 Linux): the test single-steps __cyg_profile_func_enter of a function not seen
 * before with the trap flag, and the SIGTRAP handler calls the hook for the same function once, at
 * step N, for every N until the call completes in fewer steps. Before the fix a handler that landed
 * between the insertion of the function's address and the publication of its id waited for the id
 * the interrupted call had yet to store: forever (the handler of a thread waits for that thread).
 * Now both calls record, with one id, and the trace holds every record. An alarm turns a hang into
 * a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "evt_step.h"
#include "evt_test.h"
#include "evtrace/reader.h"
#include "evtrace/xray.h"


void __cyg_profile_func_enter(void *fn, void *site);

#if EVT_STEP_OK
static volatile unsigned g_step, g_at;
static void *volatile g_fn; /* the function the handler enters at step g_at (NULL: none) */
static volatile unsigned g_nested;

static __attribute__((no_instrument_function)) void on_trap(int signo)
{
    (void)signo;
    if (++g_step == g_at && g_fn) {
        __cyg_profile_func_enter(g_fn, NULL);
        g_nested++;
    }
}

#endif

static void test_handler_at_every_step_of_a_first_call(void **st)
{
    (void)st;
#if EVT_STEP_OK
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_trap;
    sigemptyset(&sa.sa_mask);
    assert_int_equal(sigaction(SIGTRAP, &sa, NULL), 0);
    alarm(30); /* a handler waiting for the call it interrupted: fail, do not hang */
    evt_xray_config c = {65536u, 16u, 1};
    assert_int_equal(evt_xray_start(&c), 0);
    unsigned at = 1, steps, calls = 0;
    do {
        /* a function address not seen before (keys only: never called) */
        void *fn = (void *)(uintptr_t)(0x7e570000u + 16u * at);
        g_step = 0;
        g_at = at;
        g_fn = fn;
        evt_step_trap_on();
        __cyg_profile_func_enter(fn, NULL);
        evt_step_trap_off();
        g_fn = NULL;
        steps = g_step;
        calls += 1u;
        at++;
    } while (at <= steps && at < 5000u);
    alarm(0);
    assert_true(steps > 10u); /* it did step */
    assert_int_equal(evt_xray_stop(), 0);
    char path[512];
    snprintf(path, sizeof path, "%s/cyg_step.xray", evt_test_tmpdir());
    assert_int_equal(evt_xray_write_file(path), 0);
    evt_reader *r;
    char err[256];
    assert_int_equal(evt_reader_open_file(path, "xray", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_event ev;
    evt_status rc;
    uint64_t data = 0;
    while ((rc = evt_reader_next(r, &ev)) == EVT_OK)
        if (ev.kind != EVT_KIND_LOST) data++;
    assert_int_equal(rc, EVT_END);
    print_message("%u stepped first calls (%u steps each at most), %u nested: %llu records + %llu lost\n", calls,
                  steps, g_nested, (unsigned long long)data, (unsigned long long)r->lost);
    assert_int_equal(r->errors, 0);
    assert_int_equal(data + r->lost, calls + g_nested);
    evt_reader_close(r);
#endif
}

int main(void)
{
    if (!EVT_STEP_OK) { /* CTest reports exit 77 as skipped (SKIP_RETURN_CODE), not passed */
        printf("test_xray_cyg_step_isr: skipped: single-stepping needs x86-64 Linux and an uninstrumented build\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handler_at_every_step_of_a_first_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
