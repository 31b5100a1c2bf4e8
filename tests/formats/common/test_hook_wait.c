/* Waits in the generic hooks' records (formats/common/hook_wait.c), end to end through both hooks
 * backends and their readers (TXTB snapshot, RKH stream) with the μT-Kernel profile: a task that
 * stops waiting inside tk_wai_sem(sem 1) gets m.op wait_start on the semaphore's canonical handle on
 * that stop and m.op wait_end on its next thread_in, and the call's leave keeps its own operation
 * and result; a stop inside a call with no object (tk_slp_tsk), a preemption inside tk_wai_sem and
 * the other task's stops are no waits. Then the tracker alone: a one-record switch (it names its
 * object itself), nested calls (the innermost), a loss (forgets every open call), the table limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_hooks_test.h"
#include "evtrace/hooks.h"
#include "evtrace/reader.h"
#include "formats/common/hook_wait.h"
#include "kernel/utk/utk_fncd.h"

EVT_HOOK_DECLARE_BACKEND(txtb)
EVT_HOOK_DECLARE_BACKEND(rkh)

#define TA 1u /* task "alpha" (a task's handle is its id) */
#define TB 2u /* task "beta" */
#define SEM ((uint64_t)UTK_OC_SEM << 16 | 1u) /* semaphore 1's canonical handle */

/* The same script on either backend. */
#define SCRIPT(b)                                                                               \
    do {                                                                                        \
        static const uintptr_t sem1[3] = {1, 1, 100}, none[1] = {0};                            \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_THREAD, TA, "alpha", 2);                         \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_THREAD, TB, "beta", 3);                          \
        evt_##b##_hook_obj_create(EVT_HOOK_OBJ_SEMAPHORE, SEM, "sem", 0);                       \
        evt_##b##_hook_thread_in(TA, 2);                                                        \
        evt_##b##_hook_svc_enter(UTK_TFN_tk_wai_sem, 3, sem1);                                  \
        evt_##b##_hook_thread_out(TA, EVT_HOOK_STATE_READY, 0x02); /* preempted: no wait */     \
        evt_##b##_hook_thread_in(TA, 2);                                                        \
        evt_##b##_hook_thread_out(TA, EVT_HOOK_STATE_WAITING, 0x04); /* waits on sem 1 */      \
        evt_##b##_hook_thread_in(TB, 3);                                                        \
        evt_##b##_hook_svc_enter(UTK_TFN_tk_sig_sem, 2, sem1);                                  \
        evt_##b##_hook_svc_leave(UTK_TFN_tk_sig_sem, 0, 1);                                     \
        evt_##b##_hook_svc_enter(UTK_TFN_tk_slp_tsk, 1, none);                                  \
        evt_##b##_hook_thread_out(TB, EVT_HOOK_STATE_WAITING, 0x04); /* a sleep: no object */  \
        evt_##b##_hook_thread_in(TA, 2);                                 /* its wait ends */    \
        evt_##b##_hook_svc_leave(UTK_TFN_tk_wai_sem, -50, 1);            /* E_TMOUT */          \
        evt_##b##_hook_thread_out(TA, EVT_HOOK_STATE_WAITING, 0x04); /* outside any call */    \
        evt_##b##_hook_thread_in(TB, 3);                                                        \
    } while (0)

static void check(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    assert_string_equal(rd->desc->name, fmt);
    evt_event ev;
    int stops = 0, runs = 0, starts = 0, ends = 0, leave = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        int wait = (m->has & EVT_M_OP) && (m->op == EVT_OP_WAIT_START || m->op == EVT_OP_WAIT_END);
        if (ev.kind == EVT_KIND_THREAD_STOP) {
            stops++;
            if (stops == 2) { /* alpha waits inside tk_wai_sem */
                assert_true(wait);
                assert_int_equal(m->op, EVT_OP_WAIT_START);
                assert_int_equal(m->obj, SEM);
                assert_int_equal(m->op_result, EVT_RES_UNKNOWN);
                assert_int_equal(ev.target, TA);
                starts++;
            } else {
                assert_false(wait);
            }
        } else if (ev.kind == EVT_KIND_THREAD_RUN && (m->has & EVT_M_RUNS_NOW)) {
            runs++;
            if (runs == 4) { /* alpha runs again: its wait is over */
                assert_true(wait);
                assert_int_equal(m->op, EVT_OP_WAIT_END);
                assert_int_equal(m->obj, SEM);
                assert_int_equal(ev.target, TA);
                ends++;
            } else {
                assert_false(wait);
            }
        } else if (ev.kind == EVT_KIND_SVC_EXIT && (m->has & EVT_M_LABEL) && strcmp(m->label, "tk_wai_sem") == 0) {
            assert_int_equal(m->op, EVT_OP_TAKE); /* the call's own operation and outcome */
            assert_int_equal(m->op_result, EVT_RES_TIMEOUT);
            assert_int_equal(runs, 4);
            leave = 1;
        } else {
            assert_false(wait);
        }
    }
    assert_int_equal(stops, 4);
    assert_int_equal(runs, 5);
    assert_int_equal(starts, 1);
    assert_int_equal(ends, 1);
    assert_true(leave);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

static void script_txtb(void) { SCRIPT(txtb); }
static void script_rkh(void) { SCRIPT(rkh); }
static void test_txtb_snapshot(void **st) { (void)st; evt_hooks_test_txtb(EVT_HOOK_KERNEL_UTKERNEL, script_txtb, check); }
static void test_rkh_stream(void **st) { (void)st; evt_hooks_test_rkh(EVT_HOOK_KERNEL_UTKERNEL, script_rkh, check); }

