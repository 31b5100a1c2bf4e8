/* Live build of the example's trace (EVT_CFG_STREAM 1): the RKH stream (app_trace_rkh.c) on UART0,
 * each record sent as soon as it is complete, so the host decodes it as it arrives (evtrace dump
 * --listen / --serial). */
#include "app_trace.h"

#include "app_trace_rkh.h"
#include "board.h"

static void uart_sink(void *user, const uint8_t *p, uint32_t n)
{
    (void)user;
    board_uart_write(p, n);
}

void app_trace_start(void) { app_trace_rkh_start(uart_sink, 0); }
void app_trace_stop(void) { app_trace_rkh_stop(); }
uint32_t app_trace_lost(void) { return app_trace_rkh_lost(); }
