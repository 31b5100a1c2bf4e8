/* Conformance of the host μT-Kernel's DS hooks with shared/formats/utkernel.md §1-2, observed with
 * the test's own hook routines (no recorder): enter/leave pairing and exinf, NULL exinf for a leave
 * without enter, hooks installed/removed in the middle of a call, exec/stop with the TTS_* state,
 * interrupt enter/leave with the interrupt number, calls that never return, nesting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evt_test.h"
#include "utk_kernel.h"

enum { L_ENTER = 1, L_LEAVE, L_EXEC, L_STOP, L_IN, L_OUT, L_MARK };

typedef struct rec {
    int what;          /* L_* */
    FN fncd;           /* svc */
    uintptr_t a[5];    /* svc args */
    void *exinf;       /* enter's return / leave's exinf */
    INT ret;           /* leave */
    ID tskid;          /* exec/stop; the caller for svc */
    UINT st;           /* stop: tskstat; exec: td_ref_tsk state */
    UINT intno;        /* int */
    uint64_t t;        /* clock */
} rec;

static rec g_log[512];
static int g_n;
static uintptr_t g_token = 0x1000;

static rec *add(int what)
{
    assert_true(g_n < 512);
    rec *r = &g_log[g_n++];
    memset(r, 0, sizeof *r);
    r->what = what;
    r->t = utk_now();
    return r;
}

static void *h_enter(FN fncd, TD_CALINF *calinf, ...)
{
    rec *r = add(L_ENTER);
    r->fncd = fncd;
    assert_non_null(calinf);
    unsigned n = UTK_FNCD_NARGS(fncd);
    va_list ap;
    va_start(ap, calinf);
    for (unsigned i = 0; i < n && i < 5; i++) r->a[i] = va_arg(ap, uintptr_t);
    va_end(ap);
    r->exinf = (void *)(g_token += 0x10);
    return r->exinf;
}
static void h_leave(FN fncd, INT ret, void *exinf)
{
    rec *r = add(L_LEAVE);
    r->fncd = fncd;
    r->ret = ret;
    r->exinf = exinf;
}
static void h_exec(ID tskid, INT lsid)
{
    (void)lsid;
    rec *r = add(L_EXEC);
    r->tskid = tskid;
    TD_RTSK rt;
    assert_int_equal(td_ref_tsk(tskid, &rt), E_OK);
    r->st = rt.tskstat;  /* spec: already in RUN state */
}
static void h_stop(ID tskid, INT lsid, UINT tskstat)
{
    (void)lsid;
    rec *r = add(L_STOP);
    r->tskid = tskid;
    r->st = tskstat;
}
static void h_int_enter(UINT dintno) { add(L_IN)->intno = dintno; }
static void h_int_leave(UINT dintno) { add(L_OUT)->intno = dintno; }
static void mark(int v) { add(L_MARK)->ret = v; }

#define FPC(f) ((FP)(void (*)(void))(f))
static const TD_HSVC k_hsvc = {FPC(h_enter), FPC(h_leave)};
static const TD_HDSP k_hdsp = {FPC(h_exec), FPC(h_stop)};
static const TD_HINT k_hint = {FPC(h_int_enter), FPC(h_int_leave)};

static void hook_all(void)
{
    assert_int_equal(td_hok_svc(&k_hsvc), E_OK);
    assert_int_equal(td_hok_dsp(&k_hdsp), E_OK);
    assert_int_equal(td_hok_int(&k_hint), E_OK);
}

static ID mk_task(void (*fn)(INT, void *), PRI pri)
{
    T_CTSK c;
    memset(&c, 0, sizeof c);
    c.tskatr = TA_HLNG;
    c.task = FPC(fn);
    c.itskpri = pri;
    ID id = tk_cre_tsk(&c);
    assert_true(id > 0);
    return id;
}
static ID mk_sem(INT cnt)
{
    T_CSEM c;
    memset(&c, 0, sizeof c);
    c.isemcnt = cnt;
    c.maxsem = 10;
    ID id = tk_cre_sem(&c);
    assert_true(id > 0);
    return id;
}

/* Index of the first record at or after `from` matching what/fncd (0 = any), or -1. */
static int find(int from, int what, FN fncd)
{
    for (int i = from; i < g_n; i++)
        if (g_log[i].what == what && (fncd == 0 || g_log[i].fncd == fncd)) return i;
    return -1;
}

static void boot(void (*init)(INT, void *))
{
    g_n = 0;
    utk_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.end_time = 100000;
    assert_int_equal(utk_boot(&cfg, init, 10, NULL), 0);
    td_hok_svc(NULL);
    td_hok_dsp(NULL);
    td_hok_int(NULL);
}

