/* The RKH profile: active objects and state machines of the RKH framework, no service table and
 * no thread states of its own (a stream with the generic hooks names its kernel in
 * hook.kernel_info). Priority: RKH's ready set picks the lowest number first (priority 0 is the
 * most urgent active object), so lower wins. */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"

const evt_kernel_profile evt_kernel_rkh = {
    .id = EVT_HOOK_KERNEL_RKH,
    .name = "rkh",
    .higher_prio_wins = 0,
};
