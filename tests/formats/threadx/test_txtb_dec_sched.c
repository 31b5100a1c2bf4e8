/* Who runs, from what native ThreadX records say beyond resume and suspend, on traces built with
 * tests/support/trace_builder.h and read through the reader and the timeline:
 * - THREAD_RELINQUISH (info2) and TIME_SLICE (info1) name _tx_thread_execute_ptr, the thread
 *   ThreadX runs next (tx_thread_relinquish.c, tx_thread_time_slice.c): a relinquish switches at
 *   once, a time slice in the timer ISR at the ISR's exit; one that names the running thread
 *   switches nothing. Before 7 Dec 2026 both were ignored and a thread that recorded nothing in
 *   its turn never ran (ThreadX's run_count against evtrace's switches: 90 for 93).
 * - A delayed suspension: tx_thread_suspend of a thread that waits only flags it, and the resume
 *   that ends the wait leaves it suspended (tx_thread_system_resume.c): that THREAD_RESUME reads as
 *   a stop to suspended (field delayed_suspension), until tx_thread_resume makes it ready; a
 *   tx_thread_resume of the waiting thread lifts the flag, and a thread not waiting gets none.
 * - Inside one ISR the latest record that names the next thread decides, and a stop recorded
 *   before keeps its state (before 7 Dec 2026 a resume after it made the stopped thread ready).
 * - An ISR entry's priority word is the thread it interrupted (_tx_thread_current_ptr): that one
 *   was running, whatever a wrong "next thread" said (ThreadX's inline resume/suspend build).
 * - tx_thread_terminate of a thread that is not ready (no THREAD_SUSPEND of its own) terminates
 *   it; tx_thread_reset makes it suspended.
 * - THREAD_PRIORITY_CHANGE (info2 the new priority, info3 the one before) changes the target's
 *   priority (before 7 Dec 2026 only the thread's own later priority words showed it).
 * - A MUTEX_GET that will wait for a priority-inheritance mutex held by a thread of a worse
 *   priority raises that owner (tx_mutex_get.c, no record of its own): EVT_M_INHERIT and the
 *   timeline's priority record with reason inherit; not for a mutex without inheritance, a get
 *   that does not wait, or an owner at least as urgent (its priority as last known).
 * - A THREAD_PRIORITY_CHANGE of a thread that runs at an inherited priority keeps it when the new
 *   priority is not more urgent (tx_thread_priority_change.c: tx_thread_priority = min(user,
 *   inherit)): EVT_M_PRIO_KEPT, and the timeline's base priority moves without a priority record;
 *   the reader knows the inherit priority from the raise or from info3 below the thread's known
 *   user priority, and forgets it at a put that ends its ownership or where records are lost
 *   (before 7 Dec 2026 the timeline showed the new priority while ThreadX ran the inherited one).
 * - Why a wait ends (EVT_M_WAKE_CAUSE): given or deleted by the resuming context's service before
 *   it, aborted, a sleep's end, else a timeout; nothing said where its records may be missing.
 * - Preemptions and relinquishes as ThreadX counts them (EVT_M_PREEMPT, EVT_M_YIELD), and time
 *   slices that rotate a ready list (EVT_M_TIME_SLICE; EVT_M_SLICE_UNKNOWN where the reader cannot
 *   know). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/reader.h"
#include "host/timeline/timeline.h"
#include "trace_builder.h"

#define TA 0x20001000u /* slice_a */
#define TB 0x20002000u /* slice_b */
#define TV 0x20004000u /* victim */
#define TC 0x20005000u /* ctrl */
#define TS 0x20003000u /* the system timer thread */
#define STK 0x20010300u

#define MAXIV 64
typedef struct seen {
    evt_tl_state_iv st[MAXIV];
    uint32_t nst;
    evt_tl_prio prio[8];
    uint32_t nprio;
} seen;
static void on_prio(void *u, const evt_tl_prio *p)
{
    seen *v = u;
    if (v->nprio < 8) v->prio[v->nprio++] = *p;
}
static void on_state(void *u, const evt_tl_state_iv *s)
{
    seen *v = u;
    if (v->nst < MAXIV) v->st[v->nst++] = *s;
}

static tb_trace *threads(void)
{
    tb_trace *t = tb_new();
    tb_opts(t)->stk = STK;
    tb_thread(t, TA, "slice_a", 18, 0, 0);
    tb_thread(t, TB, "slice_b", 18, 0, 0);
    tb_thread(t, TS, "System Timer Thread", 0, 0, 0);
    tb_thread(t, TV, "victim", 12, 0, 0);
    tb_thread(t, TC, "ctrl", 1, 0, 0);
    return t;
}

/* The built trace through the reader into a timeline; events[] gets each event's kind and
 * meaning bits (the enable's two RUNNING records included, as the reader gives them). */
typedef struct run {
    evt_tl tl;
    seen v;
    uint32_t n;
    evt_kind kind[64];
    unsigned has[64];
    uint64_t next[64];
    long long delayed[64]; /* field delayed_suspension, -1 absent */
    uint64_t inh[64], inh_prio[64]; /* m.inherit_ctx, m.inherit_prio */
    int cause[64];                  /* m.wake_cause, -1 without EVT_M_WAKE_CAUSE */
} run;
static void play_cut(tb_trace *t, run *o, size_t cut)
{
    size_t len;
    uint8_t *buf = tb_bytes(t, &len);
    len -= cut; /* a truncated file: its last cut bytes missing */
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(buf, len, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    memset(o, 0, sizeof *o);
    evt_tl_sink sink;
    memset(&sink, 0, sizeof sink);
    sink.user = &o->v;
    sink.state = on_state;
    sink.prio = on_prio;
    assert_int_not_equal(evt_tl_init(&o->tl, 0, &sink), 0);
    evt_tl_set_reader(&o->tl, r);
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (o->n < 64) {
            o->kind[o->n] = ev.kind;
            o->has[o->n] = ev.m.has;
            o->next[o->n] = ev.m.next_ctx;
            o->inh[o->n] = ev.m.inherit_ctx;
            o->inh_prio[o->n] = ev.m.inherit_prio;
            o->cause[o->n] = (ev.m.has & EVT_M_WAKE_CAUSE) ? ev.m.wake_cause : -1;
            o->delayed[o->n] = -1;
            for (uint32_t i = 0; i < ev.nfields; i++)
                if (!strcmp(ev.fields[i].key, "delayed_suspension")) o->delayed[o->n] = (long long)ev.fields[i].num;
        }
        o->n++;
        evt_tl_add(&o->tl, &ev);
    }
    assert_int_equal(st, EVT_END);
    evt_tl_finish(&o->tl);
    evt_reader_close(r);
    free(buf);
}

static void play(tb_trace *t, run *o) { play_cut(t, o, 0); }

