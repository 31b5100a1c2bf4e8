/* The analyses (src/host/analyses/analyses.h) on ThreadX traces built with
 * tests/support/trace_builder.h, each answer known by construction: CPU load per window (and the
 * window widened past EVT_AN_MAX_WINDOWS), response times per task and ISR with the worst
 * instance, one priority inversion with its start, duration and three contexts, queue depth
 * history with its message flow, stack usage; and --window parsing. The real TraceX sample is
 * cross-checked against the reader's own events by tests/host/analyses/check_analyses.py. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include "evt_meaning_test.h"
#include <stdlib.h>
#include <string.h>
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "host/analyses/analyses.h"
#include "host/analyses/inversion.h"
#include "host/analyses/load.h"
#include "host/analyses/objhist.h"
#include "host/analyses/response.h"
#include "host/analyses/stack.h"
#include "trace_builder.h"

#define TH_A 0x20001000u
#define TH_B 0x20001100u
#define TH_H 0x20001200u
#define TH_M 0x20001300u
#define TH_L 0x20001400u
#define OBJ_Q 0x20002000u
#define OBJ_MX 0x20002100u

/* Run the analyses over the built trace (ticks: no clock). The caller frees with evt_an_free. */
static evt_analyses *analyse(tb_trace *t, uint64_t window)
{
    size_t len;
    uint8_t *buf = tb_bytes(t, &len);
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(buf, len, "threadx", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) fail_msg("%s", err);
    evt_an_config cfg = {window, 0, EVT_AN_PRIO_AUTO};
    evt_analyses *a = evt_an_new(0, &cfg);
    assert_non_null(a);
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) assert_int_equal(evt_an_add(a, &ev), 1);
    assert_int_equal(st, EVT_END);
    evt_an_finish(a);
    /* the JSON is written whole (shape checked by check_analyses.py) */
    FILE *f = tmpfile();
    assert_non_null(f);
    evt_json j;
    evt_json_init(&j, f, 0);
    evt_an_json(a, &j);
    assert_true(ftell(f) > 100);
    fclose(f);
    evt_reader_close(r);
    free(buf);
    return a;
}

/* Timeline index of the context with this id. */
static uint32_t ctx_of(const evt_tl *tl, uint64_t id)
{
    for (uint32_t i = 0; i < tl->nctx; i++)
        if (evt_tl_ctx_at(tl, i)->has_id && evt_tl_ctx_at(tl, i)->id == id) return i;
    fail_msg("no context 0x%llx", (unsigned long long)id);
    return EVT_TL_NONE;
}

/* A runs 0-60, idle 60-100, B 100-150 with an ISR 120-130, A 150-200; windows of 100. */
static void test_load_windows(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_thread(t, TH_A, "A", 10, 0, 0);
    tb_thread(t, TH_B, "B", 10, 0, 0);
    tb_ev(t, 0, TH_A, 4096, 0, 0, 0, 0);
    tb_suspend(t, 60, TH_A, TH_A, TB_STATE_SLEEP, 0);
    tb_ev(t, 100, TH_B, 4096, 0, 0, 0, 0);
    tb_isr_enter(t, 120, 5, TH_B);
    tb_isr_exit(t, 130, 5, TH_B);
    tb_ev(t, 150, TH_A, 4096, 0, 0, 0, 0);
    tb_ev(t, 200, TH_A, 4096, 0, 0, 0, 0);
    evt_analyses *a = analyse(t, 100);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    const evt_an_load *l = p.load;
    uint32_t ia = ctx_of(p.tl, TH_A), ib = ctx_of(p.tl, TH_B);
    assert_int_equal(l->window, 100);
    assert_int_equal(l->origin, 0);
    assert_int_equal(l->nwin, 2);
    assert_int_equal(l->ctx[ia].busy[0], 60);
    assert_int_equal(l->ctx[ia].busy[1], 50);
    assert_int_equal(l->ctx[ib].busy[0], 0);
    assert_int_equal(l->ctx[ib].busy[1], 40); /* 50 running less the 10 of the ISR */
    assert_int_equal(l->idle[0], 40);
    assert_int_equal(l->idle[1], 0);
    assert_int_equal(l->isr[0], 0);
    assert_int_equal(l->isr[1], 10);
    /* the windows add up to the timeline's totals */
    const evt_tl_ctx *ca = evt_tl_ctx_at(p.tl, ia), *cb = evt_tl_ctx_at(p.tl, ib);
    assert_int_equal(ca->run_time - ca->isr_time, 110);
    assert_int_equal(cb->run_time - cb->isr_time, 40);
    assert_int_equal(p.tl->idle_time, 40);
    assert_int_equal(p.tl->isr_time, 10);
    /* ISR response: one instance of 10 */
    assert_int_equal(p.resp->nisr, 1);
    assert_int_equal(p.resp->isr[0].h.count, 1);
    assert_int_equal(p.resp->isr[0].h.max, 10);
    evt_an_free(a);
    tb_free(t);
}

