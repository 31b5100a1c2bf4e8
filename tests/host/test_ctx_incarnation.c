/* Reused thread ids (src/host/ctx_incarnation.c, through the reader framework): FreeRTOS tasks
 * deleted and created again at the same TCB address are distinct contexts. End to end, on both
 * FreeRTOS transports (TXTB snapshot, RKH stream), from the calls FreeRTOS's trace macros make
 * (evtrace/freertos_calls.h) on the test counter clock: "alpha" deletes itself (its switch out
 * comes after its delete record), "beta" is created at its address, woken, notified and
 * re-prioritised by another task, then deleted by the idle task, and "delta" is created there
 * again; "gamma" is at an address never deleted. Per context the switch-ins and CPU ticks of
 * `stats` are each task's own, and every member naming a task names its incarnation. Then the
 * tracker alone on synthetic events: a delete never created (a snapshot whose create was
 * overwritten), an object that is no thread at a task's address (a kernel whose ids are per kind),
 * ids of 2^48 and up. And one FreeRTOS address holding a task, then a semaphore, then an event
 * group (ids shared by every kind): three objects, each with its own kind and operations; a
 * semaphore a task blocks on, then a task at its address: the stop is not named after the task. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/freertos.h"
#include "evtrace/freertos_calls.h"
#include "evtrace/freertos_svc.h"
#include "evtrace/hooks_defs.h"
#include "evtrace/reader.h"
#include "host/analyses/stats.h"
#include "host/ctx_incarnation.h"

static const char *const IDLE = (const char *)0x1000; /* the TCB addresses */
static const char *const X = (const char *)0x2000;    /* alpha, then beta, then delta */
static const char *const Y = (const char *)0x3000;    /* gamma */
#define XI(n) evt_ctx_make(0x2000u, (n))

static void at(uint64_t t) { evt_test_ticks = t; }

/* traceTASK_SWITCHED_OUT then _IN at time t (state: eTaskState of the task switched out). */
static void sw(const void *from, uint32_t state, const void *to, uint64_t t)
{
    at(t);
    if (from) evt_freertos_switched_out(from, state);
    at(t);
    evt_freertos_switched_in(to, 1);
}

static void create(const void *tcb, const char *name, uint64_t t)
{
    at(t);
    evt_freertos_task_create(tcb, name, 1);
    evt_freertos_ready(tcb);
}

static void script(void)
{
    create(IDLE, "IDLE", 10);
    create(X, "alpha", 11);
    sw(NULL, 0, IDLE, 100);
    sw(IDLE, 1, X, 200);
    at(300);
    evt_freertos_task_delete(X);           /* vTaskDelete(NULL) */
    sw(X, 4, IDLE, 350);                   /* still alpha: 150 ticks */
    create(X, "beta", 400);                /* the idle task freed alpha's TCB: it comes back */
    sw(IDLE, 1, X, 500);
    at(550);
    evt_freertos_prio(X, 3, 0);            /* beta raises itself */
    sw(X, 2, IDLE, 600);                   /* beta: 100 */
    create(Y, "gamma", 650);
    sw(IDLE, 1, Y, 700);
    at(750);
    evt_freertos_op(EVT_FREERTOS_TASK_NOTIFY, X, 1); /* gamma notifies beta, which wakes */
    at(750);
    evt_freertos_ready(X);
    sw(Y, 1, X, 800);                      /* gamma: 100 */
    sw(X, 2, IDLE, 900);                   /* beta: 100 more */
    at(950);
    evt_freertos_task_delete(X);           /* the idle task deletes beta: freed at once */
    create(X, "delta", 960);
    sw(IDLE, 1, X, 1000);
    sw(X, 2, IDLE, 1100);                  /* delta: 100 */
    at(1200);
    evt_freertos_user(1, 0, 0, 0, 0);      /* the trace's end */
}

/* Per context of stats: switch-ins and CPU ticks (NO_CPU: not checked); the name checked where the
 * trace keeps each incarnation's own (the stream: the snapshot's registry keeps the last name
 * registered at an address). */
