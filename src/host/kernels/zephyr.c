/* The Zephyr kernel profile: priority order and thread states. Zephyr: a numerically lower priority
 * is more urgent (cooperative threads have negative numbers, preemptible ones 0 and up; Zephyr's
 * "Thread Priorities" documentation), so lower wins -- the issue text said higher, the kernel says
 * lower. Native states: the thread_state bits of the kernel's struct _thread_base (kernel_structs.h)
 * as a hooks adapter passes them to thread_out; no service table yet (no Zephyr hooks adapter
 * defines service codes: services then show as svc_0x<code>). */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"

/* X(value, name, generic stop state) */
#define ZEPHYR_STATE_TABLE(X)                                                      \
    X(0x00, "ready", READY)                      /* no bit: preempted, runnable */  \
    X(0x02, "_THREAD_PENDING", WAITING)          /* waiting on an object or time */ \
    X(0x08, "_THREAD_DEAD", DORMANT)             /* returned or aborted */          \
    X(0x10, "_THREAD_SUSPENDED", SUSPENDED)      /* k_thread_suspend */             \
    X(0x12, "_THREAD_PENDING|_THREAD_SUSPENDED", WAIT_SUSPENDED)                   \
    X(0x80, "_THREAD_QUEUED", READY)             /* in the ready queue */

static const evt_kernel_state k_states[] = {
#define ZE_STATE_(v, name, gen) {v, name, EVT_HOOK_STATE_##gen},
    ZEPHYR_STATE_TABLE(ZE_STATE_)
#undef ZE_STATE_
};

const evt_kernel_profile evt_kernel_zephyr = {
    .id = EVT_HOOK_KERNEL_ZEPHYR,
    .name = "zephyr",
    .higher_prio_wins = 0,
    .ids_are_addresses = 1,
    .states = k_states,
    .nstates = sizeof k_states / sizeof k_states[0],
};