static const evt_tl_ctx *ctx(const run *o, uint64_t id)
{
    for (uint32_t i = 0; i < o->tl.nctx; i++)
        if (evt_tl_ctx_at(&o->tl, i)->has_id && evt_tl_ctx_at(&o->tl, i)->id == id) return evt_tl_ctx_at(&o->tl, i);
    fail_msg("no context 0x%llx", (unsigned long long)id);
    return NULL;
}

/* 1 when thread id was in state s from t0 to t1. */
static int was(const run *o, uint64_t id, evt_tl_state s, uint64_t t0, uint64_t t1)
{
    uint32_t ix = ctx(o, id)->index;
    for (uint32_t k = 0; k < o->v.nst; k++)
        if (o->v.st[k].ctx == ix && o->v.st[k].state == s && o->v.st[k].t0 == t0 && o->v.st[k].t1 == t1) return 1;
    return 0;
}

/* slice_a relinquishes to slice_b at 20; the timer ISR (30-50) interrupts slice_b, which records
 * nothing of its own; the timer thread names slice_b again at 60. */
static void test_relinquish_switches(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_ev(t, 20, TA, TXTB_EVENT_THREAD_RELINQUISH, STK, TB, 0, 0);
    tb_isr_enter(t, 30, 0, TB);
    tb_resume(t, 40, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);
    tb_isr_exit(t, 50, 0, TB);
    tb_suspend(t, 60, TS, TS, TB_STATE_SUSPENDED, TB);
    tb_ev(t, 70, TB, TXTB_EVENT_THREAD_SLEEP, 1, 0, STK, 0);
    run o;
    play(t, &o);
    /* the relinquish: the next thread in its meaning */
    assert_int_equal(o.kind[3], EVT_KIND_SVC);
    assert_true(o.has[3] & EVT_M_NEXT);
    assert_int_equal(o.next[3], TB);
    assert_true(was(&o, TA, EVT_TL_RUNNING, 10, 20));
    assert_true(was(&o, TB, EVT_TL_RUNNING, 20, 50));
    assert_true(was(&o, TA, EVT_TL_READY, 20, 70));
    assert_true(was(&o, TB, EVT_TL_RUNNING, 60, 70));
    assert_int_equal(ctx(&o, TB)->switches_in, 2);
    assert_int_equal(ctx(&o, TA)->switches_in, 1);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* The timer ISR at 20-40 rotates slice_b out for slice_a (TIME_SLICE names slice_a); another at
 * 50-60 names the running slice_a (no switch); the timer thread runs from 70 and names slice_a. */
static void test_time_slice_switches_at_isr_exit(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TB, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_isr_enter(t, 20, 0, TB);
    tb_rec(t, 30, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TA, 1, 0, STK);
    tb_isr_exit(t, 40, 0, TB);
    tb_isr_enter(t, 50, 0, TA);
    tb_rec(t, 55, TB_CTX_ISR, TA, TXTB_EVENT_TIME_SLICE, TA, 1, 0, STK);
    tb_resume(t, 56, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);
    tb_isr_exit(t, 60, 0, TA);
    tb_suspend(t, 70, TS, TS, TB_STATE_SUSPENDED, TA);
    tb_ev(t, 80, TA, TXTB_EVENT_THREAD_SLEEP, 1, 0, STK, 0);
    run o;
    play(t, &o);
    assert_int_equal(o.kind[4], EVT_KIND_OTHER);
    assert_true(o.has[4] & EVT_M_NEXT);
    assert_int_equal(o.next[4], TA);
    assert_true(was(&o, TB, EVT_TL_RUNNING, 10, 40));
    assert_true(was(&o, TA, EVT_TL_RUNNING, 40, 60));
    assert_true(was(&o, TB, EVT_TL_READY, 40, 80)); /* open at the end: t1 is the last event's */
    assert_true(was(&o, TS, EVT_TL_RUNNING, 60, 70));
    assert_int_equal(ctx(&o, TA)->switches_in, 2);
    assert_int_equal(ctx(&o, TB)->switches_in, 1);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* ctrl suspends victim, which sleeps (4): the timer thread's resume at 50 ends the sleep and leaves
 * victim suspended until ctrl's tx_thread_resume at 90. Then victim sleeps again and ctrl resumes
 * it while it waits (the flag lifted): the next resume out of the sleep makes it ready. A
 * suspension of a ready thread sets no flag. */
static void test_delayed_suspension(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TV, TXTB_EVENT_THREAD_SLEEP, 5, 0, STK, 0);
    tb_suspend(t, 11, TV, TV, TB_STATE_SLEEP, TC);
    tb_ev(t, 20, TC, TXTB_EVENT_THREAD_SUSPEND_API, TV, TB_STATE_SLEEP, STK, 0);
    tb_ev(t, 30, TC, TXTB_EVENT_THREAD_SLEEP, 10, 0, STK, 0);
    tb_suspend(t, 31, TC, TC, TB_STATE_SLEEP, TS);
    tb_resume(t, 50, TS, TV, TB_STATE_SLEEP, TS);    /* [7] the delayed suspension */
    tb_resume(t, 60, TS, TC, TB_STATE_SLEEP, TS);
    tb_suspend(t, 70, TS, TS, TB_STATE_SUSPENDED, TC);
    tb_ev(t, 80, TC, TXTB_EVENT_THREAD_RESUME_API, TV, TB_STATE_SUSPENDED, STK, 0);
    tb_resume(t, 90, TC, TV, TB_STATE_SUSPENDED, TC); /* [11] ready */
    tb_ev(t, 100, TC, TXTB_EVENT_THREAD_SLEEP, 10, 0, STK, 0);
    tb_suspend(t, 101, TC, TC, TB_STATE_SLEEP, TV);
    tb_ev(t, 110, TV, TXTB_EVENT_THREAD_SLEEP, 5, 0, STK, 0);
    tb_suspend(t, 111, TV, TV, TB_STATE_SLEEP, TS);
    tb_ev(t, 120, TS, TXTB_EVENT_THREAD_SUSPEND_API, TV, TB_STATE_SLEEP, STK, 0);
    tb_ev(t, 130, TS, TXTB_EVENT_THREAD_RESUME_API, TV, TB_STATE_SLEEP, STK, 0); /* lifted */
    tb_resume(t, 140, TS, TV, TB_STATE_SLEEP, TS);   /* [18] ready */
    tb_ev(t, 150, TS, TXTB_EVENT_THREAD_SUSPEND_API, TC, TB_STATE_READY, STK, 0); /* ctrl: no flag */
    tb_resume(t, 160, TS, TC, TB_STATE_SUSPENDED, TS); /* [20] ready */
    tb_ev(t, 170, TS, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    run o;
    play(t, &o);
    assert_int_equal(o.kind[7], EVT_KIND_THREAD_STOP);
    assert_int_equal(o.delayed[7], 1);
    assert_int_equal(o.kind[11], EVT_KIND_THREAD_RUN);
    assert_int_equal(o.delayed[11], -1);
    assert_int_equal(o.kind[18], EVT_KIND_THREAD_RUN);
    assert_int_equal(o.delayed[18], -1);
    assert_int_equal(o.kind[20], EVT_KIND_THREAD_RUN);
    assert_true(was(&o, TV, EVT_TL_BLOCKED, 11, 50));
    assert_true(was(&o, TV, EVT_TL_SUSPENDED, 50, 90));
    assert_true(was(&o, TV, EVT_TL_READY, 90, 101));
    assert_true(was(&o, TV, EVT_TL_BLOCKED, 111, 140));
    assert_true(was(&o, TV, EVT_TL_READY, 140, 170));
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* Inside one ISR a later record decides again: slice_a, suspended by the ISR at 25, stays
 * suspended when a resume at 26 names ctrl (not ready, as a preemption would leave it); ctrl,
 * suspended by the next ISR at 55 and resumed at 56 (naming itself), keeps running. */
static void test_isr_decides_again(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_isr_enter(t, 20, 0, TA);
    tb_suspend(t, 25, TB_CTX_ISR, TA, TB_STATE_SUSPENDED, TB);
    tb_resume(t, 26, TB_CTX_ISR, TC, TB_STATE_SUSPENDED, TC);
    tb_isr_exit(t, 30, 0, TA);
    tb_ev(t, 40, TC, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_isr_enter(t, 50, 0, TC);
    tb_suspend(t, 55, TB_CTX_ISR, TC, TB_STATE_SUSPENDED, TB);
    tb_resume(t, 56, TB_CTX_ISR, TC, TB_STATE_SUSPENDED, TC);
    tb_isr_exit(t, 60, 0, TC);
    tb_ev(t, 70, TC, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    run o;
    play(t, &o);
    assert_true(was(&o, TA, EVT_TL_RUNNING, 10, 30));
    assert_true(was(&o, TA, EVT_TL_SUSPENDED, 30, 70));
    assert_true(was(&o, TC, EVT_TL_RUNNING, 30, 70));
    assert_int_equal(ctx(&o, TC)->switches_in, 1);
    assert_int_equal(ctx(&o, TB)->switches_in, 0);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* ThreadX built with TX_INLINE_THREAD_RESUME_SUSPEND writes next thread 0 (idle) in a suspend
 * after choosing one: slice_b suspends itself at 10 "to idle", the timer ISR at 20 says it
 * interrupted slice_a, so slice_a ran from there (before 7 Dec 2026: idle, slice_a switched in
 * once for ThreadX's twice). An ISR that says it interrupted nothing changes nothing. */
static void test_isr_names_the_interrupted_thread(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 5, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_suspend(t, 6, TA, TA, TB_STATE_SLEEP, TB);
    tb_suspend(t, 10, TB, TB, TB_STATE_SLEEP, 0);
    tb_isr_enter(t, 20, 0, TA);
    tb_resume(t, 25, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);
    tb_isr_exit(t, 30, 0, TA);
    tb_suspend(t, 40, TS, TS, TB_STATE_SUSPENDED, TA);
    tb_ev(t, 50, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    tb_isr_enter(t, 60, 0, 0);
    tb_isr_exit(t, 70, 0, 0);
    tb_ev(t, 80, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    run o;
    play(t, &o);
    assert_true(o.has[5] & EVT_M_INTERRUPTED);
    assert_true(was(&o, TA, EVT_TL_RUNNING, 20, 30));
    assert_true(was(&o, TA, EVT_TL_RUNNING, 40, 80));
    assert_int_equal(ctx(&o, TA)->switches_in, 3); /* at 5, at the ISR (20), after the timer thread */
    assert_int_equal(ctx(&o, TB)->switches_in, 1);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* tx_thread_terminate of a thread that sleeps writes no THREAD_SUSPEND: the terminate itself ends
 * its wait (terminated from 30); tx_thread_reset makes it suspended (40), tx_thread_resume ready
 * (50). A terminate of a ready thread is the THREAD_SUSPEND ThreadX writes (not this rule). */
static void test_terminate_and_reset(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TV, TXTB_EVENT_THREAD_SLEEP, 5, 0, STK, 0);
    tb_suspend(t, 11, TV, TV, TB_STATE_SLEEP, TC);
    tb_ev(t, 30, TC, TXTB_EVENT_THREAD_TERMINATE, TV, TB_STATE_SLEEP, STK, 0);  /* [4] */
    tb_ev(t, 40, TC, TXTB_EVENT_THREAD_RESET, TV, TB_STATE_SUSPENDED, 0, 0);    /* [5] */
    tb_ev(t, 45, TC, TXTB_EVENT_THREAD_RESUME_API, TV, TB_STATE_SUSPENDED, STK, 0);
    tb_resume(t, 50, TC, TV, TB_STATE_SUSPENDED, TC);
    tb_ev(t, 60, TC, TXTB_EVENT_THREAD_TERMINATE, TB, TB_STATE_READY, STK, 0);   /* [8]: ready */
    tb_ev(t, 70, TC, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
    run o;
    play(t, &o);
    assert_int_equal(o.kind[4], EVT_KIND_THREAD_STOP);
    assert_int_equal(o.kind[5], EVT_KIND_THREAD_STOP);
    assert_int_equal(o.kind[8], EVT_KIND_SVC);
    assert_true(was(&o, TV, EVT_TL_BLOCKED, 11, 30));
    assert_true(was(&o, TV, EVT_TL_TERMINATED, 30, 40));
    assert_true(was(&o, TV, EVT_TL_SUSPENDED, 40, 50));
    assert_true(was(&o, TV, EVT_TL_READY, 50, 70));
    assert_true(ctx(&o, TC)->state == EVT_TL_RUNNING); /* the caller never stops */
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* ctrl lowers the sleeping victim from 12 to 20 at 20 (not ready: no suspend/resume pair), then
 * raises it to 3 at 40 while it is ready (ThreadX's PRIORITY_CHANGE pair follows the call). */
static void test_priority_change(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 10, TV, TXTB_EVENT_THREAD_SLEEP, 5, 0, STK, 0);
    tb_suspend(t, 11, TV, TV, TB_STATE_SLEEP, TC);
    tb_ev(t, 20, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TV, 20, 12, TB_STATE_SLEEP); /* [4] */
    tb_resume(t, 30, TC, TV, TB_STATE_SLEEP, TC);
    tb_ev(t, 40, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TV, 3, 20, TB_STATE_READY);  /* [6] */
    tb_suspend(t, 41, TC, TV, TB_STATE_PRIORITY_CHANGE, TC);
    tb_resume(t, 42, TC, TV, TB_STATE_PRIORITY_CHANGE, TV);
    run o;
    play(t, &o);
    assert_true(o.has[4] & EVT_M_PRIO_SET);
    assert_true(o.has[6] & EVT_M_PRIO_SET);
    uint32_t iv = ctx(&o, TV)->index, ic = ctx(&o, TC)->index;
    uint32_t k = 0;
    while (k < o.v.nprio && o.v.prio[k].t != 20) k++;
    assert_true(k < o.v.nprio);
    assert_int_equal(o.v.prio[k].ctx, iv);
    assert_int_equal(o.v.prio[k].prio, 20);
    assert_int_equal(o.v.prio[k].by, ic);
    while (k < o.v.nprio && o.v.prio[k].t != 40) k++;
    assert_true(k < o.v.nprio);
    assert_int_equal(o.v.prio[k].ctx, iv);
    assert_int_equal(o.v.prio[k].prio, 3);
    assert_true(o.v.prio[k].has_old);
    assert_int_equal(o.v.prio[k].old_prio, 20);
    assert_int_equal(ctx(&o, TV)->prio, 3);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* slice_a (18) holds M (inheritance) and N (none); victim (12) waits for M: slice_a goes to 12;
 * ctrl (1) waits for M: to 1; ctrl waits for N, and polls M (no wait): nothing; slice_b (18)
 * waits for M, held at 1 now: nothing. slice_a's next record has its own priority again (ThreadX
 * restored it in a tx_mutex_put): the inheritance is over there (a disinherit record). */
#define MX 0x20006000u
#define NX 0x20007000u
static void test_mutex_inheritance(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_object(t, TXTB_OBJ_MUTEX, MX, "M", 1, 0); /* registry param1: TX_INHERIT */
    tb_object(t, TXTB_OBJ_MUTEX, NX, "N", 0, 0);
    tb_mutex_get(t, 10, TA, MX, 0, 0);
    tb_mutex_get(t, 15, TA, NX, 0, 0);
    tb_mutex_get(t, 30, TV, MX, TA, 1);                                /* [4] inherits: 12 */
    tb_mutex_get(t, 40, TC, MX, TA, 1);                                /* [5] inherits: 1 */
    tb_mutex_get(t, 50, TC, NX, TA, 1);                                /* [6] no inheritance */
    tb_ev(t, 60, TC, TXTB_EVENT_MUTEX_GET, MX, 0, TA, 1);              /* [7] TX_NO_WAIT */
    tb_mutex_get(t, 70, TB, MX, TA, 1);                                /* [8] owner at 1 */
    tb_ev(t, 80, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);                /* priority word 18 */
    run o;
    play(t, &o);
    for (uint32_t i = 0; i < o.n; i++) {
        int want = i == 4 || i == 5;
        assert_int_equal(!!(o.has[i] & EVT_M_INHERIT), want);
    }
    assert_int_equal(o.inh[4], TA);
    assert_int_equal(o.inh_prio[4], 12);
    assert_int_equal(o.inh[5], TA);
    assert_int_equal(o.inh_prio[5], 1);
    uint32_t ia = ctx(&o, TA)->index, n = 0, nd = 0;
    for (uint32_t k = 0; k < o.v.nprio; k++) {
        if (o.v.prio[k].why == EVT_TL_PRIO_DISINHERIT) {
            assert_int_equal(o.v.prio[k].ctx, ia);
            assert_int_equal(o.v.prio[k].t, 80);
            assert_int_equal(o.v.prio[k].prio, 18);
            assert_int_equal(o.v.prio[k].old_prio, 1);
            nd++;
            continue;
        }
        if (o.v.prio[k].why != EVT_TL_PRIO_INHERIT) continue;
        assert_int_equal(o.v.prio[k].ctx, ia);
        assert_int_equal(o.v.prio[k].t, n ? 40 : 30);
        assert_int_equal(o.v.prio[k].prio, n ? 1 : 12);
        n++;
    }
    assert_int_equal(n, 2);
    assert_int_equal(nd, 1);
    assert_false(ctx(&o, TA)->inherited);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* slice_a is created at 18 in the trace and holds M (inheritance); victim (12) waits for M at
 * 20: slice_a runs at 12. ctrl sets slice_a to 15 at 30 (info3 12: kept at 12, no priority
 * record), to 5 at 40 (5), to 16 at 50 (info3 5, but the inherit priority 12 is known: back at
 * 12). slice_a puts M at 60 (its priority word 12) and records at 70 at 16, its user priority: a
 * disinherit record. ctrl sets it to 20 at 80: no inheritance known after the put, so 20. */
static void test_priority_change_keeps_inheritance(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_object(t, TXTB_OBJ_MUTEX, MX, "M", 1, 0);                            /* TX_INHERIT */
    tb_ev(t, 5, TB_CTX_INIT, TXTB_EVENT_THREAD_CREATE, TA, 18, STK, 1024);   /* [2] */
    tb_mutex_get(t, 10, TA, MX, 0, 0);                                       /* [3] */
    tb_mutex_get(t, 20, TV, MX, TA, 1);                                      /* [4] raises to 12 */
    tb_ev(t, 30, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TA, 15, 12, 0);      /* [5] kept at 12 */
    tb_ev(t, 40, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TA, 5, 12, 0);       /* [6] 5 */
    tb_ev(t, 50, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TA, 16, 5, 0);       /* [7] kept at 12 */
    tb_rec(t, 60, TA, tb_prio(12), TXTB_EVENT_MUTEX_PUT, MX, TA, 1, STK);   /* [8] */
    tb_rec(t, 70, TA, tb_prio(16), TXTB_EVENT_TIME_GET, 0, STK, 0, 0);      /* [9] */
    tb_ev(t, 80, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TA, 20, 16, 0);      /* [10] 20 */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 11);
    for (uint32_t i = 0; i < o.n; i++) assert_int_equal(!!(o.has[i] & EVT_M_PRIO_KEPT), i == 5 || i == 7);
    assert_int_equal(o.inh_prio[5], 12);
    assert_int_equal(o.inh_prio[7], 12);
    assert_true(o.has[4] & EVT_M_INHERIT);
    /* the priority records: inherit 12 at 20, set 5 at 40, set 12 at 50, disinherit 16 at 70, 20 at 80 */
    static const struct { uint64_t t, prio, old; evt_tl_prio_why why; } want[] = {
        {20, 12, 18, EVT_TL_PRIO_INHERIT}, {40, 5, 12, EVT_TL_PRIO_SET}, {50, 12, 5, EVT_TL_PRIO_SET},
        {70, 16, 12, EVT_TL_PRIO_DISINHERIT}, {80, 20, 16, EVT_TL_PRIO_SET}};
    uint32_t ia = ctx(&o, TA)->index, n = 0;
    for (uint32_t k = 0; k < o.v.nprio; k++) {
        if (o.v.prio[k].ctx != ia) continue;
        assert_true(n < sizeof want / sizeof want[0]);
        assert_int_equal(o.v.prio[k].t, want[n].t);
        assert_int_equal(o.v.prio[k].prio, want[n].prio);
        assert_int_equal(o.v.prio[k].old_prio, want[n].old);
        assert_int_equal(o.v.prio[k].why, want[n].why);
        n++;
    }
    assert_int_equal(n, sizeof want / sizeof want[0]);
    assert_int_equal(ctx(&o, TA)->prio, 20);
    assert_false(ctx(&o, TA)->inherited);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* As above, but records are lost (an evtrace LOST record) between the raise and the change: what
 * the reader knew of slice_a's user and inherit priorities may be stale there, so the change to 15
 * is taken as is (and slice_a's next record at 12 shows the inheritance again). */
static void test_lost_records_forget_inheritance(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_object(t, TXTB_OBJ_MUTEX, MX, "M", 1, 0);
    tb_ev(t, 5, TB_CTX_INIT, TXTB_EVENT_THREAD_CREATE, TA, 18, STK, 1024);   /* [2] */
    tb_mutex_get(t, 10, TA, MX, 0, 0);                                       /* [3] */
    tb_mutex_get(t, 20, TV, MX, TA, 1);                                      /* [4] raises to 12 */
    tb_ev(t, 25, TC, TXTB_EVTRACE_LOST_ID, 2, 0, TXTB_EVTRACE_LOST_MAGIC, 0); /* [5] */
    tb_ev(t, 30, TC, TXTB_EVENT_THREAD_PRIORITY_CHANGE, TA, 15, 12, 0);      /* [6] */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 7);
    assert_int_equal(o.kind[5], EVT_KIND_LOST);
    assert_true(o.has[6] & EVT_M_PRIO_SET);
    assert_false(o.has[6] & EVT_M_PRIO_KEPT);
    assert_int_equal(ctx(&o, TA)->prio, 15);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* Why a wait ends, from what the resuming context wrote before the THREAD_RESUME: a give of the
 * wait's kind resumes one waiter (a second resume is a timeout), an event-flags set may resume
 * several, a priority-change pair inside a put keeps the put open, THREAD_WAIT_ABORT leaves the
 * thread SUSPENDED and then resumes it, a sleep ends as a delay, a resume with no give is a
 * timeout, a self-suspend ends what a callback's give left open, a delete's waiters wake deleted,
 * and after lost records nothing is said. The timeline counts each thread's timeouts and aborts. */
static void test_wait_causes(void **state)
{
    (void)state;
    tb_trace *t = threads();
    const uint32_t SEM = 0x20006400u, FLAGS = 0x20006100u, QU = 0x20006300u;
    tb_object(t, TXTB_OBJ_SEMAPHORE, SEM, "S", 0, 0);
    tb_object(t, TXTB_OBJ_EVENT_FLAGS, FLAGS, "F", 0, 0);
    tb_object(t, TXTB_OBJ_MUTEX, MX, "M", 1, 0);
    tb_object(t, TXTB_OBJ_QUEUE, QU, "Q", 0, 0);
    tb_ev(t, 10, TS, TXTB_EVENT_SEMAPHORE_PUT, SEM, 0, 2, STK);                 /* [2] a callback's put */
    tb_resume(t, 11, TS, TA, TB_STATE_SEMAPHORE, TS);                          /* [3] given */
    tb_resume(t, 12, TS, TB, TB_STATE_SEMAPHORE, TS);                          /* [4] timeout */
    tb_resume(t, 13, TS, TV, TB_STATE_SLEEP, TS);                              /* [5] delay */
    tb_ev(t, 14, TS, TXTB_EVENT_SEMAPHORE_PUT, SEM, 1, 0, STK);                /* [6] no waiter */
    tb_suspend(t, 15, TS, TS, TB_STATE_SUSPENDED, TC);                         /* [7] ends it */
    tb_resume(t, 20, TS, TA, TB_STATE_SEMAPHORE, TS);                          /* [8] timeout */
    tb_ev(t, 30, TC, TXTB_EVENT_EVENT_FLAGS_SET, FLAGS, 1, 0, 2);              /* [9] */
    tb_resume(t, 31, TC, TA, TB_STATE_EVENT_FLAG, TC);                         /* [10] given */
    tb_resume(t, 32, TC, TB, TB_STATE_EVENT_FLAG, TC);                         /* [11] given */
    tb_ev(t, 40, TC, TXTB_EVENT_MUTEX_PUT, MX, TC, 1, STK);                    /* [12] */
    tb_suspend(t, 41, TC, TC, TB_STATE_PRIORITY_CHANGE, TC);                   /* [13] */
    tb_resume(t, 42, TC, TC, TB_STATE_PRIORITY_CHANGE, TC);                    /* [14] */
    tb_resume(t, 43, TC, TV, TB_STATE_MUTEX, TC);                              /* [15] given */
    tb_ev(t, 50, TC, TXTB_EVENT_THREAD_WAIT_ABORT, TB, TB_STATE_QUEUE, 0, 0);  /* [16] */
    tb_resume(t, 51, TC, TB, TB_STATE_SUSPENDED, TC);                          /* [17] abort */
    tb_ev(t, 60, TC, TXTB_EVENT_QUEUE_DELETE, QU, STK, 0, 0);                   /* [18] */
    tb_resume(t, 61, TC, TA, TB_STATE_QUEUE, TC);                              /* [19] deleted */
    tb_resume(t, 62, TC, TB, TB_STATE_QUEUE, TC);                              /* [20] deleted */
    tb_ev(t, 70, TC, TXTB_EVTRACE_LOST_ID, 2, 0, TXTB_EVTRACE_LOST_MAGIC, 0);  /* [21] */
    tb_resume(t, 71, TC, TV, TB_STATE_QUEUE, TC);                              /* [22] not known */
    tb_ev(t, 80, TC, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);                       /* [23] seen again */
    tb_resume(t, 81, TC, TV, TB_STATE_QUEUE, TC);                              /* [24] timeout */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 25);
    static const int want[25] = {
        [2] = -1, [3] = EVT_WAKE_GIVEN, [4] = EVT_WAKE_TIMEOUT, [5] = EVT_WAKE_DELAY, [6] = -1, [7] = -1,
        [8] = EVT_WAKE_TIMEOUT, [9] = -1, [10] = EVT_WAKE_GIVEN, [11] = EVT_WAKE_GIVEN, [12] = -1, [13] = -1,
        [14] = -1, [15] = EVT_WAKE_GIVEN, [16] = -1, [17] = EVT_WAKE_ABORT, [18] = -1, [19] = EVT_WAKE_DELETED,
        [20] = EVT_WAKE_DELETED, [21] = -1, [22] = -1, [23] = -1, [24] = EVT_WAKE_TIMEOUT};
    for (uint32_t i = 2; i < 25; i++)
        if (o.cause[i] != want[i]) fail_msg("event %u: cause %d, want %d", i, o.cause[i], want[i]);
    assert_true(o.tl.wake_causes);
    assert_int_equal(ctx(&o, TA)->timeouts, 1);
    assert_int_equal(ctx(&o, TB)->timeouts, 1);
    assert_int_equal(ctx(&o, TB)->wait_aborts, 1);
    assert_int_equal(ctx(&o, TV)->timeouts, 1);
    assert_int_equal(ctx(&o, TV)->wait_aborts, 0);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* A wrapped buffer's oldest records may follow a give that was overwritten: a resume before the
 * context's first other record gets no cause. */
static void test_wrapped_start_knows_no_cause(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_opts(t)->slots = 6;
    tb_ev(t, 10, TS, TXTB_EVENT_SEMAPHORE_PUT, 0x20006000u, 0, 1, STK);
    for (uint32_t i = 0; i < 8; i++) tb_resume(t, 20 + i, TS, TA, TB_STATE_SEMAPHORE, TS);
    run o;
    play(t, &o);
    assert_true(o.n >= 4);
    for (uint32_t i = 0; i < o.n && i < 64; i++)
        if (o.kind[i] == EVT_KIND_THREAD_RUN && o.cause[i] != -1) fail_msg("event %u has a cause", i);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* What ThreadX counts as a thread's preemptions and relinquishes (tx_thread_system_resume.c,
 * tx_thread_relinquish.c), from the execute pointer its resume, suspend, relinquish and time
 * slice records name: a resume that makes its thread the one to run, in place of another known
 * one, preempts that one (from an ISR: an interrupt's); none during initialization, none where
 * the one before is not known (the start, a loss); a relinquish that names another thread
 * yields (one naming none, as ThreadX never writes it, does not). */
static void test_preemptions_and_yields(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_resume(t, 5, TB_CTX_INIT, TV, TB_STATE_SUSPENDED, TV);                  /* [2] before: unknown */
    tb_resume(t, 6, TB_CTX_INIT, TC, TB_STATE_SUSPENDED, TC);                  /* [3] initialization */
    tb_suspend(t, 10, TC, TC, TB_STATE_SLEEP, TV);                             /* [4] */
    tb_resume(t, 20, TV, TC, TB_STATE_SLEEP, TC);                              /* [5] preempts victim */
    tb_suspend(t, 21, TC, TC, TB_STATE_SLEEP, TV);                             /* [6] */
    tb_isr_enter(t, 30, 0, TV);                                                /* [7] */
    tb_resume(t, 31, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);                  /* [8] an interrupt's */
    tb_isr_exit(t, 32, 0, TV);                                                 /* [9] */
    tb_suspend(t, 40, TS, TS, TB_STATE_SUSPENDED, TV);                         /* [10] */
    tb_resume(t, 50, TV, TA, TB_STATE_SLEEP, TV);                              /* [11] victim runs on */
    tb_ev(t, 51, TV, TXTB_EVENT_THREAD_RELINQUISH, STK, TV, 0, 0);             /* [12] no one else */
    tb_suspend(t, 52, TV, TV, TB_STATE_SLEEP, TA);                             /* [13] */
    tb_ev(t, 60, TA, TXTB_EVENT_THREAD_RELINQUISH, STK, TB, 0, 0);             /* [14] yields */
    tb_ev(t, 70, TB, TXTB_EVTRACE_LOST_ID, 2, 0, TXTB_EVTRACE_LOST_MAGIC, 0);  /* [15] */
    tb_resume(t, 71, TB, TC, TB_STATE_SLEEP, TC);                              /* [16] before: unknown */
    tb_suspend(t, 72, TC, TC, TB_STATE_SLEEP, TB);                             /* [17] */
    tb_resume(t, 73, TB, TC, TB_STATE_SLEEP, TC);                              /* [18] preempts slice_b */
    tb_ev(t, 80, TC, TXTB_EVENT_THREAD_RELINQUISH, STK, 0, 0, 0);              /* [19] no thread named */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 20);
    for (uint32_t i = 2; i < 20; i++) {
        assert_int_equal(!!(o.has[i] & EVT_M_PREEMPT), i == 5 || i == 8 || i == 18);
        assert_int_equal(!!(o.has[i] & EVT_M_YIELD), i == 14);
    }
    assert_true(o.tl.preempt_counts);
    assert_true(o.tl.yield_counts);
    assert_int_equal(ctx(&o, TV)->preemptions, 2);
    assert_int_equal(ctx(&o, TV)->isr_preemptions, 1);
    assert_int_equal(ctx(&o, TB)->preemptions, 1);
    assert_int_equal(ctx(&o, TB)->isr_preemptions, 0);
    assert_int_equal(ctx(&o, TC)->preemptions, 0);
    assert_int_equal(ctx(&o, TA)->yields, 1);
    assert_int_equal(ctx(&o, TV)->yields, 0);
    assert_int_equal(ctx(&o, TC)->yields, 0);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* ThreadX's time slices (tx_thread_time_slice.c): the end of the running thread's slice rotates its
 * ready list, and ThreadX counts the thread's time slice, when another thread of its priority is
 * ready and it uses no preemption threshold. TIME_SLICE names the thread to run next: its peer
 * says a rotation, itself none, the timer thread (made ready first) neither: then the ready lists
 * as the resumes and suspends left them, and the thread's threshold, decide (EVT_M_TIME_SLICE, or
 * EVT_M_SLICE_KEPT, or EVT_M_SLICE_UNKNOWN where they cannot). A thread that recorded nothing of its own yet has its
 * threshold from its next record, unless a record that may change it comes first. */
static void test_time_slices(void **state)
{
    (void)state;
    const uint32_t thr10 = TXTB_PRIO_CURRENT_BIT | 10u << 16 | 18u; /* slice_b with threshold 10 */
    tb_trace *t = threads();
    tb_resume(t, 5, TB_CTX_INIT, TA, TB_STATE_SUSPENDED, TA);                  /* [2] */
    tb_resume(t, 6, TB_CTX_INIT, TB, TB_STATE_SUSPENDED, TA);                  /* [3] */
    tb_isr_enter(t, 10, 0, TA);                                                /* [4] */
    tb_rec(t, 11, TB_CTX_ISR, TA, TXTB_EVENT_TIME_SLICE, TB, 1, 0, STK);       /* [5] names its peer */
    tb_isr_exit(t, 12, 0, TA);                                                 /* [6] */
    tb_isr_enter(t, 20, 0, TB);                                                /* [7] */
    tb_resume(t, 21, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);                  /* [8] */
    tb_rec(t, 22, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TS, 1, 0, STK);       /* [9] slice_a ready */
    tb_isr_exit(t, 23, 0, TB);                                                 /* [10] */
    tb_suspend(t, 24, TS, TS, TB_STATE_SUSPENDED, TA);                         /* [11] */
    tb_ev(t, 25, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);                       /* [12] */
    tb_suspend(t, 30, TA, TA, TB_STATE_SLEEP, TB);                             /* [13] */
    tb_ev(t, 31, TB, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);                       /* [14] [9]'s threshold */
    tb_isr_enter(t, 40, 0, TB);                                                /* [15] */
    tb_resume(t, 41, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);                  /* [16] */
    tb_rec(t, 42, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TS, 1, 0, STK);       /* [17] slice_a sleeps */
    tb_isr_exit(t, 43, 0, TB);                                                 /* [18] */
    tb_suspend(t, 44, TS, TS, TB_STATE_SUSPENDED, TB);                         /* [19] */
    tb_resume(t, 50, TB, TA, TB_STATE_SLEEP, TB);                              /* [20] */
    tb_rec(t, 51, TB, thr10, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);               /* [21] */
    tb_isr_enter(t, 60, 0, TB);                                                /* [22] */
    tb_resume(t, 61, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);                  /* [23] */
    tb_rec(t, 62, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TS, 1, 0, STK);       /* [24] a threshold */
    tb_isr_exit(t, 63, 0, TB);                                                 /* [25] */
    tb_suspend(t, 64, TS, TS, TB_STATE_SUSPENDED, TB);                         /* [26] */
    tb_isr_enter(t, 70, 0, TB);                                                /* [27] */
    tb_rec(t, 71, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TB, 1, 0, STK);       /* [28] names itself */
    tb_isr_exit(t, 72, 0, TB);                                                 /* [29] */
    tb_rec(t, 73, TB, thr10, TXTB_EVTRACE_LOST_ID, 2, 0, TXTB_EVTRACE_LOST_MAGIC, 0); /* [30] */
    tb_isr_enter(t, 74, 0, TB);                                                /* [31] */
    tb_resume(t, 75, TB_CTX_ISR, TA, TB_STATE_SLEEP, TB);                      /* [32] */
    tb_resume(t, 76, TB_CTX_ISR, TS, TB_STATE_SUSPENDED, TS);                  /* [33] */
    tb_rec(t, 77, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TS, 1, 0, STK);       /* [34] not known */
    tb_isr_exit(t, 78, 0, TB);                                                 /* [35] */
    tb_suspend(t, 79, TS, TS, TB_STATE_SUSPENDED, TC);                         /* [36] */
    tb_ev(t, 80, TC, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TB, 18, 10, 0);      /* [37] */
    tb_suspend(t, 81, TC, TC, TB_STATE_SLEEP, TB);                             /* [38] */
    tb_ev(t, 82, TB, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);                       /* [39] */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 40);
    for (uint32_t i = 2; i < 40; i++) {
        assert_int_equal(!!(o.has[i] & EVT_M_TIME_SLICE), i == 5 || i == 9);
        assert_int_equal(!!(o.has[i] & EVT_M_SLICE_UNKNOWN), i == 34);
        assert_int_equal(!!(o.has[i] & EVT_M_SLICE_KEPT), i == 17 || i == 24 || i == 28);
    }
    assert_true(o.tl.slice_counts);
    assert_int_equal(ctx(&o, TA)->time_slices, 1);
    assert_int_equal(ctx(&o, TA)->time_slices_unknown, 0);
    assert_int_equal(ctx(&o, TB)->time_slices, 1);
    assert_int_equal(ctx(&o, TB)->time_slices_unknown, 1);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* A truncated file of a wrapped buffer lacks the slots between its oldest records and slot 0 in
 * time (one lost event): the look ahead for a thread's threshold stops there, as at any loss.
 * 8 slots, 13 records (the enable's two first, the recorder's LOST record at disable last, in
 * slot 4): the oldest is slot 5; slot 7 (a preemption change of slice_b) is cut off; slice_b's own
 * record after it says no threshold, which was not so at the time slice. */
static void test_time_slice_look_stops_at_a_cut(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_opts(t)->slots = 8;
    for (uint32_t i = 0; i < 3; i++) tb_ev(t, 10 + i, TC, TXTB_EVENT_TIME_GET, 0, STK, 0, 0); /* overwritten */
    tb_resume(t, 20, TB_CTX_ISR, TA, TB_STATE_SLEEP, TB);                      /* slot 5: oldest */
    tb_rec(t, 21, TB_CTX_ISR, TB, TXTB_EVENT_TIME_SLICE, TS, 1, 0, STK);       /* slot 6 */
    tb_ev(t, 22, TC, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TB, 18, 10, 0);      /* slot 7: cut */
    for (uint32_t i = 0; i < 4; i++) tb_ev(t, 24 + i, TB, TXTB_EVENT_TIME_GET, 0, STK, 0, 0); /* slots 0-3 */
    run o;
    play_cut(t, &o, TXTB_EVENT_SIZE);
    int slices = 0;
    for (uint32_t i = 0; i < o.n && i < 64; i++) {
        if (!(o.has[i] & (EVT_M_TIME_SLICE | EVT_M_SLICE_KEPT | EVT_M_SLICE_UNKNOWN))) continue;
        slices++;
        assert_int_equal(o.has[i] & (EVT_M_TIME_SLICE | EVT_M_SLICE_KEPT | EVT_M_SLICE_UNKNOWN), EVT_M_SLICE_UNKNOWN);
    }
    assert_int_equal(slices, 1);
    evt_tl_free(&o.tl);
    tb_free(t);
}

/* A ThreadX trace that holds its scheduler's records writes every time slice's end, and with a
 * thread service's record every preemption and relinquish too (one filter bit per category): its
 * threads with none marked had 0 (evt_reader.counts, read by evt_tl_finish), not an unknown number.
 * Not where a resume's info4 is the execute pointer before it (an older kernel: no resume names
 * its own thread; its relinquish that yields still says yields are known, not preemptions), nor
 * where an id carries a core (SMP), nor without the scheduler's records. */
static void test_counts_given_whenever(void **state)
{
    (void)state;
    /* 0: all of it; 1: no resume names its thread; 2: no thread service; 3: an SMP id;
       4: no scheduler records */
    static const int want_slices[5] = {1, 0, 1, 0, 0}, want_preempt[5] = {1, 0, 0, 0, 0};
    static const int want_yield[5] = {1, 1, 0, 0, 0};
    for (int c = 0; c < 5; c++) {
        tb_trace *t = threads();
        if (c != 4) tb_resume(t, 5, TB_CTX_INIT, TA, TB_STATE_SUSPENDED, c == 1 ? TC : TA);
        tb_ev(t, 6, TA, TXTB_EVENT_TIME_GET, 0, STK, 0, 0);
        if (c != 2) tb_ev(t, 7, TA, TXTB_EVENT_THREAD_SLEEP, 5, STK, 0, 0);
        if (c == 3) tb_ev(t, 8, TA, TXTB_EVENT_TIME_GET | 1u << 24, 0, STK, 0, 0);
        if (c == 1) tb_ev(t, 8, TA, TXTB_EVENT_THREAD_RELINQUISH, STK, TB, 0, 0); /* yields */
        if (c != 4) tb_suspend(t, 9, TA, TA, TB_STATE_SLEEP, 0);
        run o;
        play(t, &o);
        assert_int_equal(o.tl.slice_counts, want_slices[c]);
        assert_int_equal(o.tl.preempt_counts, want_preempt[c]);
        assert_int_equal(o.tl.yield_counts, want_yield[c]);
        for (uint32_t i = 0; i < o.n && i < 64; i++) /* nothing marked but c 1's yield: the reader's word */
            assert_int_equal(o.has[i] & (EVT_M_TIME_SLICE | EVT_M_SLICE_KEPT | EVT_M_SLICE_UNKNOWN | EVT_M_PREEMPT |
                                         (c == 1 ? 0u : (unsigned)EVT_M_YIELD)), 0);
        if (c == 0) {
            assert_int_equal(ctx(&o, TA)->time_slices, 0);
            assert_int_equal(ctx(&o, TA)->preemptions, 0);
        }
        evt_tl_free(&o.tl);
        tb_free(t);
    }
}

/* tx_thread_preemption_change preempts its thread when that is the one to run, the threshold is
 * allowed and a ready thread is more urgent than both its priority and the new threshold
 * (tx_thread_preemption_change.c): ThreadX counts a solicited preemption. Where a thread that
 * could decide it is in an unknown state, or the execute pointer before a resume that names its
 * own thread is not known, the reader no longer says its trace gives every preemption. */
static void test_preemption_change_preempts(void **state)
{
    (void)state;
    tb_trace *t = threads();
    tb_ev(t, 4, TB_CTX_INIT, TXTB_EVENT_THREAD_CREATE, TV, 12, STK, 1024);     /* [2] no inheritance */
    tb_resume(t, 5, TB_CTX_INIT, TV, TB_STATE_SUSPENDED, TV);                  /* [3] */
    tb_suspend(t, 6, TS, TS, TB_STATE_SUSPENDED, TV);                          /* [4] */
    tb_suspend(t, 7, TC, TC, TB_STATE_SLEEP, TV);                              /* [5] */
    tb_ev(t, 10, TV, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TV, 0, 12, 0);       /* [6] none ready */
    tb_isr_enter(t, 11, 0, TV);                                                /* [7] */
    tb_resume(t, 12, TB_CTX_ISR, TC, TB_STATE_SLEEP, TV);                      /* [8] held off */
    tb_isr_exit(t, 13, 0, TV);                                                 /* [9] */
    tb_ev(t, 20, TV, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TV, 12, 0, 0);       /* [10] preempts */
    tb_suspend(t, 21, TC, TC, TB_STATE_SLEEP, TV);                             /* [11] */
    tb_ev(t, 30, TV, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TV, 0, 12, 0);       /* [12] */
    tb_isr_enter(t, 31, 0, TV);                                                /* [13] */
    tb_resume(t, 32, TB_CTX_ISR, TC, TB_STATE_SLEEP, TV);                      /* [14] held off */
    tb_isr_exit(t, 33, 0, TV);                                                 /* [15] */
    tb_ev(t, 40, TV, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TV, 13, 0, 0);       /* [16] refused */
    run o;
    play(t, &o);
    assert_int_equal(o.n, 17);
    for (uint32_t i = 2; i < 17; i++) assert_int_equal(!!(o.has[i] & EVT_M_PREEMPT), i == 10);
    assert_int_equal(ctx(&o, TV)->preemptions, 1);
    assert_int_equal(ctx(&o, TV)->isr_preemptions, 0);
    evt_tl_free(&o.tl);
    tb_free(t);
    /* no preemption marked: 0 where every thread that could preempt is known not ready (c 0); not
       known where ctrl's state is not (1), nor after a resume with the execute pointer unknown (2) */
    for (int c = 0; c < 3; c++) {
        t = threads();
        tb_ev(t, 3, TB_CTX_INIT, TXTB_EVENT_THREAD_CREATE, TV, 12, STK, 1024);
        if (c == 2) tb_resume(t, 4, TA, TV, TB_STATE_SLEEP, TV);
        else tb_resume(t, 5, TB_CTX_INIT, TV, TB_STATE_SUSPENDED, TV);
        tb_suspend(t, 6, TS, TS, TB_STATE_SUSPENDED, TV);
        if (c != 1) tb_suspend(t, 7, TC, TC, TB_STATE_SLEEP, TV);
        tb_ev(t, 10, TV, TXTB_EVENT_THREAD_PREEMPTION_CHANGE, TV, 12, 0, 0);
        play(t, &o);
        for (uint32_t i = 0; i < o.n && i < 64; i++) assert_int_equal(o.has[i] & EVT_M_PREEMPT, 0);
        assert_int_equal(o.tl.preempt_counts, c == 0);
        assert_int_equal(o.tl.yield_counts, 1); /* every relinquish is still written */
        assert_int_equal(o.tl.slice_counts, 1);
        evt_tl_free(&o.tl);
        tb_free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relinquish_switches),
        cmocka_unit_test(test_preemptions_and_yields),
        cmocka_unit_test(test_time_slices),
        cmocka_unit_test(test_time_slice_look_stops_at_a_cut),
        cmocka_unit_test(test_counts_given_whenever),
        cmocka_unit_test(test_preemption_change_preempts),
        cmocka_unit_test(test_time_slice_switches_at_isr_exit),
        cmocka_unit_test(test_delayed_suspension),
        cmocka_unit_test(test_isr_decides_again),
        cmocka_unit_test(test_isr_names_the_interrupted_thread),
        cmocka_unit_test(test_terminate_and_reset),
        cmocka_unit_test(test_priority_change),
        cmocka_unit_test(test_mutex_inheritance),
        cmocka_unit_test(test_priority_change_keeps_inheritance),
        cmocka_unit_test(test_lost_records_forget_inheritance),
        cmocka_unit_test(test_wait_causes),
        cmocka_unit_test(test_wrapped_start_knows_no_cause),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
