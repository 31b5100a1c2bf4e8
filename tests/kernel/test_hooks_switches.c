/* The compile-time switches of the generic kernel hooks (evtrace/hooks_config.h): with a category
 * off its macros compile to nothing and do not evaluate their arguments (here: calls to a function
 * that is never defined, which would not link); with it on they reach the configured backend
 * (the shared fake backend, EVT_CFG_HOOKS_BACKEND=test: tests/support/evt_fake_hooks.c). */
#define EVT_CFG_HOOKS_BACKEND test
#define EVT_CFG_HOOKS_SVC 0
#define EVT_CFG_HOOKS_USER 0
#include "evtrace/hooks.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_fake_hooks.h"
#include "evt_test.h"

/* Declared, never defined: a switched-off macro must not evaluate it. */
uint32_t never_defined(void);

static void test_switches(void **state)
{
    (void)state;
    fh_reset();
    /* off: nothing evaluated, nothing called (never_defined would not link otherwise) */
    EVT_HOOK_SVC_ENTER(never_defined(), never_defined(), (const uintptr_t *)0);
    EVT_HOOK_SVC_LEAVE(never_defined(), never_defined(), 1);
    EVT_HOOK_USER(never_defined(), 1, 2, 3, 4);
    EVT_HOOK_OBJ_OP(never_defined(), never_defined(), never_defined()); /* an RTOS hook of the SVC category */
    assert_int_equal(fh_count(FH_SVC_IN) + fh_count(FH_SVC_OUT) + fh_count(FH_USER), 0);
    /* on (defaults follow EVT_CFG_HOOKS = 1) */
    EVT_HOOK_KERNEL_INFO(EVT_HOOK_KERNEL_UTKERNEL, 1);
    EVT_HOOK_THREAD_IN(1, 5);
    EVT_HOOK_THREAD_OUT(1, EVT_HOOK_STATE_WAITING, 4);
    EVT_HOOK_ISR_ENTER(7);
    EVT_HOOK_ISR_EXIT(7);
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001, "s", 0);
    EVT_HOOK_OBJ_DELETE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001);
    assert_int_equal(fh_n, 7);
    assert_int_equal(fh_log[0].what, FH_INFO);
    assert_int_equal(fh_log[1].what, FH_IN);
    assert_int_equal(fh_log[2].what, FH_OUT);
    assert_int_equal(fh_log[3].what, FH_ISR_IN);
    assert_int_equal(fh_log[3].a, 7);
    assert_int_equal(fh_log[4].what, FH_ISR_OUT);
    assert_int_equal(fh_log[4].a, 7);
    assert_int_equal(fh_log[5].what, FH_CRE);
    assert_int_equal(fh_log[6].what, FH_DEL);
#if EVT_CFG_HOOKS_THREAD != 1 || EVT_CFG_HOOKS_SVC != 0 || EVT_CFG_HOOKS_CPUS != 1
#error "hooks_config.h defaults"
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_switches)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
