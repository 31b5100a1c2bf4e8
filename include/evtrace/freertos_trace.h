/* evtrace's FreeRTOS trace macros: include this header at the END of FreeRTOSConfig.h (one line,
 * docs/freertos.md). It defines FreeRTOS's trace macros (traceTASK_SWITCHED_IN ...) so that the
 * kernel reports to evtrace's FreeRTOS integration (src/kernel/freertos/), which writes the
 * generic kernel hooks (evtrace/hooks.h) to the transport started with evtrace/freertos.h.
 * Written for FreeRTOS V10.4 and later and V11 (single core; checked with V11.1, V10.4.6 and
 * V10.4.0; V10.4 calls no traceISR_* and no traceENTER_/RETURN_ macro). Needs configUSE_TRACE_FACILITY 1
 * (the queue type tells a semaphore's operation from a queue's). A macro the application already
 * defined is left alone (its own is used instead).
 *
 * The macros expand inside the kernel's sources (tasks.c, queue.c, ...), where they may read the
 * kernel's private structures (TCB_t, Queue_t); they only compute arguments and call one function.
 * What each records: docs/freertos.md. Optional hooks for the application (all default to nothing):
 *   evtFREERTOS_APP_SWITCHED_IN()   called in traceTASK_SWITCHED_IN after evtrace's own record
 *   evtFREERTOS_APP_PRIORITY_INHERIT(tcb, prio)   in traceTASK_PRIORITY_INHERIT
 *   evtFREERTOS_APP_MOVED_TO_READY(tcb)   in traceMOVED_TASK_TO_READY_STATE (every call, running task too)
 *   evtFREERTOS_APP_TASK_DELETE(tcb)      in traceTASK_DELETE after evtrace's own record
 *   evtFREERTOS_IRQ()               the interrupt number traceISR_ENTER records (Cortex-M: IPSR) */
#ifndef EVTRACE_FREERTOS_TRACE_H
#define EVTRACE_FREERTOS_TRACE_H

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include "evtrace/freertos_svc.h"

#if defined(configUSE_TRACE_FACILITY) && (configUSE_TRACE_FACILITY != 1)
#error "evtrace/freertos_trace.h needs configUSE_TRACE_FACILITY 1 in FreeRTOSConfig.h (a build without the trace facility leaves this header out)"
#elif !defined(configUSE_TRACE_FACILITY) && defined(configUSE_PREEMPTION)
/* Not defined in a FreeRTOSConfig.h (every one defines configUSE_PREEMPTION): FreeRTOS's default, 0.
 * Before, this compiled and the kernel's queue.c then failed on "Queue_t has no member named
 * ucQueueType" in the macros below. The header alone (no configuration) still compiles. */
#error "evtrace/freertos_trace.h needs configUSE_TRACE_FACILITY 1 defined in FreeRTOSConfig.h before it (FreeRTOS's default is 0)"
#endif
#if defined(configNUMBER_OF_CORES) && (configNUMBER_OF_CORES > 1)
#error "evtrace/freertos_trace.h records single-core FreeRTOS only (configNUMBER_OF_CORES 1)"
#endif

#include "evtrace/freertos_calls.h"

/* One branch when off: nothing else is evaluated. */
#define evtFREERTOS_IF_(call) do { if (evt_freertos_on) { call; } } while (0)

#ifndef evtFREERTOS_APP_SWITCHED_IN
#define evtFREERTOS_APP_SWITCHED_IN() do { } while (0)
#endif
#ifndef evtFREERTOS_APP_PRIORITY_INHERIT
#define evtFREERTOS_APP_PRIORITY_INHERIT(tcb, prio) do { } while (0)
#endif
#ifndef evtFREERTOS_APP_MOVED_TO_READY
#define evtFREERTOS_APP_MOVED_TO_READY(tcb) do { } while (0)
#endif
#ifndef evtFREERTOS_APP_TASK_DELETE
#define evtFREERTOS_APP_TASK_DELETE(tcb) do { } while (0)
#endif
#ifndef evtFREERTOS_IRQ
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_6M__) || defined(__ARM_ARCH_8M_MAIN__)
static inline uint32_t evt_freertos_ipsr_(void)
{
    uint32_t v;
    __asm volatile("mrs %0, ipsr" : "=r"(v));
    return v & 0x1FFu;
}
#define evtFREERTOS_IRQ() evt_freertos_ipsr_()
#else
#define evtFREERTOS_IRQ() 0u
#endif
#endif

/* ---- tasks (tasks.c: TCB_t, pxCurrentTCB and the state lists are in scope) -------------------- */

/* eTaskState of the task being switched out, from the list its state item is on (eTaskGetState's
 * rule, without the call): ready 1, blocked 2 (delayed, or waiting on an event list with no
 * timeout), suspended 3, deleted 4. */
