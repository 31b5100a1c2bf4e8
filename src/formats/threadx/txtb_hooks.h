/* TXTB backend of the generic kernel hooks (include/evtrace/hooks.h): the helpers a kernel port
 * uses besides the hooks themselves. Mapping of every hook to TXTB ids/fields: docs/hooks.md. */
#ifndef EVT_TXTB_HOOKS_H
#define EVT_TXTB_HOOKS_H

#include <stdint.h>
#include "evtrace/hooks.h"
#include "evtrace/txtb.h"

/* Context provider for evt_tx_options.context: the thread the hooks said is running on this CPU
 * (priority word 0x80000000 | prio), the ISR (0xFFFFFFFF, priority word = interrupted thread,
 * system state = ISR nesting) while an isr_enter is open, or initialisation (0xF0F0F0F0) when no
 * thread runs. Leaves the recorder's stack sample and preempt count as they are. Any context. */
void evt_txtb_hooks_context(evt_tx_context *out);

/* evt_tx_trace_enable_ex() with `opt` (may be NULL) but context = evt_txtb_hooks_context, then
 * records the kernel profile `kernel` (EVT_HOOK_KERNEL_*). Returns the evt_tx_trace_enable_ex
 * status (EVT_TX_SUCCESS, EVT_TX_SIZE_ERROR, EVT_TX_NOT_DONE). */
unsigned evt_txtb_hooks_enable(void *buffer, uint32_t size, uint32_t registry_entries,
                               const evt_tx_options *opt, uint32_t kernel);

/* Record the rate of the buffer's timestamps (Hz; 0 records nothing) in the registry, so that a
 * reader converts ticks to time without being told (TXTB has no header field for it). Call after
 * evt_txtb_hooks_enable. */
void evt_txtb_hooks_clock(uint64_t hz);

/* Forget the per-CPU hook state (current thread, ISR depth): for tests that reboot a kernel. */
void evt_txtb_hooks_reset(void);

/* ThreadX thread state written in THREAD_SUSPEND info2 for a generic state (TX_READY 0,
 * TX_COMPLETED 1, TX_TERMINATED 2, TX_SUSPENDED 3, TX_SLEEP 4). X(generic NAME, ThreadX state) */
#define TXTB_HOOKS_STATE_MAP(X) \
    X(READY, 0)                 \
    X(WAITING, 4)               \
    X(SUSPENDED, 3)             \
    X(WAIT_SUSPENDED, 3)        \
    X(DORMANT, 1)               \
    X(DELETED, 2)

/* Generic object type -> ThreadX registry type, create id, delete id.
 * X(generic NAME, TXTB_OBJ_ type, create event, delete event); 0 = no event. */
#define TXTB_HOOKS_OBJ_MAP(X)                                      \
    X(THREAD,        THREAD,        100, 101)                      \
    X(SEMAPHORE,     SEMAPHORE,     81,  82)                       \
    X(MUTEX,         MUTEX,         50,  51)                       \
    X(EVENT_FLAGS,   EVENT_FLAGS,   30,  31)                       \
    X(MAILBOX,       QUEUE,         60,  61)                       \
    X(MSGBUF,        QUEUE,         60,  61)                       \
    X(QUEUE,         QUEUE,         60,  61)                       \
    X(TIMER,         TIMER,         124, 126)                      \
    X(MEMPOOL_FIXED, BLOCK_POOL,    11,  12)                       \
    X(MEMPOOL_VAR,   BYTE_POOL,     21,  22)                       \
    X(OTHER,         EVTRACE_HOOKS, 0,   0)                        \
    X(INTERRUPT,     EVTRACE_HOOKS, 0,   0)

#endif
