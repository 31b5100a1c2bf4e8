/* What the Cortex-M examples share on QEMU's mps2 boards (mps2-an385 Cortex-M3, mps2-an386
 * Cortex-M4; both 25 MHz): the CMSDK APB UART 0 for the live stream, semihosting for the console
 * and the exit, and SysTick extended to a 32-bit cycle count. No CMSIS: registers by address
 * (ARMv7-M ARM B3.3, CMSDK APB UART). Each example's board.h includes it. */
#ifndef MPS2_H
#define MPS2_H

#include <stdint.h>

/* UART0 on (transmit only) at 115200 baud from a cpu_hz clock. */
void mps2_uart0_init(uint32_t cpu_hz);
/* Cycles counted by SysTick with reload value `reload`: *periods (the tick handler's count,
 * incremented first thing in it) × (reload + 1) + the elapsed count, corrected for a reload whose
 * interrupt is still pending (read with interrupts masked or inside the handler before it counts).
 * Callable from any context; wraps at 2^32. */
uint32_t mps2_systick_cycles(const volatile uint32_t *periods, uint32_t reload);

void board_uart_write(const uint8_t *p, uint32_t n); /* blocking, UART0 */
void board_puts(const char *s);                     /* semihosting console */
void board_put_u32(uint32_t v);                     /* the same, decimal */
void board_exit(int status);                        /* semihosting exit: QEMU ends with this status */

#endif
