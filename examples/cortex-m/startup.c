/* Vector table and reset handler of the Cortex-M example: copy .data, zero .bss, run main(). */
#include <stdint.h>

#include "board.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
int main(void);
void reset_handler(void);
void board_systick_handler(void);

static void fault_handler(void)
{
    board_puts("example: fault\n");
    board_exit(1);
}

void reset_handler(void)
{
    const uint32_t *src = &_sidata;
    for (uint32_t *dst = &_sdata; dst < &_edata;) *dst++ = *src++;
    for (uint32_t *dst = &_sbss; dst < &_ebss;) *dst++ = 0;
    board_exit(main());
}

/* Initial stack pointer, then exceptions 1..15; no external IRQs are used. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&_estack, reset_handler,
    fault_handler, fault_handler, fault_handler, fault_handler, fault_handler, /* NMI .. UsageFault */
    0, 0, 0, 0,
    fault_handler, fault_handler, 0, fault_handler, /* SVCall, DebugMonitor, -, PendSV */
    board_systick_handler,
};
