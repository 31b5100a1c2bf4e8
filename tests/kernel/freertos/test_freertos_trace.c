/* evtrace's FreeRTOS trace macros (evtrace/freertos_trace.h) and integration (src/kernel/freertos/)
 * without a FreeRTOS kernel: the macros expand here in functions shaped like the kernel's (the
 * variables they read in scope, as in tasks.c), record through either transport into memory, and
 * the reader gives back what FreeRTOS did. Found by an outside FreeRTOS application checked against
 * the kernel's own counters (30 Nov, FreeRTOS V11.1.0+ POSIX port, 1 s runs, both transports):
 *   - a notification that FreeRTOS refuses (xTaskNotify with eSetValueWithoutOverwrite on a task with
 *     one pending: pdFAIL) was a success in the trace (11 in the run, 213 with configUSE_PREEMPTION 0);
 *   - vTaskPrioritySet on a task running at an inherited priority changes only its base priority in
 *     FreeRTOS, but the trace dropped the task to the new base priority (71 of 3150 samples of the
 *     task's priority disagreed with uxTaskPriorityGet);
 *   - portYIELD_FROM_ISR calls traceISR_EXIT in any handler, while no port but the Cortex-M tick calls
 *     traceISR_ENTER: the POSIX port's tick hook wrote an unmatched ISR exit per tick (1000 in 1 s;
 *     `stats` unmatched_exits.isr 1000);
 *   - xEventGroupSetBitsFromISR only asks the timer daemon to call xEventGroupSetBits, which is
 *     recorded too: both were an event-group set (400 sets for the application's 200);
 *   - the stream stamped a switch after the scheduler chose the next task and the recorder took its
 *     lock, not where FreeRTOS reads its run-time counter (traceTASK_SWITCHED_OUT, as the snapshot
 *     does): a host pause in between moved CPU time between tasks (1 run in 13: 6-60 % off);
 *   - xEventGroupWaitBits / Sync that timed out but found its bits set when it ran again returns them
 *     (a success for the caller) with FreeRTOS's timeout flag set: it was a timeout in the trace (1 in
 *     296 waits of a configUSE_PREEMPTION 0 run);
 *   - a task blocked in a stream or message buffer call waits with xTaskNotifyWait, whose block
 *     replaced the buffer: the switch said the task was blocked on itself (mbrx on "mbrx"); and
 *     still did when a tick switched the task out between the two (about 40 % of the outsider runs
 *     on a loaded 2-core machine, 30 Nov). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "evt_rkh_test.h"
#include "evtrace/freertos.h"
#include "evtrace/reader.h"
#include "evtrace/user.h"
#include "evtrace/user_defs.h"
#include <stdio.h>

/* ---- the kernel's scope, as far as the expanded macros read it ---------------------------------- */
#define configUSE_TRACE_FACILITY 1
#define configUSE_MUTEXES 1
typedef long BaseType_t;
typedef unsigned long UBaseType_t;
typedef unsigned long EventBits_t;
#define pdPASS ((BaseType_t)1)
#define pdFAIL ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdFALSE ((BaseType_t)0)
typedef unsigned long TickType_t;
typedef struct QueueDefinition {
    UBaseType_t uxMessagesWaiting;
    uint8_t ucQueueType;
} Queue_t;
typedef struct tskTaskControlBlock {
    UBaseType_t uxPriority, uxBasePriority;
    uint32_t ulNotifiedValue[1];
    uint8_t ucNotifyState[1];
} TCB_t;
#define taskNOTIFICATION_RECEIVED ((uint8_t)2)
static TCB_t *volatile pxCurrentTCB;
#include "evtrace/freertos_trace.h"
/* FreeRTOS.h's empty default for an API macro the header does not define. */
#ifndef traceENTER_vQueueWaitForMessageRestricted
#define traceENTER_vQueueWaitForMessageRestricted(q, wait, forever) ((void)(q))
#endif

