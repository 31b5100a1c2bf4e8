/* The compile-time switches of the generic kernel hooks (evtrace/hooks_config.h): with a category
 * off its macros compile to nothing and do not evaluate their arguments (here: calls to a function
 * that is never defined, which would not link); with it on they reach the configured backend
 * (a test backend, EVT_CFG_HOOKS_BACKEND=test). */
#define EVT_CFG_HOOKS_BACKEND test
#define EVT_CFG_HOOKS_SVC 0
#define EVT_CFG_HOOKS_USER 0
#include "evtrace/hooks.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_test.h"

/* Declared, never defined: a switched-off macro must not evaluate it. */
uint32_t never_defined(void);

static int g_calls[16];
void evt_test_hook_kernel_info(uint32_t kernel, uint32_t version) { (void)kernel; (void)version; g_calls[0]++; }
void evt_test_hook_thread_in(uintptr_t thread, uint32_t prio) { (void)thread; (void)prio; g_calls[1]++; }
void evt_test_hook_thread_out(uintptr_t thread, evt_hook_state state, uint32_t native)
{
    (void)thread; (void)state; (void)native;
    g_calls[2]++;
}
void evt_test_hook_isr_enter(uint32_t irq) { g_calls[3] += (int)irq; }
void evt_test_hook_isr_exit(uint32_t irq) { g_calls[4] += (int)irq; }
void evt_test_hook_svc_enter(int32_t code, uint32_t nargs, const uintptr_t *args)
{
    (void)code; (void)nargs; (void)args;
    g_calls[5]++;
}
void evt_test_hook_svc_leave(int32_t code, int32_t ret, int paired) { (void)code; (void)ret; (void)paired; g_calls[6]++; }
void evt_test_hook_obj_create(evt_hook_obj type, uintptr_t obj, const char *name, uint32_t param)
{
    (void)type; (void)obj; (void)name; (void)param;
    g_calls[7]++;
}
void evt_test_hook_obj_delete(evt_hook_obj type, uintptr_t obj) { (void)type; (void)obj; g_calls[8]++; }
void evt_test_hook_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    (void)id; (void)a1; (void)a2; (void)a3; (void)a4;
    g_calls[9]++;
}

static void test_switches(void **state)
{
    (void)state;
    /* off: nothing evaluated, nothing called (never_defined would not link otherwise) */
    EVT_HOOK_SVC_ENTER(never_defined(), never_defined(), (const uintptr_t *)0);
    EVT_HOOK_SVC_LEAVE(never_defined(), never_defined(), 1);
    EVT_HOOK_USER(never_defined(), 1, 2, 3, 4);
    assert_int_equal(g_calls[5] + g_calls[6] + g_calls[9], 0);
    /* on (defaults follow EVT_CFG_HOOKS = 1) */
    EVT_HOOK_KERNEL_INFO(EVT_HOOK_KERNEL_UTKERNEL, 1);
    EVT_HOOK_THREAD_IN(1, 5);
    EVT_HOOK_THREAD_OUT(1, EVT_HOOK_STATE_WAITING, 4);
    EVT_HOOK_ISR_ENTER(7);
    EVT_HOOK_ISR_EXIT(7);
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001, "s", 0);
    EVT_HOOK_OBJ_DELETE(EVT_HOOK_OBJ_SEMAPHORE, 0x20001);
    assert_int_equal(g_calls[0], 1);
    assert_int_equal(g_calls[1], 1);
    assert_int_equal(g_calls[2], 1);
    assert_int_equal(g_calls[3], 7);
    assert_int_equal(g_calls[4], 7);
    assert_int_equal(g_calls[7], 1);
    assert_int_equal(g_calls[8], 1);
#if EVT_CFG_HOOKS_THREAD != 1 || EVT_CFG_HOOKS_SVC != 0 || EVT_CFG_HOOKS_CPUS != 1
#error "hooks_config.h defaults"
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_switches)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