#define evtFREERTOS_ON_(t, list) (listLIST_ITEM_CONTAINER(&(t)->xStateListItem) == (list))
/* The suspended and the termination lists exist only with vTaskSuspend / vTaskDelete (a task
 * without them is never on them: a blocked task without vTaskSuspend is on a delayed list). A task
 * on the suspended list is blocked when it waits for an object for ever (its event item is on the
 * object's list) or for one of its notifications for ever (ulTaskNotifyTake / xTaskNotifyWait, and
 * a stream or message buffer's wait, with portMAX_DELAY: its notify state is taskWAITING_NOTIFICATION,
 * 1 in V10.4 and V11), as eTaskGetState says; suspended otherwise. Before, such a notification wait
 * was recorded as eSuspended, with no blocked-on object. */
#if !defined(configUSE_TASK_NOTIFICATIONS) || (configUSE_TASK_NOTIFICATIONS == 1) /* FreeRTOS's default: 1 */
static inline uint32_t evt_freertos_notify_waiting_(const volatile uint8_t *state, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (state[i] == 1u /* taskWAITING_NOTIFICATION */) return 1u;
    return 0u;
}
#define evtFREERTOS_NOTIFY_WAITING_(t) \
    evt_freertos_notify_waiting_((t)->ucNotifyState, (uint32_t)configTASK_NOTIFICATION_ARRAY_ENTRIES)
#else
#define evtFREERTOS_NOTIFY_WAITING_(t) 0u
#endif
#if defined(INCLUDE_vTaskSuspend) && (INCLUDE_vTaskSuspend == 1)
#define evtFREERTOS_SUSP_(t)                                                                              \
    (evtFREERTOS_ON_(t, &xSuspendedTaskList)                                                              \
         ? ((listLIST_ITEM_CONTAINER(&(t)->xEventListItem) != NULL || evtFREERTOS_NOTIFY_WAITING_(t)) ? 2u : 3u) \
         : 0u)
#else
#define evtFREERTOS_SUSP_(t) 0u
#endif
#if defined(INCLUDE_vTaskDelete) && (INCLUDE_vTaskDelete == 1)
#define evtFREERTOS_DEL_(t) (evtFREERTOS_ON_(t, &xTasksWaitingTermination) ? 4u : 0u)
#else
#define evtFREERTOS_DEL_(t) 0u
#endif
#define evtFREERTOS_STATE_(t)                                                                            \
    (evtFREERTOS_ON_(t, &pxReadyTasksLists[(t)->uxPriority]) ? 1u :                                      \
     (evtFREERTOS_ON_(t, pxDelayedTaskList) || evtFREERTOS_ON_(t, pxOverflowDelayedTaskList)) ? 2u :    \
     evtFREERTOS_SUSP_(t) ? evtFREERTOS_SUSP_(t) : evtFREERTOS_DEL_(t) ? 4u : 1u)

#ifndef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT()                                                                       \
    evtFREERTOS_IF_(evt_freertos_switched_out_named(pxCurrentTCB, evtFREERTOS_STATE_(pxCurrentTCB),    \
                                                    (const char *)pxCurrentTCB->pcTaskName))
#endif
#ifndef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN()                                                                         \
    do {                                                                                                \
        evtFREERTOS_IF_(evt_freertos_switched_in_named(pxCurrentTCB, (uint32_t)pxCurrentTCB->uxPriority, \
                                                       (const char *)pxCurrentTCB->pcTaskName));        \
        evtFREERTOS_APP_SWITCHED_IN();                                                                  \
    } while (0)
#endif
/* The kernel's idle task, recorded once so that the host counts its running as idle time
 * (docs/freertos.md "Idle"). V11 names the idle task handles (one per core) in
 * traceSTARTING_SCHEDULER; V10.4 has no such macro and calls none of the ones V11 added, so there
 * the idle task is recognised at its creation, inside tasks.c, by the kernel's own idle task name
 * and priority (configIDLE_TASK_NAME, tskIDLE_PRIORITY; tskKERNEL_VERSION_MAJOR of task.h tells
 * the versions apart: a constant test). */
/* Both are called while recording is off too (once, at the scheduler's start; per task creation a
 * test of its priority first): the integration remembers the handle, and a recording started later,
 * from a task, names the idle task at its start (before, such a recording had no idle task: idle
 * time 0, the idle task a busy one). traceTASK_CREATE also gives the address of pxCurrentTCB, so
 * that such a recording starts in the running task. */
#ifndef traceSTARTING_SCHEDULER
#define traceSTARTING_SCHEDULER(handles) \
    do { for (int evt_i_ = 0; evt_i_ < (int)configNUMBER_OF_CORES; evt_i_++) evt_freertos_idle_task((handles)[evt_i_]); } while (0)
#endif
#define evtFREERTOS_IDLE_CREATE_(t)                                                                     \
    do {                                                                                                \
        if (tskKERNEL_VERSION_MAJOR < 11 && (t)->uxPriority == tskIDLE_PRIORITY)                        \
            evt_freertos_idle_if_named((t), (const char *)(t)->pcTaskName, configIDLE_TASK_NAME,         \
                                       (uint32_t)configMAX_TASK_NAME_LEN);                              \
    } while (0)
/* (And, recording or not, where the kernel keeps its running task: evt_freertos_kernel_current.) */
#ifndef traceTASK_CREATE
#define traceTASK_CREATE(t)                                                                                   \
    do {                                                                                                      \
        evtFREERTOS_IF_(evt_freertos_task_create((t), (const char *)(t)->pcTaskName, (uint32_t)(t)->uxPriority)); \
        evtFREERTOS_IDLE_CREATE_(t);                                                                          \
        evt_freertos_kernel_current(&pxCurrentTCB, (uint32_t)offsetof(TCB_t, pcTaskName));                   \
    } while (0)
