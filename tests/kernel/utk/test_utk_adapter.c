/* The μT-Kernel DS adapter (src/kernel/utk/utk_adapter.c) on the host μT-Kernel, observed through a
 * test backend of the generic hooks (EVT_CFG_HOOKS_BACKEND=test: tests/support/evt_fake_hooks.c): what each DS hook
 * becomes (svc enter/leave with code, args, ret and the paired flag; thread in/out with priority,
 * generic state and TTS_*; ISR enter/exit with the interrupt number; object create/delete with
 * names from td_ref_dsname), attach/detach through td_hok_*. */
#define EVT_CFG_HOOKS_BACKEND test
#include "../../../src/kernel/utk/utk_adapter.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "evt_fake_hooks.h"
#include "utk_kernel.h"

/* The generic hooks' calls land in the shared fake backend's log (tests/support/evt_fake_hooks.h),
 * stamped with the host kernel's clock. */
static uint64_t kernel_now(void) { return utk_now(); }

#define FPC(f) ((FP)(void (*)(void))(f))
static ID g_sem, g_sem2, g_wrk;

static void worker(INT stacd, void *exinf)
{
    (void)exinf;
    assert_int_equal(stacd, 42);
    tk_wai_sem(g_sem, 1, TMO_FEVR);
    tk_ext_tsk();
}
static void isr5(UINT dintno)
{
    (void)dintno;
    tk_sig_sem(g_sem, 1);
}
static void adapter_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    assert_int_equal(evt_utk_attach(EVT_UTK_HOOK_ALL), E_OK);
    T_CSEM cs;
    memset(&cs, 0, sizeof cs);
    cs.sematr = TA_DSNAME;
    cs.maxsem = 3;
    memcpy(cs.dsname, "rxsem\0\0\0", 8);
    g_sem = tk_cre_sem(&cs);
    cs.sematr = 0;
    g_sem2 = tk_cre_sem(&cs);
    T_CTSK ct;
    memset(&ct, 0, sizeof ct);
    ct.tskatr = TA_HLNG | TA_DSNAME;
    ct.task = FPC(worker);
    ct.itskpri = 7;
    memcpy(ct.dsname, "worker01", 8);   /* all 8 bytes used: no NUL in the kernel's name */
    g_wrk = tk_cre_tsk(&ct);
    T_DINT d = {TA_HLNG, FPC(isr5)};
    tk_def_int(5, &d);
    tk_sta_tsk(g_wrk, 42);              /* worker preempts and waits */
    utk_sim_schedule_int(5, utk_now() + 100);
    utk_sim_work(300);                  /* the interrupt releases the worker, which preempts */
    tk_del_sem(g_sem2);
    assert_int_equal(evt_utk_detach(EVT_UTK_HOOK_ALL), E_OK);
    tk_get_tid();                       /* not recorded */
    utk_shutdown();
}

