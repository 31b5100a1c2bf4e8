/* The FreeRTOS kernel profile: the codes of evtrace's FreeRTOS integration (the one table
 * include/evtrace/freertos_svc.h, shared with the target side) -> FreeRTOS function names, object
 * operations and outcomes; eTaskState -> stop states; a larger priority number is more urgent. */
#include "host/kernels/kernel_profile.h"

#include "evtrace/freertos_svc.h"
#include "evtrace/hooks_defs.h"

/* Six rows per queue event (one per queue type), then the other services: sorted by code. */
static const evt_kernel_svc k_svcs[] = {
#define FR_QEV_ROWS_(ix, name, ql, sl, setl, qop, sop, mop, res)                                          \
    {EVT_FREERTOS_QCODE(ix, 0), ql, EVT_OP_##qop, EVT_HOOK_OBJ_QUEUE, 0},                                \
    {EVT_FREERTOS_QCODE(ix, 1), sl, EVT_OP_##mop, EVT_HOOK_OBJ_MUTEX, 0},                                  \
    {EVT_FREERTOS_QCODE(ix, 2), sl, EVT_OP_##sop, EVT_HOOK_OBJ_SEMAPHORE, 0},                              \
    {EVT_FREERTOS_QCODE(ix, 3), sl, EVT_OP_##sop, EVT_HOOK_OBJ_SEMAPHORE, 0},                              \
    {EVT_FREERTOS_QCODE(ix, 4), sl, EVT_OP_##mop, EVT_HOOK_OBJ_MUTEX, 0},                                  \
    {EVT_FREERTOS_QCODE(ix, 5), setl, EVT_OP_##qop, EVT_HOOK_OBJ_QUEUE_SET, 0},
    EVT_FREERTOS_QEVENT_TABLE(FR_QEV_ROWS_)
#undef FR_QEV_ROWS_
#define FR_SVC_ROW_(code, name, label, op, obj, res) {code, label, EVT_OP_##op, EVT_HOOK_OBJ_##obj, 0},
    EVT_FREERTOS_SVC_TABLE(FR_SVC_ROW_)
#undef FR_SVC_ROW_
#define FR_API_ROW_(code, fn) {code, #fn, EVT_OP_NONE, 0, 0},
    EVT_FREERTOS_API_TABLE(FR_API_ROW_)
#undef FR_API_ROW_
};


/* The outcome each code stands for (RES_DEPENDS: the return value decides). */
enum { RES_DEPENDS = EVT_RES_COUNT_ };
#define RES_SUCCESS EVT_RES_SUCCESS
#define RES_TIMEOUT EVT_RES_TIMEOUT
#define RES_WOULD_BLOCK EVT_RES_WOULD_BLOCK
#define RES_ERROR EVT_RES_ERROR
static const struct { int32_t code; uint8_t res; } k_res[] = {
#define FR_QEV_RES_(ix, name, ql, sl, setl, qop, sop, mop, res)                                            \
    {EVT_FREERTOS_QCODE(ix, 0), RES_##res}, {EVT_FREERTOS_QCODE(ix, 1), RES_##res},                         \
    {EVT_FREERTOS_QCODE(ix, 2), RES_##res}, {EVT_FREERTOS_QCODE(ix, 3), RES_##res},                         \
    {EVT_FREERTOS_QCODE(ix, 4), RES_##res}, {EVT_FREERTOS_QCODE(ix, 5), RES_##res},
    EVT_FREERTOS_QEVENT_TABLE(FR_QEV_RES_)
#undef FR_QEV_RES_
#define FR_SVC_RES_(code, name, label, op, obj, res) {code, RES_##res},
    EVT_FREERTOS_SVC_TABLE(FR_SVC_RES_)
#undef FR_SVC_RES_
};

static evt_op_result result_of(int32_t code, int64_t ret)
{
    for (size_t i = 0; i < sizeof k_res / sizeof k_res[0]; i++) {
        if (k_res[i].code != code) continue;
        if (k_res[i].res != RES_DEPENDS) return (evt_op_result)k_res[i].res;
        if (code == EVT_FREERTOS_TASK_NOTIFY_TAKE || code == EVT_FREERTOS_TIMER_COMMAND_SEND ||
            code == EVT_FREERTOS_TASK_NOTIFY_WAIT)
            return ret != 0 ? EVT_RES_SUCCESS : EVT_RES_TIMEOUT; /* pdPASS / a count / received */
        if (code == EVT_FREERTOS_QUEUE_SET_ADD || code == EVT_FREERTOS_QUEUE_SET_REMOVE)
            return ret != 0 ? EVT_RES_SUCCESS : EVT_RES_ERROR; /* pdPASS / pdFAIL */
        return ret > 0 ? EVT_RES_SUCCESS : EVT_RES_WOULD_BLOCK; /* bytes moved from an ISR */
    }
    return EVT_RES_UNKNOWN;
}

static const evt_kernel_state k_states[] = {
#define FR_STATE_(v, name, gen) {v, #name, EVT_HOOK_STATE_##gen},
    EVT_FREERTOS_STATE_TABLE(FR_STATE_)
#undef FR_STATE_
};

const evt_kernel_profile evt_kernel_freertos = {
    .id = EVT_HOOK_KERNEL_FREERTOS,
    .name = "freertos",
    .higher_prio_wins = 1,
    .ids_are_addresses = 1,
    .svcs = k_svcs,
    .nsvcs = sizeof k_svcs / sizeof k_svcs[0],
    .states = k_states,
    .nstates = sizeof k_states / sizeof k_states[0],
    .result_of = result_of,
};