#endif
#ifndef traceTASK_DELETE
#define traceTASK_DELETE(t)                              \
    do {                                                 \
        evtFREERTOS_IF_(evt_freertos_task_delete(t));    \
        evtFREERTOS_APP_TASK_DELETE(t);                  \
    } while (0)
#endif
/* Every task is ready from its creation, the first one too (it is already pxCurrentTCB when
 * prvAddNewTaskToReadyList adds it, before the scheduler runs); once the scheduler runs, the running
 * task put back on a ready list (a priority change) is no move to ready. */
#ifndef traceMOVED_TASK_TO_READY_STATE
#define traceMOVED_TASK_TO_READY_STATE(t)                                                      \
    do {                                                                                       \
        evtFREERTOS_IF_(if ((t) != pxCurrentTCB || xSchedulerRunning == pdFALSE) evt_freertos_ready(t)); \
        evtFREERTOS_APP_MOVED_TO_READY(t);                                                     \
    } while (0)
#endif
/* vTaskPrioritySet calls traceTASK_PRIORITY_SET before it changes anything. With mutexes, a task
 * running at an inherited priority keeps it when its base priority is set lower (or to anything not
 * above the inherited one): only uxBasePriority changes, and the disinheritance restores it later.
 * The record carries the priority the task runs at after the call (vTaskPrioritySet's own rule),
 * not the requested base priority: before, the timeline dropped such a task to its new base
 * priority while FreeRTOS kept it at the inherited one. */
#if defined(configUSE_MUTEXES) && (configUSE_MUTEXES == 1)
#define evtFREERTOS_SET_PRIO_(t, p)                                                                  \
    (((t)->uxBasePriority == (t)->uxPriority || (UBaseType_t)(p) > (t)->uxPriority) ? (uint32_t)(p) \
                                                                                : (uint32_t)(t)->uxPriority)
#else
#define evtFREERTOS_SET_PRIO_(t, p) ((uint32_t)(p))
#endif
#ifndef traceTASK_PRIORITY_SET
#define traceTASK_PRIORITY_SET(t, p) \
    evtFREERTOS_IF_(evt_freertos_prio((t) ? (const void *)(t) : (const void *)pxCurrentTCB, \
                                      (t) ? evtFREERTOS_SET_PRIO_((t), (p)) : evtFREERTOS_SET_PRIO_(pxCurrentTCB, (p)), 0u))
#endif
#ifndef traceTASK_PRIORITY_INHERIT
#define traceTASK_PRIORITY_INHERIT(t, p)                                   \
    do {                                                                   \
        evtFREERTOS_IF_(evt_freertos_prio((t), (uint32_t)(p), 1u));        \
        evtFREERTOS_APP_PRIORITY_INHERIT((t), (p));                        \
    } while (0)
#endif
#ifndef traceTASK_PRIORITY_DISINHERIT
#define traceTASK_PRIORITY_DISINHERIT(t, p) evtFREERTOS_IF_(evt_freertos_prio((t), (uint32_t)(p), 2u))
#endif
#ifndef traceTASK_DELAY
#define traceTASK_DELAY() evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_DELAY, pxCurrentTCB, 0))
#endif
#ifndef traceTASK_DELAY_UNTIL
#define traceTASK_DELAY_UNTIL(x) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_DELAY_UNTIL, pxCurrentTCB, 0))
#endif
#ifndef traceTASK_SUSPEND
#define traceTASK_SUSPEND(t) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_SUSPEND, (t), 0))
#endif
#ifndef traceTASK_RESUME
#define traceTASK_RESUME(t) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_RESUME, (t), 0))
#endif
#ifndef traceTASK_RESUME_FROM_ISR
#define traceTASK_RESUME_FROM_ISR(t) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_RESUME_FROM_ISR, (t), 0))
#endif

/* The tick: nothing is recorded per tick. While no task or interrupt records anything (every task
 * delayed or blocked, the idle task running), the trace's 32-bit (stream: 1, 2 or 4-byte)
 * timestamp may wrap more than once between two records, and the reader, which unwraps one wrap
 * at a time, loses those wraps: the idle time and the span were short by whole wraps (2^32 ticks:
 * 1.9 s of a 2.3 GHz counter, 26 s of a 168 MHz one) with nothing counted as lost. The tick keeps
 * the clock: every tick (and tickless idle's step) tests it, and a TICK operation is recorded when
 * a quarter of the timestamp's range passed since the last one (evt_freertos_tick). */
#ifndef traceTASK_INCREMENT_TICK
#define traceTASK_INCREMENT_TICK(t) evtFREERTOS_IF_(evt_freertos_tick(pxCurrentTCB, (uint32_t)(t)))
#endif
#ifndef traceINCREASE_TICK_COUNT
#define traceINCREASE_TICK_COUNT(n) evtFREERTOS_IF_(evt_freertos_tick(pxCurrentTCB, (uint32_t)(xTickCount + (n))))
#endif

