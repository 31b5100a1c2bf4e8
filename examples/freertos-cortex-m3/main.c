/* evtrace's FreeRTOS example on a Cortex-M3 (QEMU mps2-an385, FreeRTOS's ARM_CM3 port): the
 * application both FreeRTOS examples run (../freertos-common/app.c), its semaphore given from a
 * device interrupt (IRQ 0, pended every 10th tick), recorded as a snapshot (TXTB buffer
 * `trace_buf`, dumped by GDB at app_trace_done) or streamed on UART0 (RKH, EVT_CFG_STREAM=1). At the
 * end it prints FreeRTOS's own counters as one JSON line on the semihosting console. */
#include <stdint.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "evtrace/freertos.h"

#ifndef EVT_CFG_STREAM
#define EVT_CFG_STREAM 0
#endif
#define RUN_MS 300u

/* ---- what the shared application asks of this target (app.h) ---------------------------------- */

uint64_t app_clock(void) { return board_timestamp(); }
uint64_t app_clock_hz(void) { return BOARD_CPU_HZ; }

void app_assert_failed(int line)
{
    (void)line;
    board_puts("freertos-cm3: configASSERT failed\n");
    board_exit(1);
}

void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    if (app_tick_due()) board_pend_irq0();
}

/* IRQ 0: gives the semaphore, as a device's interrupt would. */
void app_irq0_handler(void);
void app_irq0_handler(void)
{
    BaseType_t woken = app_isr_give(16); /* exception number of IRQ 0 */
    portYIELD_FROM_ISR(woken);
}

/* ---- the trace ------------------------------------------------------------------------------ */

#if EVT_CFG_STREAM
static evt_rkh_recorder g_rkh;
static uint8_t g_ring[4096];
static void uart_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    board_uart_write(p, n);
}
#else
uint8_t trace_buf[2048 * 1024]; /* the snapshot: dumped by GDB (scripts/evtrace-gdb-dump --symbol trace_buf) */
#endif

/* Where the run's trace is complete: a breakpoint for the GDB dump. */
void app_trace_done(void) __attribute__((noinline));
void app_trace_done(void) { __asm__ volatile("" ::: "memory"); }

void app_finished(void)
{
    app_trace_done();
    board_puts(app_counters_line());
    board_exit(0);
}

int main(void)
{
    board_init();
    evt_freertos_set_clock(board_timestamp, BOARD_CPU_HZ);
#if EVT_CFG_STREAM
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    /* RKH's TCFG has 16 bits for the rate: 25 MHz is written as 0, unknown, not truncated. */
    evt_rkh_init(&g_rkh, &cfg, g_ring, sizeof g_ring, board_timestamp, BOARD_CPU_HZ <= 0xFFFFu ? BOARD_CPU_HZ : 0u);
    evt_rkh_set_sink(&g_rkh, uart_sink, 0);
    if (evt_freertos_start_stream(&g_rkh) != 0) return 1;
#else
    if (evt_freertos_start_snapshot(trace_buf, sizeof trace_buf, 32) != 0) return 1;
#endif
    app_create_control(RUN_MS);
    app_create_demo();
    vTaskStartScheduler();
    return 1;
}
