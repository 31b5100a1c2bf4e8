/* The μT-Kernel profile: its function codes (utk_fncd.h's UTK_FN_TABLE, the one table shared with
 * the DS adapter) -> label, object operation and object type; its task states (TTS_*) -> stop
 * states; its error codes -> results; lower priority number wins (1 most urgent). */
#include "host/kernels/kernel_profile.h"
#include "evtrace/hooks_defs.h"
#include "kernel/utk/utk_fncd.h"

#define IX_(name) UTK_FNCD_INDEX(UTK_TFN_##name)

/* What a call does to the object of its first argument (by table index). */
#define UTK_OP_(ix)                                                                        \
    ((ix) == IX_(tk_loc_mtx) ? EVT_OP_ACQUIRE                                              \
     : (ix) == IX_(tk_unl_mtx) ? EVT_OP_RELEASE                                            \
     : (ix) == IX_(tk_sig_sem) ? EVT_OP_GIVE                                               \
     : (ix) == IX_(tk_wai_sem) ? EVT_OP_TAKE                                               \
     : (ix) == IX_(tk_set_flg) ? EVT_OP_SET                                                \
     : (ix) == IX_(tk_wai_flg) ? EVT_OP_WAIT                                               \
     : (ix) == IX_(tk_clr_flg) ? EVT_OP_CLEAR                                              \
     : (ix) == IX_(tk_snd_mbx) || (ix) == IX_(tk_snd_mbf) ? EVT_OP_SEND                    \
     : (ix) == IX_(tk_rcv_mbx) || (ix) == IX_(tk_rcv_mbf) ? EVT_OP_RECEIVE                 \
     : (ix) == IX_(tk_get_mpl) || (ix) == IX_(tk_get_mpf) ? EVT_OP_TAKE                    \
     : (ix) == IX_(tk_rel_mpl) || (ix) == IX_(tk_rel_mpf) ? EVT_OP_GIVE                    \
     : (ix) == IX_(tk_sta_cyc) || (ix) == IX_(tk_sta_alm) ? EVT_OP_ACTIVATE                \
     : (ix) == IX_(tk_stp_cyc) || (ix) == IX_(tk_stp_alm) ? EVT_OP_DEACTIVATE              \
     : EVT_OP_NONE)

/* The generic object type of a μT-Kernel object class. */
#define UTK_OBJ_(oc)                                        \
    ((oc) == UTK_OC_TSK ? EVT_HOOK_OBJ_THREAD               \
     : (oc) == UTK_OC_SEM ? EVT_HOOK_OBJ_SEMAPHORE          \
     : (oc) == UTK_OC_FLG ? EVT_HOOK_OBJ_EVENT_FLAGS        \
     : (oc) == UTK_OC_MBX ? EVT_HOOK_OBJ_MAILBOX            \
     : (oc) == UTK_OC_MBF ? EVT_HOOK_OBJ_MSGBUF             \
     : (oc) == UTK_OC_MTX ? EVT_HOOK_OBJ_MUTEX              \
     : (oc) == UTK_OC_MPL ? EVT_HOOK_OBJ_MEMPOOL_VAR        \
     : (oc) == UTK_OC_MPF ? EVT_HOOK_OBJ_MEMPOOL_FIXED      \
     : (oc) == UTK_OC_CYC || (oc) == UTK_OC_ALM ? EVT_HOOK_OBJ_TIMER \
     : (oc) == UTK_OC_POR ? EVT_HOOK_OBJ_OTHER              \
     : 0)

/* In index order, which is code order (all codes are negative with the index above the nargs). */
static const evt_kernel_svc k_svcs[] = {
#define UTK_SVC_(ix, name, n, oc, role) \
    {UTK_FNCD(ix, n), #name, UTK_OP_(ix), UTK_OBJ_(oc), (role) == UTK_ROLE_ARG || (role) == UTK_ROLE_DEL ? 0 : 0xFF},
    UTK_FN_TABLE(UTK_SVC_)
#undef UTK_SVC_
};

/* The generic meaning of a TTS_* value. */
#define UTK_GEN_(v)                                                   \
    ((v) == 0x04 ? EVT_HOOK_STATE_WAITING                             \
     : (v) == 0x08 ? EVT_HOOK_STATE_SUSPENDED                         \
     : (v) == 0x0C ? EVT_HOOK_STATE_WAIT_SUSPENDED                    \
     : (v) == 0x10 ? EVT_HOOK_STATE_DORMANT                           \
     : EVT_HOOK_STATE_READY)

static const evt_kernel_state k_states[] = {
#define UTK_STATE_(name, v) {v, #name, UTK_GEN_(v)},
    UTK_TTS_TABLE(UTK_STATE_)
#undef UTK_STATE_
    {0, "NONEXISTENT", EVT_HOOK_STATE_DELETED},
};

/* μT-Kernel error codes (errno.h): E_OK / a positive value succeeds; E_TMOUT timed out (a polling
 * call, tmo = TMO_POL, returns it too); everything else failed. */
static evt_op_result utk_result(int32_t code, int64_t ret)
{
    (void)code;
    if (ret >= 0) return EVT_RES_SUCCESS;
    return ret == -50 ? EVT_RES_TIMEOUT : EVT_RES_ERROR;
}

/* Object class of each function's handle argument (by table index; 0: none). */
static const uint8_t k_oc[UTK_FN_INDEX_MAX + 1] = {
#define UTK_OC_ROW_(ix, name, n, oc, role) [ix] = (role) == UTK_ROLE_ARG || (role) == UTK_ROLE_DEL ? (oc) : 0,
    UTK_FN_TABLE(UTK_OC_ROW_)
#undef UTK_OC_ROW_
};

/* The DS adapter records objects as EVT_UTK_HANDLE(class, id) (utk_adapter.h): tasks by their id,
 * other objects class << 16 | id; a call's argument is the bare id. */
static uint64_t utk_handle(int32_t code, uint64_t arg)
{
    unsigned ix = UTK_FNCD_INDEX(code);
    if (code >= 0 || ix > UTK_FN_INDEX_MAX || !k_oc[ix] || k_oc[ix] == UTK_OC_TSK) return arg;
    return ((uint64_t)k_oc[ix] << 16) | (arg & 0xFFFFu);
}

const evt_kernel_profile evt_kernel_utkernel = {
    .id = EVT_HOOK_KERNEL_UTKERNEL,
    .name = "utkernel",
    .higher_prio_wins = 0,
    .svcs = k_svcs,
    .nsvcs = sizeof k_svcs / sizeof k_svcs[0],
    .states = k_states,
    .nstates = sizeof k_states / sizeof k_states[0],
    .result_of = utk_result,
    .obj_handle = utk_handle,
};