/* ---- notifications (tasks.c) ------------------------------------------------------------------ */
#ifndef traceTASK_NOTIFY_TAKE_BLOCK
#define traceTASK_NOTIFY_TAKE_BLOCK(i) evtFREERTOS_IF_(evt_freertos_block_notify(pxCurrentTCB))
#endif
#ifndef traceTASK_NOTIFY_WAIT_BLOCK
#define traceTASK_NOTIFY_WAIT_BLOCK(i) evtFREERTOS_IF_(evt_freertos_block_notify(pxCurrentTCB))
#endif
#ifndef traceTASK_NOTIFY_TAKE
#define traceTASK_NOTIFY_TAKE(i)                                                                        \
    evtFREERTOS_IF_(evt_freertos_op(pxCurrentTCB->ulNotifiedValue[(i)] == 0U && xTicksToWait == 0           \
                                        ? EVT_FREERTOS_TASK_NOTIFY_TAKE_REFUSED                             \
                                        : EVT_FREERTOS_TASK_NOTIFY_TAKE,                                    \
                                    pxCurrentTCB, (int32_t)pxCurrentTCB->ulNotifiedValue[(i)]))
#endif
#ifndef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY_WAIT(i)                                                                        \
    evtFREERTOS_IF_(evt_freertos_op(pxCurrentTCB->ucNotifyState[(i)] != taskNOTIFICATION_RECEIVED && xTicksToWait == 0 \
                                        ? EVT_FREERTOS_TASK_NOTIFY_WAIT_REFUSED                             \
                                        : EVT_FREERTOS_TASK_NOTIFY_WAIT,                                    \
                                    pxCurrentTCB,                                                       \
                                    pxCurrentTCB->ucNotifyState[(i)] == taskNOTIFICATION_RECEIVED ? 1 : 0))
#endif
/* xTaskGenericNotify / xTaskGenericNotifyFromISR call these after the action, with their result in
 * xReturn (V10.4 and V11): pdFAIL when eSetValueWithoutOverwrite found a notification pending, which
 * is recorded as the failed notification (freertos_svc.h), not as a success. */
#ifndef traceTASK_NOTIFY
#define traceTASK_NOTIFY(i)                                                                              \
    evtFREERTOS_IF_(evt_freertos_op(xReturn != pdFAIL ? EVT_FREERTOS_TASK_NOTIFY : EVT_FREERTOS_TASK_NOTIFY_FAILED, \
                                    pxTCB, 0))
#endif
#ifndef traceTASK_NOTIFY_FROM_ISR
#define traceTASK_NOTIFY_FROM_ISR(i)                                                                     \
    evtFREERTOS_IF_(evt_freertos_op(xReturn != pdFAIL ? EVT_FREERTOS_TASK_NOTIFY_FROM_ISR                \
                                                      : EVT_FREERTOS_TASK_NOTIFY_FROM_ISR_FAILED, pxTCB, 0))
#endif
#ifndef traceTASK_NOTIFY_GIVE_FROM_ISR
#define traceTASK_NOTIFY_GIVE_FROM_ISR(i) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TASK_NOTIFY_GIVE_FROM_ISR, pxTCB, 0))
#endif

/* ---- queues, semaphores, mutexes (queue.c: Queue_t in scope) ----------------------------------- */
#define evtFREERTOS_QOP_(ev, q) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_QCODE(EVT_FREERTOS_QEV_##ev, (q)->ucQueueType), (q), 0))
/* A failed send, receive or peek of a task: refused at once (the call's first pass: its local
 * xEntryTimeSet, in xQueueGenericSend, xQueueReceive, xQueueSemaphoreTake and xQueuePeek of every
 * FreeRTOS since V7, is still pdFALSE) or a wait that timed out (freertos_svc.h). */
#define evtFREERTOS_QFAIL_(ev, q)                                                                        \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_QCODE(xEntryTimeSet == pdFALSE ? EVT_FREERTOS_QEV_##ev##_REFUSED \
                                                                                 : EVT_FREERTOS_QEV_##ev##_FAILED, \
                                                       (q)->ucQueueType),                                \
                                    (q), 0))
#ifndef traceQUEUE_CREATE
#define traceQUEUE_CREATE(q) evtFREERTOS_IF_(evt_freertos_qobj_create((q), (uint32_t)(q)->ucQueueType))
#endif
#ifndef traceQUEUE_DELETE
#define traceQUEUE_DELETE(q) evtFREERTOS_IF_(evt_freertos_qobj_delete((q), (uint32_t)(q)->ucQueueType))
#endif
#ifndef traceQUEUE_REGISTRY_ADD
#define traceQUEUE_REGISTRY_ADD(q, name) \
    evtFREERTOS_IF_(evt_freertos_qobj_name((q), (uint32_t)((const Queue_t *)(q))->ucQueueType, (name)))
