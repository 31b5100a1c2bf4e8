/* Vector table and reset handler of the Cortex-M QEMU test harness (no libc, no CMSIS): copy
 * .data, zero .bss, run cm_main(), report its status through semihosting. Any fault ends the run
 * with a failure status. */
#include <stdint.h>

#include "cm_semihost.h"

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;

int cm_main(void);              /* the test program (cm_main.c) */
void cm_pendsv_handler(void);   /* the simulated interrupt (cm_main.c) */
void cm_reset_handler(void);

static void cm_fault_handler(void)
{
    cm_sh_puts("cortex-m harness: unexpected fault/exception\n");
    cm_sh_exit(1);
}

void cm_reset_handler(void)
{
    uint32_t *src = &_sidata;
    for (uint32_t *dst = &_sdata; dst < &_edata;)
        *dst++ = *src++;
    for (uint32_t *dst = &_sbss; dst < &_ebss;)
        *dst++ = 0;
    cm_sh_exit(cm_main());
}

/* ARMv7-M vector table: initial SP, then exceptions 1..15 (IRQs unused by the harness). */
__attribute__((section(".vectors"), used)) static void (*const cm_vectors[16])(void) = {
    (void (*)(void))(uintptr_t)&_estack,
    cm_reset_handler,
    cm_fault_handler, /* NMI */
    cm_fault_handler, /* HardFault */
    cm_fault_handler, /* MemManage */
    cm_fault_handler, /* BusFault */
    cm_fault_handler, /* UsageFault */
    0, 0, 0, 0,
    cm_fault_handler, /* SVCall */
    cm_fault_handler, /* DebugMonitor */
    0,
    cm_pendsv_handler, /* PendSV: the simulated interrupt */
    cm_fault_handler, /* SysTick */
};
