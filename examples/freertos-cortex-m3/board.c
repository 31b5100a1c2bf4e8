/* mps2-an385 board support of the FreeRTOS Cortex-M3 example: vector table and reset, a cycle
 * counter derived from SysTick (QEMU does not model the DWT cycle counter), the CMSDK UART0 for the
 * live stream, an external interrupt (IRQ 0, pended by software) for the ISR-side semaphore, and
 * semihosting for the counters line and the exit. FreeRTOS owns SysTick, SVCall and PendSV. */
#include <stdint.h>

#include "board.h"

#define SYST_RVR  (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR  (*(volatile uint32_t *)0xE000E018u)
#define SCB_ICSR  (*(volatile uint32_t *)0xE000ED04u)
#define ICSR_PENDSTSET (1u << 26)
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define NVIC_ISPR0 (*(volatile uint32_t *)0xE000E200u)
#define NVIC_IPR0  (*(volatile uint8_t *)0xE000E400u)
#define UART0_BASE 0x40004000u
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10u))

static volatile uint32_t g_ticks; /* SysTick periods, counted first thing in the handler */

void board_init(void)
{
    UART0_BAUDDIV = BOARD_CPU_HZ / 115200u;
    UART0_CTRL = 1u;
    NVIC_IPR0 = 0xE0u;  /* below configMAX_SYSCALL_INTERRUPT_PRIORITY: may call FromISR APIs */
    NVIC_ISER0 = 1u;
}

void board_pend_irq0(void) { NVIC_ISPR0 = 1u; }

/* Cycles: SysTick periods counted so far times the reload, plus the current count. 0 until FreeRTOS
 * starts SysTick (the reload register is 0 then). */
uint32_t board_timestamp(void)
{
    uint32_t seen, n, v, reload = SYST_RVR;
    if (reload == 0u) return 0u;
    do {
        seen = g_ticks;
        n = seen;
        v = SYST_CVR;
        if (SCB_ICSR & ICSR_PENDSTSET) { /* reloaded, its interrupt not yet taken */
            v = SYST_CVR;
            n++;
        }
    } while (seen != g_ticks);
    return n * (reload + 1u) + (reload - v);
}

void board_uart_write(const uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        while (UART0_STATE & 1u) {
        }
        UART0_DATA = p[i];
    }
}

static uint32_t semihost(uint32_t op, uint32_t arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register uint32_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void board_puts(const char *s) { (void)semihost(0x04u /* SYS_WRITE0 */, (uint32_t)(uintptr_t)s); }

void board_exit(int status)
{
    (void)semihost(0x18u, status == 0 ? 0x20026u : 0x20023u);
    for (;;) {
    }
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