#endif
#ifndef traceQUEUE_SEND
#define traceQUEUE_SEND(q) evtFREERTOS_QOP_(QUEUE_SEND, q)
#endif
#ifndef traceQUEUE_SEND_FAILED
#define traceQUEUE_SEND_FAILED(q) evtFREERTOS_QFAIL_(QUEUE_SEND, q)
#endif
#ifndef traceQUEUE_RECEIVE
#define traceQUEUE_RECEIVE(q) evtFREERTOS_QOP_(QUEUE_RECEIVE, q)
#endif
#ifndef traceQUEUE_RECEIVE_FAILED
#define traceQUEUE_RECEIVE_FAILED(q) evtFREERTOS_QFAIL_(QUEUE_RECEIVE, q)
#endif
#ifndef traceQUEUE_PEEK
#define traceQUEUE_PEEK(q) evtFREERTOS_QOP_(QUEUE_PEEK, q)
#endif
#ifndef traceQUEUE_PEEK_FAILED
#define traceQUEUE_PEEK_FAILED(q) evtFREERTOS_QFAIL_(QUEUE_PEEK, q)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR
#define traceQUEUE_SEND_FROM_ISR(q) evtFREERTOS_QOP_(QUEUE_SEND_FROM_ISR, q)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR_FAILED
#define traceQUEUE_SEND_FROM_ISR_FAILED(q) evtFREERTOS_QOP_(QUEUE_SEND_FROM_ISR_FAILED, q)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR
#define traceQUEUE_RECEIVE_FROM_ISR(q) evtFREERTOS_QOP_(QUEUE_RECEIVE_FROM_ISR, q)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR_FAILED
#define traceQUEUE_RECEIVE_FROM_ISR_FAILED(q) evtFREERTOS_QOP_(QUEUE_RECEIVE_FROM_ISR_FAILED, q)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR
#define traceQUEUE_PEEK_FROM_ISR(q) evtFREERTOS_QOP_(QUEUE_PEEK_FROM_ISR, q)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR_FAILED
#define traceQUEUE_PEEK_FROM_ISR_FAILED(q) evtFREERTOS_QOP_(QUEUE_PEEK_FROM_ISR_FAILED, q)
#endif
/* Recursive mutexes (xQueueTakeMutexRecursive / xQueueGiveMutexRecursive): the outermost take is
 * xQueueSemaphoreTake (traceQUEUE_RECEIVE or _FAILED of the mutex) and the give that unwinds the
 * count to 0 is xQueueGenericSend (traceQUEUE_SEND): those are recorded there. Recorded here: only
 * the calls that make no queue record, so each take and give counts once: a nested take (the
 * holder takes again: traceTAKE_MUTEX_RECURSIVE runs before the holder test, on every call), a give
 * that leaves the mutex held (count > 1 before FreeRTOS decrements it), and a give by a task that
 * is not the holder (pdFAIL). traceTAKE_MUTEX_RECURSIVE_FAILED follows a failed xQueueSemaphoreTake,
 * already recorded as QUEUE_RECEIVE_FAILED: nothing. Value: the nesting count after the call. */
#ifndef traceTAKE_MUTEX_RECURSIVE
#define traceTAKE_MUTEX_RECURSIVE(m)                                                                     \
    evtFREERTOS_IF_(if ((m)->u.xSemaphore.xMutexHolder == xTaskGetCurrentTaskHandle())                    \
                        evt_freertos_op(EVT_FREERTOS_TAKE_MUTEX_RECURSIVE, (m),                         \
                                        (int32_t)(m)->u.xSemaphore.uxRecursiveCallCount + 1))
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE_FAILED
#define traceTAKE_MUTEX_RECURSIVE_FAILED(m) do { } while (0)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE
#define traceGIVE_MUTEX_RECURSIVE(m)                                                                     \
    evtFREERTOS_IF_(if ((m)->u.xSemaphore.uxRecursiveCallCount > 1u)                                      \
                        evt_freertos_op(EVT_FREERTOS_GIVE_MUTEX_RECURSIVE, (m),                         \
                                        (int32_t)(m)->u.xSemaphore.uxRecursiveCallCount - 1))
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE_FAILED
#define traceGIVE_MUTEX_RECURSIVE_FAILED(m) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_GIVE_MUTEX_RECURSIVE_FAILED, (m), 0))
#endif
/* Queue sets (queueQUEUE_TYPE_SET): xQueueSelectFromSet is xQueueReceive of the set and a member's
 * send goes into it through traceQUEUE_SET_SEND (FreeRTOS's default: traceQUEUE_SEND), both coded
 * by the set's queue type (freertos_svc.h). Adding and removing a member (V11's API macros; V10.4
 * has none): recorded at the return with its result; the set is the function's parameter xQueueSet
 * (queue.c), in scope where the macro expands. */
#ifndef traceRETURN_xQueueAddToSet
#define traceRETURN_xQueueAddToSet(r) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_QUEUE_SET_ADD, xQueueSet, (int32_t)(r)))
#endif
#ifndef traceRETURN_xQueueRemoveFromSet
#define traceRETURN_xQueueRemoveFromSet(r) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_QUEUE_SET_REMOVE, xQueueSet, (int32_t)(r)))
#endif
#ifndef traceBLOCKING_ON_QUEUE_RECEIVE
#define traceBLOCKING_ON_QUEUE_RECEIVE(q) evtFREERTOS_IF_(evt_freertos_block(q))
#endif
#ifndef traceBLOCKING_ON_QUEUE_SEND
#define traceBLOCKING_ON_QUEUE_SEND(q) evtFREERTOS_IF_(evt_freertos_block(q))
#endif
/* The timer task waits for its command queue in vQueueWaitForMessageRestricted, which has no
 * traceBLOCKING_ON_ macro; V11's API macro there says which queue, and whether it is empty (it
 * blocks only then). V10.4 has no such macro: its timer task's waits keep no object. */
