/* The board of the FreeRTOS Cortex-M3 example: QEMU's mps2-an385 (Cortex-M3 at 25 MHz). No CMSIS:
 * registers by address (ARMv7-M ARM B3.3, CMSDK APB UART). */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>
#include "mps2.h" /* board_uart_write, board_puts, board_exit (examples/common) */

#define BOARD_CPU_HZ 25000000u

void board_init(void);                              /* UART0 on, IRQ 0 enabled at priority 0xE0 */
void board_pend_irq0(void);                         /* raise IRQ 0 (app_irq0_handler) */
uint32_t board_timestamp(void);                     /* cycles from SysTick, any context */

#endif
