/* RTT build of the example's trace (EVT_CFG_STREAM 1, APP_TRACE_RTT): the same RKH stream as the
 * UART build (app_trace_rkh.c), written into an RTT up buffer in RAM instead of a UART
 * (include/evtrace/rtt.h): a debug probe's RTT server (OpenOCD, pyOCD, J-Link) or any GDB server
 * (`evtrace live --gdb HOST:PORT --rtt`) reads it while the core runs. The control block is the
 * object named _SEGGER_RTT, the name probe tools look for. Writes never block: when the host falls
 * behind, whole records are dropped and counted (evt_rtt.lost_writes; the host sees an RKH
 * sequence gap and reports them lost). At the end the firmware waits, bounded, for the host to
 * read what is left. */
#include "app_trace.h"

#include "app_trace_rkh.h"
#include "evtrace/hooks_config.h" /* the kit's evtrace_config.h: EVT_CFG_RTT_BUFFER_SIZE, EVT_CFG_RTT_MODE */
#include "evtrace/rtt.h"

#define APP_DRAIN_SPINS 40000000u /* at the end: how long to wait for the host to read the rest */
#ifndef APP_RTT_HOLD
#define APP_RTT_HOLD 0u
#endif

/* Non-zero: after the run, wait here (trace complete, buffer drained) until a debugger clears it --
 * the tests take a GDB snapshot of the RTT buffer at this point and compare it with the stream. */
volatile uint32_t g_rtt_hold = APP_RTT_HOLD;

evt_rtt _SEGGER_RTT; /* the RTT control block, by the name RTT tools search for */
static uint8_t g_rtt_buf[EVT_CFG_RTT_BUFFER_SIZE];

void app_trace_start(void)
{
    evt_rtt_init(&_SEGGER_RTT, g_rtt_buf, sizeof g_rtt_buf, EVT_CFG_RTT_MODE);
    app_trace_rkh_start(evt_rtt_rkh_sink, &_SEGGER_RTT);
}

void app_trace_stop(void)
{
    app_trace_rkh_stop();
    for (volatile uint32_t i = 0; i < APP_DRAIN_SPINS && evt_rtt_pending(&_SEGGER_RTT) != 0u; i++) {
    }
    while (g_rtt_hold) {
    }
}

uint32_t app_trace_lost(void)
{
    /* records the recorder lost, writes RTT dropped, bytes the host never read */
    return app_trace_rkh_lost() + _SEGGER_RTT.lost_writes + (evt_rtt_pending(&_SEGGER_RTT) != 0u ? 1u : 0u);
}
