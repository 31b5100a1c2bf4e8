/* Start calls of the generic kernel hooks' backends (evtrace/hooks.h), for a kernel port that
 * records through EVT_HOOK_* without a kernel integration of its own (FreeRTOS has one:
 * evtrace/freertos.h). TXTB backend (EVT_CFG_HOOKS_BACKEND txtb): the snapshot buffer, enabled
 * with its context provider and the kernel profile; RKH backend (rkh): a stream recorder attached.
 * Mapping of every hook to each format: docs/hooks.md. Sources: src/formats/threadx/txtb_hooks_enc.c,
 * txtb_clock_enc.c, txtb_idle_enc.c; src/formats/rkh/rkh_hooks_enc.c, rkh_clock_enc.c, rkh_idle_enc.c. */
#ifndef EVTRACE_HOOKS_BACKENDS_H
#define EVTRACE_HOOKS_BACKENDS_H

#include <stdint.h>
#include "evtrace/hooks_defs.h"
#include "evtrace/rkh.h"
#include "evtrace/txtb.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- TXTB backend ---- */

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

/* Record that `thread` is the kernel's idle task on core `core` (0 on a single core): a registry
 * entry (TXTB_HOOKS_IDLE_BASE, txtb_defs.h), so the reader counts its running as idle time. Once,
 * after evt_txtb_hooks_enable, when the kernel names its idle task (FreeRTOS: evtrace/freertos.h). */
void evt_txtb_hooks_idle_task(uint32_t core, uintptr_t thread);

/* Forget the per-CPU hook state (current thread, ISR depth): for tests that reboot a kernel. */
void evt_txtb_hooks_reset(void);

/* ---- RKH-stream backend ---- */

/* Make r (initialised with evt_rkh_init) the recorder the hooks write to: enables the hook user
 * records in its filters and writes their FWK_TUSR names, then attaches (hooks record from then
 * on, all of them). Call from a normal context. NULL detaches (hooks then record nothing). */
void evt_rkh_hooks_attach(evt_rkh_recorder *r);

/* Record the stream's timestamp rate (Hz, 64-bit) and kernel profile (EVT_HOOK_KERNEL_*) as one
 * hook.clock record (rkh_hooks_defs.h), so the reader needs no --clock-hz and no --kernel. Call
 * right after evt_rkh_hooks_attach (the reader looks for it in the stream's first 8 KiB). hz 0:
 * nothing is written. rkh_clock_enc.c: a recorder that never calls it links none of it. */
void evt_rkh_hooks_clock(uint32_t kernel, uint64_t hz);

/* Record that `thread` is the kernel's idle task (a hook.idle_task record, rkh_hooks_defs.h): the
 * reader counts its running as idle time. Once, when the kernel names its idle task. */
void evt_rkh_hooks_idle_task(uintptr_t thread);

#ifdef __cplusplus
}
#endif

#endif
