/* Unit tests of the one timeline (src/host/timeline/timeline.h) on hand-built event streams whose
 * switches, states, ISRs, slices, flows and losses are known by construction: a ThreadX-style
 * stream (suspend/resume with next_thread, an ISR that wakes a thread), a dispatcher-hooks stream
 * (μT-Kernel style stop + exec pairs), nesting and a loss. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "host/timeline/timeline.h"
#include "evt_meaning_test.h"

#define MAXR 64

typedef struct rec {
    evt_tl_switch sw[MAXR];
    uint32_t nsw;
    evt_tl_state_iv st[MAXR];
    char st_svc[MAXR][32];
    uint32_t nst;
    evt_tl_isr isr[MAXR];
    uint32_t nisr;
    evt_tl_slice sl[MAXR];
    char sl_name[MAXR][32];
    uint32_t nsl;
    evt_tl_flow fl[MAXR];
    uint32_t nfl;
    evt_tl_waking wk[MAXR];
    uint32_t nwk;
    evt_tl_lost lo[MAXR];
    uint32_t nlo;
    evt_tl_counter co[MAXR];
    uint32_t nco;
} rec;

static void on_switch(void *u, const evt_tl_switch *s) { rec *r = u; if (r->nsw < MAXR) r->sw[r->nsw++] = *s; }
static void on_state(void *u, const evt_tl_state_iv *s)
{
    rec *r = u;
    if (r->nst >= MAXR) return;
    r->st[r->nst] = *s;
    snprintf(r->st_svc[r->nst], 32, "%s", s->service ? s->service : "");
    r->nst++;
}
static void on_isr(void *u, const evt_tl_isr *s) { rec *r = u; if (r->nisr < MAXR) r->isr[r->nisr++] = *s; }
static void on_slice(void *u, const evt_tl_slice *s)
{
    rec *r = u;
    if (r->nsl >= MAXR) return;
    r->sl[r->nsl] = *s;
    snprintf(r->sl_name[r->nsl], 32, "%s", s->name);
    r->nsl++;
}
static void on_flow(void *u, const evt_tl_flow *f) { rec *r = u; if (r->nfl < MAXR) r->fl[r->nfl++] = *f; }
static void on_wake(void *u, const evt_tl_waking *w) { rec *r = u; if (r->nwk < MAXR) r->wk[r->nwk++] = *w; }
static void on_lost(void *u, const evt_tl_lost *l) { rec *r = u; if (r->nlo < MAXR) r->lo[r->nlo++] = *l; }
static void on_counter(void *u, const evt_tl_counter *c) { rec *r = u; if (r->nco < MAXR) r->co[r->nco++] = *c; }
static evt_tl_prio g_pr[MAXR];
static uint32_t g_npr;
static void on_prio(void *u, const evt_tl_prio *p) { (void)u; if (g_npr < MAXR) g_pr[g_npr++] = *p; }

static void start(evt_tl *tl, rec *r)
{
    memset(r, 0, sizeof *r);
    evt_tl_sink s = {0};
    s.user = r;
    s.sched_switch = on_switch;
    s.state = on_state;
    s.isr = on_isr;
    s.slice = on_slice;
    s.flow = on_flow;
    s.waking = on_wake;
    s.lost = on_lost;
    s.counter = on_counter;
    s.prio = on_prio;
    g_npr = 0;
    assert_true(evt_tl_init(tl, 0, &s));
}

enum { A = 0x100, B = 0x200, ISR = 0xFFFFFFFF, Q = 0x900, S = 0x910 };

static evt_event ev_(uint64_t ts, uint64_t ctx, evt_ctx_class cls, evt_kind k, const char *name)
{
    evt_event e;
    evt_event_reset(&e);
    e.ts = ts;
    e.flags |= EVT_HAS_CTX;
    e.ctx = ctx;
    e.ctx_class = cls;
    e.ctx_name = ctx == A ? "A" : ctx == B ? "B" : ctx == ISR ? "ISR" : NULL;
    e.kind = k;
    e.name = name;
    return e;
}

static void target_(evt_event *e, uint64_t t)
{
    e->flags |= EVT_HAS_TARGET;
    e->target = t;
}

static uint32_t ix_(const evt_tl *tl, uint64_t id)
{
    uint32_t v = 0;
    assert_true(evt_u64map_get(&tl->ctxmap, id, &v));
    return v;
}

static void expect_switch(const evt_tl_switch *s, uint64_t t, uint32_t prev, uint32_t next, evt_tl_state ps)
{
    assert_int_equal(s->t, t);
    assert_int_equal(s->prev, prev);
    assert_int_equal(s->next, next);
    if (prev != EVT_TL_NONE) assert_int_equal(s->prev_state, ps);
}

/* The meaning bits the timeline consumes besides kind: A holds nothing, B (more urgent) raises A's
 * priority (inherit) and stops blocked on mutex M (EVT_M_BLOCKED_ON: no service call names it);
 * A gives it back (disinherit) and wakes B with a record that is no thread_run (EVT_M_WAKE); B
 * starts a wait on queue Q (m.op wait_start) and stops with no object named: blocked on Q. */
