/* Snapshot build of the example's trace (EVT_CFG_STREAM 0): the generic hooks record into a
 * ThreadX TXTB buffer in RAM, `evt_trace_buffer`, which a debugger dumps by its symbol
 * (scripts/evtrace-gdb-dump) and evtrace or TraceX reads. Timestamps: board_timestamp(). */
#include "app_trace.h"

#include "board.h"
#include "evtrace/hooks.h"
#include "evtrace/txtb.h"
#include "evtrace/hooks_backends.h"

/* The trace buffer: its symbol is what the debugger dumps. Aligned for a clean memory dump. */
__attribute__((aligned(8))) uint8_t evt_trace_buffer[EVT_CFG_TXTB_BUFFER_SIZE];

#define APP_SAMPLE_EVENT 4200u /* TXTB user event id of app_trace_sample (user ids >= 4096) */

void app_trace_start(void)
{
    static evt_tx_options opt; /* static: zeroed without a memset call (no libc here) */
    opt.time_source = board_timestamp;
    (void)evt_txtb_hooks_enable(evt_trace_buffer, sizeof evt_trace_buffer, EVT_CFG_TXTB_REGISTRY_ENTRIES, &opt,
                                EVT_HOOK_KERNEL_GENERIC);
}

void app_trace_sample(uint32_t task, uint32_t seq, uint32_t value)
{
    (void)evt_tx_trace_user_event_insert(APP_SAMPLE_EVENT, task, seq, value, 0);
}

void app_trace_stop(void) { (void)evt_tx_trace_disable(); }

uint32_t app_trace_lost(void)
{
    evt_tx_stats s;
    evt_tx_trace_get_stats(&s);
    return (uint32_t)(s.dropped + s.wraps);
}
