/* mps2-an386 board support of the Cortex-M example: SysTick tick + time source, UART0, semihosting. */
#include "board.h"

#include "evtrace/hooks.h"

#define SYST_CSR  (*(volatile uint32_t *)0xE000E010u) /* SysTick control and status */
#define SYST_RVR  (*(volatile uint32_t *)0xE000E014u) /* reload value */
#define SYST_CVR  (*(volatile uint32_t *)0xE000E018u) /* current value (counts down) */
#define SCB_ICSR  (*(volatile uint32_t *)0xE000ED04u)
#define ICSR_PENDSTSET (1u << 26)                     /* SysTick exception pending */
#define SYST_CSR_ENABLE_TICKINT_CPUCLK 7u

#define UART0_BASE 0x40004000u                        /* CMSDK APB UART 0 */
#define UART0_DATA    (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART0_STATE   (*(volatile uint32_t *)(UART0_BASE + 0x04u)) /* bit 0: TX buffer full */
#define UART0_CTRL    (*(volatile uint32_t *)(UART0_BASE + 0x08u)) /* bit 0: TX enable */
#define UART0_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define RELOAD (BOARD_CPU_HZ / BOARD_TICK_HZ - 1u)

static volatile uint32_t g_ms;

void board_init(void)
{
    UART0_BAUDDIV = BOARD_CPU_HZ / 115200u;
    UART0_CTRL = 1u;
    SYST_RVR = RELOAD;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE_TICKINT_CPUCLK;
    while (SYST_CVR == 0u) { /* until the first reload: a 0 here would read as the period's end */
    }
}

uint32_t board_ms(void) { return g_ms; }

uint32_t board_timestamp(void)
{
    uint32_t seen, ms, v;
    do {
        seen = g_ms;
        ms = seen;
        v = SYST_CVR;
        /* Reloaded, but the tick is still pending (interrupts masked, or this is the handler's
         * own entry before it counts): count it, and read the counter again after the reload.
         * Masking interrupts for more than one tick period loses periods (a tick-extended timer's
         * limit): keep critical sections short. */
        if (SCB_ICSR & ICSR_PENDSTSET) {
            v = SYST_CVR;
            ms++;
        }
    } while (seen != g_ms);
    /* Never backwards: QEMU's SysTick, while a debugger halts and resumes it (RTT read through
     * the gdbstub), can show a counter value that does not match the tick count for a moment
     * (a reading up to one period ahead). The recorder reads the time inside its critical
     * section, so `last` is not raced. */
    static uint32_t last;
    uint32_t t = ms * (RELOAD + 1u) + (RELOAD - v);
    if ((int32_t)(t - last) < 0 && last - t <= RELOAD + 1u) t = last;
    last = t;
    return t;
}

void board_systick_handler(void);
void board_systick_handler(void)
{
    g_ms++; /* first: board_timestamp() (the ISR_ENTER record's time) counts on it */
    EVT_HOOK_ISR_ENTER(BOARD_SYSTICK_IRQ);
    app_tick_isr();
    EVT_HOOK_ISR_EXIT(BOARD_SYSTICK_IRQ);
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
