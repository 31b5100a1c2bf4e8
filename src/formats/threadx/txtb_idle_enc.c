/* The idle-task registry entry of the TXTB hooks backend (evt_txtb_hooks_idle_task,
 * evtrace/hooks_backends.h; txtb_defs.h TXTB_HOOKS_IDLE_BASE): names the kernel's idle task, whose
 * running the reader counts as idle time. Kept in its own file so a recorder that never calls it
 * links none of it. Freestanding C99. */
#include "evtrace/hooks_backends.h"
#include "evtrace/txtb.h"
#include "formats/threadx/txtb_defs.h"

void evt_txtb_hooks_idle_task(uint32_t core, uintptr_t thread)
{
    /* the thread's 32-bit word, as every TXTB record names it (evt_tx_addr) */
    evt_tx_trace_object_register(TXTB_OBJ_EVTRACE_HOOKS, (const void *)(uintptr_t)(TXTB_HOOKS_IDLE_BASE | (core & 0xFFu)),
                                 "idle_task", evt_tx_addr((const void *)thread), 0u);
}
