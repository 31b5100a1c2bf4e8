/* The application both evtrace FreeRTOS examples run (app.c): a producer and a consumer around a
 * queue, two tasks sharing a priority-inheriting mutex with a third in between, a software timer,
 * an event group, a stream buffer and task notifications (an observer task), a semaphore given from
 * an interrupt, tasks deleted and created again (a spawner; the heap hands their TCB addresses
 * back), and a control task that ends the run; beside it FreeRTOS's own counters (switch-ins,
 * moves to ready, inheritances, successful operations) and the JSON line that reports them with the
 * run-time stats. Included by FreeRTOSConfig_common.h (the counting hooks run inside the kernel).
 *
 * The example (the target) provides: app_clock / app_clock_hz (the run-time counter's clock, the
 * trace's too), app_finished (called by the control task once the trace has stopped). */
#ifndef EVT_FREERTOS_APP_H
#define EVT_FREERTOS_APP_H

#include <stdint.h>

/* ---- provided by the example ---------------------------------------------------------------- */
uint64_t app_clock(void);    /* monotonic counter, any context (a 32-bit one may wrap) */
uint64_t app_clock_hz(void); /* its rate */
void app_finished(void);     /* the run is over, the scheduler suspended, the trace stopped */

/* ---- the kernel's hooks (FreeRTOSConfig_common.h; interrupts masked) ------------------------- */
void app_switched_in(void *tcb);    /* traceTASK_SWITCHED_IN: a switch-in unless the same task again */
void app_inherited(void *tcb);      /* traceTASK_PRIORITY_INHERIT */
void app_moved_to_ready(void *tcb); /* traceMOVED_TASK_TO_READY_STATE: a move unless tcb is running */
void app_task_deleted(void *tcb);   /* traceTASK_DELETE: its counts end (the address may come back) */
uint64_t app_run_time(void);        /* the run-time stats counter: app_clock from the first switch-in */

/* ---- the application ------------------------------------------------------------------------ */
/* The control task (highest priority): after run_ms it stops the application, lets every task end
 * its round, suspends the scheduler, stops the trace and calls app_finished. Before the scheduler. */
void app_create_control(uint32_t run_ms);
/* The application's objects (named in the queue registry) and tasks. Before the scheduler. */
void app_create_demo(void);
/* From the tick hook: 1 on every 10th tick while the application runs (time to give the semaphore
 * from an interrupt). */
int app_tick_due(void);
/* From an interrupt numbered irq: records its entry and exit, gives the semaphore; returns
 * FreeRTOS's "higher priority task woken" (for portYIELD_FROM_ISR). */
long app_isr_give(uint32_t irq);
/* Whether the application was asked to stop (for extra tasks of an example). */
int app_stopping(void);

/* FreeRTOS's counters as one JSON line ending in '\n' (a static buffer; after app_finished's
 * call, the scheduler suspended): per task name, run_time (uxTaskGetSystemState), switch_ins,
 * ready (moves to ready), base priority and held (clock ticks of its switches held up over 10 us
 * between FreeRTOS's run-time read and the trace's record: app.c, app_switched_in); per queue sends
 * and receives; the mutex's inheritances;
 * timer expiries; event-group, stream-buffer and notification operations. */
const char *app_counters_line(void);

#endif