/* A window of 1 tick over 10000 ticks would be 10000 windows: doubled to 4 (2500 windows). */
static void test_load_window_widened(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_thread(t, TH_A, "A", 10, 0, 0);
    tb_thread(t, TH_B, "B", 10, 0, 0);
    tb_ev(t, 0, TH_A, 4096, 0, 0, 0, 0);
    tb_ev(t, 3001, TH_B, 4096, 0, 0, 0, 0);
    tb_ev(t, 10000, TH_B, 4096, 0, 0, 0, 0);
    evt_analyses *a = analyse(t, 1);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    const evt_an_load *l = p.load;
    assert_int_equal(l->requested, 1);
    assert_int_equal(l->window, 4);
    assert_int_equal(l->nwin, 2500);
    uint32_t ia = ctx_of(p.tl, TH_A), ib = ctx_of(p.tl, TH_B);
    uint64_t sa = 0, sb = 0;
    for (uint32_t k = 0; k < l->nwin; k++) { sa += l->ctx[ia].busy[k]; sb += l->ctx[ib].busy[k]; }
    assert_int_equal(sa, 3001);
    assert_int_equal(sb, 10000 - 3001);
    assert_int_equal(l->ctx[ia].busy[750], 1);  /* [3000, 3004): A until 3001 */
    assert_int_equal(l->ctx[ib].busy[750], 3);
    evt_an_free(a);
    tb_free(t);
}

/* T is woken by W at 1000, runs 1010-1050 then blocks: 50; woken at 2000, blocks at 2300: 300.
 * Three ISRs of 10, 30 and 20. */
static void test_response_times(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_thread(t, TH_A, "T", 10, 0, 0);
    tb_thread(t, TH_B, "W", 20, 0, 0);
    tb_object(t, TXTB_OBJ_QUEUE, OBJ_Q, "Q", 0, 0);
    tb_queue_receive(t, 0, TH_A, OBJ_Q, 0);
    tb_block(t, 1, TH_A, TB_STATE_QUEUE, TH_B);
    tb_ev(t, 5, TH_B, 4096, 0, 0, 0, 0);
    tb_resume(t, 1000, TH_B, TH_A, TB_STATE_QUEUE, TH_A);
    tb_ev(t, 1010, TH_A, 4096, 0, 0, 0, 0);
    tb_queue_receive(t, 1049, TH_A, OBJ_Q, 0);
    tb_block(t, 1050, TH_A, TB_STATE_QUEUE, TH_B);
    tb_ev(t, 1060, TH_B, 4096, 0, 0, 0, 0);
    tb_isr_enter(t, 1100, 3, TH_B);
    tb_isr_exit(t, 1110, 3, TH_B);
    tb_isr_enter(t, 1200, 3, TH_B);
    tb_isr_exit(t, 1230, 3, TH_B);
    tb_isr_enter(t, 1300, 3, TH_B);
    tb_isr_exit(t, 1320, 3, TH_B);
    tb_resume(t, 2000, TH_B, TH_A, TB_STATE_QUEUE, TH_A);
    tb_ev(t, 2100, TH_A, 4096, 0, 0, 0, 0);
    tb_queue_receive(t, 2299, TH_A, OBJ_Q, 0);
    tb_block(t, 2300, TH_A, TB_STATE_QUEUE, TH_B);
    tb_ev(t, 2310, TH_B, 4096, 0, 0, 0, 0);
    evt_analyses *a = analyse(t, 0);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    evt_an_resp_task *rt = &p.resp->task[ctx_of(p.tl, TH_A)];
    assert_true(rt->measured);
    assert_int_equal(rt->h.count, 2);
    assert_int_equal(rt->h.min, 50);
    assert_int_equal(rt->h.max, 300);
    assert_int_equal(rt->worst.n, 2);
    assert_int_equal(rt->worst.value[0], 300);
    assert_int_equal(rt->worst.t[0], 2000);
    assert_int_equal(rt->worst.value[1], 50);
    assert_int_equal(rt->worst.t[1], 1000);
    assert_int_equal(p.resp->nisr, 1);
    evt_an_resp_irq *ri = &p.resp->isr[0];
    assert_true(ri->has_irq);
    assert_int_equal(ri->irq, 3);
    assert_int_equal(ri->h.count, 3);
    assert_int_equal(ri->h.min, 10);
    assert_int_equal(evt_hist_pct(&ri->h, 0.5), 20);
    assert_int_equal(ri->h.max, 30);
    assert_int_equal(ri->worst.t[0], 1200);
    evt_an_free(a);
    tb_free(t);
}

