/* The board of the Cortex-M example: QEMU's mps2-an386 (Cortex-M4 at 25 MHz) -- SysTick as the
 * 1 ms scheduler tick and the trace time source, CMSDK UART0 for the live stream, semihosting for
 * the run's summary and exit. No CMSIS: registers by address (ARMv7-M ARM B3.3, CMSDK APB UART). */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>
#include "mps2.h" /* board_uart_write, board_puts, board_put_u32, board_exit (examples/common) */

#define BOARD_CPU_HZ   25000000u          /* mps2-an386 SYSCLK */
#define BOARD_TICK_HZ  1000u              /* SysTick rate */
#define BOARD_SYSTICK_IRQ 15u             /* exception number, the id the ISR hooks record */

void board_init(void);                    /* UART0 on, SysTick running (call with interrupts masked) */
uint32_t board_ms(void);                  /* ticks since board_init */
/* Trace time source: SysTick-derived CPU cycles since board_init (25 MHz, wraps after 171 s).
 * Monotonic when read with interrupts masked or not; callable from any context. QEMU 7.2 does not
 * model the DWT cycle counter the stock Cortex-M port reads, hence this callback. */
uint32_t board_timestamp(void);

/* Called by the SysTick handler each tick, after the board counted it (app.c). */
void app_tick_isr(void);

#endif
