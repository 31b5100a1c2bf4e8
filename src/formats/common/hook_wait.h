/* Waits in the generic hooks' records (evtrace/hooks.h), shared by every hooks backend's reader
 * (TXTB, RKH): a thread that stops in the waiting state inside its own open service call on an
 * object (svc_enter recorded, svc_leave not yet) waits on that object, and its wait is over when it
 * runs again (thread_in). The records say both: the call names the object (the kernel profile's
 * operation and handle argument), the stop says it waits, the thread_in that it runs. The tracker
 * marks them in the meaning block: the stop gets m.op wait_start with m.obj, the thread_in m.op
 * wait_end with the same m.obj (result unknown: the call's leave carries the outcome). A one-record
 * switch (thread_switch) names its object itself (EVT_M_BLOCKED_ON) and is left alone. Host
 * library; no allocation (a bounded table, contexts beyond it are not tracked and counted). */
#ifndef EVT_HOOK_WAIT_H
#define EVT_HOOK_WAIT_H

#include <stdint.h>
#include "evtrace/model.h"

#define EVT_HOOK_WAIT_CTXS  64u /* contexts tracked */
#define EVT_HOOK_WAIT_DEPTH 4u  /* open calls kept per context (deeper ones are not tracked) */

/* One open service call of a context. */
typedef struct evt_hook_wcall {
    uint64_t code;    /* the service code its enter recorded (matches its leave) */
    uint64_t obj;     /* the object it may wait on, when has_obj */
    uint8_t has_obj;  /* its operation waits for the object (acquire, receive, take, wait, send) */
} evt_hook_wcall;

/* A context's open calls and its wait. */
typedef struct evt_hook_wctx {
    uint64_t ctx;
    uint32_t n;       /* open calls (may exceed EVT_HOOK_WAIT_DEPTH: only the outer ones are kept) */
    uint8_t waiting;  /* stopped waiting on wait_obj, not run since */
    uint64_t wait_obj;
    evt_hook_wcall call[EVT_HOOK_WAIT_DEPTH];
} evt_hook_wctx;

typedef struct evt_hook_waits {
    uint32_t n;                          /* contexts in use */
    uint64_t untracked;                  /* records of contexts beyond the table */
    evt_hook_wctx ctx[EVT_HOOK_WAIT_CTXS];
} evt_hook_waits;

/* Zero-initialised is empty. */
void evt_hook_waits_init(evt_hook_waits *w);
/* Feed one decoded hooks event (kind, ctx, target and meaning already filled), in trace order; it
 * may add m.op wait_start / wait_end (+ m.obj) to a thread_stop / thread_run whose meaning block has
 * no operation yet. A lost event forgets every open call and wait (the pairing is no longer known). */
void evt_hook_waits_event(evt_hook_waits *w, evt_event *ev);

#endif