static void meaning_wake_prio_blocked_on(void **st)
{
    (void)st;
    enum { M = 0x920 };
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = ev_(0, A, EVT_CTX_THREAD, EVT_KIND_USER, "run");
    tm_ctx_prio(&e, 1);
    evt_tl_add(&tl, &e);
    e = ev_(10, B, EVT_CTX_THREAD, EVT_KIND_USER, "run"); /* B preempts A */
    tm_ctx_prio(&e, 5);
    evt_tl_add(&tl, &e);
    e = ev_(11, B, EVT_CTX_THREAD, EVT_KIND_OTHER, "inherit");
    target_(&e, A);
    e.m.has |= EVT_M_PRIO_SET | EVT_M_OP;
    e.m.new_prio = 5;
    e.m.op = EVT_OP_INHERIT;
    evt_tl_add(&tl, &e);
    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    assert_int_equal(tl.ctxs[a]->prio, 5);
    assert_int_equal(tl.ctxs[a]->base_prio, 1);
    e = ev_(12, B, EVT_CTX_THREAD, EVT_KIND_THREAD_STOP, "switch");
    target_(&e, B);
    tm_stop(&e, EVT_HOOK_STATE_WAITING);
    tm_next(&e, A);
    e.m.has |= EVT_M_BLOCKED_ON;
    e.m.obj = M;
    evt_tl_add(&tl, &e);
    e = ev_(15, A, EVT_CTX_THREAD, EVT_KIND_USER, "work"); /* its events carry the raised priority */
    tm_ctx_prio(&e, 5);
    evt_tl_add(&tl, &e);
    assert_int_equal(tl.ctxs[a]->base_prio, 1);
    e = ev_(20, A, EVT_CTX_THREAD, EVT_KIND_OTHER, "disinherit");
    target_(&e, A);
    e.m.has |= EVT_M_PRIO_SET | EVT_M_OP;
    e.m.new_prio = 1;
    e.m.op = EVT_OP_DISINHERIT;
    evt_tl_add(&tl, &e);
    e = ev_(21, A, EVT_CTX_THREAD, EVT_KIND_OTHER, "ready"); /* and says why B's wait ended */
    target_(&e, B);
    e.m.has |= EVT_M_WAKE | EVT_M_WAKE_CAUSE;
    e.m.wake_cause = EVT_WAKE_GIVEN;
    evt_tl_add(&tl, &e);
    e = ev_(22, B, EVT_CTX_THREAD, EVT_KIND_USER, "run"); /* B runs again */
    evt_tl_add(&tl, &e);
    e = ev_(30, B, EVT_CTX_THREAD, EVT_KIND_SVC, "wait");
    tm_op(&e, EVT_OP_WAIT_START, Q);
    e.flags &= ~(unsigned)EVT_HAS_TARGET;
    evt_tl_add(&tl, &e);
    e = ev_(31, B, EVT_CTX_THREAD, EVT_KIND_THREAD_STOP, "switch");
    target_(&e, B);
    tm_stop(&e, EVT_HOOK_STATE_WAITING);
    tm_next(&e, A);
    evt_tl_add(&tl, &e);
    e = ev_(40, A, EVT_CTX_THREAD, EVT_KIND_USER, "work");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);

    assert_int_equal(g_npr, 2);
    assert_int_equal(g_pr[0].ctx, a);
    assert_int_equal(g_pr[0].t, 11);
    assert_int_equal(g_pr[0].prio, 5);
    assert_true(g_pr[0].has_old);
    assert_int_equal(g_pr[0].old_prio, 1);
    assert_int_equal(g_pr[0].why, EVT_TL_PRIO_INHERIT);
    assert_int_equal(g_pr[0].by, b);
    assert_int_equal(g_pr[1].why, EVT_TL_PRIO_DISINHERIT);
    assert_int_equal(g_pr[1].prio, 1);
    assert_string_equal(evt_tl_prio_why_name(EVT_TL_PRIO_DISINHERIT), "disinherit");

    assert_int_equal(r.nwk, 1); /* who woke whom, through what */
    assert_int_equal(r.wk[0].target, b);
    assert_int_equal(r.wk[0].waker, a);
    assert_int_equal(r.wk[0].t, 21);
    assert_int_equal(tl.objs[r.wk[0].obj]->id, M);
    assert_int_equal(r.wk[0].cause, EVT_WAKE_GIVEN);
    int blocked_m = 0, blocked_q = 0, ready = 0;
    for (uint32_t k = 0; k < r.nst; k++) {
        const evt_tl_state_iv *iv = &r.st[k];
        if (iv->ctx != b) continue;
        if (iv->state == EVT_TL_BLOCKED && iv->t0 == 12 && iv->t1 == 21) blocked_m = tl.objs[iv->obj]->id == M;
        if (iv->state == EVT_TL_BLOCKED && iv->t0 == 31 && iv->open_end) blocked_q = tl.objs[iv->obj]->id == Q;
        if (iv->state == EVT_TL_READY && iv->t0 == 21 && iv->t1 == 22) ready = 1;
    }
    assert_true(blocked_m);
    assert_true(blocked_q);
    assert_true(ready);
    /* the switches carry the priorities as they were */
    assert_int_equal(r.sw[r.nsw - 1].next_prio, 1);
    evt_tl_free(&tl);
}

