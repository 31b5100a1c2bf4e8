/* The mps2 boards' UART0, semihosting and SysTick cycle count, shared by the Cortex-M examples
 * (mps2.h). */
#include "mps2.h"

#define SYST_CVR  (*(volatile uint32_t *)0xE000E018u) /* SysTick current value (counts down) */
#define SCB_ICSR  (*(volatile uint32_t *)0xE000ED04u)
#define ICSR_PENDSTSET (1u << 26)                     /* SysTick exception pending */

#define UART0_BASE 0x40004000u                        /* CMSDK APB UART 0 */
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04u)) /* bit 0: TX buffer full */
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08u)) /* bit 0: TX enable */
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10u))

void mps2_uart0_init(uint32_t cpu_hz)
{
    UART0_BAUDDIV = cpu_hz / 115200u;
    UART0_CTRL = 1u;
}

uint32_t mps2_systick_cycles(const volatile uint32_t *periods, uint32_t reload)
{
    uint32_t seen, n, v;
    do {
        seen = *periods;
        n = seen;
        v = SYST_CVR;
        /* Reloaded, but the tick is still pending (interrupts masked, or this is the handler's
         * own entry before it counts): count it, and read the counter again after the reload.
         * Masking interrupts for more than one tick period loses periods (a tick-extended timer's
         * limit): keep critical sections short. */
        if (SCB_ICSR & ICSR_PENDSTSET) {
            v = SYST_CVR;
            n++;
        }
    } while (seen != *periods);
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

/* Semihosting: r0 = operation, r1 = argument, then the `bkpt 0xAB` trap. */
static uint32_t semihost(uint32_t op, uint32_t arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register uint32_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void board_puts(const char *s) { (void)semihost(0x04u /* SYS_WRITE0 */, (uint32_t)(uintptr_t)s); }

void board_put_u32(uint32_t v)
{
    char s[11];
    unsigned i = sizeof s - 1u;
    s[i] = '\0';
    do {
        s[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    board_puts(s + i);
}

void board_exit(int status)
{
    /* SYS_EXIT with ADP_Stopped_ApplicationExit (QEMU exits 0) or RunTimeErrorUnknown (exits 1). */
    (void)semihost(0x18u, status == 0 ? 0x20026u : 0x20023u);
    for (;;) {
    }
}
