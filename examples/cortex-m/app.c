/* The Cortex-M example application: three periodic tasks on the tiny scheduler (sched.h), a 1 ms
 * SysTick interrupt, and evtrace recording task switches, the interrupt and user events through
 * the generic hooks (app_trace_*.c picks the snapshot or the live build). It runs for APP_RUN_MS,
 * stops the trace, calls app_trace_done() (where a debugger stops to dump the buffer), prints what
 * it recorded over semihosting ("APP-STATS ...": the tests check the decoded trace against it)
 * and exits. */
#include <stdint.h>

#include "app_trace.h"
#include "board.h"
#include "evtrace/hooks.h"
#include "sched.h"

#ifndef APP_RUN_MS
#define APP_RUN_MS 100u
#endif

/* What the firmware recorded, for the host-side checks (also readable by a debugger). */
typedef struct app_stats {
    uint32_t runs[3];     /* sensor, control, logger */
    uint32_t ticks;       /* SysTick interrupts that scheduled tasks */
    uint32_t isr_window;  /* ticks from just before the trace started to just after it stopped:
                             the ISRs recorded are at least `ticks`, at most this many */
    uint32_t user_events; /* EVT_HOOK_USER calls */
    uint32_t samples;     /* app_trace_sample calls */
    uint32_t value_sum;   /* sum of the values the user events carried (low 32 bits) */
} app_stats;
app_stats g_app_stats;

static volatile int g_tracing;
static uint32_t g_lcg = 12345u;

static uint32_t next_value(void)
{
    g_lcg = g_lcg * 1103515245u + 12345u;
    return (g_lcg >> 16) & 0x3FFu;
}

static void user_event(uint32_t id, uint32_t seq, uint32_t value)
{
    EVT_HOOK_USER(id, seq, value, 0, 0);
    g_app_stats.user_events++;
    g_app_stats.value_sum += value;
}

static void sensor_body(sched_task *self) { user_event(1u, self->runs, next_value()); }
static void control_body(sched_task *self) { user_event(2u, self->runs, next_value() * 2u); }
static void logger_body(sched_task *self)
{
    uint32_t v = next_value();
    user_event(3u, self->runs, v);
    app_trace_sample(3u, self->runs, v);
    g_app_stats.samples++;
}

static sched_task g_sensor = {"sensor", 3u, 2u, sensor_body, 0u, 0u};
static sched_task g_control = {"control", 2u, 5u, control_body, 0u, 0u};
static sched_task g_logger = {"logger", 1u, 10u, logger_body, 0u, 0u};

void app_tick_isr(void)
{
    if (!g_tracing) return;
    g_app_stats.ticks++;
    sched_tick(board_ms());
}

/* The debugger's breakpoint: the trace is stopped and complete here. Not inlined, not removed. */
__attribute__((noinline, used)) void app_trace_done(void);
__attribute__((noinline, used)) void app_trace_done(void) { __asm__ volatile("" ::: "memory"); }

static void print_stat(const char *key, uint32_t v)
{
    board_puts(key);
    board_put_u32(v);
}

int main(void)
{
    __asm__ volatile("cpsid i" ::: "memory");
    board_init(); /* the UART first: the live build sends its first records from app_trace_start */
    __asm__ volatile("cpsie i" ::: "memory"); /* the tick runs: the time source counts on it */
    uint32_t ms_start = board_ms();
    app_trace_start();
    sched_add(&g_sensor);
    sched_add(&g_control);
    sched_add(&g_logger);
    g_tracing = 1;
    sched_run(APP_RUN_MS);
    __asm__ volatile("cpsid i" ::: "memory");
    g_tracing = 0;
    app_trace_stop();
    g_app_stats.isr_window = board_ms() - ms_start;
    app_trace_done();
    g_app_stats.runs[0] = g_sensor.runs;
    g_app_stats.runs[1] = g_control.runs;
    g_app_stats.runs[2] = g_logger.runs;
    print_stat("APP-STATS sensor=", g_app_stats.runs[0]);
    print_stat(" control=", g_app_stats.runs[1]);
    print_stat(" logger=", g_app_stats.runs[2]);
    print_stat(" ticks=", g_app_stats.ticks);
    print_stat(" isr_window=", g_app_stats.isr_window);
    print_stat(" user=", g_app_stats.user_events);
    print_stat(" samples=", g_app_stats.samples);
    print_stat(" value_sum=", g_app_stats.value_sum);
    print_stat(" lost=", app_trace_lost());
    board_puts("\n");
    return app_trace_lost() == 0u ? 0 : 1;
}