#define NO_CPU UINT64_MAX
static void expect_ctx(evt_stats *s, uint64_t id, uint64_t switches, uint64_t cpu, const char *name)
{
    for (uint32_t i = 0; i < s->nctx; i++) {
        const evt_stats_ctx *c = &s->ctxs[i];
        if (!c->has_ctx || c->ctx != id) continue;
        char nb[64];
        assert_int_equal(c->switches, switches);
        if (cpu != NO_CPU) assert_int_equal(c->cpu_raw, cpu);
        if (name) assert_string_equal(evt_stats_ctx_name(s, c, nb, sizeof nb), name);
        return;
    }
    fail_msg("no context 0x%llx", (unsigned long long)id);
}

static void check(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, fmt, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_stats s;
    assert_true(evt_stats_init(&s, 0));
    evt_event ev; /* times compared in 32 bits: the stream's timestamps unwrap at the script's start */
    int creates = 0, deletes = 0, prio = 0, notify = 0, woken = 0, tail = 0, next = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        assert_int_equal(evt_stats_add(&s, &ev), 1);
        const evt_meaning *m = &ev.m;
        if ((ev.flags & EVT_HAS_CTX) && ev.ctx_class == EVT_CTX_THREAD)
            assert_true(ev.ctx == 0x1000u || ev.ctx == 0x2000u || ev.ctx == 0x3000u || ev.ctx == XI(1) ||
                        ev.ctx == XI(2));
        if (ev.kind == EVT_KIND_OBJ_CREATE && m->obj_type == EVT_HOOK_OBJ_THREAD && evt_ctx_raw(ev.target) == 0x2000u)
            assert_int_equal(ev.target, XI(creates++)); /* alpha raw, beta #1, delta #2 */
        if (ev.kind == EVT_KIND_OBJ_DELETE && m->obj_type == EVT_HOOK_OBJ_THREAD)
            assert_int_equal(ev.target, XI(deletes++)); /* alpha by itself, beta by the idle task */
        if (m->has & EVT_M_PRIO_SET) {
            assert_int_equal(ev.target, XI(1));
            assert_int_equal(ev.ctx, XI(1));
            prio++;
        }
        if ((m->has & EVT_M_OP) && m->op == EVT_OP_SET) {
            assert_int_equal(ev.target, XI(1));
            assert_int_equal(m->obj, XI(1));
            assert_int_equal(ev.ctx, 0x3000u);
            notify++;
        }
        if ((m->has & EVT_M_WAKE) && (uint32_t)ev.ts == 750) {
            assert_int_equal(ev.target, XI(1));
            woken++;
        }
        if ((m->has & EVT_M_NEXT) && (uint32_t)ev.ts == 350) { /* alpha's switch out, after its delete */
            assert_int_equal(ev.ctx, 0x2000u);
            tail++;
        }
        if ((m->has & EVT_M_NEXT) && (uint32_t)ev.ts == 800) {
            assert_int_equal(m->next_ctx, XI(1));
            next++;
        }
    }
    assert_int_equal(creates, 3);
    assert_int_equal(deletes, 2);
    assert_int_equal(prio + notify + woken + tail + next, 5);
    assert_int_equal(rd->errors, 0);
    evt_stats_finish(&s);
    int stream = strcmp(fmt, "rkh") == 0;
    expect_ctx(&s, 0x2000u, 1, 150, stream ? "alpha" : NULL);
    expect_ctx(&s, XI(1), 2, 200, stream ? "beta" : NULL);
    expect_ctx(&s, XI(2), 1, 100, "delta");
    expect_ctx(&s, 0x3000u, 1, 100, "gamma");
    expect_ctx(&s, 0x1000u, 5, NO_CPU, "IDLE");
    evt_stats_free(&s);
    evt_reader_close(rd);
}

/* A script recorded by FreeRTOS's snapshot transport (TXTB) or its stream (RKH), then checked. */
typedef void (*script_fn)(void);
typedef void (*check_fn)(const uint8_t *p, size_t n, const char *fmt);