/* ---- the tracker alone ---- */

static evt_event ev_(evt_kind k, uint64_t ctx)
{
    evt_event e;
    evt_event_reset(&e);
    e.kind = k;
    e.flags |= EVT_HAS_CTX;
    e.ctx = ctx;
    return e;
}

static void enter_(evt_hook_waits *w, uint64_t ctx, uint64_t code, evt_obj_op op, uint64_t obj)
{
    evt_event e = ev_(EVT_KIND_SVC_ENTER, ctx);
    evt_event_add_arg(&e, code);
    if (op != EVT_OP_NONE) {
        e.m.has |= EVT_M_OP;
        e.m.op = (uint8_t)op;
        e.m.obj = obj;
    }
    evt_hook_waits_event(w, &e);
}

static void leave_(evt_hook_waits *w, uint64_t ctx, uint64_t code)
{
    evt_event e = ev_(EVT_KIND_SVC_EXIT, ctx);
    evt_event_add_arg(&e, code);
    evt_hook_waits_event(w, &e);
}

/* A thread_out of ctx (waiting); returns the wait object it was given, 0 if none. */
static uint64_t stop_(evt_hook_waits *w, uint64_t ctx)
{
    evt_event e = ev_(EVT_KIND_THREAD_STOP, ctx);
    e.m.has |= EVT_M_STOP_STATE;
    e.m.stop_state = EVT_HOOK_STATE_WAITING;
    evt_hook_waits_event(w, &e);
    if (!(e.m.has & EVT_M_OP)) return 0;
    assert_int_equal(e.m.op, EVT_OP_WAIT_START);
    return e.m.obj;
}

static uint64_t run_(evt_hook_waits *w, uint64_t ctx)
{
    evt_event e = ev_(EVT_KIND_THREAD_RUN, ctx);
    e.m.has |= EVT_M_RUNS_NOW;
    evt_hook_waits_event(w, &e);
    if (!(e.m.has & EVT_M_OP)) return 0;
    assert_int_equal(e.m.op, EVT_OP_WAIT_END);
    return e.m.obj;
}

static void test_tracker_rules(void **st)
{
    (void)st;
    static evt_hook_waits w;
    evt_hook_waits_init(&w);
    /* nested: an outer receive on 0x10 around an inner take on 0x20: the wait is the inner one's */
    enter_(&w, 7, 100, EVT_OP_RECEIVE, 0x10);
    enter_(&w, 7, 200, EVT_OP_TAKE, 0x20);
    assert_int_equal(stop_(&w, 7), 0x20);
    assert_int_equal(stop_(&w, 7), 0);    /* still waiting: no second start */
    assert_int_equal(run_(&w, 7), 0x20);
    assert_int_equal(run_(&w, 7), 0);     /* ended once */
    leave_(&w, 7, 200);
    assert_int_equal(stop_(&w, 7), 0x10); /* back in the outer call */
    assert_int_equal(run_(&w, 7), 0x10);
    leave_(&w, 7, 100);
    assert_int_equal(stop_(&w, 7), 0);    /* no call open */
    /* a give never waits for its object */
    enter_(&w, 7, 300, EVT_OP_GIVE, 0x30);
    assert_int_equal(stop_(&w, 7), 0);
    leave_(&w, 7, 300);
    /* a one-record switch names its object itself (EVT_M_BLOCKED_ON): left alone */
    enter_(&w, 8, 100, EVT_OP_RECEIVE, 0x10);
    evt_event e = ev_(EVT_KIND_THREAD_STOP, 8);
    e.m.has |= EVT_M_STOP_STATE | EVT_M_NEXT;
    e.m.stop_state = EVT_HOOK_STATE_WAITING;
    evt_hook_waits_event(&w, &e);
    assert_false(e.m.has & EVT_M_OP);
    /* a loss forgets the open call: the stop after it is no wait, the run after it no end */
    enter_(&w, 9, 100, EVT_OP_RECEIVE, 0x10);
    assert_int_equal(stop_(&w, 9), 0x10);
    e = ev_(EVT_KIND_LOST, 0);
    evt_hook_waits_event(&w, &e);
    assert_int_equal(run_(&w, 9), 0);
    assert_int_equal(stop_(&w, 9), 0);
    /* the table's limit: contexts beyond it are counted, not tracked */
    evt_hook_waits_init(&w);
    for (uint64_t c = 0; c < EVT_HOOK_WAIT_CTXS + 3; c++) enter_(&w, 1000 + c, 1, EVT_OP_TAKE, 0x40);
    assert_int_equal(w.n, EVT_HOOK_WAIT_CTXS);
    assert_int_equal(w.untracked, 3);
    assert_int_equal(stop_(&w, 1000), 0x40);
    assert_int_equal(stop_(&w, 1000 + EVT_HOOK_WAIT_CTXS), 0);
    /* calls nested deeper than kept: only the kept ones wait, and the leaves still pair */
    evt_hook_waits_init(&w);
    for (unsigned d = 0; d < EVT_HOOK_WAIT_DEPTH + 2; d++) enter_(&w, 5, 10 + d, EVT_OP_TAKE, 0x50 + d);
    assert_int_equal(stop_(&w, 5), 0);   /* the innermost is not kept */
    leave_(&w, 5, 10 + EVT_HOOK_WAIT_DEPTH + 1);
    leave_(&w, 5, 10 + EVT_HOOK_WAIT_DEPTH);
    assert_int_equal(stop_(&w, 5), 0x50 + EVT_HOOK_WAIT_DEPTH - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_txtb_snapshot),
        cmocka_unit_test(test_rkh_stream),
        cmocka_unit_test(test_tracker_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
