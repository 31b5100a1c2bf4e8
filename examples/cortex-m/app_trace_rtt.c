/* RTT build of the example's trace (EVT_CFG_STREAM 1, APP_TRACE_RTT): the same RKH stream as the
 * UART build (app_trace_live.c), written into an RTT up buffer in RAM instead of a UART
 * (include/evtrace/rtt.h): a debug probe's RTT server (OpenOCD, pyOCD, J-Link) or any GDB server
 * (`evtrace live --gdb HOST:PORT --rtt`) reads it while the core runs. The control block is the
 * object named _SEGGER_RTT, the name probe tools look for. Writes never block: when the host falls
 * behind, whole records are dropped and counted (evt_rtt.lost_writes; the host sees an RKH
 * sequence gap and reports them lost). At the end the firmware waits, bounded, for the host to
 * read what is left. */
#include "app_trace.h"

#include "board.h"
#include "evtrace/hooks.h"
#include "evtrace/rkh.h"
#include "evtrace/rtt.h"
#include "formats/rkh/rkh_defs.h"
#include "formats/rkh/rkh_hooks.h"

#define APP_SAMPLE_UEVT 16u /* user event number of app.sample (the hooks use 0..9) */
#define APP_DRAIN_SPINS 40000000u /* at the end: how long to wait for the host to read the rest */
#ifndef APP_RTT_HOLD
#define APP_RTT_HOLD 0u
#endif

/* Non-zero: after the run, wait here (trace complete, buffer drained) until a debugger clears it --
 * the tests take a GDB snapshot of the RTT buffer at this point and compare it with the stream. */
volatile uint32_t g_rtt_hold = APP_RTT_HOLD;

enum {
#define APP_UF_(t, name, k, sg) APP_UF_##name = t,
    RKH_USER_FIELD_TABLE(APP_UF_)
#undef APP_UF_
};

evt_rtt _SEGGER_RTT; /* the RTT control block, by the name RTT tools search for */
static uint8_t g_rtt_buf[EVT_CFG_RTT_BUFFER_SIZE];
static evt_rkh_recorder g_rec;
static uint8_t g_ring[EVT_CFG_RKH_RING_SIZE];

void app_trace_start(void)
{
    evt_rtt_init(&_SEGGER_RTT, g_rtt_buf, sizeof g_rtt_buf, EVT_CFG_RTT_MODE);
    evt_rkh_config cfg;
    evt_rkh_config_default(&cfg);
    evt_rkh_init(&g_rec, &cfg, g_ring, sizeof g_ring, board_timestamp,
                 EVT_CFG_TIMESTAMP_HZ <= 0xFFFFu ? EVT_CFG_TIMESTAMP_HZ : 0u);
    evt_rkh_set_sink(&g_rec, evt_rtt_rkh_sink, &_SEGGER_RTT);
    evt_rkh_hooks_attach(&g_rec);
    evt_rkh_filter_off_event(&g_rec, RKH_TE_USER + APP_SAMPLE_UEVT);
    evt_rkh_sym_tusr(&g_rec, APP_SAMPLE_UEVT, "app.sample");
    EVT_HOOK_KERNEL_INFO(EVT_HOOK_KERNEL_GENERIC, 0u);
}

void app_trace_sample(uint32_t task, uint32_t seq, uint32_t value)
{
    if (!evt_rkh_begin(&g_rec, RKH_TE_USER + APP_SAMPLE_UEVT)) return;
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, task);
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, seq);
    evt_rkh_usr_int(&g_rec, APP_UF_UI32, 0, value);
    evt_rkh_end(&g_rec);
}

void app_trace_stop(void)
{
    evt_rkh_flush(&g_rec);
    evt_rkh_hooks_attach(0);
    for (volatile uint32_t i = 0; i < APP_DRAIN_SPINS && evt_rtt_pending(&_SEGGER_RTT) != 0u; i++) {
    }
    while (g_rtt_hold) {
    }
}

uint32_t app_trace_lost(void)
{
    evt_rec_stats s;
    evt_rkh_get_stats(&g_rec, &s);
    /* records the recorder lost, writes RTT dropped, bytes the host never read */
    return (uint32_t)(s.dropped + s.overwritten + s.pending) + _SEGGER_RTT.lost_writes +
           (evt_rtt_pending(&_SEGGER_RTT) != 0u ? 1u : 0u);
}