/* ThreadX: A blocks on queue Q (next thread: idle); an ISR sends to Q and resumes A (next thread
 * A), the switch happens at the ISR's exit; B preempts A by recording; B sleeps with next A. */
static void threadx_style(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = ev_(0, A, EVT_CTX_THREAD, EVT_KIND_SVC, "QUEUE_RECEIVE");
    tm_op(&e, EVT_OP_RECEIVE, Q);
    evt_meaning_add_level(&e.m, EVT_LEVEL_DEPTH, 0);
    evt_tl_add(&tl, &e);
    e = ev_(10, A, EVT_CTX_THREAD, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND");
    target_(&e, A);
    tm_stop(&e, EVT_HOOK_STATE_WAITING);
    tm_next(&e, 0);
    evt_tl_add(&tl, &e);
    e = ev_(20, ISR, EVT_CTX_ISR, EVT_KIND_ISR_ENTER, "ISR_ENTER");
    tm_irq(&e, 3);
    evt_tl_add(&tl, &e);
    e = ev_(22, ISR, EVT_CTX_ISR, EVT_KIND_SVC, "QUEUE_SEND");
    tm_op(&e, EVT_OP_SEND, Q);
    evt_meaning_add_level(&e.m, EVT_LEVEL_DEPTH, 0);
    evt_tl_add(&tl, &e);
    e = ev_(23, ISR, EVT_CTX_ISR, EVT_KIND_THREAD_RUN, "THREAD_RESUME");
    target_(&e, A);
    tm_next(&e, A);
    evt_tl_add(&tl, &e);
    e = ev_(25, ISR, EVT_CTX_ISR, EVT_KIND_ISR_EXIT, "ISR_EXIT");
    tm_irq(&e, 3);
    evt_tl_add(&tl, &e);
    e = ev_(30, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(40, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(50, B, EVT_CTX_THREAD, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND");
    target_(&e, B);
    tm_stop(&e, EVT_HOOK_STATE_WAITING);
    tm_next(&e, A);
    evt_tl_add(&tl, &e);
    e = ev_(60, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);

    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    assert_int_equal(r.nsw, 5);
    expect_switch(&r.sw[0], 0, EVT_TL_NONE, a, EVT_TL_READY);
    expect_switch(&r.sw[1], 10, a, EVT_TL_NONE, EVT_TL_BLOCKED);
    expect_switch(&r.sw[2], 25, EVT_TL_NONE, a, EVT_TL_READY);
    expect_switch(&r.sw[3], 40, a, b, EVT_TL_READY);
    expect_switch(&r.sw[4], 50, b, a, EVT_TL_BLOCKED);

    /* A: running 0-10, blocked on Q (QUEUE_RECEIVE) 10-23, ready 23-25, running 25-40, ready
     * 40-50, running 50-60 (open); B: running 40-50, blocked 50-60 (open) */
    static const struct { int who; evt_tl_state s; uint64_t t0, t1; int open; } want[] = {
        {0, EVT_TL_RUNNING, 0, 10, 0}, {0, EVT_TL_BLOCKED, 10, 23, 0}, {0, EVT_TL_READY, 23, 25, 0},
        {0, EVT_TL_RUNNING, 25, 40, 0}, {1, EVT_TL_RUNNING, 40, 50, 0}, {0, EVT_TL_READY, 40, 50, 0},
        {0, EVT_TL_RUNNING, 50, 60, 1}, {1, EVT_TL_BLOCKED, 50, 60, 1},
    };
    assert_int_equal(r.nst, 8);
    for (uint32_t i = 0; i < 8; i++) {
        int found = 0;
        for (uint32_t k = 0; k < r.nst; k++) {
            const evt_tl_state_iv *iv = &r.st[k];
            if (iv->ctx == (want[i].who ? b : a) && iv->state == want[i].s && iv->t0 == want[i].t0 &&
                iv->t1 == want[i].t1 && iv->open_end == want[i].open)
                found = 1;
        }
        assert_true(found);
    }
    for (uint32_t k = 0; k < r.nst; k++)
        if (r.st[k].ctx == a && r.st[k].state == EVT_TL_BLOCKED) {
            assert_string_equal(r.st_svc[k], "QUEUE_RECEIVE");
            assert_int_equal(tl.objs[r.st[k].obj]->id, Q);
        }

    assert_int_equal(r.nisr, 1);
    assert_int_equal(r.isr[0].t0, 20);
    assert_int_equal(r.isr[0].t1, 25);
    assert_true(r.isr[0].has_irq);
    assert_int_equal(r.isr[0].irq, 3);
    assert_int_equal(r.isr[0].interrupted, EVT_TL_NONE);

    assert_int_equal(r.nwk, 1);
    assert_int_equal(r.wk[0].target, a);
    assert_true(r.wk[0].from_isr);
    assert_int_equal(r.wk[0].cause, EVT_WAKE_UNKNOWN); /* no event said why */
    assert_int_equal(r.nfl, 1); /* the wake-up carries the message: no second flow */
    assert_string_equal(r.fl[0].kind, "wake");
    assert_int_equal(r.fl[0].t0, 23);
    assert_int_equal(r.fl[0].t1, 25);
    assert_int_equal(r.fl[0].to_ctx, a);
    assert_int_equal(tl.objs[r.fl[0].obj]->id, Q);

    assert_int_equal(r.nco, 2);
    assert_string_equal(r.co[0].name, "queue depth");
    assert_int_equal(r.nsl, 2); /* two services recorded as instants */
    assert_int_equal(r.sl[0].t0, r.sl[0].t1);

    /* every tick of the 60 is running, idle or ISR */
    assert_int_equal(tl.ctxs[a]->run_time, 35);
    assert_int_equal(tl.ctxs[b]->run_time, 10);
    assert_int_equal(tl.isr_time, 5);
    assert_int_equal(tl.idle_time, 10);
    assert_int_equal(tl.ctxs[a]->run_time + tl.ctxs[b]->run_time + tl.isr_time + tl.idle_time, 60);
    evt_tl_free(&tl);
}

static evt_event hook_(uint64_t ts, uint64_t ctx, evt_kind k, const char *name, evt_hook_state state)
{
    evt_event e = ev_(ts, ctx, EVT_CTX_THREAD, k, name);
    target_(&e, ctx);
    if (k == EVT_KIND_THREAD_STOP) tm_stop(&e, state);
    else tm_runs_now(&e);
    return e;
}

/* Message flows through an object some contexts give and take themselves (a semaphore used as a
 * lock): a take finds the oldest pending give of another context, never its own. A's own gives
 * pile up (before 3 Dec 2026 each of its takes scanned them all: 17x slower stats on such a
 * trace); the answers are the same with the shortcut that now knows they are all A's. */
static void svc_op_(evt_tl *tl, uint64_t ts, uint64_t ctx, evt_obj_op op)
{
    evt_event e = ev_(ts, ctx, EVT_CTX_THREAD, EVT_KIND_SVC, op == EVT_OP_GIVE ? "SEM_PUT" : "SEM_GET");
    tm_op(&e, op, S);
    evt_tl_add(tl, &e);
}
static void message_own_sources(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    uint64_t t = 1;
    for (int i = 0; i < 100; i++) { /* A gives and takes: no flow, its gives pending */
        svc_op_(&tl, t++, A, EVT_OP_GIVE);
        svc_op_(&tl, t++, A, EVT_OP_TAKE);
    }
    assert_int_equal(r.nfl, 0);
    svc_op_(&tl, 500, B, EVT_OP_GIVE);  /* B's give: A's next take takes it */
    svc_op_(&tl, 501, A, EVT_OP_TAKE);
    svc_op_(&tl, 502, A, EVT_OP_TAKE);  /* only A's own left: none */
    svc_op_(&tl, 503, B, EVT_OP_TAKE);  /* B takes A's oldest give (t = 1) */
    svc_op_(&tl, 504, B, EVT_OP_TAKE);  /* and the next (t = 3) */
    svc_op_(&tl, 505, A, EVT_OP_TAKE);  /* still only A's own: none */
    evt_tl_finish(&tl);
    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    assert_int_equal(r.nfl, 3);
    for (uint32_t i = 0; i < 3; i++) assert_string_equal(r.fl[i].kind, "message");
    assert_int_equal(r.fl[0].from_ctx, b);
    assert_int_equal(r.fl[0].to_ctx, a);
    assert_int_equal(r.fl[0].t0, 500);
    assert_int_equal(r.fl[0].t1, 501);
    assert_int_equal(r.fl[1].from_ctx, a);
    assert_int_equal(r.fl[1].to_ctx, b);
    assert_int_equal(r.fl[1].t0, 1);
    assert_int_equal(r.fl[1].t1, 503);
    assert_int_equal(r.fl[2].from_ctx, a);
    assert_int_equal(r.fl[2].t0, 3);
    assert_int_equal(r.fl[2].t1, 504);
    evt_tl_free(&tl);
}

/* Dispatcher hooks: stop(old) leaves no current task until exec(new): two switches with idle
 * between, as the kernel reports it. A semaphore signalled in an ISR is a message flow to the task
 * whose wait returns. */
static void hooks_style(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = hook_(1, A, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    e = ev_(2, A, EVT_CTX_THREAD, EVT_KIND_SVC_ENTER, "tk_wai_sem");
    tm_op(&e, EVT_OP_TAKE, S);
    evt_tl_add(&tl, &e);
    e = hook_(3, A, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", EVT_HOOK_STATE_WAITING);
    evt_tl_add(&tl, &e);
    e = hook_(4, B, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    e = hook_(6, B, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", EVT_HOOK_STATE_WAITING);
    evt_tl_add(&tl, &e);
    e = ev_(10, ISR, EVT_CTX_ISR, EVT_KIND_ISR_ENTER, "adc");
    tm_irq(&e, 7);
    evt_tl_add(&tl, &e);
    e = ev_(11, ISR, EVT_CTX_ISR, EVT_KIND_SVC_ENTER, "tk_sig_sem");
    tm_op(&e, EVT_OP_GIVE, S);
    evt_tl_add(&tl, &e);
    e = ev_(12, ISR, EVT_CTX_ISR, EVT_KIND_SVC_EXIT, "tk_sig_sem");
    e.m.has |= EVT_M_OP;
    e.m.op = EVT_OP_GIVE;
    evt_tl_add(&tl, &e);
    e = ev_(13, ISR, EVT_CTX_ISR, EVT_KIND_ISR_EXIT, "adc");
    tm_irq(&e, 7);
    evt_tl_add(&tl, &e);
    e = hook_(14, A, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    e = ev_(15, A, EVT_CTX_THREAD, EVT_KIND_SVC_EXIT, "tk_wai_sem");
    e.m.has |= EVT_M_OP;
    e.m.op = EVT_OP_TAKE;
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);

    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    assert_int_equal(r.nsw, 5);
    expect_switch(&r.sw[0], 1, EVT_TL_NONE, a, EVT_TL_READY);
    expect_switch(&r.sw[1], 3, a, EVT_TL_NONE, EVT_TL_BLOCKED); /* stop: no current task */
    expect_switch(&r.sw[2], 4, EVT_TL_NONE, b, EVT_TL_READY);   /* exec */
    expect_switch(&r.sw[3], 6, b, EVT_TL_NONE, EVT_TL_BLOCKED);
    expect_switch(&r.sw[4], 14, EVT_TL_NONE, a, EVT_TL_READY);
    int blocked_on_s = 0;
    for (uint32_t k = 0; k < r.nst; k++)
        if (r.st[k].ctx == a && r.st[k].state == EVT_TL_BLOCKED && r.st[k].t0 == 3 && r.st[k].t1 == 14) {
            assert_string_equal(r.st_svc[k], "tk_wai_sem");
            assert_int_equal(tl.objs[r.st[k].obj]->id, S);
            blocked_on_s = 1;
        }
    assert_true(blocked_on_s);
    assert_int_equal(r.nfl, 1);
    assert_string_equal(r.fl[0].kind, "message");
    assert_int_equal(r.fl[0].t0, 11);
    assert_int_equal(r.fl[0].t1, 15);
    assert_int_equal(r.fl[0].to_ctx, a);
    assert_int_equal(r.fl[0].from_ctx, ix_(&tl, ISR));
    /* slices: tk_sig_sem 11-12 in the ISR, tk_wai_sem 2-15 in A (wall time) */
    assert_int_equal(r.nsl, 2);
    assert_string_equal(r.sl_name[1], "tk_wai_sem");
    assert_int_equal(r.sl[1].t0, 2);
    assert_int_equal(r.sl[1].t1, 15);
    assert_false(r.sl[1].truncated);
    assert_int_equal(r.nisr, 1);
    assert_int_equal(r.isr[0].irq, 7);
    assert_int_equal(tl.idle_time, (4 - 3) + (10 - 6) + (14 - 13));
    evt_tl_free(&tl);
}

/* A wait the reader marks on the stop itself (the hooks readers: m.op wait_start on a thread's stop
 * of itself, m.op wait_end on its next thread_in; formats/common/hook_wait.h): the blocked state is
 * on the stop's object even when the context's latest service call named another one (an ISR-less
 * nested call on S inside a wait on Q), and the stop leaves no pending wait behind: a later block
 * in a call without an object (a sleep) names no object. */
static void wait_marked_on_the_stop(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = hook_(1, A, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    e = ev_(2, A, EVT_CTX_THREAD, EVT_KIND_SVC_ENTER, "rcv");
    tm_op(&e, EVT_OP_RECEIVE, Q);
    evt_tl_add(&tl, &e);
    e = ev_(3, A, EVT_CTX_THREAD, EVT_KIND_SVC, "sig"); /* the latest call names S */
    tm_op(&e, EVT_OP_GIVE, S);
    evt_tl_add(&tl, &e);
    e = hook_(4, A, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", EVT_HOOK_STATE_WAITING);
    tm_op(&e, EVT_OP_WAIT_START, Q);
    e.target = A; /* tm_op made the object the target: the stop is about A */
    evt_tl_add(&tl, &e);
    e = hook_(9, A, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    tm_op(&e, EVT_OP_WAIT_END, Q);
    e.target = A;
    evt_tl_add(&tl, &e);
    e = ev_(10, A, EVT_CTX_THREAD, EVT_KIND_SVC_EXIT, "rcv");
    evt_tl_add(&tl, &e);
    e = ev_(11, A, EVT_CTX_THREAD, EVT_KIND_SVC_ENTER, "slp"); /* no object */
    evt_tl_add(&tl, &e);
    e = hook_(12, A, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", EVT_HOOK_STATE_WAITING);
    evt_tl_add(&tl, &e);
    e = hook_(20, A, EVT_KIND_THREAD_RUN, "THREAD_RESUME", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);

    uint32_t a = ix_(&tl, A);
    int on_q = 0, on_nothing = 0;
    for (uint32_t k = 0; k < r.nst; k++) {
        const evt_tl_state_iv *iv = &r.st[k];
        if (iv->ctx != a || iv->state != EVT_TL_BLOCKED) continue;
        if (iv->t0 == 4) {
            assert_int_equal(iv->t1, 9);
            assert_int_not_equal(iv->obj, EVT_TL_NONE);
            assert_int_equal(tl.objs[iv->obj]->id, Q);
            on_q = 1;
        } else {
            assert_int_equal(iv->t0, 12);
            assert_int_equal(iv->t1, 20);
            assert_int_equal(iv->obj, EVT_TL_NONE);
            on_nothing = 1;
        }
    }
    assert_true(on_q);
    assert_true(on_nothing);
    assert_int_equal(tl.ctxs[a]->wait_obj, EVT_TL_NONE);
    evt_tl_free(&tl);
}

/* Nested ISRs, an exit that closes nothing, a loss that truncates open slices and ISRs and leaves
 * the running context unknown, and the end of the trace closing what is open. */
static void nesting_and_loss(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = ev_(0, A, EVT_CTX_THREAD, EVT_KIND_FUNC_ENTER, "enter");
    tm_label(&e, "outer");
    evt_tl_add(&tl, &e);
    e = ev_(1, A, EVT_CTX_THREAD, EVT_KIND_FUNC_ENTER, "enter");
    tm_label(&e, "inner");
    evt_tl_add(&tl, &e);
    e = ev_(2, ISR, EVT_CTX_ISR, EVT_KIND_ISR_ENTER, "ISR_ENTER");
    tm_irq(&e, 1);
    evt_tl_add(&tl, &e);
    e = ev_(3, ISR, EVT_CTX_ISR, EVT_KIND_ISR_ENTER, "ISR_ENTER");
    tm_irq(&e, 2);
    evt_tl_add(&tl, &e);
    e = ev_(4, ISR, EVT_CTX_ISR, EVT_KIND_ISR_EXIT, "ISR_EXIT");
    evt_tl_add(&tl, &e);
    e = ev_(5, A, EVT_CTX_THREAD, EVT_KIND_FUNC_EXIT, "exit"); /* closes inner, outer stays */
    tm_label(&e, "inner");
    evt_tl_add(&tl, &e);
    evt_event_reset(&e);
    e.ts = 8;
    e.kind = EVT_KIND_LOST;
    e.name = "LOST";
    e.flags |= EVT_HAS_COUNT;
    e.count = 17;
    evt_tl_add(&tl, &e);
    e = ev_(9, ISR, EVT_CTX_ISR, EVT_KIND_ISR_EXIT, "ISR_EXIT"); /* its enter was dropped at the loss */
    evt_tl_add(&tl, &e);
    e = ev_(10, A, EVT_CTX_THREAD, EVT_KIND_FUNC_ENTER, "enter");
    tm_label(&e, "again");
    evt_tl_add(&tl, &e);
    e = ev_(12, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);

    uint32_t a = ix_(&tl, A);
    assert_int_equal(r.nisr, 2);
    assert_int_equal(r.isr[0].depth, 1);
    assert_int_equal(r.isr[0].irq, 2);
    assert_int_equal(r.isr[0].t1, 4);
    assert_false(r.isr[0].truncated);
    assert_int_equal(r.isr[1].depth, 0);
    assert_int_equal(r.isr[1].t1, 8);
    assert_true(r.isr[1].truncated);
    assert_int_equal(r.isr[1].interrupted, a);
    assert_int_equal(tl.unmatched_exits, 1);
    assert_int_equal(r.nlo, 1);
    assert_int_equal(r.lo[0].t0, 5);
    assert_int_equal(r.lo[0].t1, 8);
    assert_int_equal(r.lo[0].count, 17);
    assert_int_equal(tl.lost_count, 17);
    /* slices: inner 1-5 (own exit), outer 0-8 (truncated by the loss), again 10-12 (open end) */
    assert_int_equal(r.nsl, 3);
    assert_string_equal(r.sl_name[0], "inner");
    assert_false(r.sl[0].truncated);
    assert_int_equal(r.sl[0].depth, 1);
    assert_string_equal(r.sl_name[1], "outer");
    assert_true(r.sl[1].truncated);
    assert_int_equal(r.sl[1].t1, 8);
    assert_string_equal(r.sl_name[2], "again");
    assert_true(r.sl[2].open_end);
    /* after the loss A's state is unknown (8-10), then it runs again, B preempts it at 12 */
    int unknown = 0;
    for (uint32_t k = 0; k < r.nst; k++)
        if (r.st[k].ctx == a && r.st[k].state == EVT_TL_UNKNOWN && r.st[k].t0 == 8 && r.st[k].t1 == 10) unknown = 1;
    assert_true(unknown);
    assert_int_equal(tl.ctxs[a]->isr_time, 6); /* outermost ISR 2-8 while A ran */
    assert_int_equal(tl.idle_time, 0);          /* 8-10 is unknown, not idle */
    evt_tl_free(&tl);
}

/* An ISR whose exit is lost: another context's event closes it (truncated) before the switch, so
 * its time stays inside the running of the context it interrupted. */
static void lost_isr_exit(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e = ev_(0, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(10, ISR, EVT_CTX_ISR, EVT_KIND_ISR_ENTER, "ISR_ENTER");
    evt_tl_add(&tl, &e);
    e = ev_(15, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER"); /* the exit never came */
    evt_tl_add(&tl, &e);
    e = ev_(100, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);
    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    assert_int_equal(r.nisr, 1);
    assert_int_equal(r.isr[0].t1, 15);
    assert_true(r.isr[0].truncated);
    assert_int_equal(tl.ctxs[a]->run_time, 15);
    assert_int_equal(tl.ctxs[a]->isr_time, 5);
    assert_int_equal(tl.ctxs[b]->isr_time, 0);
    assert_int_equal(tl.ctxs[a]->run_time - tl.ctxs[a]->isr_time + tl.ctxs[b]->run_time + tl.isr_time, 100);
    evt_tl_free(&tl);
}

/* Timestamps going backwards on a CPU are taken as the previous one; real time when the clock is
 * known; a context migrating between CPUs leaves its old CPU. */
static void time_and_cpus(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    memset(&r, 0, sizeof r);
    evt_tl_sink s = {0};
    s.user = &r;
    s.sched_switch = on_switch;
    s.state = on_state;
    assert_true(evt_tl_init(&tl, 1000000, &s)); /* 1 MHz: 1 tick = 1000 ns */
    evt_event e = ev_(5, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(3, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    e.flags |= EVT_HAS_CPU;
    e.cpu = 1;
    evt_tl_add(&tl, &e); /* moves to CPU 1 (its own time base starts here) */
    e = ev_(9, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);
    assert_int_equal(tl.first, 3000);
    assert_int_equal(tl.last, 9000);
    uint32_t a = ix_(&tl, A);
    /* A on CPU 0 at 5000, migrates to CPU 1 at 3000 → clamped to CPU 0's 5000 for the leave */
    assert_true(r.nsw >= 3);
    assert_int_equal(r.sw[0].cpu, 0);
    assert_int_equal(r.sw[0].next, a);
    assert_int_equal(r.sw[1].cpu, 0);
    assert_int_equal(r.sw[1].prev, a);
    assert_int_equal(r.sw[1].next, EVT_TL_NONE);
    assert_int_equal(r.sw[2].cpu, 1);
    assert_int_equal(r.sw[2].next, a);
    for (uint32_t k = 0; k < r.nst; k++) assert_true(r.st[k].t1 >= r.st[k].t0);
    evt_tl_free(&tl);
}

/* A trace that records no scheduling (caps without EVT_CAP_SCHED, as XRay's): no switches, no
 * running/ready states, no idle time; each context gets one `active` interval from its first to
 * its last event; its slices are there. Its first thread_run turns scheduling on. */
static void no_scheduling_is_activity(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_tl_set_trace(&tl, EVT_CAP_FUNCS | EVT_CAP_USER, 1, 0);
    evt_event e = ev_(10, A, EVT_CTX_THREAD, EVT_KIND_FUNC_ENTER, "enter");
    tm_label(&e, "f");
    evt_tl_add(&tl, &e);
    e = ev_(20, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(30, A, EVT_CTX_THREAD, EVT_KIND_FUNC_EXIT, "exit");
    tm_label(&e, "f");
    evt_tl_add(&tl, &e);
    e = ev_(50, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);
    assert_int_equal(r.nsw, 0);
    assert_int_equal(tl.idle_time, 0);
    assert_int_equal(r.nst, 2);
    for (uint32_t k = 0; k < r.nst; k++) assert_int_equal(r.st[k].state, EVT_TL_ACTIVE);
    uint32_t a = ix_(&tl, A), b = ix_(&tl, B);
    for (uint32_t k = 0; k < r.nst; k++) {
        if (r.st[k].ctx == a) { assert_int_equal(r.st[k].t0, 10); assert_int_equal(r.st[k].t1, 30); }
        if (r.st[k].ctx == b) { assert_int_equal(r.st[k].t0, 20); assert_int_equal(r.st[k].t1, 50); }
    }
    assert_int_equal(tl.ctxs[a]->run_time, 0);
    assert_int_equal(r.nsl, 1);
    assert_string_equal(r.sl_name[0], "f");
    evt_tl_free(&tl);

    start(&tl, &r); /* the hooks appear: scheduling from the first switch record on */
    evt_tl_set_trace(&tl, EVT_CAP_USER, 1, 0);
    e = ev_(5, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = hook_(10, B, EVT_KIND_THREAD_RUN, "thread_in", EVT_HOOK_STATE_READY);
    evt_tl_add(&tl, &e);
    e = ev_(20, B, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);
    assert_true(tl.sched);
    assert_true(tl.caps & EVT_CAP_SCHED);
    assert_int_equal(r.nsw, 1);
    expect_switch(&r.sw[0], 10, EVT_TL_NONE, ix_(&tl, B), EVT_TL_READY);
    evt_tl_free(&tl);
}

/* A record without a time of its own (a configuration record) before the first timed one does not
 * start the trace's time range at its ts of 0. */
static void untimed_configuration_record(void **st)
{
    (void)st;
    evt_tl tl;
    rec r;
    start(&tl, &r);
    evt_event e;
    evt_event_reset(&e);
    e.kind = EVT_KIND_MARKER;
    e.name = "CONFIG";
    e.ts = 0;
    e.m.has |= EVT_M_UNTIMED;
    evt_tl_add(&tl, &e);
    e = ev_(850000, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    e = ev_(850100, A, EVT_CTX_THREAD, EVT_KIND_USER, "USER");
    evt_tl_add(&tl, &e);
    evt_tl_finish(&tl);
    assert_int_equal(tl.first, 850000);
    assert_int_equal(tl.last, 850100);
    assert_int_equal(tl.events, 3);
    assert_int_equal(tl.nctx, 1);
    assert_int_equal(tl.ctxs[0]->run_time, 100);
    evt_tl_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threadx_style),
        cmocka_unit_test(meaning_wake_prio_blocked_on),
        cmocka_unit_test(hooks_style),
        cmocka_unit_test(message_own_sources),
        cmocka_unit_test(wait_marked_on_the_stop),
        cmocka_unit_test(nesting_and_loss),
        cmocka_unit_test(no_scheduling_is_activity),
        cmocka_unit_test(untimed_configuration_record),
        cmocka_unit_test(lost_isr_exit),
        cmocka_unit_test(time_and_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