static void test_adapter_mapping(void **state)
{
    (void)state;
    fh_reset();
    fh_clock = kernel_now;
    utk_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.end_time = 50000;
    assert_int_equal(utk_boot(&cfg, adapter_init, 10, NULL), 0);

    /* attach: the existing task (init, created before) named, and it is switched in */
    assert_int_equal(fh_log[0].what, FH_CRE);
    assert_int_equal(fh_log[0].a, EVT_HOOK_OBJ_THREAD);
    assert_int_equal(fh_log[0].obj, 1);
    assert_string_equal(fh_log[0].name, "init");
    assert_int_equal(fh_log[0].b, 10);
    assert_int_equal(fh_log[1].what, FH_IN);
    assert_int_equal(fh_log[1].obj, 1);
    assert_int_equal(fh_log[1].a, 10);
    /* tk_cre_sem: enter (1 arg: the packet), leave paired with ret = id, then the create */
    int i = fh_find_code(0, FH_SVC_IN, UTK_TFN_tk_cre_sem);
    assert_int_equal(i, 2);
    assert_int_equal(fh_log[i].nargs, 1);
    assert_int_equal(fh_log[i + 1].what, FH_SVC_OUT);
    assert_int_equal(fh_log[i + 1].paired, 1);
    assert_int_equal((ID)fh_log[i + 1].b, g_sem);
    assert_int_equal(fh_log[i + 2].what, FH_CRE);
    assert_int_equal(fh_log[i + 2].a, EVT_HOOK_OBJ_SEMAPHORE);
    assert_int_equal(fh_log[i + 2].obj, ((uintptr_t)UTK_OC_SEM << 16) | (uintptr_t)g_sem);
    assert_string_equal(fh_log[i + 2].name, "rxsem");
    /* without TA_DSNAME: the default name */
    assert_string_equal(fh_log[i + 5].name, "sem2");
    /* the task: name (8 bytes, no NUL), priority from td_ref_tsk */
    i = fh_find_code(0, FH_SVC_OUT, UTK_TFN_tk_cre_tsk);
    assert_int_equal(fh_log[i + 1].what, FH_CRE);
    assert_int_equal(fh_log[i + 1].a, EVT_HOOK_OBJ_THREAD);
    assert_int_equal(fh_log[i + 1].obj, (uintptr_t)g_wrk);
    assert_string_equal(fh_log[i + 1].name, "worker01");
    assert_int_equal(fh_log[i + 1].b, 7);
    /* tk_sta_tsk(worker, 42): args, then the switch: init out READY (TTS_RDY), worker in prio 7 */
    i = fh_find_code(0, FH_SVC_IN, UTK_TFN_tk_sta_tsk);
    assert_int_equal(fh_log[i].nargs, 2);
    assert_int_equal(fh_log[i].args[0], (uintptr_t)g_wrk);
    assert_int_equal(fh_log[i].args[1], 42);
    assert_int_equal(fh_log[i + 1].what, FH_OUT);
    assert_int_equal(fh_log[i + 1].obj, 1);
    assert_int_equal(fh_log[i + 1].a, EVT_HOOK_STATE_READY);
    assert_int_equal(fh_log[i + 1].b, TTS_RDY);
    assert_int_equal(fh_log[i + 2].what, FH_IN);
    assert_int_equal(fh_log[i + 2].obj, (uintptr_t)g_wrk);
    assert_int_equal(fh_log[i + 2].a, 7);
    /* worker: wai_sem (3 args, tmout -1 as a word), out WAITING/TTS_WAI, init back in at prio 10 */
    i = fh_find_code(i, FH_SVC_IN, UTK_TFN_tk_wai_sem);
    assert_int_equal(fh_log[i].nargs, 3);
    assert_int_equal((INT)fh_log[i].args[2], TMO_FEVR);
    assert_int_equal(fh_log[i + 1].what, FH_OUT);
    assert_int_equal(fh_log[i + 1].a, EVT_HOOK_STATE_WAITING);
    assert_int_equal(fh_log[i + 1].b, TTS_WAI);
    assert_int_equal(fh_log[i + 2].what, FH_IN);
    assert_int_equal(fh_log[i + 2].a, 10);
    /* interrupt 5 with the handler's sig_sem inside */
    int in = -1;
    for (int k = fh_find(0, FH_ISR_IN); k >= 0; k = fh_find(k + 1, FH_ISR_IN))
        if (fh_log[k].a == 5) { in = k; break; }
    assert_true(in > 0);
    assert_int_equal(fh_log[in + 1].code, UTK_TFN_tk_sig_sem);
    assert_int_equal(fh_log[in + 2].what, FH_SVC_OUT);
    assert_int_equal(fh_log[in + 3].what, FH_ISR_OUT);
    assert_int_equal(fh_log[in + 3].a, 5);
    /* delayed dispatch: init out READY, worker in, its wai_sem leave paired with E_OK */
    assert_int_equal(fh_log[in + 4].what, FH_OUT);
    assert_int_equal(fh_log[in + 4].b, TTS_RDY);
    assert_int_equal(fh_log[in + 5].what, FH_IN);
    assert_int_equal(fh_log[in + 6].what, FH_SVC_OUT);
    assert_int_equal(fh_log[in + 6].code, UTK_TFN_tk_wai_sem);
    assert_int_equal(fh_log[in + 6].paired, 1);
    assert_int_equal(fh_log[in + 6].b, E_OK);
    /* tk_ext_tsk: enter, out DORMANT/TTS_DMT, no leave */
    assert_int_equal(fh_log[in + 7].code, UTK_TFN_tk_ext_tsk);
    assert_int_equal(fh_log[in + 8].what, FH_OUT);
    assert_int_equal(fh_log[in + 8].a, EVT_HOOK_STATE_DORMANT);
    assert_int_equal(fh_log[in + 8].b, TTS_DMT);
    assert_int_equal(fh_find_code(0, FH_SVC_OUT, UTK_TFN_tk_ext_tsk), -1);
    /* tk_del_sem(sem2): the delete with the handle decoded from exinf */
    i = fh_find_code(0, FH_SVC_OUT, UTK_TFN_tk_del_sem);
    assert_int_equal(fh_log[i + 1].what, FH_DEL);
    assert_int_equal(fh_log[i + 1].obj, ((uintptr_t)UTK_OC_SEM << 16) | (uintptr_t)g_sem2);
    /* detach: nothing is recorded after it (tk_get_tid) */
    assert_int_equal(fh_find_code(0, FH_SVC_IN, UTK_TFN_tk_get_tid), -1);
    assert_int_equal(fh_log[fh_n - 1].what, FH_DEL);
}

