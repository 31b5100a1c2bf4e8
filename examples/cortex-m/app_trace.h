/* Trace setup of the Cortex-M example, one of two builds of the same application (EVT_CFG_STREAM
 * in evtrace_config.h): a snapshot buffer in RAM (TXTB, read off the target with a debugger:
 * scripts/evtrace-gdb-dump) or a live RKH stream on UART0 (read with evtrace --listen/--serial). */
#ifndef APP_TRACE_H
#define APP_TRACE_H

#include <stdint.h>

void app_trace_start(void);
/* The application's own event (besides the hooks): a sample value of task `task`. */
void app_trace_sample(uint32_t task, uint32_t seq, uint32_t value);
/* Stop recording; the snapshot build leaves the buffer complete for the debugger. */
void app_trace_stop(void);
/* Records the recorder dropped (0 in a correctly sized setup). */
uint32_t app_trace_lost(void);

#endif