/* Threads H (prio 10), M (mid_prio), L (prio 20) and mutex MX; L takes MX at 100; with
 * resume_h, L resumes H at 110; H asks for MX at 120 (owner L) and blocks at 121. */
static tb_trace *inversion_setup(uint32_t mid_prio, int resume_h)
{
    tb_trace *t = tb_new();
    tb_thread(t, TH_H, "H", 10, 0, 0);
    tb_thread(t, TH_M, "M", mid_prio, 0, 0);
    tb_thread(t, TH_L, "L", 20, 0, 0);
    tb_object(t, TXTB_OBJ_MUTEX, OBJ_MX, "MX", 1, 0);
    tb_mutex_get(t, 100, TH_L, OBJ_MX, 0, 0);
    if (resume_h) tb_resume(t, 110, TH_L, TH_H, TB_STATE_SUSPENDED, TH_H);
    tb_mutex_get(t, 120, TH_H, OBJ_MX, TH_L, 1);
    tb_block(t, 121, TH_H, TB_STATE_MUTEX, TH_L);
    return t;
}

/* L (prio 20) takes MX; H (prio 10) blocks on MX at 121; L resumes M (prio 15) at 140, which runs
 * at once (the resume names it as the next thread) until 450; L puts MX at 460 and wakes H at
 * 461: one inversion [121, 461) with M running 310. */
static void test_priority_inversion(void **state)
{
    (void)state;
    tb_trace *t = inversion_setup(15, 1);
    tb_ev(t, 130, TH_L, 4096, 0, 0, 0, 0);
    tb_resume(t, 140, TH_L, TH_M, TB_STATE_SLEEP, TH_M);
    tb_ev(t, 150, TH_M, 4096, 0, 0, 0, 0);
    tb_suspend(t, 450, TH_M, TH_M, TB_STATE_SLEEP, TH_L);
    tb_mutex_put(t, 460, TH_L, OBJ_MX, 1);
    tb_resume(t, 461, TH_L, TH_H, TB_STATE_MUTEX, TH_H);
    tb_ev(t, 470, TH_H, 4096, 0, 0, 0, 0);
    /* afterwards H takes and releases MX with nobody waiting: no inversion */
    tb_mutex_get(t, 480, TH_H, OBJ_MX, 0, 0);
    tb_mutex_put(t, 490, TH_H, OBJ_MX, 1);
    evt_analyses *a = analyse(t, 0);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    const evt_an_inversion *v = p.inv;
    assert_true(v->lower_wins);
    assert_int_equal(v->count, 1);
    assert_int_equal(v->waits, 1);
    assert_int_equal(v->nlist, 1);
    const evt_an_inv *r = &v->list[0];
    assert_int_equal(r->t0, 121);
    assert_int_equal(r->t1 - r->t0, 340);
    assert_int_equal(r->high, ctx_of(p.tl, TH_H));
    assert_int_equal(r->low, ctx_of(p.tl, TH_L));
    assert_int_equal(r->mid, ctx_of(p.tl, TH_M));
    assert_int_equal(r->mid_time, 310);
    assert_int_equal(r->prio_high, 10);
    assert_int_equal(r->prio_low, 20);
    assert_int_equal(r->prio_mid, 15);
    const evt_tl_obj *mx = evt_tl_obj_at(p.tl, r->obj);
    assert_non_null(mx);
    assert_int_equal(mx->id, OBJ_MX);
    evt_an_free(a);
    tb_free(t);
}

/* The same, but M has a priority below L's: a wait, not an inversion. */
static void test_no_inversion_without_middle(void **state)
{
    (void)state;
    tb_trace *t = inversion_setup(25, 0);
    tb_ev(t, 150, TH_M, 4096, 0, 0, 0, 0);
    tb_ev(t, 450, TH_L, 4096, 0, 0, 0, 0);
    tb_mutex_put(t, 460, TH_L, OBJ_MX, 1);
    tb_resume(t, 461, TH_L, TH_H, TB_STATE_MUTEX, TH_H);
    tb_ev(t, 470, TH_H, 4096, 0, 0, 0, 0);
    evt_analyses *a = analyse(t, 0);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    assert_int_equal(p.inv->waits, 1);
    assert_int_equal(p.inv->count, 0);
    evt_an_free(a);
    tb_free(t);
}

