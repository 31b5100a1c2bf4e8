/* A tiny run-to-completion scheduler for the Cortex-M example: periodic tasks made ready by the
 * 1 ms tick interrupt, the highest-priority ready task runs to completion, the core sleeps (wfi)
 * when none is ready. It reports to evtrace through the generic kernel hooks
 * (include/evtrace/hooks.h) as an RTOS would: task creation with its name, every switch in and out,
 * and the tick interrupt (board.c). */
#ifndef SCHED_H
#define SCHED_H

#include <stdint.h>

typedef struct sched_task {
    const char *name;
    uint32_t prio;            /* larger runs first */
    uint32_t period_ms;       /* made ready every period_ms ticks */
    void (*body)(struct sched_task *self);
    volatile uint32_t ready;  /* set by the tick ISR, cleared when dispatched */
    uint32_t runs;            /* completed runs */
} sched_task;

#define SCHED_MAX_TASKS 8u

/* Register a task (before sched_run); records its creation (name, priority). */
void sched_add(sched_task *t);
/* The tick interrupt's part: make due tasks ready. */
void sched_tick(uint32_t now_ms);
/* Dispatch until `until_ms` ticks have passed and no task is ready. */
void sched_run(uint32_t until_ms);

#endif
