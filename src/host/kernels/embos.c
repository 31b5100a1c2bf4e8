/* The embOS kernel profile: priority order. embOS: a larger priority number is more urgent (task
 * priorities 1..255, 255 highest; SEGGER's embOS manual), so higher wins. No service table and no
 * native states yet (no embOS hooks adapter defines their codes): stops name their generic state,
 * services show as svc_0x<code>. */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"

const evt_kernel_profile evt_kernel_embos = {
    .id = EVT_HOOK_KERNEL_EMBOS,
    .name = "embos",
    .higher_prio_wins = 1,
    .ids_are_addresses = 1,
};
