/* The generic kernel profile: no service table, no native states, lower number wins (the hooks'
 * default when a trace names no kernel). */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"

const evt_kernel_profile evt_kernel_generic = {
    .id = EVT_HOOK_KERNEL_GENERIC,
    .name = "generic",
    .higher_prio_wins = 0,
};
