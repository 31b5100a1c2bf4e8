/* The gap application: every task waits longer than the trace clock takes to wrap, so that only
 * the idle task runs, which records nothing (check_freertos.py gap). One task works 2 ms, then
 * sleeps three wraps of the 32-bit trace timestamp, ROUNDS times; the timer daemon and the idle task
 * are the others. The trace clock is the port counter times 4 (evt_freertos_set_clock, and the
 * stream's evt_rkh_init source), so that a wrap takes a fraction of a second (2^32 / 9.2 GHz:
 * 467 ms on a 2.3 GHz counter) instead of seconds; FreeRTOS's run-time stats count the same clock.
 * The tick keeps the trace's clock, and the POSIX simulator's tick stalls now and then on a busy
 * host (the process not scheduled): the longest time between two ticks is reported (max_tick_gap),
 * and a run where it reached 3/4 of a wrap cannot tell (check_freertos.py runs again). Built with
 * the matrix application's FreeRTOSConfig.h and kernels (freertos.cmake).
 *
 *   gap_app snapshot|stream OUT ROUNDS [late]
 * late: the recording starts in the task, after the scheduler started (evt_freertos_start_* from a
 * task, as docs/freertos.md allows), not before it.
 * At the end it prints one JSON line: the clock rate, the wraps the run's clock made, the longest
 * time between two ticks, per task FreeRTOS's run time and switch-ins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "evt_freertos_test.h"
#include "evtrace/freertos.h"
#include "evtrace/port.h"

#define SCALE 4u
#define MAX_TASKS 8 /* the counters line's room */

static uint64_t clock64(void) { return evt_port_timestamp() * SCALE; }
static uint32_t clock32(void) { return (uint32_t)clock64(); }

static uint64_t g_start, g_last_tick, g_max_tick_gap;
void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    uint64_t t = clock64();
    if (g_last_tick && t - g_last_tick > g_max_tick_gap) g_max_tick_gap = t - g_last_tick;
    g_last_tick = t;
}

static const char *g_mode, *g_out;
static unsigned g_rounds;
static int g_late;

static void report(void)
{
    static TaskStatus_t st[MAX_TASKS];
    configRUN_TIME_COUNTER_TYPE total;
    UBaseType_t n = uxTaskGetSystemState(st, MAX_TASKS, &total);
    printf("{\"kernel\":\"%s\",\"clock_hz\":%llu,\"wraps\":%llu,\"max_tick_gap\":%llu,\"tasks\":[",
           tskKERNEL_VERSION_NUMBER, (unsigned long long)(evt_port_timestamp_hz() * SCALE),
           (unsigned long long)((clock64() - g_start) >> 32), (unsigned long long)g_max_tick_gap);
    for (UBaseType_t i = 0; i < n; i++) {
        const evt_freertos_test_task *c = evt_freertos_test_task_of(st[i].xHandle);
        printf("%s{\"name\":\"%s\",\"run_time\":%llu,\"switch_ins\":%u,\"held\":%llu}", i ? "," : "",
               st[i].pcTaskName, (unsigned long long)st[i].ulRunTimeCounter, c->switch_ins, (unsigned long long)c->held);
    }
    printf("]}\n");
    fflush(stdout);
}

/* Start the transport of g_mode (a snapshot of 4 MiB with 16 registry entries), on the trace clock. */
static int start(void) { return evt_freertos_test_start(g_mode, g_out, 4u << 20, 16, clock32); }

/* Work 2 ms, sleep three wraps of the trace clock; then stop, report, write. */
static void work(void *p)
{
    (void)p;
    if (g_late && start() != 0) {
        fprintf(stderr, "could not start the %s transport from the task\n", g_mode);
        exit(1);
    }
    uint64_t wrap_ms = (1000ull << 32) / (evt_port_timestamp_hz() * SCALE) + 1u;
    for (unsigned i = 0; i < g_rounds; i++) {
        uint64_t t0 = evt_port_timestamp();
        while (evt_port_timestamp() - t0 < evt_port_timestamp_hz() / 500u) {
        }
        vTaskDelay(pdMS_TO_TICKS(3u * wrap_ms));
    }
    evt_freertos_test_end(report);
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s snapshot|stream OUT ROUNDS [late]\n", argv[0]);
        return 2;
    }
    g_mode = argv[1];
    g_out = argv[2];
    g_rounds = (unsigned)atoi(argv[3]);
    evt_freertos_set_clock(clock32, evt_port_timestamp_hz() * SCALE);
    evt_freertos_test_set_clock(clock64, evt_port_timestamp_hz() * SCALE); /* FreeRTOS's run-time stats count the same clock */
    g_late = argc == 5 && strcmp(argv[4], "late") == 0;
    if (!g_late && start() != 0) {
        fprintf(stderr, "%s: could not start the %s transport\n", argv[0], g_mode);
        return 1;
    }
    g_start = clock64();
    static StaticTask_t tcb;
    static StackType_t stack[configMINIMAL_STACK_SIZE * 2];
    xTaskCreateStatic(work, "work", configMINIMAL_STACK_SIZE * 2, NULL, 2, stack, &tcb);
    vTaskStartScheduler();
    return 1;
}