/* ---- 1. enter/leave pairing, arguments, exinf ---- */
static ID g_sem;
static void pairing_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    g_sem = mk_sem(0);
    hook_all();
    tk_sig_sem(g_sem, 2);
    tk_wai_sem(g_sem, 1, TMO_FEVR);
    tk_wai_sem(g_sem, 5, TMO_POL);   /* E_PAR: cnt > maxsem? no: 5 <= 10 -> E_TMOUT */
    utk_shutdown();
}

static void test_pairing(void **state)
{
    (void)state;
    boot(pairing_init);
    int e = find(0, L_ENTER, UTK_TFN_tk_sig_sem);
    assert_true(e >= 0);
    assert_int_equal(g_log[e].a[0], (uintptr_t)g_sem);
    assert_int_equal(g_log[e].a[1], 2);
    int l = find(e, L_LEAVE, UTK_TFN_tk_sig_sem);
    assert_int_equal(l, e + 1);
    assert_ptr_equal(g_log[l].exinf, g_log[e].exinf);
    assert_int_equal(g_log[l].ret, E_OK);
    assert_true(g_log[l].t > g_log[e].t);   /* the call took virtual time */
    e = find(l, L_ENTER, UTK_TFN_tk_wai_sem);
    assert_int_equal(g_log[e].a[0], (uintptr_t)g_sem);
    assert_int_equal(g_log[e].a[1], 1);
    assert_int_equal((INT)g_log[e].a[2], TMO_FEVR);
    l = find(e, L_LEAVE, UTK_TFN_tk_wai_sem);
    assert_ptr_equal(g_log[l].exinf, g_log[e].exinf);
    e = find(l, L_ENTER, UTK_TFN_tk_wai_sem);
    l = find(e, L_LEAVE, UTK_TFN_tk_wai_sem);
    assert_ptr_equal(g_log[l].exinf, g_log[e].exinf);
    assert_int_equal(g_log[l].ret, E_TMOUT);
    /* utk_shutdown is not a service call: the last record is that leave. */
    assert_int_equal(l, g_n - 1);
    assert_int_equal(UTK_TFN_tk_wai_sem, (FN)0x80190300);  /* the documented code */
}

/* ---- 2. leave without enter gets NULL (hook installed while the call was in progress) ---- */
static ID g_hi;
static void hi_waiter(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    ER er = tk_wai_sem(g_sem, 1, TMO_FEVR);  /* no hooks yet: no enter */
    mark(er);
    tk_ext_tsk();
}
static void install_mid_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    g_sem = mk_sem(0);
    g_hi = mk_task(hi_waiter, 5);
    tk_sta_tsk(g_hi, 0);                 /* hi runs at once and blocks */
    hook_all();
    tk_sig_sem(g_sem, 1);               /* releases hi, which preempts us inside this call */
    mark(100);
    utk_shutdown();
}

static void test_leave_without_enter(void **state)
{
    (void)state;
    boot(install_mid_init);
    /* Sequence: enter(sig_sem, init) stop(init, RDY) exec(hi) leave(wai_sem, NULL) mark ... */
    int e = find(0, L_ENTER, UTK_TFN_tk_sig_sem);
    assert_int_equal(e, 0);
    assert_int_equal(g_log[1].what, L_STOP);
    assert_int_equal(g_log[1].tskid, 1);
    assert_int_equal(g_log[1].st, TTS_RDY);
    assert_int_equal(g_log[2].what, L_EXEC);
    assert_int_equal(g_log[2].tskid, g_hi);
    assert_int_equal(g_log[2].st, TTS_RUN);
    assert_int_equal(g_log[3].what, L_LEAVE);
    assert_int_equal(g_log[3].fncd, UTK_TFN_tk_wai_sem);
    assert_null(g_log[3].exinf);
    assert_int_equal(g_log[3].ret, E_OK);
    assert_int_equal(g_log[4].what, L_MARK);
    /* hi exits (no leave for tk_ext_tsk), init resumes and its sig_sem leave gets its exinf. */
    assert_int_equal(g_log[5].what, L_ENTER);
    assert_int_equal(g_log[5].fncd, UTK_TFN_tk_ext_tsk);
    assert_int_equal(g_log[6].what, L_STOP);
    assert_int_equal(g_log[6].st, TTS_DMT);
    assert_int_equal(g_log[7].what, L_EXEC);
    assert_int_equal(g_log[7].tskid, 1);
    assert_int_equal(g_log[8].what, L_LEAVE);
    assert_int_equal(g_log[8].fncd, UTK_TFN_tk_sig_sem);
    assert_ptr_equal(g_log[8].exinf, g_log[0].exinf);
    assert_int_equal(find(0, L_LEAVE, UTK_TFN_tk_ext_tsk), -1);
}