static void run_snapshot(script_fn script_, check_fn check_)
{
    static uint8_t buf[16384];
    evt_freertos_set_clock(evt_test_clock32, 1000000u);
    assert_int_equal(evt_freertos_start_snapshot(buf, sizeof buf, 16), 0);
    script_();
    evt_freertos_stop();
    check_(buf, sizeof buf, "threadx");
}

static void run_stream(script_fn script_, check_fn check_)
{
    static evt_rkh_recorder r;
    static uint8_t ring[4096];
    evt_rkh_test_buf out;
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_test_buf_init(&out, 1u << 16);
    evt_rkh_init(&r, &cfg, ring, sizeof ring, evt_test_clock32, 1000u);
    evt_rkh_set_sink(&r, evt_rkh_test_sink, &out);
    evt_freertos_set_clock(evt_test_clock32, 1000000u);
    assert_int_equal(evt_freertos_start_stream(&r), 0);
    script_();
    evt_freertos_stop();
    assert_false(out.overflow);
    check_(out.p, out.n, "rkh");
    evt_rkh_test_buf_free(&out);
}

static void test_snapshot(void **st) { (void)st; run_snapshot(script, check); }
static void test_stream(void **st) { (void)st; run_stream(script, check); }

/* ---- one address, objects of every kind (FreeRTOS's StaticAllocation demo: static objects built
 * in the same stack buffer one after another) ---- */

static const char *const Z = (const char *)0x4000; /* a task, then a semaphore, then an event group */
#define ZI(n) evt_ctx_make(0x4000u, (n))

static void script_kinds(void)
{
    create(IDLE, "IDLE", 10);
    create(Y, "gamma", 11);
    sw(NULL, 0, Y, 100);
    create(Z, "Static", 110);             /* gamma creates a task in its buffer, */
    at(115);
    evt_freertos_op(EVT_FREERTOS_TASK_SUSPEND, Z, 0); /* suspends it */
    at(120);
    evt_freertos_task_delete(Z);          /* deletes it (it never ran), */
    at(130);
    evt_freertos_qobj_create(Z, 3);       /* builds a binary semaphore there, */
    evt_freertos_qobj_name(Z, 3, "BINARY_SEM");
    for (int i = 0; i < 3; i++) {
        at(140 + 10u * (uint64_t)i);
        evt_freertos_op(EVT_FREERTOS_QCODE(EVT_FREERTOS_QEV_QUEUE_SEND, 3), Z, 1);    /* give */
        evt_freertos_op(EVT_FREERTOS_QCODE(EVT_FREERTOS_QEV_QUEUE_RECEIVE, 3), Z, 1); /* take */
    }
    at(200);
    evt_freertos_qobj_delete(Z, 3);
    at(210);
    evt_freertos_obj_create(EVT_HOOK_OBJ_EVENT_FLAGS, Z, NULL); /* then an event group */
    evt_freertos_obj_name(EVT_HOOK_OBJ_EVENT_FLAGS, Z, "EVENT_GROUP");
    at(220);
    evt_freertos_op(EVT_FREERTOS_EVENT_GROUP_SET_BITS, Z, 1);
    sw(Y, 2, IDLE, 300);
    at(400);
    evt_freertos_user(1, 0, 0, 0, 0);
}

/* Each create at Z is an object of its own: the task Z, the semaphore Z#1, the event group Z#2,
 * each with its own kind and operations (before 6 Dec the three were one object, of the first's
 * kind, with every operation); and the snapshot's registry entry at Z, the event group's, names
 * neither the task (before, its create, suspend and delete said EVENT_GROUP) nor, since 7 Dec, the
 * semaphore (before, its gives and takes said EVENT_GROUP). */
