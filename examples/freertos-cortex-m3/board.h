/* The board of the FreeRTOS Cortex-M3 example: QEMU's mps2-an385 (Cortex-M3 at 25 MHz). No CMSIS:
 * registers by address (ARMv7-M ARM B3.3, CMSDK APB UART). */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>

#define BOARD_CPU_HZ 25000000u

void board_init(void);                              /* UART0 on, IRQ 0 enabled at priority 0xE0 */
void board_pend_irq0(void);                         /* raise IRQ 0 (app_irq0_handler) */
uint32_t board_timestamp(void);                     /* cycles from SysTick, any context */
void board_uart_write(const uint8_t *p, uint32_t n); /* blocking, UART0 */
void board_puts(const char *s);                     /* semihosting console */
void board_exit(int status);                        /* semihosting exit: QEMU ends with this status */

#endif
