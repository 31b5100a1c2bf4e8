/* The scripted μT-Kernel scenario shared by the tests (tests/kernel/utk) and the demo
 * (examples/utk_demo): three tasks, a cyclic handler, an "adc" interrupt, a semaphore, event flags
 * and a mailbox, traced through the evtrace DS adapter. Deterministic with the virtual clock. */
#ifndef UTK_SCENARIO_H
#define UTK_SCENARIO_H

#include "utk_kernel.h"

#define UTK_SCN_ADC_INT 5u      /* interrupt number of the simulated ADC */

typedef struct utk_scenario {
    int adc_rounds;             /* ADC interrupts to raise (>= 1) */
    uint32_t adc_first;         /* clock of the first one */
    uint32_t adc_period;        /* clock units between them */
    RELTIM run_ms;              /* how long the init task lets the system run */
} utk_scenario;

/* Defaults used by the golden test and the demo. */
#define UTK_SCENARIO_DEFAULT {5, 1500u, 2700u, 20u}

/* Body of the initial task: utk_boot(cfg, utk_scenario_main, 1, &scenario). Attaches the evtrace
 * hooks first (the caller enables a backend before booting), names the interrupts, creates and
 * starts everything, lets it run for run_ms, then shuts the kernel down. */
void utk_scenario_main(INT stacd, void *exinf);

#endif