static void check_kinds(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, fmt, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_stats s;
    assert_true(evt_stats_init(&s, 0));
    evt_event ev;
    int creates = 0, sem_ops = 0, flag_ops = 0, task_named = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        assert_int_equal(evt_stats_add(&s, &ev), 1);
        const evt_meaning *m = &ev.m;
        /* the task at Z: never named after the event group, whose registry entry is the last one
           there in the snapshot (it keeps one per address: the task is unnamed there) */
        if ((ev.flags & EVT_HAS_TARGET) && ev.target == 0x4000u) {
            if (ev.target_name) assert_string_equal(ev.target_name, "Static");
            if (m->has & EVT_M_OP) assert_int_equal(m->obj_type, EVT_HOOK_OBJ_THREAD);
            task_named++;
        }
        if ((ev.flags & EVT_HAS_CTX) && ev.ctx_class == EVT_CTX_THREAD)
            assert_true(ev.ctx == 0x1000u || ev.ctx == 0x3000u); /* gamma, idle: never renamed */
        if (ev.kind == EVT_KIND_OBJ_CREATE && evt_ctx_raw(ev.target) == 0x4000u) {
            assert_int_equal(ev.target, ZI(creates)); /* the task raw, the semaphore #1, the group #2 */
            creates++;
        }
        if ((m->has & EVT_M_OP) && m->obj_type == EVT_HOOK_OBJ_SEMAPHORE && evt_ctx_raw(m->obj) == 0x4000u) {
            assert_int_equal(m->obj, ZI(1));
            assert_int_equal(ev.target, ZI(1));
            /* its own name (the stream's create), or none: never the event group's */
            if (m->obj_name) assert_string_equal(m->obj_name, "BINARY_SEM");
            if (ev.target_name) assert_string_equal(ev.target_name, "BINARY_SEM");
            sem_ops++;
        }
        if ((m->has & EVT_M_OP) && m->obj_type == EVT_HOOK_OBJ_EVENT_FLAGS && evt_ctx_raw(m->obj) == 0x4000u) {
            assert_int_equal(m->obj, ZI(2));
            assert_non_null(m->obj_name);
            assert_string_equal(m->obj_name, "EVENT_GROUP");
            flag_ops++;
        }
    }
    assert_int_equal(creates, 3);
    assert_true(task_named >= 3); /* its create, suspend and delete */
    assert_int_equal(sem_ops, 6);
    assert_int_equal(flag_ops, 1);
    assert_int_equal(rd->errors, 0);
    evt_stats_finish(&s);
    int sem = 0, group = 0;
    for (uint32_t i = 0; i < s.nobjs; i++) {
        const evt_stats_obj *o = &s.objs[i];
        if (evt_ctx_raw(o->obj) != 0x4000u) continue;
        uint64_t give = o->n[EVT_OP_GIVE][EVT_RES_SUCCESS], take = o->n[EVT_OP_TAKE][EVT_RES_SUCCESS],
                 set = o->n[EVT_OP_SET][EVT_RES_SUCCESS];
        if (o->obj == ZI(0)) { /* the task: its suspend */
            assert_int_equal(o->type, EVT_HOOK_OBJ_THREAD);
            assert_true(give == 0 && take == 0 && set == 0);
        } else if (o->obj == ZI(1)) {
            assert_int_equal(o->type, EVT_HOOK_OBJ_SEMAPHORE);
            assert_true(give == 3 && take == 3 && set == 0);
            sem++;
        } else {
            assert_int_equal(o->obj, ZI(2));
            assert_int_equal(o->type, EVT_HOOK_OBJ_EVENT_FLAGS);
            assert_true(give == 0 && take == 0 && set == 1);
            group++;
        }
    }
    assert_int_equal(sem, 1);
    assert_int_equal(group, 1);
    evt_stats_free(&s);
    evt_reader_close(rd);
}

static void test_kinds_snapshot(void **st) { (void)st; run_snapshot(script_kinds, check_kinds); }
static void test_kinds_stream(void **st) { (void)st; run_stream(script_kinds, check_kinds); }

/* ---- the object a task blocks on, and a message buffer's delete (FreeRTOS's StaticAllocation.c
 * builds static semaphores and then a static task in one buffer, over and over) ---- */

static const char *const W = (const char *)0x5000; /* a binary semaphore, then the task "Static" */
static const char *const V = (const char *)0x6000; /* a message buffer */

