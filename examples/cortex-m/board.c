/* mps2-an386 board support of the Cortex-M example: SysTick tick + time source (UART0 and semihosting:
 * examples/common/mps2.c). */
#include "board.h"

#include "evtrace/hooks.h"

#define SYST_CSR  (*(volatile uint32_t *)0xE000E010u) /* SysTick control and status */
#define SYST_RVR  (*(volatile uint32_t *)0xE000E014u) /* reload value */
#define SYST_CVR  (*(volatile uint32_t *)0xE000E018u) /* current value (counts down) */
#define SYST_CSR_ENABLE_TICKINT_CPUCLK 7u

#define RELOAD (BOARD_CPU_HZ / BOARD_TICK_HZ - 1u)

static volatile uint32_t g_ms;

void board_init(void)
{
    mps2_uart0_init(BOARD_CPU_HZ);
    SYST_RVR = RELOAD;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE_TICKINT_CPUCLK;
    while (SYST_CVR == 0u) { /* until the first reload: a 0 here would read as the period's end */
    }
}

uint32_t board_ms(void) { return g_ms; }

uint32_t board_timestamp(void)
{
    uint32_t t = mps2_systick_cycles(&g_ms, RELOAD);
    /* Never backwards: QEMU's SysTick, while a debugger halts and resumes it (RTT read through
     * the gdbstub), can show a counter value that does not match the tick count for a moment
     * (a reading up to one period ahead). The recorder reads the time inside its critical
     * section, so `last` is not raced. */
    static uint32_t last;
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
