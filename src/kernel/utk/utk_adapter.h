/* evtrace μT-Kernel DS adapter: hook routines with μT-Kernel's own types and signatures
 * (TD_HSVC enter/leave, TD_HDSP exec/stop, TD_HINT enter/leave) that feed the generic kernel hooks
 * (evtrace/hooks.h), and an attach/detach API that installs them with td_hok_svc/dsp/int.
 * Mapping and rules: docs/utkernel.md. Freestanding C99, no state of its own: what an enter hook
 * must hand to its leave travels in exinf, so nesting (a dispatch or an interrupt in the middle of
 * a call, enter/leave of different tasks interleaving) needs nothing else. */
#ifndef EVT_UTK_ADAPTER_H
#define EVT_UTK_ADAPTER_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "kernel/utk/utk_dbgspt.h"
#include "kernel/utk/utk_fncd.h"

/* 1: the hooks may call td_ref_tsk (priority at exec and at task creation) and td_ref_dsname
 * (object names at creation), both DS calls the spec allows inside hooks. 0: never call the kernel
 * (priority unknown, names "sem3"-style). */
#ifndef EVT_CFG_UTK_TD_REF
#define EVT_CFG_UTK_TD_REF 1
#endif
#if EVT_CFG_UTK_TD_REF != 0 && EVT_CFG_UTK_TD_REF != 1
#error "EVT_CFG_UTK_TD_REF must be 0 or 1"
#endif

/* 1 (default with GCC/Clang): td_hok_* and td_ref_* are weak references (see utk_adapter.c). */
#ifndef EVT_CFG_UTK_WEAK_DS
#define EVT_CFG_UTK_WEAK_DS 1
#endif

/* Which hook tables to attach/detach. */
#define EVT_UTK_HOOK_SVC 0x1u
#define EVT_UTK_HOOK_DSP 0x2u
#define EVT_UTK_HOOK_INT 0x4u
#define EVT_UTK_HOOK_ALL 0x7u

/* Object handle given to the generic hooks for a μT-Kernel object: tasks keep their id (so the
 * trace context of a task is its tskid), other objects class << 16 | id (unique across classes). */
#define EVT_UTK_HANDLE(oc, id) \
    ((oc) == UTK_OC_TSK ? (uintptr_t)(uint32_t)(id) : (((uintptr_t)(oc) << 16) | ((uintptr_t)(id) & 0xFFFFu)))

/* Install the evtrace hook tables selected by `which` with td_hok_svc/td_hok_dsp/td_hok_int.
 * Returns E_OK, or the first error a td_hok_* call returned (E_NOSPT, E_RSFN, ...); tables
 * installed before that error stay installed. Then (EVT_CFG_UTK_TD_REF) records the tasks that
 * already exist (td_lst_tsk, names, priorities) and, with the dispatcher hooks, the running task
 * (td_ref_sys) as switched in. Call from task or initialisation code, after enabling the backend. */
ER evt_utk_attach(UINT which);
/* Remove them (td_hok_*(NULL)); same return convention. A call in progress may then have an
 * enter without a leave, which the trace shows as a call that never returned. */
ER evt_utk_detach(UINT which);

/* The hook tables evt_utk_attach installs (a debugger may install them itself). */
extern CONST TD_HSVC evt_utk_hsvc;
extern CONST TD_HDSP evt_utk_hdsp;
extern CONST TD_HINT evt_utk_hint;

/* The hook routines. svc enter reads up to 5 arguments (count from bits 8-15 of fncd; one
 * pk_para for an extended SVC), each a machine word (uintptr_t), and returns a non-NULL exinf
 * (argument 1 << 1 | 1) that its leave decodes; leave with exinf NULL records "not paired". */
void *evt_utk_svc_enter(FN fncd, TD_CALINF *calinf, ...);
void evt_utk_svc_leave(FN fncd, INT ret, void *exinf);
void evt_utk_dsp_exec(ID tskid, INT lsid);
void evt_utk_dsp_stop(ID tskid, INT lsid, UINT tskstat);
void evt_utk_int_enter(UINT dintno);
void evt_utk_int_leave(UINT dintno);

/* Name interrupt dintno in the trace (the kernel has no names for interrupts): an object of type
 * EVT_HOOK_OBJ_INTERRUPT. Call after the trace is enabled; any context. */
void evt_utk_name_interrupt(UINT dintno, const char *name);

/* Generic state for a tskstat of the stop hook (TTS_RDY -> READY, ..., 0 -> DELETED). */
evt_hook_state evt_utk_state_of(UINT tskstat);

#endif