/* The holder L sleeps while M runs (M does not keep L from running): a wait, not an inversion. */
static void test_no_inversion_holder_asleep(void **state)
{
    (void)state;
    tb_trace *t = inversion_setup(15, 0);
    tb_ev(t, 130, TH_L, TXTB_EVENT_THREAD_SLEEP, 100, 0, 0, 0);
    tb_block(t, 131, TH_L, TB_STATE_SLEEP, TH_M);
    tb_ev(t, 150, TH_M, 4096, 0, 0, 0, 0);
    tb_suspend(t, 230, TH_M, TH_M, TB_STATE_SLEEP, 0);
    tb_isr_enter(t, 231, 1, 0);
    tb_resume(t, 232, TB_CTX_ISR, TH_L, TB_STATE_SLEEP, TH_L);
    tb_isr_exit(t, 233, 1, 0);
    tb_mutex_put(t, 240, TH_L, OBJ_MX, 1);
    tb_resume(t, 241, TH_L, TH_H, TB_STATE_MUTEX, TH_H);
    tb_ev(t, 250, TH_H, 4096, 0, 0, 0, 0);
    evt_analyses *a = analyse(t, 0);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    assert_int_equal(p.inv->waits, 1);
    assert_int_equal(p.inv->count, 0);
    evt_an_free(a);
    tb_free(t);
}

/* One canonical event of a thread (no reader) with its meaning: kind, name, time, context, its
 * priority, target (0: none), the stop state of a thread_stop; the operation on the target as a
 * μT-Kernel profile gives it (tk_loc_mtx acquires, tk_unl_mtx releases). */
static void canon(evt_analyses *a, evt_kind kind, const char *name, uint64_t ts, uint64_t ctx, uint64_t prio,
                  uint64_t target, int stop_state)
{
    evt_event e;
    evt_event_reset(&e);
    e.kind = kind;
    e.name = name;
    e.ts = ts;
    e.flags = EVT_HAS_CTX;
    e.ctx = ctx;
    e.ctx_class = EVT_CTX_THREAD;
    tm_ctx_prio(&e, prio);
    if (target) { e.flags |= EVT_HAS_TARGET; e.target = target; }
    if (stop_state >= 0) tm_stop(&e, (evt_hook_state)stop_state);
    if (target && kind == EVT_KIND_SVC_ENTER)
        tm_op(&e, strcmp(name, "tk_loc_mtx") == 0 ? EVT_OP_ACQUIRE : EVT_OP_RELEASE, target);
    assert_int_equal(evt_an_add(a, &e), 1);
}

/* One event of a FreeRTOS-like hook trace (dispatcher hooks, services enter/exit, no owner
 * recorded) with its meaning, as a reader with a higher-wins kernel profile fills it. */
static void hk(evt_analyses *a, evt_kind kind, const char *name, uint64_t ts, uint64_t ctx, uint64_t prio,
               uint64_t target, int stop_state, evt_obj_op op)
{
    evt_event e;
    evt_event_reset(&e);
    e.kind = kind;
    e.name = name;
    e.ts = ts;
    e.flags = EVT_HAS_CTX;
    e.ctx = ctx;
    e.ctx_class = EVT_CTX_THREAD;
    tm_ctx_prio(&e, prio);
    tm_label(&e, name);
    if (target) { e.flags |= EVT_HAS_TARGET; e.target = target; }
    if (kind == EVT_KIND_THREAD_RUN && target == ctx) tm_runs_now(&e);
    if (stop_state >= 0) tm_stop(&e, (evt_hook_state)stop_state);
    if (op != EVT_OP_NONE) tm_op(&e, op, target);
    assert_int_equal(evt_an_add(a, &e), 1);
}

/* FreeRTOS order (a larger number is more urgent: H 5, M 3, L 1), the trace of a mutex holder
 * that inherits: L takes MX; H preempts L and blocks on MX (the kernel records the inheritance);
 * M runs 130-400 while L is ready; L gives MX and wakes H. With the trace's order: one bounded
 * and one unbounded inversion, one inheritance. Read with the lower-wins order instead (what the
 * analysis assumed for every kernel but ETW): none. */