static void script_blocked(void)
{
    create(IDLE, "IDLE", 10);
    create(Y, "gamma", 11);
    sw(NULL, 0, Y, 100);
    at(110);
    evt_freertos_qobj_create(W, 3);        /* a binary semaphore */
    at(120);
    evt_freertos_block(W);                 /* gamma waits for it */
    sw(Y, 2, IDLE, 130);
    sw(IDLE, 1, Y, 200);
    at(210);
    evt_freertos_op(EVT_FREERTOS_QCODE(EVT_FREERTOS_QEV_QUEUE_RECEIVE, 3), W, 1);
    at(220);
    evt_freertos_qobj_delete(W, 3);
    create(W, "Static", 230);              /* then a task in the same buffer: the last entry at W */
    at(240);
    evt_freertos_obj_create(EVT_HOOK_OBJ_MSGBUF, V, NULL);
    at(250);
    evt_freertos_obj_delete(EVT_HOOK_OBJ_MSGBUF, V);
    sw(Y, 2, IDLE, 300);
    at(400);
    evt_freertos_user(1, 0, 0, 0, 0);
}

/* gamma's stop blocked on the semaphore names it by its own name (the stream's create) or by
 * none, never by the task the snapshot's last registry entry at W names (before 7 Dec: "Static");
 * the message buffer's delete says message_buffer, as its create does (before 7 Dec the
 * snapshot's said queue). */
static void check_blocked(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, fmt, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_event ev;
    int blocked = 0, buf_create = 0, buf_delete = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        if (ev.kind == EVT_KIND_THREAD_STOP && (m->has & EVT_M_BLOCKED_ON)) {
            assert_int_equal(evt_ctx_raw(m->obj), 0x5000u);
            assert_int_equal(m->obj, 0x5000u); /* the semaphore, the first object there */
            if (m->obj_name) assert_string_equal(m->obj_name, "BINARY_SEM");
            blocked++;
        }
        if ((ev.kind == EVT_KIND_OBJ_CREATE || ev.kind == EVT_KIND_OBJ_DELETE) && evt_ctx_raw(ev.target) == 0x6000u) {
            assert_true(m->has & EVT_M_OBJ_TYPE);
            assert_int_equal(m->obj_type, EVT_HOOK_OBJ_MSGBUF);
            if (ev.kind == EVT_KIND_OBJ_CREATE) buf_create++;
            else buf_delete++;
        }
    }
    assert_int_equal(blocked, 1);
    assert_int_equal(buf_create, 1);
    assert_int_equal(buf_delete, 1);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

static void test_blocked_snapshot(void **st) { (void)st; run_snapshot(script_blocked, check_blocked); }
static void test_blocked_stream(void **st) { (void)st; run_stream(script_blocked, check_blocked); }

/* ---- the tracker alone ---- */

static evt_event thread_ev(evt_kind k, uint64_t ctx, uint64_t target, uint8_t obj_type)
{
    evt_event e;
    evt_event_reset(&e);
    e.kind = k;
    e.flags = EVT_HAS_CTX | EVT_HAS_TARGET;
    e.ctx = ctx;
    e.ctx_class = EVT_CTX_THREAD;
    e.target = target;
    if (obj_type) {
        e.m.has |= EVT_M_OBJ_TYPE;
        e.m.obj_type = obj_type;
    }
    return e;
}

