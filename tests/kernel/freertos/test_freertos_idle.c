/* The kernel's idle task, without a kernel: evtrace/freertos_trace.h's traceSTARTING_SCHEDULER
 * (V11) and traceTASK_CREATE (V10.4's way: the idle task's name and priority) expanded in
 * functions shaped as FreeRTOS's tasks.c, on both transports (TXTB snapshot, RKH stream) and the
 * test counter clock. The recording names the idle task once (a registry entry, a hook.idle_task
 * record), the readers mark it (EVT_M_IDLE_TASK), and `stats` and the load analysis count its
 * running as idle: idle_time is the idle task's cpu time (an interrupt inside it excluded), the
 * idle task keeps that cpu time as its own, and it is in the load's idle windows, not its busy
 * ones. A task named IDLE at another priority, or at the idle priority under another name, is no
 * idle task. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "evt_counter_clock.h"
#include "evt_rkh_test.h"
#include "evtrace/freertos.h"
#include "evtrace/reader.h"
#include "host/analyses/analyses.h"
#include "host/analyses/load.h"
#include "host/analyses/stats.h"

/* ---- a kernel's shape: what tasks.c has in scope where the macros expand ---------------------- */
typedef struct tskTaskControlBlock {
    unsigned long uxPriority;
    char pcTaskName[16];
} TCB_t;
#define configMAX_TASK_NAME_LEN 16
#define configIDLE_TASK_NAME "IDLE"
#define configNUMBER_OF_CORES 1
#define tskIDLE_PRIORITY ((unsigned long)0U)
static int kernel_major = 11;                     /* task.h's constant; a variable here: both versions */
#define tskKERNEL_VERSION_MAJOR kernel_major
#include "evtrace/freertos_trace.h"

static TCB_t *xIdleTaskHandles[configNUMBER_OF_CORES];
static TCB_t *volatile pxCurrentTCB; /* traceTASK_CREATE gives its address (evt_freertos_kernel_current) */

static void at(uint64_t t) { evt_test_ticks = t; }

/* prvAddNewTaskToReadyList: traceTASK_CREATE, then the move to ready. */
static void add_new_task(TCB_t *pxNewTCB, uint64_t t)
{
    at(t);
    traceTASK_CREATE(pxNewTCB);
    at(t);
    evt_freertos_ready(pxNewTCB);
}

/* vTaskStartScheduler (V11): the idle tasks are named to the trace. */
static void start_scheduler(void) { traceSTARTING_SCHEDULER(xIdleTaskHandles); }

/* traceTASK_SWITCHED_OUT then _IN at t (state: eTaskState of the task switched out). */
static void sw(const void *from, uint32_t state, const void *to, uint64_t t)
{
    at(t);
    if (from) evt_freertos_switched_out(from, state);
    at(t);
    evt_freertos_switched_in(to, 1);
}

static TCB_t idle = {0, "IDLE"}, app = {2, "app"}, fake_name = {1, "IDLE"}, fake_prio = {0, "IDLEX"};

/* In microseconds (the clock is 1 MHz): init 10..100, app 100..300, IDLE 300..700 with an
 * interrupt 400..450, app 700..800. */
static void script(int v10)
{
    kernel_major = v10 ? 10 : 11;
    add_new_task(&fake_name, 10); /* neither is the idle task */
    add_new_task(&fake_prio, 11);
    add_new_task(&app, 12);
    add_new_task(&idle, 13);      /* V10.4: named here */
    xIdleTaskHandles[0] = &idle;
    sw(NULL, 0, &app, 100);
    at(100);
    if (!v10) start_scheduler();  /* V11: named here (V10.4 has no traceSTARTING_SCHEDULER) */
    sw(&app, 2, &idle, 300);
    at(400);
    evt_freertos_isr_enter(15);
    at(450);
    evt_freertos_isr_exit(15);
    sw(&idle, 1, &app, 700);
    at(800);
    evt_freertos_user(1, 0, 0, 0, 0); /* the trace's end */
}

/* The context of a task (its TCB address, as both transports record it: 32 bits). */
static const evt_stats_ctx *ctx_of(evt_stats *s, const TCB_t *t)
{
    for (uint32_t i = 0; i < s->nctx; i++)
        if (s->ctxs[i].has_ctx && s->ctxs[i].ctx == (uint32_t)(uintptr_t)t) return &s->ctxs[i];
    fail_msg("no context %s", t->pcTaskName);
    return NULL;
}