/* ---- 3. hook removed in the middle of a call: enter without leave ---- */
static void hi_waiter_hooked(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    hook_all();
    ER er = tk_wai_sem(g_sem, 1, TMO_FEVR);  /* enter recorded; leave after removal: none */
    mark(er);
    tk_ext_tsk();
}
static void remove_mid_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    g_sem = mk_sem(0);
    g_hi = mk_task(hi_waiter_hooked, 5);
    tk_sta_tsk(g_hi, 0);
    td_hok_svc(NULL);                   /* only the svc hooks go */
    tk_sig_sem(g_sem, 1);
    utk_shutdown();
}

static void test_removed_mid_call(void **state)
{
    (void)state;
    boot(remove_mid_init);
    int e = find(0, L_ENTER, UTK_TFN_tk_wai_sem);
    assert_true(e >= 0);
    assert_int_equal(g_log[e + 1].what, L_STOP);
    assert_int_equal(g_log[e + 1].tskid, g_hi);
    assert_int_equal(g_log[e + 1].st, TTS_WAI);
    assert_int_equal(find(0, L_LEAVE, UTK_TFN_tk_wai_sem), -1);  /* removed before it returned */
    /* init's tk_sta_tsk was in progress when hi installed the hooks: its leave has no enter */
    int l = find(0, L_LEAVE, UTK_TFN_tk_sta_tsk);
    assert_true(l > e);
    assert_null(g_log[l].exinf);
    assert_int_equal(find(0, L_ENTER, UTK_TFN_tk_sta_tsk), -1);
    assert_int_equal(find(l + 1, L_LEAVE, 0), -1);       /* td_hok_svc(NULL): nothing after */
    assert_int_equal(find(l + 1, L_ENTER, 0), -1);
    int m = find(0, L_MARK, 0);
    assert_true(m > e);
    assert_int_equal(g_log[m].ret, E_OK);
    /* the dispatcher hooks kept working: hi ran again before the mark */
    assert_int_equal(g_log[m - 1].what, L_EXEC);
    assert_int_equal(g_log[m - 1].tskid, g_hi);
}

/* ---- 4. stop states: TTS_WAI, TTS_RDY, TTS_SUS, TTS_DMT, 0; exec in TTS_RUN ---- */
static ID g_lo;
static void lo_spinner(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    utk_sim_work(5000);   /* the interrupt suspends us in the middle */
    mark(7);
    tk_exd_tsk();         /* never returns; stop with 0 */
}
static void sus_isr(UINT dintno)
{
    (void)dintno;
    assert_int_equal(tk_sus_tsk(g_lo), E_OK);
}
static void states_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    hook_all();
    T_DINT d = {TA_HLNG, FPC(sus_isr)};
    assert_int_equal(tk_def_int(7, &d), E_OK);
    g_lo = mk_task(lo_spinner, 20);
    tk_sta_tsk(g_lo, 0);
    utk_sim_schedule_int(7, utk_now() + 500);
    tk_dly_tsk(1);        /* init waits (TTS_WAI); lo runs until the interrupt suspends it */
    mark(1);
    tk_rsm_tsk(g_lo);
    tk_dly_tsk(10);       /* lo finishes */
    utk_shutdown();
}

static void test_stop_states(void **state)
{
    (void)state;
    boot(states_init);
    int i = find(0, L_STOP, 0);
    assert_int_equal(g_log[i].tskid, 1);
    assert_int_equal(g_log[i].st, TTS_WAI);
    assert_int_equal(g_log[i + 1].what, L_EXEC);
    assert_int_equal(g_log[i + 1].tskid, g_lo);
    assert_int_equal(g_log[i + 1].st, TTS_RUN);
    int in = find(i, L_IN, 0);
    assert_int_equal(g_log[in].intno, 7);
    int out = find(in, L_OUT, 0);
    assert_int_equal(g_log[out].intno, 7);
    /* inside the interrupt: the handler's tk_sus_tsk, enter and leave */
    assert_int_equal(g_log[in + 1].fncd, UTK_TFN_tk_sus_tsk);
    assert_int_equal(g_log[in + 1].a[0], (uintptr_t)g_lo);
    assert_int_equal(g_log[in + 2].what, L_LEAVE);
    assert_int_equal(out, in + 3);
    /* delayed dispatch after the interrupt: lo stops suspended */
    assert_int_equal(g_log[out + 1].what, L_STOP);
    assert_int_equal(g_log[out + 1].tskid, g_lo);
    assert_int_equal(g_log[out + 1].st, TTS_SUS);
    /* lo exits with tk_exd_tsk: stop with 0, no leave */
    int m = find(0, L_MARK, 0);
    assert_int_equal(g_log[m].ret, 1);
    int x = find(0, L_ENTER, UTK_TFN_tk_exd_tsk);
    assert_true(x > m);
    assert_int_equal(g_log[x + 1].what, L_STOP);
    assert_int_equal(g_log[x + 1].tskid, g_lo);
    assert_int_equal(g_log[x + 1].st, 0);
    assert_int_equal(find(0, L_LEAVE, UTK_TFN_tk_exd_tsk), -1);
    /* timer interrupts are hooked too, with the timer's number (0) */
    int tin = find(0, L_IN, 0);
    int any_timer = 0;
    for (int k = tin; k >= 0 && k < g_n; k = find(k + 1, L_IN, 0))
        if (g_log[k].intno == 0) any_timer = 1;
    assert_true(any_timer);
}

