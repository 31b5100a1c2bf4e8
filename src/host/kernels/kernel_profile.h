/* Kernel profiles: the only place on the host that knows a kernel's words (DESIGN.md §2,
 * docs/kernels.md). One small table per kernel in src/host/kernels/<kernel>.c, registered in
 * kernels.def, gives what a reader needs to fill the typed meaning block (evtrace/model.h):
 *   - service codes -> label, object operation and object type (a code's meaning, decided once);
 *   - the kernel's native thread states -> the generic stop states (EVT_HOOK_STATE_TABLE);
 *   - a service's return value -> evt_op_result;
 *   - the priority order (which number is more urgent).
 * Readers look a profile up by the id a trace carries (EVT_HOOK_KERNEL_TABLE) or by name
 * (`--kernel NAME`); the timeline and analyses ask only evt_kernel_prio_higher(). */
#ifndef EVT_HOST_KERNEL_PROFILE_H
#define EVT_HOST_KERNEL_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/model.h"

/* One service (system call / kernel API) of a kernel. */
typedef struct evt_kernel_svc {
    int32_t code;          /* the code the trace records (hook svc code, format event id) */
    const char *label;     /* the kernel's own name: "xQueueSend", "tx_mutex_get", "tk_wai_sem" */
    uint8_t op;            /* evt_obj_op (EVT_OP_NONE: no object operation) */
    uint8_t obj_type;      /* evt_hook_obj of the object the call is about (0: none) */
    uint8_t obj_arg;       /* which argument (0-based) holds the object handle; 0xFF: none */
} evt_kernel_svc;

#define EVT_KSTATE_KEEP 0xFFu /* evt_kernel_state.stop_state: the record changes no state */

/* One native thread state of a kernel. */
typedef struct evt_kernel_state {
    uint32_t native;       /* the kernel's own value (TTS_*, eBlocked, TX_*) */
    const char *label;     /* its name in the kernel ("TTS_WAI", "eBlocked") */
    uint8_t stop_state;    /* evt_hook_state it means, or EVT_KSTATE_KEEP */
} evt_kernel_state;

typedef struct evt_kernel_profile {
    uint32_t id;                     /* EVT_HOOK_KERNEL_* */
    const char *name;                /* "freertos": the --kernel spelling and the trace's profile name */
    int higher_prio_wins;            /* 1: a larger priority number is more urgent (FreeRTOS, Windows) */
    /* 1: object ids are addresses that every kind of object shares, so one id may be a task, then a
     * semaphore (ctx_incarnation.h any_kind); 0: ids are per kind (μT-Kernel) or not known to be
     * shared */
    int ids_are_addresses;
    const evt_kernel_svc *svcs;      /* sorted by code (looked up by binary search) */
    size_t nsvcs;
    const evt_kernel_state *states;  /* any order, few */
    size_t nstates;
    /* The result of a service that returned `ret` (NULL: EVT_RES_UNKNOWN). */
    evt_op_result (*result_of)(int32_t code, int64_t ret);
    /* The canonical id of the object a service's handle argument `arg` names: the id its creation
     * was recorded with (NULL: the argument is that id). One id per object whichever backend
     * recorded the call (μT-Kernel: class << 16 | id, as the DS adapter's EVT_UTK_HANDLE). */
    uint64_t (*obj_handle)(int32_t code, uint64_t arg);
} evt_kernel_profile;

/* The profile with this id, or NULL. */
const evt_kernel_profile *evt_kernel_profile_by_id(uint32_t id);
/* The profile with this name (case-sensitive, "freertos"), or NULL. */
const evt_kernel_profile *evt_kernel_profile_by_name(const char *name);
/* The generic profile (no services, no native states, lower number wins). Never NULL. */
const evt_kernel_profile *evt_kernel_profile_generic(void);
/* The service entry for `code`, or NULL. O(log n). */
const evt_kernel_svc *evt_kernel_svc_find(const evt_kernel_profile *p, int32_t code);
/* The native state entry for `native`, or NULL. */
const evt_kernel_state *evt_kernel_state_find(const evt_kernel_profile *p, uint32_t native);
struct evt_reader;
/* The profile a reader decodes with: the user's --kernel, else the one its trace names, else the
 * generic profile. Never NULL. */
const evt_kernel_profile *evt_reader_profile(const struct evt_reader *r);
/* 1 when a larger priority number is more urgent in r's trace: --priority-order, else the profile. */
int evt_reader_higher_prio_wins(const struct evt_reader *r);
/* Fill m from the service `code` of p: label, and op/obj_type when the service operates on an
 * object (op_result from ret when has_ret). Returns the entry, or NULL (m untouched). */
const evt_kernel_svc *evt_kernel_meaning_svc(const evt_kernel_profile *p, int32_t code, int has_ret, int64_t ret,
                                             evt_meaning *m);
/* The same from an entry svc of p found before (a reader's cache of evt_kernel_svc_find); svc NULL
 * leaves m untouched. Returns svc. */
const evt_kernel_svc *evt_kernel_meaning_of(const evt_kernel_profile *p, const evt_kernel_svc *svc, int32_t code,
                                            int has_ret, int64_t ret, evt_meaning *m);
/* Fill m's stop state from a native state of p (EVT_M_STOP_STATE, or EVT_M_KEEP_STATE); 0 if the
 * state is not in the profile (m untouched). */
int evt_kernel_meaning_state(const evt_kernel_profile *p, uint32_t native, evt_meaning *m);

/* The canonical object id of service `code`'s handle argument arg (p->obj_handle, else arg). */
static inline uint64_t evt_kernel_obj_handle(const evt_kernel_profile *p, int32_t code, uint64_t arg)
{
    return p && p->obj_handle ? p->obj_handle(code, arg) : arg;
}

/* Non-zero when priority a is more urgent than b under this profile's order. */
static inline int evt_kernel_prio_higher(const evt_kernel_profile *p, uint64_t a, uint64_t b)
{
    return p->higher_prio_wins ? a > b : a < b;
}

#endif
