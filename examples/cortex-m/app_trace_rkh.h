/* The RKH stream both stream builds of the example's trace share (app_trace_rkh.c): the live build
 * (app_trace_live.c, UART0) and the RTT build (app_trace_rtt.c, an RTT up buffer) differ only in
 * the sink the recorder's complete records go to. app_trace_sample (app_trace.h) is defined there. */
#ifndef APP_TRACE_RKH_H
#define APP_TRACE_RKH_H

#include <stdint.h>

#include "evtrace/rkh.h"

/* Start the stream: the recorder on board_timestamp, its records to sink(user, ...), the generic
 * hooks attached to it, app.sample's user event named. */
void app_trace_rkh_start(evt_rkh_sink_fn sink, void *user);
/* Stop: the last records to the sink, the hooks detached. */
void app_trace_rkh_stop(void);
/* Records the recorder dropped, overwrote or still holds. */
uint32_t app_trace_rkh_lost(void);

#endif
