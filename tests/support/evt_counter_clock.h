/* The counter clock of the golden and deterministic tests: every read returns the next integer
 * (0, 1, 2, ...), so timestamps in a recorded buffer count the clock reads. One for every recorder
 * clock signature. */
#ifndef EVT_COUNTER_CLOCK_H
#define EVT_COUNTER_CLOCK_H

#include <stdint.h>

extern uint64_t evt_test_ticks;           /* the value the next read returns */
uint32_t evt_test_clock32(void);          /* TXTB time source, RKH timestamp: low 32 bits */
uint64_t evt_test_clock64(void);          /* ETW clock */
uint64_t evt_test_clock_user(void *user); /* evt_clock_fn (evtrace/recorder.h) */

#endif