/* ---- 5. nesting: an interrupt during another task's blocked call ---- */
static void give_isr(UINT dintno)
{
    (void)dintno;
    tk_sig_sem(g_sem, 1);
}
static void nest_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    g_sem = mk_sem(0);
    T_DINT d = {TA_HLNG, FPC(give_isr)};
    tk_def_int(9, &d);
    hook_all();
    utk_sim_schedule_int(9, 1500);
    ER er = tk_wai_sem(g_sem, 1, TMO_FEVR);   /* idle until the interrupt signals */
    mark(er);
    utk_shutdown();
}

static void test_nesting(void **state)
{
    (void)state;
    boot(nest_init);
    /* enter(wai_sem) stop(init,WAI) [timer tick 1000: in(0) out(0)] in(9) enter(sig_sem)
     * leave(sig_sem) out(9) exec(init) leave(wai_sem) mark(E_OK) */
    int e = find(0, L_ENTER, UTK_TFN_tk_wai_sem);
    assert_int_equal(g_log[e + 1].what, L_STOP);
    assert_int_equal(g_log[e + 1].st, TTS_WAI);
    int in = find(e, L_IN, 0);
    assert_int_equal(g_log[in].intno, 0);
    assert_int_equal(g_log[in].t, 1000);
    assert_int_equal(g_log[in + 1].what, L_OUT);
    assert_int_equal(g_log[in + 2].what, L_IN);
    assert_int_equal(g_log[in + 2].intno, 9);
    assert_int_equal(g_log[in + 2].t, 1500);
    assert_int_equal(g_log[in + 3].what, L_ENTER);
    assert_int_equal(g_log[in + 3].fncd, UTK_TFN_tk_sig_sem);
    assert_int_equal(g_log[in + 4].what, L_LEAVE);
    assert_ptr_equal(g_log[in + 4].exinf, g_log[in + 3].exinf);
    assert_int_equal(g_log[in + 5].what, L_OUT);
    assert_int_equal(g_log[in + 5].intno, 9);
    assert_int_equal(g_log[in + 6].what, L_EXEC);
    assert_int_equal(g_log[in + 6].tskid, 1);
    assert_int_equal(g_log[in + 7].what, L_LEAVE);
    assert_int_equal(g_log[in + 7].fncd, UTK_TFN_tk_wai_sem);
    assert_ptr_equal(g_log[in + 7].exinf, g_log[e].exinf);
    assert_int_equal(g_log[in + 8].what, L_MARK);
    assert_int_equal(g_log[in + 8].ret, E_OK);
}

/* ---- 6. NULL cancels: a run that installs nothing records nothing ---- */
static void quiet_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    ID s = mk_sem(1);
    tk_wai_sem(s, 1, TMO_FEVR);
    tk_dly_tsk(2);
    utk_shutdown();
}
static void cancel_init(INT stacd, void *exinf)
{
    (void)stacd; (void)exinf;
    hook_all();
    tk_get_tid();
    assert_int_equal(td_hok_svc(NULL), E_OK);
    assert_int_equal(td_hok_dsp(NULL), E_OK);
    assert_int_equal(td_hok_int(NULL), E_OK);
    tk_get_tid();
    tk_dly_tsk(3);
    utk_shutdown();
}

static void test_cancel_with_null(void **state)
{
    (void)state;
    boot(quiet_init);
    assert_int_equal(g_n, 0);
    boot(cancel_init);
    assert_int_equal(g_n, 2);   /* enter + leave of the first tk_get_tid only */
    assert_int_equal(g_log[0].fncd, UTK_TFN_tk_get_tid);
    assert_int_equal(g_log[1].what, L_LEAVE);
    assert_int_equal(g_log[1].ret, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairing),
        cmocka_unit_test(test_leave_without_enter),
        cmocka_unit_test(test_removed_mid_call),
        cmocka_unit_test(test_stop_states),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_cancel_with_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
