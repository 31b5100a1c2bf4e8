/* The idle-task registry entry of the TXTB hooks backend (evt_txtb_hooks_idle_task,
 * evtrace/hooks_backends.h; txtb_defs.h TXTB_HOOKS_IDLE_BASE): names the kernel's idle task, whose
 * running the reader counts as idle time. Kept in its own file so a recorder that never calls it
 * links none of it. Freestanding C99. */
#include "evtrace/hooks_backends.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"

void evt_txtb_hooks_idle_task(uint32_t core, uintptr_t thread)
{
    const void *key = (const void *)(uintptr_t)(TXTB_HOOKS_IDLE_BASE | (core & 0xFFu));
    /* Its slot made available first: the registry's search starts there and takes it back, full
     * or not. thread 0 keeps the slot for a task not known yet (the host ignores it): a recording
     * started before the scheduler writes it with evtrace's other entries, so that the names
     * registered after them cannot leave the idle task without one (FreeRTOS's full demo creates
     * some 170 tasks and objects before the scheduler names its idle task). */
    evt_tx_trace_object_unregister(key);
    /* the thread's 32-bit word, as every TXTB record names it (evt_tx_addr) */
    evt_tx_trace_object_register(TXTB_OBJ_EVTRACE_HOOKS, key, "idle_task", evt_tx_addr((const void *)thread), 0u);
}