static void test_tracker(void **st)
{
    (void)st;
    evt_ctx_incarn s;
    memset(&s, 0, sizeof s);
    /* records of a task whose create the ring overwrote, then its delete: no rename yet */
    evt_event e = thread_ev(EVT_KIND_OTHER, 0x10, 0, 0);
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.ctx, 0x10);
    e = thread_ev(EVT_KIND_OBJ_DELETE, 0x20, 0x10, EVT_HOOK_OBJ_THREAD);
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, 0x10);
    assert_int_equal(s.later, 0);
    /* a queue created at the deleted task's address is no incarnation of it */
    e = thread_ev(EVT_KIND_OBJ_CREATE, 0x20, 0x10, EVT_HOOK_OBJ_QUEUE);
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(s.later, 0);
    /* a task created there is its second incarnation; a first create elsewhere keeps its id */
    e = thread_ev(EVT_KIND_OBJ_CREATE, 0x20, 0x10, EVT_HOOK_OBJ_THREAD);
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, evt_ctx_make(0x10, 1));
    assert_int_equal(s.later, 1);
    e = thread_ev(EVT_KIND_OBJ_CREATE, 0x10, 0x30, EVT_HOOK_OBJ_THREAD);
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, 0x30);
    assert_int_equal(e.ctx, evt_ctx_make(0x10, 1)); /* created by the new task */
    /* an operation on the queue at 0x10 (its object, not the task) and on the task */
    e = thread_ev(EVT_KIND_SVC, 0x30, 0x10, EVT_HOOK_OBJ_QUEUE);
    e.m.has |= EVT_M_OP;
    e.m.obj = 0x10;
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, 0x10);
    assert_int_equal(e.m.obj, 0x10);
    e = thread_ev(EVT_KIND_SVC, 0x30, 0x10, EVT_HOOK_OBJ_THREAD);
    e.m.has |= EVT_M_OP | EVT_M_OWNER;
    e.m.obj = 0x10;
    e.m.owner = 0x10;
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, evt_ctx_make(0x10, 1));
    assert_int_equal(e.m.obj, evt_ctx_make(0x10, 1));
    assert_int_equal(e.m.owner, evt_ctx_make(0x10, 1));
    /* a resume of 0x30 that preempts the task at 0x10: the preempted one is its incarnation */
    e = thread_ev(EVT_KIND_THREAD_RUN, 0x10, 0x30, 0);
    e.m.has |= EVT_M_PREEMPT;
    e.m.preempted_ctx = 0x10;
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.target, 0x30);
    assert_int_equal(e.m.preempted_ctx, evt_ctx_make(0x10, 1));
    /* a time slice of the task at 0x10 (rotated, or not known): the sliced one is its incarnation */
    for (int k = 0; k < 3; k++) {
        e = thread_ev(EVT_KIND_OTHER, 0x30, 0, 0);
        e.flags &= ~(unsigned)EVT_HAS_TARGET;
        e.m.has |= k == 2 ? EVT_M_SLICE_KEPT : k ? EVT_M_SLICE_UNKNOWN : EVT_M_TIME_SLICE;
        e.m.sliced_ctx = 0x10;
        evt_ctx_incarn_event(&s, &e);
        assert_int_equal(e.m.sliced_ctx, evt_ctx_make(0x10, 1));
    }
    /* an interrupt's context is no thread id */
    e = thread_ev(EVT_KIND_ISR_ENTER, 0x10, 0, 0);
    e.flags &= ~(unsigned)EVT_HAS_TARGET;
    e.ctx_class = EVT_CTX_ISR;
    evt_ctx_incarn_event(&s, &e);
    assert_int_equal(e.ctx, 0x10);
    /* ids of 2^48 and up are not split */
    uint64_t big = 0xFFFF800000001000ull;
    for (int i = 0; i < 2; i++) {
        e = thread_ev(EVT_KIND_OBJ_CREATE, 0x30, big, EVT_HOOK_OBJ_THREAD);
        evt_ctx_incarn_event(&s, &e);
        assert_int_equal(e.target, big);
    }
    assert_int_equal(evt_ctx_incarnation(big), 0);
    assert_int_equal(evt_ctx_raw(big), big);
    assert_int_equal(evt_ctx_raw(evt_ctx_make(0x10, 1)), 0x10);
    assert_int_equal(evt_ctx_incarnation(evt_ctx_make(0x10, 3)), 3);
    assert_int_equal(evt_ctx_incarnation(evt_ctx_make(0x10, EVT_CTX_INCARNATION_MAX + 1u)), 1); /* wraps */
    evt_ctx_incarn_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_tracker),
        cmocka_unit_test(test_kinds_snapshot),
        cmocka_unit_test(test_kinds_stream),
        cmocka_unit_test(test_blocked_snapshot),
        cmocka_unit_test(test_blocked_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
