/* Compile-time configuration of the generic kernel hooks (include/evtrace/hooks.h).
 * Order: the user's config header first (name it with -DEVT_CFG_USER_HEADER='"my_cfg.h"'), then
 * the #ifndef defaults below, then #error checks. Shipped defaults build on POSIX as they are:
 * every category on, backend TXTB. */
#ifndef EVTRACE_HOOKS_CONFIG_H
#define EVTRACE_HOOKS_CONFIG_H

#ifdef EVT_CFG_USER_HEADER
#include EVT_CFG_USER_HEADER
#endif

/* Master switch: 0 turns every hook category off (each EVT_HOOK_* macro compiles to nothing). */
#ifndef EVT_CFG_HOOKS
#define EVT_CFG_HOOKS 1
#endif
/* One switch per category; each defaults to the master switch. */
#ifndef EVT_CFG_HOOKS_THREAD      /* thread switch in/out */
#define EVT_CFG_HOOKS_THREAD EVT_CFG_HOOKS
#endif
#ifndef EVT_CFG_HOOKS_ISR         /* interrupt handler enter/exit */
#define EVT_CFG_HOOKS_ISR EVT_CFG_HOOKS
#endif
#ifndef EVT_CFG_HOOKS_SVC         /* service (system) call enter/leave */
#define EVT_CFG_HOOKS_SVC EVT_CFG_HOOKS
#endif
#ifndef EVT_CFG_HOOKS_OBJECT      /* object create/delete with names */
#define EVT_CFG_HOOKS_OBJECT EVT_CFG_HOOKS
#endif
#ifndef EVT_CFG_HOOKS_USER        /* user events */
#define EVT_CFG_HOOKS_USER EVT_CFG_HOOKS
#endif
#ifndef EVT_CFG_HOOKS_INFO        /* the kernel-profile marker (names for codes and states) */
#define EVT_CFG_HOOKS_INFO EVT_CFG_HOOKS
#endif
/* The backend the EVT_HOOK_* macros call: a bare token; functions evt_<backend>_hook_<what>().
 * Backends: txtb (src/formats/threadx/txtb_hooks_enc.c); others as documented in docs/hooks.md. */
#ifndef EVT_CFG_HOOKS_BACKEND
#define EVT_CFG_HOOKS_BACKEND txtb
/* The backend's inline gate (evtrace/hooks.h: EVT_HOOK_GATE_<CAT>_<backend>()), so a filtered or
 * disabled service-call or user hook costs one load and one branch, no call. A backend without
 * one leaves this undefined: its hooks are then always called and decide inside. */
#ifndef EVT_CFG_HOOKS_GATE_HEADER
#define EVT_CFG_HOOKS_GATE_HEADER "evtrace/hooks_txtb.h"
#endif
#endif
/* Number of CPUs the backends keep per-CPU hook state for (current thread, ISR depth). */
#ifndef EVT_CFG_HOOKS_CPUS
#define EVT_CFG_HOOKS_CPUS 1
#endif

#if (EVT_CFG_HOOKS != 0 && EVT_CFG_HOOKS != 1) || (EVT_CFG_HOOKS_THREAD != 0 && EVT_CFG_HOOKS_THREAD != 1) || \
    (EVT_CFG_HOOKS_ISR != 0 && EVT_CFG_HOOKS_ISR != 1) || (EVT_CFG_HOOKS_SVC != 0 && EVT_CFG_HOOKS_SVC != 1) || \
    (EVT_CFG_HOOKS_OBJECT != 0 && EVT_CFG_HOOKS_OBJECT != 1) || (EVT_CFG_HOOKS_USER != 0 && EVT_CFG_HOOKS_USER != 1) || \
    (EVT_CFG_HOOKS_INFO != 0 && EVT_CFG_HOOKS_INFO != 1)
#error "EVT_CFG_HOOKS and EVT_CFG_HOOKS_<CATEGORY> must be 0 or 1"
#endif
#if EVT_CFG_HOOKS_CPUS < 1 || EVT_CFG_HOOKS_CPUS > 64
#error "EVT_CFG_HOOKS_CPUS must be 1..64"
#endif

#endif
