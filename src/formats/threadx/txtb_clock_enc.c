/* The clock-rate registry entry of a TXTB buffer (evt_tx_trace_clock_register, evtrace/txtb.h):
 * TXTB's header has no field for the timestamps' rate, so evtrace's recorders record it as one
 * registry entry (type EVTRACE_HOOKS, pointer TXTB_HOOKS_CLOCK_MAGIC; txtb_defs.h) that evtrace's
 * reader takes as the trace's clock unless --clock-hz is given. TraceX lists it as an object.
 * Kept in its own file so a recorder that never calls it links none of it. Freestanding C99. */
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"

void evt_tx_trace_clock_register(uint64_t hz)
{
    if (hz)
        evt_tx_trace_object_register(TXTB_OBJ_EVTRACE_HOOKS, (const void *)(uintptr_t)TXTB_HOOKS_CLOCK_MAGIC,
                                     "clock_hz", (uint32_t)hz, (uint32_t)(hz >> 32));
}