#ifndef traceENTER_vQueueWaitForMessageRestricted
#define traceENTER_vQueueWaitForMessageRestricted(q, wait, forever) \
    evtFREERTOS_IF_(if (((const Queue_t *)(q))->uxMessagesWaiting == 0u) evt_freertos_block(q))
#endif
#ifndef traceBLOCKING_ON_QUEUE_PEEK
#define traceBLOCKING_ON_QUEUE_PEEK(q) evtFREERTOS_IF_(evt_freertos_block(q))
#endif

/* ---- event groups (event_groups.c) ------------------------------------------------------------ */
#ifndef traceEVENT_GROUP_CREATE
#define traceEVENT_GROUP_CREATE(g) evtFREERTOS_IF_(evt_freertos_obj_create(4u /* EVENT_FLAGS */, (g), (const char *)0))
#endif
#ifndef traceEVENT_GROUP_DELETE
#define traceEVENT_GROUP_DELETE(g) evtFREERTOS_IF_(evt_freertos_obj_delete(4u, (g)))
#endif
#ifndef traceEVENT_GROUP_SET_BITS
#define traceEVENT_GROUP_SET_BITS(g, b) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_EVENT_GROUP_SET_BITS, (g), (int32_t)(b)))
#endif
#ifndef traceEVENT_GROUP_SET_BITS_FROM_ISR
#define traceEVENT_GROUP_SET_BITS_FROM_ISR(g, b) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_EVENT_GROUP_SET_BITS_FROM_ISR, (g), (int32_t)(b)))
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS
#define traceEVENT_GROUP_CLEAR_BITS(g, b) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_EVENT_GROUP_CLEAR_BITS, (g), (int32_t)(b)))
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS_FROM_ISR
#define traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(g, b) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_EVENT_GROUP_CLEAR_BITS_FROM_ISR, (g), (int32_t)(b)))
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_BLOCK
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(g, b) evtFREERTOS_IF_(evt_freertos_block(g))
#endif
#ifndef traceEVENT_GROUP_SYNC_BLOCK
#define traceEVENT_GROUP_SYNC_BLOCK(g, s, w) evtFREERTOS_IF_(evt_freertos_block(g))
#endif
/* The wait's outcome is what the caller gets: the bits it returns (uxReturn, in scope in
 * xEventGroupWaitBits and xEventGroupSync) meet the condition or not. FreeRTOS's timeout flag alone
 * is not it: a task whose wait timed out but whose bits were set before it ran again gets them (and
 * clears them) with xTimeoutOccurred still pdTRUE, which was a timeout in the trace. */
#define evtFREERTOS_EG_MET_(b, all) \
    ((all) != pdFALSE ? (uxReturn & (EventBits_t)(b)) == (EventBits_t)(b) : (uxReturn & (EventBits_t)(b)) != 0u)
#ifndef traceEVENT_GROUP_WAIT_BITS_END
#define traceEVENT_GROUP_WAIT_BITS_END(g, b, timeout)                                                      \
    evtFREERTOS_IF_(evt_freertos_op((timeout) && !evtFREERTOS_EG_MET_((b), xWaitForAllBits)                 \
                                        ? (xTicksToWait == 0 ? EVT_FREERTOS_EVENT_GROUP_WAIT_BITS_REFUSED   \
                                                             : EVT_FREERTOS_EVENT_GROUP_WAIT_BITS_TIMEOUT)  \
                                        : EVT_FREERTOS_EVENT_GROUP_WAIT_BITS_END, (g), (int32_t)(b)))
#endif
#ifndef traceEVENT_GROUP_SYNC_END
#define traceEVENT_GROUP_SYNC_END(g, s, w, timeout)                                                        \
    evtFREERTOS_IF_(evt_freertos_op((timeout) && !evtFREERTOS_EG_MET_((w), pdTRUE)                          \
                                        ? (xTicksToWait == 0 ? EVT_FREERTOS_EVENT_GROUP_SYNC_REFUSED        \
                                                             : EVT_FREERTOS_EVENT_GROUP_SYNC_TIMEOUT)       \
                                        : EVT_FREERTOS_EVENT_GROUP_SYNC_END, (g), (int32_t)(w)))
#endif

/* ---- stream and message buffers (stream_buffer.c) ---------------------------------------------- */
#ifndef traceSTREAM_BUFFER_CREATE
/* The second argument: V11's xStreamBufferType (sbTYPE_STREAM_BUFFER 0, sbTYPE_MESSAGE_BUFFER 1,
 * sbTYPE_STREAM_BATCHING_BUFFER 2), V10.4's xIsMessageBuffer (pdFALSE 0, pdTRUE 1): 1 is a message
 * buffer in both. The object is named after its kind (FreeRTOS has no registry for buffers). */
