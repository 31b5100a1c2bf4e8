/* The counter clock (evt_counter_clock.h). */
#include "evt_counter_clock.h"

uint64_t evt_test_ticks;

uint32_t evt_test_clock32(void) { return (uint32_t)evt_test_ticks++; }
uint64_t evt_test_clock64(void) { return evt_test_ticks++; }
uint64_t evt_test_clock_user(void *user)
{
    (void)user;
    return evt_test_ticks++;
}
