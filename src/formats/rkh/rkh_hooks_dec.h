/* Reader side of the RKH-stream hooks backend (rkh_hooks.h): gives the user records named
 * "hook.*" their canonical meaning -- thread run/stop, ISR enter/exit, service call enter/exit,
 * object create/delete, user -- and the context each was recorded in (the running thread, or the
 * interrupt while one is open), so a live hooks stream has the same timeline as a TXTB snapshot.
 * Host library, used by rkh_dec.c. */
#ifndef EVT_RKH_HOOKS_DEC_H
#define EVT_RKH_HOOKS_DEC_H

#include <stdint.h>
#include "evtrace/model.h"
#include "formats/common/hook_meaning.h"
#include "formats/common/hook_wait.h"

/* What the hooks said so far: the running thread and the open interrupts. */
#define RKH_HOOKS_MAX_IRQS 64 /* interrupts named by hook.obj_create(INTERRUPT) that are remembered */

struct evt_kernel_profile;

typedef struct rkh_hooks_dec {
    uint64_t thread;      /* running thread handle, 0 when none */
    uint32_t isr_depth;   /* open isr_enter records */
    uint64_t isr_irq;     /* irq of the innermost open one */
    int seen;             /* a hook record was decoded: the stream records scheduling */
    int kernel;           /* EVT_HOOK_KERNEL_* from hook.kernel_info or hook.clock, -1 before one */
    uint64_t clock_hz;    /* the timestamp rate from hook.clock, 0 before one */
    const struct evt_kernel_profile *profile; /* decode services with it (NULL: by kernel, else generic) */
    uint32_t nirqs;       /* interrupts named so far (their names are objects with handle = irq) */
    uint32_t irqs[RKH_HOOKS_MAX_IRQS];
    char namebuf[48];     /* formatted service label (valid until the next record) */
    evt_hook_mbuf mbuf;   /* strings of the RTOS records (hook_meaning.h) */
    evt_hook_waits waits; /* open calls and waits per context (hook_wait.h) */
    evt_hook_idle idle;   /* the kernel's idle tasks named by hook.idle_task (hook_meaning.h) */
} rkh_hooks_dec;

/* The hook name of user event n in RKH_HOOKS_TABLE (a static string), or NULL. A stream joined
 * after its FWK_TUSR records (a UART plugged in while the target runs) has no names: the reader
 * uses these when the user names an RTOS kernel (--kernel), not otherwise (an application's own
 * user records may have any number). */
const char *rkh_hooks_name(unsigned n);

/* Start state: no thread, no interrupt, no kernel named. */
void rkh_hooks_dec_init(rkh_hooks_dec *h);

/* Names objects by handle (the reader's FWK_OBJ table); NULL when unknown. */
typedef const char *(*rkh_hooks_name_fn)(void *user, uint64_t obj);

/* ev is a decoded user record whose FWK_TUSR name is user_event: when that is one of the hook
 * names, set its kind, target, context and meaning block (ev->m: runs-now, stop state, interrupt
 * id and name, service label, object operation, target and result from the kernel profile, object
 * type; a wait's start and end, hook_wait.h) and update h. Other records: context only (the code
 * that recorded them runs in the thread or interrupt the hooks last reported), when the stream
 * has hooks at all. */
void rkh_hooks_dec_apply(rkh_hooks_dec *h, evt_event *ev, const char *user_event, rkh_hooks_name_fn name_of,
                         void *user);
/* Give ev, a record with no context of its own (a framework symbol record: the FWK_OBJ an
 * obj_create writes first), the context the hooks say runs: the running thread, the interrupt, or
 * none before the first switch (then ev is left as it is). */
void rkh_hooks_dec_context(const rkh_hooks_dec *h, evt_event *ev, rkh_hooks_name_fn name_of, void *user);

#endif