#define traceSTREAM_BUFFER_CREATE(b, t)                                                                  \
    evtFREERTOS_IF_(evt_freertos_obj_create(6u /* MSGBUF */, (b),                                        \
                                            (t) == 1 ? "MESSAGE_BUFFER" : (t) == 2 ? "STREAM_BATCHING_BUFFER" \
                                                                                   : "STREAM_BUFFER"))
#endif
#ifndef traceSTREAM_BUFFER_DELETE
#define traceSTREAM_BUFFER_DELETE(b) evtFREERTOS_IF_(evt_freertos_obj_delete(6u, (b)))
#endif
#ifndef traceSTREAM_BUFFER_RESET
#define traceSTREAM_BUFFER_RESET(b) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_RESET, (b), 0))
#endif
#ifndef traceSTREAM_BUFFER_SEND
#define traceSTREAM_BUFFER_SEND(b, n) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_SEND, (b), (int32_t)(n)))
#endif
#ifndef traceSTREAM_BUFFER_SEND_FAILED
#define traceSTREAM_BUFFER_SEND_FAILED(b) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_SEND_FAILED, (b), 0))
#endif
#ifndef traceSTREAM_BUFFER_SEND_FROM_ISR
#define traceSTREAM_BUFFER_SEND_FROM_ISR(b, n) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_SEND_FROM_ISR, (b), (int32_t)(n)))
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE
#define traceSTREAM_BUFFER_RECEIVE(b, n) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_RECEIVE, (b), (int32_t)(n)))
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FAILED
#define traceSTREAM_BUFFER_RECEIVE_FAILED(b) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_RECEIVE_FAILED, (b), 0))
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FROM_ISR
#define traceSTREAM_BUFFER_RECEIVE_FROM_ISR(b, n) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_STREAM_BUFFER_RECEIVE_FROM_ISR, (b), (int32_t)(n)))
#endif
/* The buffer's wait is xTaskNotifyWait (its traceTASK_NOTIFY_WAIT_BLOCK follows): the switch's
 * blocked-on object stays the buffer, not the task itself (before: mbrx "blocked on" mbrx). */
#ifndef traceBLOCKING_ON_STREAM_BUFFER_SEND
#define traceBLOCKING_ON_STREAM_BUFFER_SEND(b) evtFREERTOS_IF_(evt_freertos_block_buffer(b))
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_RECEIVE
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(b) evtFREERTOS_IF_(evt_freertos_block_buffer(b))
#endif

/* ---- software timers (timers.c) ---------------------------------------------------------------- */
#ifndef traceTIMER_CREATE
#define traceTIMER_CREATE(t) evtFREERTOS_IF_(evt_freertos_obj_create(7u /* TIMER */, (t), (t)->pcTimerName))
#endif
#ifndef traceTIMER_COMMAND_SEND
#define traceTIMER_COMMAND_SEND(t, id, v, r) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TIMER_COMMAND_SEND, (t), (int32_t)(r)))
#endif
#ifndef traceTIMER_EXPIRED
#define traceTIMER_EXPIRED(t) evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TIMER_EXPIRED, (t), 0))
#endif
#ifndef traceTIMER_COMMAND_RECEIVED
#define traceTIMER_COMMAND_RECEIVED(t, id, v) \
    evtFREERTOS_IF_(evt_freertos_op(EVT_FREERTOS_TIMER_COMMAND_RECEIVED, (t), (int32_t)(id)))
#endif