/* xTaskGenericNotify / xTaskGenericNotifyFromISR: the action decided xReturn, then the macro. */
static void notify(TCB_t *pxTCB, BaseType_t xReturn)
{
    (void)xReturn; /* read by the macro since the fix */
    traceTASK_NOTIFY(0);
}
static void notify_from_isr(TCB_t *pxTCB, BaseType_t xReturn)
{
    (void)xReturn;
    traceTASK_NOTIFY_FROM_ISR(0);
}
/* vTaskPrioritySet: the macro first, then FreeRTOS's rule (configUSE_MUTEXES 1). */
static void prio_set(TCB_t *pxTCB, UBaseType_t uxNewPriority)
{
    traceTASK_PRIORITY_SET(pxTCB, uxNewPriority);
    if (pxTCB->uxBasePriority != uxNewPriority) {
        if (pxTCB->uxBasePriority == pxTCB->uxPriority || uxNewPriority > pxTCB->uxPriority) pxTCB->uxPriority = uxNewPriority;
        pxTCB->uxBasePriority = uxNewPriority;
    }
}
/* xTaskPriorityInherit / xTaskPriorityDisinheritAfterTimeout. */
static void inherit(TCB_t *t, UBaseType_t p)
{
    traceTASK_PRIORITY_INHERIT(t, p);
    t->uxPriority = p;
}
static void disinherit(TCB_t *t)
{
    traceTASK_PRIORITY_DISINHERIT(t, t->uxBasePriority);
    t->uxPriority = t->uxBasePriority;
}

static TCB_t g_low, g_mid;

/* Two tasks, low running at 1 and mid at 3. */
static void tasks(void)
{
    g_low.uxPriority = g_low.uxBasePriority = 1;
    g_mid.uxPriority = g_mid.uxBasePriority = 3;
    pxCurrentTCB = &g_mid;
    evt_freertos_task_create(&g_low, "low", 1);
    evt_freertos_task_create(&g_mid, "mid", 3);
}

/* Open a reader on a recorded trace. */
static evt_reader *open_trace(const uint8_t *p, size_t n)
{
    evt_reader *rd;
    char err[256];
    assert_int_equal(evt_reader_open_mem(p, n, NULL, NULL, NULL, NULL, &rd, err, sizeof err), EVT_OK);
    return rd;
}

/* ---- notifications: a refused one is no success ------------------------------------------------- */

static void notify_script(void)
{
    tasks();
    notify(&g_low, pdPASS);
    notify(&g_low, pdFAIL); /* eSetValueWithoutOverwrite, one pending */
    notify_from_isr(&g_low, pdPASS);
    notify_from_isr(&g_low, pdFAIL);
}

/* The notifications decoded; the notified task named "low" (named: 0, a registry with no room
 * for names: unnamed). */
static void notify_check_named(const uint8_t *p, size_t n, int named)
{
    static const struct { const char *label; evt_op_result res; } want[] = {
        {"xTaskNotify", EVT_RES_SUCCESS}, {"xTaskNotify", EVT_RES_ERROR},
        {"xTaskNotifyFromISR", EVT_RES_SUCCESS}, {"xTaskNotifyFromISR", EVT_RES_ERROR},
    };
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        if (!(m->has & EVT_M_OP) || !(m->has & EVT_M_LABEL) || strncmp(m->label, "xTaskNotify", 11) != 0) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_string_equal(m->label, want[k].label);
        assert_int_equal(m->op, EVT_OP_SET);
        assert_int_equal(m->op_result, want[k].res);
        if (named) assert_string_equal(m->obj_name, "low");
        else assert_null(m->obj_name);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}
static void notify_check(const uint8_t *p, size_t n) { notify_check_named(p, n, 1); }

/* ---- priorities: a set while inheriting keeps the inherited priority ----------------------------- */

static void prio_script(void)
{
    tasks();
    inherit(&g_low, 4);  /* low holds a mutex a priority-4 task waits for: runs at 4 */
    prio_set(&g_low, 2); /* base 2, still 4 */
    prio_set(&g_low, 5); /* above the inherited one: 5 (base 5 too: no longer inheriting) */
    prio_set(&g_low, 2); /* so this one lowers it: 2 */
    disinherit(&g_low);  /* (the mutex's give) its base, 2 */
    prio_set(&g_mid, 1); /* no inheritance: 1 */
}

