/* RKH-stream backend of the generic kernel hooks (include/evtrace/hooks.h): every hook becomes
 * one RKH user record, so hooks travel live over a byte link (UART, TCP) in RKH framing -- flag
 * bytes to resynchronise after damage, a checksum per record, a sequence number to count what
 * the link lost -- and any RKH stream reader decodes them. Build with EVT_CFG_HOOKS_BACKEND=rkh.
 *
 * Record ids: user event n = RKH_TE_USER + n, named by FWK_TUSR symbol records that
 * evt_rkh_hooks_attach() writes ("hook.thread_in", ...). Thread and object handles are OBJ fields,
 * named by the FWK_OBJ records obj_create writes. Field layouts (in order): */
#ifndef EVT_RKH_HOOKS_H
#define EVT_RKH_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "evtrace/rkh.h"

/* X(user event n, NAME, symbol name)                        fields */
#define RKH_HOOKS_TABLE(X)                                                                       \
    X(0, KERNEL_INFO, "hook.kernel_info") /* UI32 kernel, UI32 version */                         \
    X(1, THREAD_IN,   "hook.thread_in")   /* OBJ thread, UI32 prio */                             \
    X(2, THREAD_OUT,  "hook.thread_out")  /* OBJ thread, UI8 state (evt_hook_state), UI32 native */ \
    X(3, ISR_ENTER,   "hook.isr_enter")   /* UI32 irq */                                          \
    X(4, ISR_EXIT,    "hook.isr_exit")    /* UI32 irq */                                          \
    X(5, SVC_ENTER,   "hook.svc_enter")   /* I32 code, X32 args[0..nargs-1] */                    \
    X(6, SVC_LEAVE,   "hook.svc_leave")   /* I32 code, I32 ret, UI8 paired */                     \
    X(7, OBJ_CREATE,  "hook.obj_create")  /* UI8 type (evt_hook_obj), OBJ obj, UI32 param */      \
    X(8, OBJ_DELETE,  "hook.obj_delete")  /* UI8 type, OBJ obj */                                 \
    X(9, USER,        "hook.user")        /* UI32 id, UI32 a1..a4 */

enum rkh_hook_uevt {
#define RKH_HOOK_ENUM_(n, name, s) RKH_HOOK_##name = n,
    RKH_HOOKS_TABLE(RKH_HOOK_ENUM_)
#undef RKH_HOOK_ENUM_
};

/* Make r (initialised with evt_rkh_init) the recorder the hooks write to: enables the hook user
 * records in its filters and writes their FWK_TUSR names. Call once, before the first hook, from
 * a normal context. NULL detaches (hooks then record nothing). */
void evt_rkh_hooks_attach(evt_rkh_recorder *r);

#endif
