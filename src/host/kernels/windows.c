/* The Windows profile (ETW traces): no service table; a larger priority number is more urgent
 * (thread priorities 0-31). */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"

const evt_kernel_profile evt_kernel_windows = {
    .id = EVT_HOOK_KERNEL_WINDOWS,
    .name = "windows",
    .higher_prio_wins = 1,
};