/* A leave without enter (exinf NULL) becomes paired = 0; an exd_tsk stop (0) deletes the thread. */
static void test_adapter_unpaired_and_exd(void **state)
{
    (void)state;
    fh_reset();
    fh_clock = kernel_now;
    evt_utk_svc_leave(UTK_TFN_tk_sig_sem, E_OK, NULL);
    assert_int_equal(fh_n, 1);
    assert_int_equal(fh_log[0].paired, 0);
    void *x = evt_utk_svc_enter(UTK_TFN_tk_del_sem, NULL, (uintptr_t)3);
    assert_non_null(x);
    evt_utk_svc_leave(UTK_TFN_tk_del_sem, E_OBJ, x);   /* failed: no delete */
    assert_int_equal(fh_n, 3);
    evt_utk_dsp_stop(4, 12345, 0);
    assert_int_equal(fh_log[3].what, FH_OUT);
    assert_int_equal(fh_log[3].a, EVT_HOOK_STATE_DELETED);
    assert_int_equal(fh_log[4].what, FH_DEL);
    assert_int_equal(fh_log[4].obj, 4);
    assert_int_equal(fh_log[4].a, EVT_HOOK_OBJ_THREAD);
    /* state mapping of every TTS_* */
    assert_int_equal(evt_utk_state_of(TTS_RDY), EVT_HOOK_STATE_READY);
    assert_int_equal(evt_utk_state_of(TTS_WAI | TTS_NODISWAI), EVT_HOOK_STATE_WAITING);
    assert_int_equal(evt_utk_state_of(TTS_SUS), EVT_HOOK_STATE_SUSPENDED);
    assert_int_equal(evt_utk_state_of(TTS_WAS), EVT_HOOK_STATE_WAIT_SUSPENDED);
    assert_int_equal(evt_utk_state_of(TTS_DMT), EVT_HOOK_STATE_DORMANT);
    assert_int_equal(evt_utk_state_of(0), EVT_HOOK_STATE_DELETED);
    /* an extended SVC (fncd >= 0) passes one argument, pk_para */
    fh_reset();
    fh_clock = kernel_now;
    int pk = 0;
    evt_utk_svc_enter(0x00010203, NULL, (uintptr_t)&pk);
    assert_int_equal(fh_log[0].nargs, 1);
    assert_int_equal(fh_log[0].args[0], (uintptr_t)&pk);
    /* 5-argument call: all five seen */
    fh_reset();
    fh_clock = kernel_now;
    evt_utk_svc_enter(UTK_TFN_tk_wai_flg, NULL, (uintptr_t)1, (uintptr_t)2, (uintptr_t)3, (uintptr_t)4, (uintptr_t)5);
    assert_int_equal(fh_log[0].nargs, 5);
    assert_int_equal(fh_log[0].args[4], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adapter_mapping),
        cmocka_unit_test(test_adapter_unpaired_and_exd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