static void check(const uint8_t *p, size_t n, const char *fmt)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, fmt, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    evt_stats s;
    assert_true(evt_stats_init(&s, 0));
    evt_an_config cfg = {100, 0, EVT_AN_PRIO_AUTO}; /* windows of 100 ticks (the stats here count ticks) */
    assert_true(evt_stats_enable_analyses(&s, &cfg));
    evt_event ev;
    int marked = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        assert_int_equal(evt_stats_add(&s, &ev), 1);
        if (ev.m.has & EVT_M_IDLE_TASK) {
            assert_int_equal(ev.m.idle_ctx, (uint32_t)(uintptr_t)&idle); /* the idle task only */
            marked++;
        }
    }
    assert_int_equal(rd->errors, 0);
    assert_true(marked >= 2); /* the switch in and the switch out (and the stream's own record) */
    evt_stats_finish(&s);
    /* times in ticks (µs) */
    const evt_stats_ctx *i = ctx_of(&s, &idle), *a = ctx_of(&s, &app);
    assert_true(i->idle_task);
    assert_false(a->idle_task);
    assert_int_equal(i->cpu_ticks, 350);      /* its own cpu time, the interrupt excluded */
    assert_int_equal(a->cpu_ticks, 300);
    assert_int_equal(s.isr_ticks, 50);
    assert_int_equal(s.idle_ticks, 350);      /* the idle task's running, as idle */
    assert_int_equal(s.tl.idle_task_time, 350);
    for (uint32_t k = 0; k < s.nctx; k++) /* the tasks named IDLE at priority 1 and IDLEX at 0: not idle */
        assert_true(s.ctxs[k].idle_task == (&s.ctxs[k] == i));
    /* the load analysis: idle windows hold it, the idle task has no busy windows */
    evt_an_parts parts;
    evt_an_parts_of(s.an, &parts);
    const evt_an_load *l = parts.load;
    uint64_t idle_sum = 0, busy_sum = 0;
    for (uint32_t k = 0; k < l->nwin; k++) idle_sum += l->idle[k];
    for (uint32_t c = 0; c < l->nctx; c++) {
        if (!l->ctx[c].seen) continue;
        assert_false(s.tl.ctxs[c]->idle_task);
        for (uint32_t k = 0; k < l->nwin; k++) busy_sum += l->ctx[c].busy[k];
    }
    assert_int_equal(idle_sum, 350);
    assert_int_equal(busy_sum + idle_sum + 50, s.tl.last - s.tl.first); /* every instant once */
    evt_stats_free(&s);
    evt_reader_close(rd);
}

static void snapshot_reg(int v10, uint32_t registry)
{
    static uint8_t buf[16384];
    memset(buf, 0, sizeof buf);
    evt_freertos_set_clock(evt_test_clock32, 1000000u);
    assert_int_equal(evt_freertos_start_snapshot(buf, sizeof buf, registry), 0);
    script(v10);
    evt_freertos_stop();
    check(buf, sizeof buf, "threadx");
}

static void stream(int v10)
{
    static evt_rkh_recorder r;
    static uint8_t ring[4096];
    evt_rkh_test_buf out;
    evt_rkh_test_streamed(&r, ring, sizeof ring, evt_test_clock32, 1000u, &out, 1u << 16);
    evt_freertos_set_clock(evt_test_clock32, 1000000u);
    assert_int_equal(evt_freertos_start_stream(&r), 0);
    script(v10);
    evt_freertos_stop();
    assert_false(out.overflow);
    check(out.p, out.n, "rkh");
    evt_rkh_test_buf_free(&out);
}

static void snapshot(int v10) { snapshot_reg(v10, 16); }

static void test_v11_snapshot(void **st) { (void)st; snapshot(0); }
/* A registry of evtrace's three entries only (profile, clock, idle task): the four tasks' names
 * fill it before the scheduler starts, and the idle task is still named (until 6 Dec its entry,
 * written at the scheduler's start, was dropped as a full registry's, and idle time was 0). The
 * first test: a recording started after the kernel named its idle task writes that entry at once
 * (the integration remembers the task), which the tests after it would do. */
static void test_full_registry(void **st) { (void)st; snapshot_reg(0, 3); }
static void test_v11_stream(void **st) { (void)st; stream(0); }
static void test_v10_snapshot(void **st) { (void)st; snapshot(1); }
static void test_v10_stream(void **st) { (void)st; stream(1); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_registry), /* first: no idle task named yet */
        cmocka_unit_test(test_v11_snapshot), cmocka_unit_test(test_v11_stream),
        cmocka_unit_test(test_v10_snapshot), cmocka_unit_test(test_v10_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
