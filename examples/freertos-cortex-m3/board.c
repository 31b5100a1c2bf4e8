/* mps2-an385 board support of the FreeRTOS Cortex-M3 example: vector table and reset, a cycle
 * counter derived from SysTick (QEMU does not model the DWT cycle counter), an external interrupt
 * (IRQ 0, pended by software) for the ISR-side semaphore; the CMSDK UART0 for the live stream and
 * semihosting for the counters line and the exit are examples/common/mps2.c's. FreeRTOS owns
 * SysTick, SVCall and PendSV. */
#include <stdint.h>

#include "board.h"

#define SYST_RVR  (*(volatile uint32_t *)0xE000E014u)
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ISPR0 (*(volatile uint32_t *)0xE000E200u)
#define NVIC_IPR0  (*(volatile uint8_t *)0xE000E400u)

static volatile uint32_t g_ticks; /* SysTick periods, counted first thing in the handler */

void board_init(void)
{
    mps2_uart0_init(BOARD_CPU_HZ);
    NVIC_IPR0 = 0xE0u;  /* below configMAX_SYSCALL_INTERRUPT_PRIORITY: may call FromISR APIs */
    NVIC_ISER0 = 1u;
}

void board_pend_irq0(void) { NVIC_ISPR0 = 1u; }

/* Cycles: SysTick periods counted so far times the reload, plus the current count. 0 until FreeRTOS
 * starts SysTick (the reload register is 0 then). */
uint32_t board_timestamp(void)
{
    uint32_t reload = SYST_RVR;
    return reload ? mps2_systick_cycles(&g_ticks, reload) : 0u;
}

/* ---- vectors ------------------------------------------------------------------------------------- */

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
int main(void);
void reset_handler(void);
void vPortSVCHandler(void);
void xPortPendSVHandler(void);
void xPortSysTickHandler(void);
void app_irq0_handler(void);

static void fault_handler(void)
{
    board_puts("freertos-cm3: fault\n");
    board_exit(1);
}

static void systick_handler(void)
{
    g_ticks++; /* first: board_timestamp counts on it */
    xPortSysTickHandler();
}

void reset_handler(void)
{
    const uint32_t *src = &_sidata;
    for (uint32_t *dst = &_sdata; dst < &_edata;) *dst++ = *src++;
    for (uint32_t *dst = &_sbss; dst < &_ebss;) *dst++ = 0;
    board_exit(main());
}

/* Initial stack pointer, exceptions 1..15, then IRQ 0. */
__attribute__((section(".vectors"), used)) static void (*const vectors[17])(void) = {
    (void (*)(void))(uintptr_t)&_estack, reset_handler,
    fault_handler, fault_handler, fault_handler, fault_handler, fault_handler, /* NMI .. UsageFault */
    0, 0, 0, 0,
    vPortSVCHandler, fault_handler, 0, xPortPendSVHandler,
    systick_handler,
    app_irq0_handler,
};
