// evtrace's FreeRTOS headers from a C++ application (FreeRTOS's own headers are extern "C"; so must
// ours be): FreeRTOSConfig.h includes evtrace/freertos_trace.h in every C++ file that includes
// FreeRTOS.h, and main.cpp starts and stops the recording. Compiled for Cortex-M by
// check_freertos.py cxx, which fails on a C++-mangled evtrace name (a link error in the user's build).
#include "evtrace/freertos_trace.h"
#include "evtrace/freertos.h"

static uint8_t g_buf[4096];

int main()
{
    if (evt_freertos_start_snapshot(g_buf, sizeof g_buf, 16) != 0) return 1;
    evt_freertos_user(1u, 2u, 3u, 4u, 5u);
    evt_freertos_op(0x430u, g_buf, 0);
    evt_freertos_stop();
    return evt_freertos_on;
}
