/* Tiny scheduler of the Cortex-M example (see sched.h): dispatch loop, tick, idle sleep. */
#include "sched.h"

#include "board.h"
#include "evtrace/hooks.h"

static sched_task *g_tasks[SCHED_MAX_TASKS];
static unsigned g_ntasks;

static uint32_t irq_mask(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}
static void irq_restore(uint32_t primask) { __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory"); }

void sched_add(sched_task *t)
{
    if (g_ntasks >= SCHED_MAX_TASKS) return;
    g_tasks[g_ntasks++] = t;
    EVT_HOOK_OBJ_CREATE(EVT_HOOK_OBJ_THREAD, t, t->name, t->prio);
}

void sched_tick(uint32_t now_ms)
{
    for (unsigned i = 0; i < g_ntasks; i++)
        if (now_ms % g_tasks[i]->period_ms == 0u) g_tasks[i]->ready = 1u;
}

/* Highest-priority ready task, claimed (ready cleared) with interrupts masked; NULL if none. */
static sched_task *take_ready(void)
{
    sched_task *best = 0;
    uint32_t m = irq_mask();
    for (unsigned i = 0; i < g_ntasks; i++)
        if (g_tasks[i]->ready && (!best || g_tasks[i]->prio > best->prio)) best = g_tasks[i];
    if (best) best->ready = 0u;
    irq_restore(m);
    return best;
}

static int any_ready(void)
{
    for (unsigned i = 0; i < g_ntasks; i++)
        if (g_tasks[i]->ready) return 1;
    return 0;
}

void sched_run(uint32_t until_ms)
{
    for (;;) {
        sched_task *t = take_ready();
        if (t) {
            EVT_HOOK_THREAD_IN(t, t->prio);
            t->body(t);
            t->runs++;
            EVT_HOOK_THREAD_OUT(t, EVT_HOOK_STATE_WAITING, 0);
            continue;
        }
        if (board_ms() >= until_ms) return;
        /* Idle: sleep until the next interrupt. Masked around the check, so a tick that makes a
         * task ready between the check and wfi still wakes the core (wfi wakes on a pending IRQ). */
        uint32_t m = irq_mask();
        if (!any_ready()) __asm__ volatile("wfi");
        irq_restore(m);
    }
}
