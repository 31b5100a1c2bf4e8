/* The ThreadX kernel profile: its service ids (the TXTB event ids of txtb_defs.h, which the
 * native trace and the hooks' ThreadX codes share) -> label, object operation and object type;
 * its thread states (TX_READY..) -> stop states; lower priority number wins (0 most urgent). */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"
#include "formats/threadx/txtb_defs.h"

/* What a ThreadX service does to its object (info1 / the first argument). */
#define TX_OP_(id)                                                                              \
    ((id) == TXTB_EVENT_MUTEX_GET ? EVT_OP_ACQUIRE                                              \
     : (id) == TXTB_EVENT_MUTEX_PUT ? EVT_OP_RELEASE                                            \
     : (id) == TXTB_EVENT_QUEUE_SEND || (id) == TXTB_EVENT_QUEUE_FRONT_SEND ? EVT_OP_SEND        \
     : (id) == TXTB_EVENT_QUEUE_RECEIVE ? EVT_OP_RECEIVE                                        \
     : (id) == TXTB_EVENT_SEMAPHORE_GET ? EVT_OP_TAKE                                           \
     : (id) == TXTB_EVENT_SEMAPHORE_PUT || (id) == TXTB_EVENT_SEMAPHORE_CEILING_PUT ? EVT_OP_GIVE \
     : (id) == TXTB_EVENT_EVENT_FLAGS_SET ? EVT_OP_SET                                          \
     : (id) == TXTB_EVENT_EVENT_FLAGS_GET ? EVT_OP_WAIT                                         \
     : (id) == TXTB_EVENT_BLOCK_ALLOCATE || (id) == TXTB_EVENT_BYTE_ALLOCATE ? EVT_OP_TAKE       \
     : (id) == TXTB_EVENT_BLOCK_RELEASE || (id) == TXTB_EVENT_BYTE_RELEASE ? EVT_OP_GIVE         \
     : (id) == TXTB_EVENT_TIMER_ACTIVATE ? EVT_OP_ACTIVATE                                      \
     : (id) == TXTB_EVENT_TIMER_DEACTIVATE ? EVT_OP_DEACTIVATE                                  \
     : EVT_OP_NONE)

/* The object type a service's filter group is about. */
#define TX_OBJ_(filt)                                          \
    ((filt) == TXTB_F_MUTEX ? EVT_HOOK_OBJ_MUTEX                \
     : (filt) == TXTB_F_QUEUE ? EVT_HOOK_OBJ_QUEUE              \
     : (filt) == TXTB_F_SEM ? EVT_HOOK_OBJ_SEMAPHORE            \
     : (filt) == TXTB_F_FLAGS ? EVT_HOOK_OBJ_EVENT_FLAGS        \
     : (filt) == TXTB_F_BLOCK ? EVT_HOOK_OBJ_MEMPOOL_FIXED      \
     : (filt) == TXTB_F_BYTE ? EVT_HOOK_OBJ_MEMPOOL_VAR         \
     : (filt) == TXTB_F_THREAD ? EVT_HOOK_OBJ_THREAD            \
     : (filt) == TXTB_F_TIMER ? EVT_HOOK_OBJ_TIMER              \
     : 0)

static const evt_kernel_svc k_svcs[] = { /* TXTB_EVENT_TABLE is in id order */
#define TX_SVC_(id, name, filt, kind) {id, #name, TX_OP_(id), TX_OBJ_(filt), 0},
    TXTB_EVENT_TABLE(TX_SVC_)
#undef TX_SVC_
};

#define EVT_HOOK_STATE_KEEP EVT_KSTATE_KEEP /* the table's KEEP: no state change */
static const evt_kernel_state k_states[] = {
#define TX_STATE_(v, name, gen) {v, "TX_" #name, EVT_HOOK_STATE_##gen},
    TXTB_THREAD_STATE_TABLE(TX_STATE_)
#undef TX_STATE_
};
#undef EVT_HOOK_STATE_KEEP

/* tx_api.h return values of the services that wait. */
static evt_op_result tx_result(int32_t code, int64_t ret)
{
    (void)code;
    switch (ret) {
    case 0x00: return EVT_RES_SUCCESS;     /* TX_SUCCESS */
    case 0x07:                             /* TX_NO_EVENTS */
    case 0x0A:                             /* TX_QUEUE_EMPTY */
    case 0x0B:                             /* TX_QUEUE_FULL */
    case 0x0D:                             /* TX_NO_INSTANCE */
    case 0x10:                             /* TX_NO_MEMORY */
    case 0x1D: return EVT_RES_TIMEOUT;     /* TX_NOT_AVAILABLE: waited (or polled) and gave up */
    default: return EVT_RES_ERROR;
    }
}

const evt_kernel_profile evt_kernel_threadx = {
    .id = EVT_HOOK_KERNEL_THREADX,
    .name = "threadx",
    .higher_prio_wins = 0,
    .ids_are_addresses = 1,
    .svcs = k_svcs,
    .nsvcs = sizeof k_svcs / sizeof k_svcs[0],
    .states = k_states,
    .nstates = sizeof k_states / sizeof k_states[0],
    .result_of = tx_result,
};
