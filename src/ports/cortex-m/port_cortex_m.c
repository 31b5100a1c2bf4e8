/* Cortex-M port state: the weak current-task pointer and the cycle-counter switch-on. */
#include "evtrace/port.h"

__attribute__((weak)) void *volatile evt_cm_current_task = 0;
uint32_t evt_cm_core_hz;

int evt_cm_port_init(uint32_t core_hz)
{
    evt_cm_core_hz = core_hz;
    EVT_CM_DEMCR |= EVT_CM_DEMCR_TRCENA;
    if (EVT_CM_DWT_CTRL & (1u << 25)) /* NOCYCCNT: no cycle counter on this core */
        return -1;
    EVT_CM_DWT_LAR = EVT_CM_DWT_LAR_KEY; /* unlocks the DWT on Cortex-M7; ignored elsewhere */
    EVT_CM_DWT_CYCCNT = 0;
    EVT_CM_DWT_CTRL |= EVT_CM_DWT_CTRL_CYCCNTENA;
    return 0;
}