static void prio_check(const uint8_t *p, size_t n)
{
    static const struct { TCB_t *t; uint64_t prio; } want[] = {
        {&g_low, 4}, {&g_low, 4}, {&g_low, 5}, {&g_low, 2}, {&g_low, 2}, {&g_mid, 1},
    };
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        if (!(ev.m.has & EVT_M_PRIO_SET)) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_int_equal(ev.target & 0xFFFFFFFFu, (uint64_t)(uintptr_t)want[k].t & 0xFFFFFFFFu);
        assert_int_equal(ev.m.new_prio, want[k].prio);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

/* ---- interrupts: an exit ends an open interrupt or nothing ---------------------------------------- */

static void isr_script(void)
{
    tasks();
    evt_freertos_isr_exit(0); /* portYIELD_FROM_ISR outside any recorded interrupt: no record */
    evt_freertos_isr_enter(14);
    evt_freertos_isr_exit(14);
    evt_freertos_isr_exit(0); /* the same handler's portYIELD_FROM_ISR after its own exit: none */
    evt_freertos_isr_enter(15);
    evt_freertos_isr_exit(0);  /* portYIELD_FROM_ISR first (the POSIX port says 0): ends 15 ... */
    evt_freertos_isr_exit(15); /* ... and the handler's own exit is none */
    evt_freertos_isr_enter(15); /* SysTick (IPSR 15) ... */
    evt_freertos_isr_exit(16);  /* ... interrupted by a handler without an enter (IPSR 16): none */
    evt_freertos_isr_enter(17); /* ... and by one that brackets itself */
    evt_freertos_isr_exit(17);
    evt_freertos_isr_exit(17); /* its portYIELD_FROM_ISR after its own exit: not SysTick's end */
    evt_freertos_isr_exit(15);
}

static void isr_check(const uint8_t *p, size_t n)
{
    /* (kind, irq) in order: enters and exits, each exit with the open interrupt's number */
    static const struct { evt_kind kind; uint32_t irq; } want[] = {
        {EVT_KIND_ISR_ENTER, 14}, {EVT_KIND_ISR_EXIT, 14}, {EVT_KIND_ISR_ENTER, 15}, {EVT_KIND_ISR_EXIT, 15},
        {EVT_KIND_ISR_ENTER, 15}, {EVT_KIND_ISR_ENTER, 17}, {EVT_KIND_ISR_EXIT, 17}, {EVT_KIND_ISR_EXIT, 15},
    };
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        if (ev.kind != EVT_KIND_ISR_ENTER && ev.kind != EVT_KIND_ISR_EXIT) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_int_equal(ev.kind, want[k].kind);
        assert_int_equal(ev.m.irq, want[k].irq);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

/* ---- event groups from an ISR: the request, then the daemon's set ---------------------------------- */

static int g_group; /* an event group's handle */

/* xEventGroupWaitBits's end: the bits it returns, whether it waited for all, its timeout flag, its
 * block time (10 ticks in the calls below that wait, 0 for a poll). */
static void wait_end_t(int *g, EventBits_t uxBitsToWaitFor, BaseType_t xWaitForAllBits, EventBits_t uxReturn,
                       BaseType_t xTimeoutOccurred, TickType_t xTicksToWait)
{
    (void)xWaitForAllBits; /* read by the macro since the fix */
    (void)uxReturn;
    (void)xTicksToWait;
    traceEVENT_GROUP_WAIT_BITS_END(g, uxBitsToWaitFor, xTimeoutOccurred);
}
static void wait_end(int *g, EventBits_t uxBitsToWaitFor, BaseType_t xWaitForAllBits, EventBits_t uxReturn, BaseType_t xTimeoutOccurred)
{
    wait_end_t(g, uxBitsToWaitFor, xWaitForAllBits, uxReturn, xTimeoutOccurred, 10u);
}
/* xEventGroupSync's end. */
static void sync_end_t(int *g, EventBits_t uxBitsToWaitFor, EventBits_t uxReturn, BaseType_t xTimeoutOccurred,
                       TickType_t xTicksToWait)
{
    (void)uxReturn;
    (void)xTicksToWait;
    traceEVENT_GROUP_SYNC_END(g, 0u, uxBitsToWaitFor, xTimeoutOccurred);
}
static void sync_end(int *g, EventBits_t uxBitsToWaitFor, EventBits_t uxReturn, BaseType_t xTimeoutOccurred)
{
    sync_end_t(g, uxBitsToWaitFor, uxReturn, xTimeoutOccurred, 10u);
}

static void eg_script(void)
{
    tasks();
    traceEVENT_GROUP_CREATE(&g_group);
    traceEVENT_GROUP_SET_BITS_FROM_ISR(&g_group, 1u);   /* xEventGroupSetBitsFromISR: pends the set */
    traceEVENT_GROUP_SET_BITS(&g_group, 1u);            /* the timer daemon's xEventGroupSetBits */
    traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(&g_group, 1u); /* the same for a clear */
    traceEVENT_GROUP_CLEAR_BITS(&g_group, 1u);
    wait_end(&g_group, 3u, pdTRUE, 3u, pdFALSE);  /* all bits, woken by the set */
    wait_end(&g_group, 3u, pdTRUE, 1u, pdTRUE);   /* timed out with one of two */
    wait_end(&g_group, 3u, pdTRUE, 7u, pdTRUE);   /* timed out, both set before it ran: got them */
    wait_end(&g_group, 3u, pdFALSE, 2u, pdTRUE);  /* any bit: timed out, one set before it ran */
    sync_end(&g_group, 7u, 7u, pdTRUE);           /* the rendezvous completed as it timed out */
    sync_end(&g_group, 7u, 5u, pdTRUE);           /* it did not */
    wait_end_t(&g_group, 3u, pdTRUE, 1u, pdTRUE, 0u);  /* a poll (no block time) that found one of two */
    wait_end_t(&g_group, 3u, pdFALSE, 2u, pdTRUE, 0u); /* a poll for any bit that found one */
    sync_end_t(&g_group, 7u, 5u, pdTRUE, 0u);          /* a rendezvous that would not wait */
}

static void eg_check(const uint8_t *p, size_t n)
{
    static const struct { const char *label; evt_obj_op op; } want[] = {
        {"xEventGroupSetBitsFromISR", EVT_OP_SEND}, {"xEventGroupSetBits", EVT_OP_SET},
        {"xEventGroupClearBitsFromISR", EVT_OP_SEND}, {"xEventGroupClearBits", EVT_OP_CLEAR},
        {"xEventGroupWaitBits", EVT_OP_WAIT}, {"xEventGroupWaitBits", EVT_OP_WAIT},
        {"xEventGroupWaitBits", EVT_OP_WAIT}, {"xEventGroupWaitBits", EVT_OP_WAIT},
        {"xEventGroupSync", EVT_OP_WAIT}, {"xEventGroupSync", EVT_OP_WAIT},
        {"xEventGroupWaitBits", EVT_OP_WAIT}, {"xEventGroupWaitBits", EVT_OP_WAIT}, {"xEventGroupSync", EVT_OP_WAIT},
    };
    static const evt_op_result res[] = {
        EVT_RES_SUCCESS, EVT_RES_SUCCESS, EVT_RES_SUCCESS, EVT_RES_SUCCESS, EVT_RES_SUCCESS,
        EVT_RES_TIMEOUT, EVT_RES_SUCCESS, EVT_RES_SUCCESS, EVT_RES_SUCCESS, EVT_RES_TIMEOUT,
        EVT_RES_WOULD_BLOCK, EVT_RES_SUCCESS, EVT_RES_WOULD_BLOCK,
    };
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        if (!(m->has & EVT_M_OP) || !(m->has & EVT_M_LABEL) || strncmp(m->label, "xEventGroup", 11) != 0) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_string_equal(m->label, want[k].label);
        assert_int_equal(m->op, want[k].op);
        assert_int_equal(m->op_result, res[k]);
        assert_int_equal(m->obj & 0xFFFFFFFFu, (uint64_t)(uintptr_t)&g_group & 0xFFFFFFFFu);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

/* ---- refused at once or timed out: a call with no block time that fails would block -------------- */

static Queue_t g_q = {0, 0}, g_sem = {0, 2}; /* a queue (queueQUEUE_TYPE_BASE), a counting semaphore */

/* A failing xQueueGenericSend / xQueueSemaphoreTake / xQueuePeek: on its first pass through the
 * call (xEntryTimeSet pdFALSE: no block time, refused) or after its wait ran out (pdTRUE). */
static void send_failed(Queue_t *pxQueue, BaseType_t xEntryTimeSet) { (void)xEntryTimeSet; traceQUEUE_SEND_FAILED(pxQueue); }
static void receive_failed(Queue_t *pxQueue, BaseType_t xEntryTimeSet) { (void)xEntryTimeSet; traceQUEUE_RECEIVE_FAILED(pxQueue); }
static void peek_failed(Queue_t *pxQueue, BaseType_t xEntryTimeSet) { (void)xEntryTimeSet; traceQUEUE_PEEK_FAILED(pxQueue); }
/* ulTaskGenericNotifyTake / xTaskGenericNotifyWait at their end, with their block time. */
static void notify_take(uint32_t value, TickType_t xTicksToWait)
{
    (void)xTicksToWait;
    pxCurrentTCB->ulNotifiedValue[0] = value;
    traceTASK_NOTIFY_TAKE(0);
}
static void notify_wait(int received, TickType_t xTicksToWait)
{
    (void)xTicksToWait;
    pxCurrentTCB->ucNotifyState[0] = received ? taskNOTIFICATION_RECEIVED : 0u;
    traceTASK_NOTIFY_WAIT(0);
}

static void refused_script(void)
{
    tasks();
    traceQUEUE_CREATE(&g_q);
    traceQUEUE_CREATE(&g_sem);
    send_failed(&g_q, pdFALSE);     /* xQueueSend(q, &v, 0) of a full queue */
    send_failed(&g_q, pdTRUE);      /* xQueueSend(q, &v, 5): still full after 5 ticks */
    send_failed(&g_sem, pdFALSE);   /* xSemaphoreGive of a full semaphore: it never waits */
    receive_failed(&g_sem, pdFALSE); /* xSemaphoreTake(s, 0) of an empty one */
    receive_failed(&g_sem, pdTRUE);
    peek_failed(&g_q, pdFALSE);
    peek_failed(&g_q, pdTRUE);
    notify_take(0u, 0u);             /* ulTaskNotifyTake(pdTRUE, 0): nothing pending */
    notify_take(0u, 10u);            /* waited 10 ticks for nothing */
    notify_take(3u, 0u);             /* three pending */
    notify_wait(0, 0u);
    notify_wait(0, 10u);
    notify_wait(1, 0u);
}

static void refused_check(const uint8_t *p, size_t n)
{
    static const struct { const char *label; evt_op_result res; } want[] = {
        {"xQueueSend", EVT_RES_WOULD_BLOCK},    {"xQueueSend", EVT_RES_TIMEOUT},
        {"xSemaphoreGive", EVT_RES_WOULD_BLOCK}, {"xSemaphoreTake", EVT_RES_WOULD_BLOCK},
        {"xSemaphoreTake", EVT_RES_TIMEOUT},    {"xQueuePeek", EVT_RES_WOULD_BLOCK},
        {"xQueuePeek", EVT_RES_TIMEOUT},        {"ulTaskNotifyTake", EVT_RES_WOULD_BLOCK},
        {"ulTaskNotifyTake", EVT_RES_TIMEOUT},  {"ulTaskNotifyTake", EVT_RES_SUCCESS},
        {"xTaskNotifyWait", EVT_RES_WOULD_BLOCK}, {"xTaskNotifyWait", EVT_RES_TIMEOUT},
        {"xTaskNotifyWait", EVT_RES_SUCCESS},
    };
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        const evt_meaning *m = &ev.m;
        if (ev.kind != EVT_KIND_SVC || !(m->has & EVT_M_LABEL)) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_string_equal(m->label, want[k].label);
        assert_int_equal(m->op_result, want[k].res);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    assert_int_equal(rd->errors, 0);
    evt_reader_close(rd);
}

/* ---- the switch's time: where FreeRTOS reads its run-time counter --------------------------------- */

static uint32_t g_now; /* the clock of both transports here (evt_freertos_set_clock) */
static uint32_t now_fn(void) { return g_now; }

static void stamp_script(void)
{
    tasks();
    g_now = 1000;
    evt_freertos_switched_out(&g_low, 1); /* traceTASK_SWITCHED_OUT: FreeRTOS read its counter */
    g_now = 5000;                         /* the scheduler's choice, the recorder's lock, a pause */
    evt_freertos_switched_in(&g_mid, 3);
    evt_freertos_user(7, 0, 0, 0, 0);     /* at 5000 */
}

static void stamp_check(const uint8_t *p, size_t n)
{
    evt_reader *rd = open_trace(p, n);
    uint64_t sw = 0, user = 0;
    int nsw = 0, nuser = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        if ((ev.m.has & EVT_M_NEXT) && ev.m.next_ctx == ((uint64_t)(uintptr_t)&g_mid & 0xFFFFFFFFu)) {
            sw = ev.ts;
            nsw++;
        } else if (ev.kind == EVT_KIND_USER && ev.ctx == ((uint64_t)(uintptr_t)&g_mid & 0xFFFFFFFFu)) {
            user = ev.ts;
            nuser++;
        }
    }
    assert_int_equal(nsw, 1);
    assert_int_equal(nuser, 1);
    assert_int_equal(user - sw, 4000); /* the switch at 1000 */
    evt_reader_close(rd);
}

/* ---- blocked on: a buffer's wait is a notification wait ------------------------------------------ */

static int g_buffer; /* a message buffer's handle */
static Queue_t g_tmrq; /* the timer task's command queue */

/* vQueueWaitForMessageRestricted's entry: the API macro, with the queue as its parameter. */
static void wait_restricted(Queue_t *xQueue)
{
    traceENTER_vQueueWaitForMessageRestricted(xQueue, 5, pdFALSE);
}

/* traceTASK_SWITCHED_OUT / _IN of a switch from `from`, blocked, to `to`. */
static void block_switch(TCB_t *from, TCB_t *to)
{
    evt_freertos_switched_out(from, 2u /* eBlocked */);
    pxCurrentTCB = to;
    evt_freertos_switched_in(to, (uint32_t)to->uxPriority);
}

static void block_script(void)
{
    tasks();
    traceSTREAM_BUFFER_CREATE(&g_buffer, 1);
    evt_freertos_qobj_create(&g_tmrq, 0);
    evt_freertos_qobj_name(&g_tmrq, 0, "TmrQ");
    pxCurrentTCB = &g_low;
    traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(&g_buffer); /* xMessageBufferReceive on an empty buffer ... */
    traceTASK_NOTIFY_WAIT_BLOCK(0);                    /* ... waits with xTaskNotifyWait */
    block_switch(&g_low, &g_mid);
    traceTASK_NOTIFY_WAIT_BLOCK(0); /* mid's own xTaskNotifyWait: on itself */
    block_switch(&g_mid, &g_low);
    traceBLOCKING_ON_STREAM_BUFFER_SEND(&g_buffer); /* a full buffer */
    traceTASK_NOTIFY_WAIT_BLOCK(0);
    block_switch(&g_low, &g_mid);
    g_tmrq.uxMessagesWaiting = 0; /* mid as the timer task: an empty queue, it blocks on it */
    wait_restricted(&g_tmrq);
    block_switch(&g_mid, &g_low);
    g_tmrq.uxMessagesWaiting = 1; /* a command waiting: no block, nothing remembered */
    wait_restricted(&g_tmrq);
    block_switch(&g_low, &g_mid); /* (low blocks in a vTaskDelay: no object) */
    /* A tick between the buffer's block and the notification wait's (FreeRTOS runs that code
     * preemptible): mid is switched out ready, low records its own wait, then mid, back, waits. */
    traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(&g_buffer);
    evt_freertos_switched_out(&g_mid, 1u /* eReady */);
    pxCurrentTCB = &g_low;
    evt_freertos_switched_in(&g_low, (uint32_t)g_low.uxPriority);
    traceTASK_NOTIFY_WAIT_BLOCK(0); /* low's own xTaskNotifyWait: on itself */
    block_switch(&g_low, &g_mid);
    traceTASK_NOTIFY_WAIT_BLOCK(0); /* mid's, for the buffer: on the buffer (was: on mid) */
    block_switch(&g_mid, &g_low);
}

static void block_check(const uint8_t *p, size_t n)
{
    const uint64_t buf = (uint64_t)(uintptr_t)&g_buffer & 0xFFFFFFFFu, mid = (uint64_t)(uintptr_t)&g_mid & 0xFFFFFFFFu;
    const uint64_t q = (uint64_t)(uintptr_t)&g_tmrq & 0xFFFFFFFFu;
    const uint64_t low = (uint64_t)(uintptr_t)&g_low & 0xFFFFFFFFu;
    static const char *const names[] = {"MESSAGE_BUFFER", "mid", "MESSAGE_BUFFER", "TmrQ", "low", "MESSAGE_BUFFER"};
    const uint64_t want[] = {buf, mid, buf, q, low, buf};
    evt_reader *rd = open_trace(p, n);
    size_t k = 0;
    evt_event ev;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        if (!(ev.m.has & EVT_M_BLOCKED_ON)) continue;
        assert_true(k < sizeof want / sizeof want[0]);
        assert_int_equal(ev.m.obj & 0xFFFFFFFFu, want[k]);
        assert_string_equal(ev.m.obj_name, names[k]);
        k++;
    }
    assert_int_equal(k, sizeof want / sizeof want[0]);
    evt_reader_close(rd);
}

/* ---- transports ----------------------------------------------------------------------------------- */

typedef void (*script_fn)(void);
typedef void (*check_fn)(const uint8_t *p, size_t n);

static uint8_t g_snap[64 * 1024];
/* script recorded by the snapshot transport, then check of the buffer. */
static void snapshot(script_fn script, check_fn check)
{
    memset(g_snap, 0, sizeof g_snap);
    assert_int_equal(evt_freertos_start_snapshot(g_snap, sizeof g_snap, 8), 0);
    script();
    evt_freertos_stop();
    check(g_snap, sizeof g_snap);
}

static uint32_t ts(void)
{
    static uint32_t t;
    return t += 10;
}

/* script recorded by the stream transport on clock fn, then check of the bytes its sink got. */
static void stream_ts(uint32_t (*fn)(void), script_fn script, check_fn check)
{
    static uint8_t ring[8192];
    static evt_rkh_recorder r;
    evt_rkh_test_buf out;
    evt_rkh_test_streamed(&r, ring, sizeof ring, fn, 1000u, &out, 16384);
    evt_freertos_set_clock(fn, 1000u);
    assert_int_equal(evt_freertos_start_stream(&r), 0);
    script();
    evt_freertos_stop();
    evt_freertos_set_clock(NULL, 0);
    assert_false(out.overflow); /* the stream fits its 16 KiB */
    check(out.p, out.n);
    evt_rkh_test_buf_free(&out);
}
static void stream(script_fn script, check_fn check) { stream_ts(ts, script, check); }

static void notify_snapshot(void **st) { (void)st; snapshot(notify_script, notify_check); }
static void notify_stream(void **st) { (void)st; stream(notify_script, notify_check); }
static void prio_snapshot(void **st) { (void)st; snapshot(prio_script, prio_check); }
static void prio_stream(void **st) { (void)st; stream(prio_script, prio_check); }
static void isr_snapshot(void **st) { (void)st; snapshot(isr_script, isr_check); }
static void isr_stream(void **st) { (void)st; stream(isr_script, isr_check); }
static void eg_snapshot(void **st) { (void)st; snapshot(eg_script, eg_check); }
static void eg_stream(void **st) { (void)st; stream(eg_script, eg_check); }
static void refused_snapshot(void **st) { (void)st; snapshot(refused_script, refused_check); }
static void refused_stream(void **st) { (void)st; stream(refused_script, refused_check); }
static void stamp_snapshot(void **st)
{
    (void)st;
    evt_freertos_set_clock(now_fn, 1000u);
    snapshot(stamp_script, stamp_check);
    evt_freertos_set_clock(NULL, 0);
}
static void stamp_stream(void **st) { (void)st; stream_ts(now_fn, stamp_script, stamp_check); }
static void block_snapshot(void **st) { (void)st; snapshot(block_script, block_check); }
/* A snapshot started with fewer registry entries than evtrace's own three (kernel profile, clock,
 * idle task): the profile was the first entry and 0 entries dropped it, so the FreeRTOS trace was
 * read as ThreadX's (its services unnamed, priorities in ThreadX's order), only counted as a lost
 * name. The integration keeps room for the three, which since 6 Dec are written at the start (the
 * idle task's entry before the scheduler names it): no room is left for the tasks' names, the
 * trace is still FreeRTOS's. */
static void registry_small(void **st)
{
    (void)st;
    for (uint32_t entries = 0; entries < 3; entries++) {
        memset(g_snap, 0, sizeof g_snap);
        assert_int_equal(evt_freertos_start_snapshot(g_snap, sizeof g_snap, entries), 0);
        notify_script();
        evt_freertos_stop();
        notify_check_named(g_snap, sizeof g_snap, 0);
    }
}

/* ---- printf-style user events in a snapshot that wraps -------------------------------------------
 * evt_freertos_start_snapshot starts a session of user-event sites and re-registers them after each
 * wrap (its buffer-full callback calls evt_user_resend), and the reader reads a wrapped buffer's SITE
 * records first: every printf left in the ring has its text, none stays a raw TXTB user record
 * (without the callback every SITE record was overwritten: all 300 calls left were raw). */
static uint8_t g_small[48 + 48 * 8 + 32 * 100];
static void printf_wrap(void **st)
{
    (void)st;
    memset(g_small, 0, sizeof g_small);
    assert_int_equal(evt_freertos_start_snapshot(g_small, sizeof g_small, 8), 0);
    tasks();
    for (unsigned i = 0; i < 300; i++) {
        evt_printf("ctl", "step %u", i);
        evt_printf("pr", "%u:%s", i, "x");
    }
    evt_freertos_stop();
    evt_reader *rd = open_trace(g_small, sizeof g_small);
    evt_event ev;
    unsigned ctl = 0, pr = 0, last = 0;
    while (evt_reader_next(rd, &ev) == EVT_OK) {
        unsigned k;
        char want[32];
        if (ev.kind == EVT_KIND_USER) assert_true(ev.id < EVT_USER_TXTB_BASE || (ev.m.has & EVT_M_TEXT)); /* no raw record */
        if (!(ev.m.has & EVT_M_TEXT)) continue;
        if (strcmp(ev.m.label, "ctl") == 0) {
            assert_int_equal(sscanf(ev.m.text, "step %u", &k), 1);
            assert_true(k >= last); /* in order */
            last = k;
            ctl++;
        } else if (strcmp(ev.m.label, "pr") == 0) {
            assert_int_equal(sscanf(ev.m.text, "%u:", &k), 1);
            snprintf(want, sizeof want, "%u:%s", k, "x");
            assert_string_equal(ev.m.text, want);
            pr++;
        }
    }
    assert_int_equal(rd->errors, 0);
    assert_true(ctl > 20 && pr > 20);
    assert_int_equal(last, 299);
    evt_reader_close(rd);
}
static void block_stream(void **st) { (void)st; stream(block_script, block_check); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(notify_snapshot),
        cmocka_unit_test(notify_stream),
        cmocka_unit_test(registry_small),
        cmocka_unit_test(prio_snapshot),
        cmocka_unit_test(prio_stream),
        cmocka_unit_test(isr_snapshot),
        cmocka_unit_test(isr_stream),
        cmocka_unit_test(eg_snapshot),
        cmocka_unit_test(eg_stream),
        cmocka_unit_test(refused_snapshot),
        cmocka_unit_test(refused_stream),
        cmocka_unit_test(stamp_snapshot),
        cmocka_unit_test(stamp_stream),
        cmocka_unit_test(block_snapshot),
        cmocka_unit_test(block_stream),
        cmocka_unit_test(printf_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