static void freertos_like(evt_analyses *a)
{
    enum { H = 0x10, MID = 0x20, L = 0x30, MX = 0x900 };
    const int none = -1;
    hk(a, EVT_KIND_THREAD_RUN, "thread_in", 100, L, 1, L, none, EVT_OP_NONE);
    hk(a, EVT_KIND_SVC_ENTER, "xSemaphoreTake", 101, L, 1, MX, none, EVT_OP_ACQUIRE);
    hk(a, EVT_KIND_SVC_EXIT, "xSemaphoreTake", 102, L, 1, 0, none, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_STOP, "thread_out", 110, L, 1, L, EVT_HOOK_STATE_READY, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_RUN, "thread_in", 110, H, 5, H, none, EVT_OP_NONE);
    hk(a, EVT_KIND_SVC_ENTER, "xSemaphoreTake", 120, H, 5, MX, none, EVT_OP_ACQUIRE);
    hk(a, EVT_KIND_OTHER, "priority_inherit", 121, H, 5, L, none, EVT_OP_INHERIT);
    hk(a, EVT_KIND_THREAD_STOP, "thread_out", 122, H, 5, H, EVT_HOOK_STATE_WAITING, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_RUN, "thread_in", 130, MID, 3, MID, none, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_STOP, "thread_out", 400, MID, 3, MID, EVT_HOOK_STATE_WAITING, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_RUN, "thread_in", 400, L, 1, L, none, EVT_OP_NONE);
    hk(a, EVT_KIND_SVC_ENTER, "xSemaphoreGive", 410, L, 1, MX, none, EVT_OP_RELEASE);
    hk(a, EVT_KIND_THREAD_RUN, "wake", 411, L, 1, H, none, EVT_OP_NONE);
    hk(a, EVT_KIND_SVC_EXIT, "xSemaphoreGive", 411, L, 1, 0, none, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_STOP, "thread_out", 412, L, 1, L, EVT_HOOK_STATE_READY, EVT_OP_NONE);
    hk(a, EVT_KIND_THREAD_RUN, "thread_in", 412, H, 5, H, none, EVT_OP_NONE);
    hk(a, EVT_KIND_SVC_EXIT, "xSemaphoreTake", 420, H, 5, 0, none, EVT_OP_NONE);
    evt_an_finish(a);
}

/* A hook trace of a kernel that records a mutex take when it completes (FreeRTOS's real hooks):
 * the wait shows only as the switch naming the mutex it blocks on (EVT_M_BLOCKED_ON), the
 * inheritance as a priority change of the holder (EVT_M_PRIO_SET, op inherit), whose later events
 * carry the raised priority. pl, ph: the application's priorities of L and H (ph is more urgent
 * under the trace's own order). */
static void completion_style(evt_analyses *a, uint64_t pl, uint64_t ph)
{
    enum { H = 0x10, L = 0x30, MX = 0x900 };
    struct { evt_kind k; uint64_t ts, ctx, prio, target; int what; } seq[] = {
        /* what: 0 plain, 1 acquire, 2 release, 3 stop ready (next = target), 4 stop blocked on MX
         * (next = target), 5 inherit (target raised to ph), 6 disinherit (back to pl), 7 wake */
        {EVT_KIND_THREAD_RUN, 100, L, pl, L, 0},  {EVT_KIND_SVC, 101, L, pl, MX, 1},
        {EVT_KIND_THREAD_STOP, 110, L, pl, H, 3}, {EVT_KIND_OTHER, 121, H, ph, L, 5},
        {EVT_KIND_THREAD_STOP, 122, H, ph, L, 4}, {EVT_KIND_USER, 130, L, ph, 0, 0},
        {EVT_KIND_SVC, 410, L, ph, MX, 2},        {EVT_KIND_OTHER, 411, L, pl, L, 6},
        {EVT_KIND_THREAD_RUN, 412, L, pl, H, 7},  {EVT_KIND_THREAD_STOP, 413, L, pl, H, 3},
        {EVT_KIND_SVC, 420, H, ph, MX, 1},        {EVT_KIND_SVC, 430, H, ph, MX, 2},
    };
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        evt_event e;
        evt_event_reset(&e);
        e.kind = seq[i].k;
        e.name = "ev";
        e.ts = seq[i].ts;
        e.flags = EVT_HAS_CTX;
        e.ctx = seq[i].ctx;
        e.ctx_class = EVT_CTX_THREAD;
        tm_ctx_prio(&e, seq[i].prio);
        switch (seq[i].what) {
        case 1: tm_op(&e, EVT_OP_ACQUIRE, MX); break;
        case 2: tm_op(&e, EVT_OP_RELEASE, MX); break;
        case 3:
        case 4:
            e.flags |= EVT_HAS_TARGET;
            e.target = seq[i].ctx;
            tm_stop(&e, seq[i].what == 3 ? EVT_HOOK_STATE_READY : EVT_HOOK_STATE_WAITING);
            tm_next(&e, seq[i].target);
            if (seq[i].what == 4) { e.m.has |= EVT_M_BLOCKED_ON; e.m.obj = MX; }
            break;
        case 5:
        case 6:
            e.flags |= EVT_HAS_TARGET;
            e.target = seq[i].target;
            e.m.has |= EVT_M_PRIO_SET | EVT_M_OP;
            e.m.new_prio = seq[i].what == 5 ? ph : pl;
            e.m.op = seq[i].what == 5 ? EVT_OP_INHERIT : EVT_OP_DISINHERIT;
            e.m.obj = seq[i].target;
            break;
        case 7:
            e.flags |= EVT_HAS_TARGET;
            e.target = seq[i].target;
            e.m.has |= EVT_M_WAKE;
            break;
        default: break;
        }
        assert_int_equal(evt_an_add(a, &e), 1);
    }
    evt_an_finish(a);
}