/* ---- V11 API macros: the calls that may block, as service spans (V10.4 has none: unused there) -- */
#define evtFREERTOS_API_IN_(fn, obj) evtFREERTOS_IF_(evt_freertos_api_enter(EVT_FREERTOS_API_##fn, (obj)))
#define evtFREERTOS_API_OUT_(fn, r) evtFREERTOS_IF_(evt_freertos_api_return(EVT_FREERTOS_API_##fn, (int32_t)(r)))
#ifndef traceENTER_xQueueGenericSend
#define traceENTER_xQueueGenericSend(q, item, wait, pos) evtFREERTOS_API_IN_(xQueueGenericSend, q)
#endif
#ifndef traceRETURN_xQueueGenericSend
#define traceRETURN_xQueueGenericSend(r) evtFREERTOS_API_OUT_(xQueueGenericSend, r)
#endif
#ifndef traceENTER_xQueueReceive
#define traceENTER_xQueueReceive(q, buf, wait) evtFREERTOS_API_IN_(xQueueReceive, q)
#endif
#ifndef traceRETURN_xQueueReceive
#define traceRETURN_xQueueReceive(r) evtFREERTOS_API_OUT_(xQueueReceive, r)
#endif
#ifndef traceENTER_xQueueSemaphoreTake
#define traceENTER_xQueueSemaphoreTake(q, wait) evtFREERTOS_API_IN_(xQueueSemaphoreTake, q)
#endif
#ifndef traceRETURN_xQueueSemaphoreTake
#define traceRETURN_xQueueSemaphoreTake(r) evtFREERTOS_API_OUT_(xQueueSemaphoreTake, r)
#endif
#ifndef traceENTER_xQueuePeek
#define traceENTER_xQueuePeek(q, buf, wait) evtFREERTOS_API_IN_(xQueuePeek, q)
#endif
#ifndef traceRETURN_xQueuePeek
#define traceRETURN_xQueuePeek(r) evtFREERTOS_API_OUT_(xQueuePeek, r)
#endif
#ifndef traceENTER_xQueueTakeMutexRecursive
#define traceENTER_xQueueTakeMutexRecursive(m, wait) evtFREERTOS_API_IN_(xQueueTakeMutexRecursive, m)
#endif
#ifndef traceRETURN_xQueueTakeMutexRecursive
#define traceRETURN_xQueueTakeMutexRecursive(r) evtFREERTOS_API_OUT_(xQueueTakeMutexRecursive, r)
#endif
#ifndef traceENTER_xQueueGiveMutexRecursive
#define traceENTER_xQueueGiveMutexRecursive(m) evtFREERTOS_API_IN_(xQueueGiveMutexRecursive, m)
#endif
#ifndef traceRETURN_xQueueGiveMutexRecursive
#define traceRETURN_xQueueGiveMutexRecursive(r) evtFREERTOS_API_OUT_(xQueueGiveMutexRecursive, r)
#endif
#ifndef traceENTER_vTaskDelay
#define traceENTER_vTaskDelay(t) evtFREERTOS_API_IN_(vTaskDelay, 0)
#endif
#ifndef traceRETURN_vTaskDelay
#define traceRETURN_vTaskDelay() evtFREERTOS_API_OUT_(vTaskDelay, 0)
#endif
#ifndef traceENTER_xTaskDelayUntil
#define traceENTER_xTaskDelayUntil(prev, inc) evtFREERTOS_API_IN_(xTaskDelayUntil, 0)
#endif
#ifndef traceRETURN_xTaskDelayUntil
#define traceRETURN_xTaskDelayUntil(r) evtFREERTOS_API_OUT_(xTaskDelayUntil, r)
#endif
#ifndef traceENTER_xEventGroupWaitBits
#define traceENTER_xEventGroupWaitBits(g, bits, clr, all, wait) evtFREERTOS_API_IN_(xEventGroupWaitBits, g)
#endif
#ifndef traceRETURN_xEventGroupWaitBits
#define traceRETURN_xEventGroupWaitBits(r) evtFREERTOS_API_OUT_(xEventGroupWaitBits, r)
#endif
#ifndef traceENTER_xEventGroupSync
#define traceENTER_xEventGroupSync(g, set, bits, wait) evtFREERTOS_API_IN_(xEventGroupSync, g)
#endif
#ifndef traceRETURN_xEventGroupSync
#define traceRETURN_xEventGroupSync(r) evtFREERTOS_API_OUT_(xEventGroupSync, r)
#endif
#ifndef traceENTER_ulTaskGenericNotifyTake
#define traceENTER_ulTaskGenericNotifyTake(i, clr, wait) evtFREERTOS_API_IN_(ulTaskGenericNotifyTake, 0)
#endif
#ifndef traceRETURN_ulTaskGenericNotifyTake
#define traceRETURN_ulTaskGenericNotifyTake(r) evtFREERTOS_API_OUT_(ulTaskGenericNotifyTake, r)
#endif
#ifndef traceENTER_xTaskGenericNotifyWait
#define traceENTER_xTaskGenericNotifyWait(i, ce, cx, v, wait) evtFREERTOS_API_IN_(xTaskGenericNotifyWait, 0)
#endif
#ifndef traceRETURN_xTaskGenericNotifyWait
#define traceRETURN_xTaskGenericNotifyWait(r) evtFREERTOS_API_OUT_(xTaskGenericNotifyWait, r)
#endif
#ifndef traceENTER_xStreamBufferSend
#define traceENTER_xStreamBufferSend(b, d, n, wait) evtFREERTOS_API_IN_(xStreamBufferSend, b)
#endif
#ifndef traceRETURN_xStreamBufferSend
#define traceRETURN_xStreamBufferSend(r) evtFREERTOS_API_OUT_(xStreamBufferSend, r)
#endif
#ifndef traceENTER_xStreamBufferReceive
#define traceENTER_xStreamBufferReceive(b, d, n, wait) evtFREERTOS_API_IN_(xStreamBufferReceive, b)
#endif
#ifndef traceRETURN_xStreamBufferReceive
#define traceRETURN_xStreamBufferReceive(r) evtFREERTOS_API_OUT_(xStreamBufferReceive, r)
#endif

/* ---- interrupts (ports that report them: ARM_CM3/CM4F SysTick) --------------------------------- */
#ifndef traceISR_ENTER
#define traceISR_ENTER() evtFREERTOS_IF_(evt_freertos_isr_enter(evtFREERTOS_IRQ()))
#endif
#ifndef traceISR_EXIT
#define traceISR_EXIT() evtFREERTOS_IF_(evt_freertos_isr_exit(evtFREERTOS_IRQ()))
#endif
#ifndef traceISR_EXIT_TO_SCHEDULER
#define traceISR_EXIT_TO_SCHEDULER() evtFREERTOS_IF_(evt_freertos_isr_exit(evtFREERTOS_IRQ()))
#endif

#endif /* __ASSEMBLER__ */
#endif
