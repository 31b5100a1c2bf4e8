/* The entry points of evtrace's FreeRTOS integration that the trace macros of
 * evtrace/freertos_trace.h call (src/kernel/freertos/freertos_rec.c). Arguments are plain values
 * (handles as pointers, names, numbers), so the integration needs no FreeRTOS header. Each may be
 * called from any context the FreeRTOS trace macro runs in; the macros test evt_freertos_on first. */
#ifndef EVTRACE_FREERTOS_CALLS_H
#define EVTRACE_FREERTOS_CALLS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" { /* included by FreeRTOSConfig.h (evtrace/freertos_trace.h) in C++ files too */
#endif

extern volatile uint8_t evt_freertos_on; /* non-zero while a transport is started */
void evt_freertos_task_create(const void *tcb, const char *name, uint32_t prio);
void evt_freertos_task_delete(const void *tcb);
/* The kernel's pxCurrentTCB (its address) and where a TCB keeps its name (offsetof pcTaskName), given
 * while recording or not at a task's creation: a recording started later, from a task, begins with a
 * switch into the task running then, named. */
void evt_freertos_kernel_current(const volatile void *current, uint32_t name_offset);
/* tcb is the kernel's idle task (V11: traceSTARTING_SCHEDULER's handles): recorded once. */
void evt_freertos_idle_task(const void *tcb);
/* The same when the task's name equals the kernel's idle task name `idle` compared as FreeRTOS
 * stores names (max: configMAX_TASK_NAME_LEN); V10.4's traceTASK_CREATE of a task at the idle
 * priority. */
void evt_freertos_idle_if_named(const void *tcb, const char *name, const char *idle, uint32_t max);
void evt_freertos_switched_out(const void *tcb, uint32_t native_state);
void evt_freertos_switched_in(const void *tcb, uint32_t prio);
/* The same with the task's name (its pcTaskName), which the trace macros pass: a recording started
 * after the scheduler (from a task) names each task created before it at its first switch. */
void evt_freertos_switched_out_named(const void *tcb, uint32_t native_state, const char *name);
void evt_freertos_switched_in_named(const void *tcb, uint32_t prio, const char *name);
void evt_freertos_ready(const void *tcb);
void evt_freertos_prio(const void *tcb, uint32_t prio, uint32_t why);
void evt_freertos_block(const void *obj);
/* A stream or message buffer the task blocks on: FreeRTOS waits for it with a task notification,
 * whose block (evt_freertos_block_notify) then keeps the buffer as the object. */
void evt_freertos_block_buffer(const void *buf);
/* A notification wait's block: the task itself, unless a buffer's wait (above) is its reason. */
void evt_freertos_block_notify(const void *tcb);
void evt_freertos_op(uint32_t code, const void *obj, int32_t ret);
void evt_freertos_obj_create(uint32_t type, const void *obj, const char *name);
void evt_freertos_obj_delete(uint32_t type, const void *obj);
void evt_freertos_obj_name(uint32_t type, const void *obj, const char *name);
void evt_freertos_qobj_create(const void *q, uint32_t qtype);
void evt_freertos_qobj_delete(const void *q, uint32_t qtype);
void evt_freertos_qobj_name(const void *q, uint32_t qtype, const char *name);
void evt_freertos_api_enter(uint32_t code, const void *obj);
void evt_freertos_api_return(uint32_t code, int32_t ret);
/* A tick (traceTASK_INCREMENT_TICK, traceINCREASE_TICK_COUNT): records one TICK operation when the
 * trace clock advanced a quarter of its range since the last one, so that no two records are a
 * whole wrap of the timestamp apart (freertos_rec.c). tcb: the running task, tick: the tick count. */
void evt_freertos_tick(const void *tcb, uint32_t tick);
void evt_freertos_isr_enter(uint32_t irq);
void evt_freertos_isr_exit(uint32_t irq);

#ifdef __cplusplus
}
#endif

#endif