/* Bounded inversions from the blocked-on mutex, counted by the trace's priority order: FreeRTOS
 * (higher wins: L 1, H 5) and ThreadX / μT-Kernel (lower wins: L 20, H 5) each count the one
 * inheritance; read with the other order, none. L's raised priority (5 while it inherits) is not
 * its own: H still waits on a lower-priority holder. */
static void test_inversion_blocked_on_both_orders(void **state)
{
    (void)state;
    static const struct { int higher_wins; uint64_t pl, ph; int bounded; } cases[] = {
        {1, 1, 5, 1}, {0, 20, 5, 1}, {0, 1, 5, 0}, {1, 20, 5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        evt_analyses *a = evt_an_new(0, NULL);
        assert_non_null(a);
        evt_an_set_trace(a, 0, 0, cases[i].higher_wins);
        completion_style(a, cases[i].pl, cases[i].ph);
        evt_an_parts p;
        evt_an_parts_of(a, &p);
        assert_int_equal(p.inv->inherits, 1);
        assert_int_equal(p.inv->waits, (uint64_t)cases[i].bounded);
        assert_int_equal(p.inv->count, 0); /* no middle context ran */
        if (cases[i].bounded) {
            assert_int_equal(p.inv->blist[0].t0, 122);
            assert_int_equal(p.inv->blist[0].t1, 412);
            assert_int_equal(p.inv->blist[0].prio_low, cases[i].pl);
            assert_int_equal(p.inv->blist[0].prio_high, cases[i].ph);
        }
        evt_an_free(a);
    }
}

static void test_inversion_higher_wins_profile(void **state)
{
    (void)state;
    evt_analyses *a = evt_an_new(0, NULL);
    assert_non_null(a);
    evt_an_set_trace(a, 0, 0, 1); /* the trace's profile: higher wins */
    freertos_like(a);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    assert_false(p.inv->lower_wins);
    assert_int_equal(p.inv->waits, 1);   /* bounded */
    assert_int_equal(p.inv->nblist, 1);
    assert_int_equal(p.inv->blist[0].t0, 122);
    assert_int_equal(p.inv->blist[0].t1, 411);
    assert_int_equal(p.inv->count, 1);   /* unbounded: M ran while L was ready */
    assert_int_equal(p.inv->nlist, 1);
    assert_int_equal(p.inv->list[0].mid_time, 270);
    assert_int_equal(p.inv->list[0].prio_high, 5);
    assert_int_equal(p.inv->list[0].prio_low, 1);
    assert_int_equal(p.inv->list[0].prio_mid, 3);
    assert_int_equal(p.inv->inherits, 1);
    evt_an_free(a);

    a = evt_an_new(0, NULL); /* the same trace read as lower-wins: H (5) is not above L (1) */
    assert_non_null(a);
    freertos_like(a);
    evt_an_parts_of(a, &p);
    assert_true(p.inv->lower_wins);
    assert_int_equal(p.inv->waits, 0);
    assert_int_equal(p.inv->count, 0);
    evt_an_free(a);
}

/* The μT-Kernel way (service enter/exit, no owner field): L locks M with tk_loc_mtx, H waits on
 * it from 121 to 461, Mid runs 150-450 while L is ready: one inversion, middle time 300. */
static void test_inversion_utk_services(void **state)
{
    (void)state;
    enum { H = 1, MID = 2, L = 3, MTX = 0x50001 };
    evt_analyses *a = evt_an_new(0, NULL);
    assert_non_null(a);
    canon(a, EVT_KIND_SVC_ENTER, "tk_loc_mtx", 100, L, 9, MTX, -1);
    canon(a, EVT_KIND_SVC_EXIT, "tk_loc_mtx", 101, L, 9, 0, -1);
    canon(a, EVT_KIND_THREAD_RUN, "THREAD_RESUME", 110, L, 9, H, -1);
    canon(a, EVT_KIND_USER, "U", 111, H, 1, 0, -1);
    canon(a, EVT_KIND_SVC_ENTER, "tk_loc_mtx", 120, H, 1, MTX, -1);
    canon(a, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", 121, H, 1, H, EVT_HOOK_STATE_WAITING);
    canon(a, EVT_KIND_USER, "U", 130, L, 9, 0, -1);
    canon(a, EVT_KIND_THREAD_RUN, "THREAD_RESUME", 140, L, 9, MID, -1);
    canon(a, EVT_KIND_USER, "U", 150, MID, 5, 0, -1);
    canon(a, EVT_KIND_THREAD_STOP, "THREAD_SUSPEND", 450, MID, 5, MID, EVT_HOOK_STATE_WAITING);
    canon(a, EVT_KIND_SVC_ENTER, "tk_unl_mtx", 460, L, 9, MTX, -1);
    canon(a, EVT_KIND_THREAD_RUN, "THREAD_RESUME", 461, L, 9, H, -1);
    canon(a, EVT_KIND_SVC_EXIT, "tk_unl_mtx", 462, L, 9, 0, -1);
    canon(a, EVT_KIND_SVC_EXIT, "tk_loc_mtx", 470, H, 1, 0, -1);
    evt_an_finish(a);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    assert_int_equal(p.inv->waits, 1);
    assert_int_equal(p.inv->count, 1);
    const evt_an_inv *r = &p.inv->list[0];
    assert_int_equal(r->t0, 121);
    assert_int_equal(r->t1, 461);
    assert_int_equal(r->high, ctx_of(p.tl, H));
    assert_int_equal(r->low, ctx_of(p.tl, L));
    assert_int_equal(r->mid, ctx_of(p.tl, MID));
    assert_int_equal(r->mid_time, 300);
    evt_an_free(a);
}

/* A sends three messages to Q (depth 0, 1, 2 before), B receives two (3, 2 before); B waits on the
 * empty queue once. Stack: A's samples 0x300, 0x200, 0x380 into a 0x400 stack, and one outside. */
static void test_objects_flows_stacks(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_thread(t, TH_A, "A", 10, 0x20010000u, 0x400);
    tb_thread(t, TH_B, "B", 10, 0x20011000u, 0x400);
    tb_object(t, TXTB_OBJ_QUEUE, OBJ_Q, "Q", 0, 0);
    tb_queue_receive(t, 0, TH_B, OBJ_Q, 0);
    tb_block(t, 1, TH_B, TB_STATE_QUEUE, TH_A);
    tb_queue_send(t, 10, TH_A, OBJ_Q, 0);
    tb_queue_send(t, 20, TH_A, OBJ_Q, 1);
    tb_queue_send(t, 30, TH_A, OBJ_Q, 2);
    tb_opts(t)->stk = 0x20010300u;
    tb_mutex_put(t, 40, TH_A, OBJ_MX, 1);
    tb_opts(t)->stk = 0x20010200u;
    tb_mutex_put(t, 41, TH_A, OBJ_MX, 1);
    tb_opts(t)->stk = 0x20010380u;
    tb_mutex_put(t, 42, TH_A, OBJ_MX, 1);
    tb_opts(t)->stk = 0x20030000u; /* outside A's stack */
    tb_mutex_put(t, 43, TH_A, OBJ_MX, 1);
    tb_opts(t)->stk = 0x20010300u;  /* the resume below samples too */
    tb_resume(t, 50, TH_A, TH_B, TB_STATE_QUEUE, TH_B);
    tb_queue_receive(t, 60, TH_B, OBJ_Q, 3);
    tb_queue_receive(t, 70, TH_B, OBJ_Q, 2);
    evt_analyses *a = analyse(t, 0);
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    const evt_an_objhist *o = p.obj;
    const evt_an_series *q = NULL;
    for (uint32_t s = 0; s < o->nseries; s++) {
        const evt_tl_obj *x = evt_tl_obj_at(p.tl, o->series[s].obj);
        if (x && x->id == OBJ_Q) q = &o->series[s];
    }
    assert_non_null(q);
    assert_int_equal(q->count, 6); /* the blocking receive (0) and 3 sends and 2 receives */
    assert_int_equal(q->min, 0);
    assert_int_equal(q->max, 3);
    assert_int_equal(q->last, 2);
    assert_int_equal(q->nhist, 6);
    assert_int_equal(q->hist[4][0], 60);
    assert_int_equal(q->hist[4][1], 3);
    /* B waited on Q from 1 to 50 */
    const evt_an_waits *w = &o->waits[q->obj];
    assert_int_equal(w->count, 1);
    assert_int_equal(w->max, 49);
    /* messages A -> B through Q */
    uint32_t ia = ctx_of(p.tl, TH_A), ib = ctx_of(p.tl, TH_B);
    uint64_t msgs = 0;
    for (uint32_t f = 0; f < o->nflows; f++)
        if (o->flows[f].from == ia && o->flows[f].to == ib && o->flows[f].obj == q->obj &&
            strcmp(evt_strtab_str(&o->names, o->flows[f].kind), "message") == 0)
            msgs += o->flows[f].count;
    assert_int_equal(msgs, 2);
    /* stack of A: lowest in-range sample 0x20010200: 0x200 of 0x400 used */
    const evt_an_stack_thr *st = &p.stack->thr[ia];
    assert_true(st->has_stack);
    assert_int_equal(st->start, 0x20010000u);
    assert_int_equal(st->size, 0x400);
    assert_int_equal(st->samples, 5);
    assert_int_equal(st->out_of_range, 1);
    assert_int_equal(st->min_sp, 0x20010200u);
    assert_int_equal(st->min_t, 41);
    evt_an_free(a);
    tb_free(t);
}

static void test_parse_window(void **state)
{
    (void)state;
    uint64_t v;
    int ns;
    char err[160];
    assert_true(evt_an_parse_window("1ms", &v, &ns, err, sizeof err));
    assert_int_equal(v, 1000000);
    assert_true(ns);
    assert_true(evt_an_parse_window("500us", &v, &ns, err, sizeof err));
    assert_int_equal(v, 500000);
    assert_true(evt_an_parse_window("1.5ms", &v, &ns, err, sizeof err));
    assert_int_equal(v, 1500000);
    assert_true(evt_an_parse_window("2s", &v, &ns, err, sizeof err));
    assert_int_equal(v, 2000000000u);
    assert_true(evt_an_parse_window("1000", &v, &ns, err, sizeof err));
    assert_int_equal(v, 1000);
    assert_false(ns);
    assert_false(evt_an_parse_window("0", &v, &ns, err, sizeof err));
    assert_false(evt_an_parse_window("-3ms", &v, &ns, err, sizeof err));
    assert_false(evt_an_parse_window("10 ms", &v, &ns, err, sizeof err));
    assert_false(evt_an_parse_window("1.5", &v, &ns, err, sizeof err));
    assert_false(evt_an_parse_window("5min", &v, &ns, err, sizeof err));
    assert_false(evt_an_parse_window("0.1ns", &v, &ns, err, sizeof err));
    assert_non_null(strstr(err, "0.1ns"));
}

/* A window with a unit on a trace without clock: said, and the automatic window is used. */
static void test_window_unit_needs_clock(void **state)
{
    (void)state;
    tb_trace *t = tb_new();
    tb_thread(t, TH_A, "A", 10, 0, 0);
    tb_ev(t, 0, TH_A, 4096, 0, 0, 0, 0);
    tb_ev(t, 1000, TH_A, 4096, 0, 0, 0, 0);
    size_t len;
    uint8_t *buf = tb_bytes(t, &len);
    evt_reader *r = NULL;
    char err[256];
    assert_int_equal(evt_reader_open_mem(buf, len, "threadx", NULL, NULL, NULL, &r, err, sizeof err), EVT_OK);
    evt_an_config cfg = {1000000, 1, EVT_AN_PRIO_AUTO};
    evt_analyses *a = evt_an_new(0, &cfg);
    evt_event ev;
    while (evt_reader_next(r, &ev) == EVT_OK) evt_an_add(a, &ev);
    evt_an_finish(a);
    assert_non_null(evt_an_error(a));
    evt_an_parts p;
    evt_an_parts_of(a, &p);
    assert_true(p.load->automatic);
    assert_true(p.load->nwin <= EVT_AN_AUTO_WINDOWS);
    evt_an_free(a);
    evt_reader_close(r);
    free(buf);
    tb_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_windows),
        cmocka_unit_test(test_load_window_widened),
        cmocka_unit_test(test_response_times),
        cmocka_unit_test(test_priority_inversion),
        cmocka_unit_test(test_no_inversion_without_middle),
        cmocka_unit_test(test_no_inversion_holder_asleep),
        cmocka_unit_test(test_inversion_utk_services),
        cmocka_unit_test(test_inversion_higher_wins_profile),
        cmocka_unit_test(test_inversion_blocked_on_both_orders),
        cmocka_unit_test(test_objects_flows_stacks),
        cmocka_unit_test(test_parse_window),
        cmocka_unit_test(test_window_unit_needs_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
