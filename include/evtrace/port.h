/* The port contract: the few primitives the recorder core needs from a platform. A port is a
 * folder src/ports/<name>/ with evt_port_impl.h (inline definitions of the functions below) and
 * optionally a .c file; the build picks one folder (include path + sources), no #if ladders.
 * Everything here may be called from any context, including interrupt handlers. */
#ifndef EVTRACE_PORT_H
#define EVTRACE_PORT_H

#include <stdint.h>

/* Interrupt/critical-section state saved by evt_port_crit_enter(). */
#ifndef EVT_PORT_CRIT_T_DEFINED /* a port's evt_port_impl.h may define it as well (compiles alone) */
#define EVT_PORT_CRIT_T_DEFINED
typedef uint32_t evt_port_crit_t;
#endif

/* The port implements, as static inline functions in evt_port_impl.h:
 *   uint64_t evt_port_timestamp(void);       current timestamp counter (free-running)
 *   uint64_t evt_port_timestamp_hz(void);    its frequency in Hz (0 if unknown)
 *   unsigned evt_port_timestamp_bits(void);  its width in bits (32 or 64, ...)
 *   evt_port_lock, EVT_PORT_LOCK_INIT         a recorder's lock object (one per recorder)
 *   int evt_port_lock_enter(evt_port_lock *, evt_port_crit_t *st);
 *                                            enter that recorder's critical section (mask local
 *                                            interrupts and/or take the lock); returns 1 with *st
 *                                            set, or 0 when a nested context could only have
 *                                            entered by waiting (the caller drops and counts).
 *                                            Re-entry from an interrupt on the holding context
 *                                            returns 1 (the recorder's nesting guard decides).
 *   void evt_port_lock_exit(evt_port_lock *, evt_port_crit_t st); leave it
 *   evt_port_crit_t evt_port_crit_enter(void); the legacy process-wide section (always entered)
 *   void evt_port_crit_exit(evt_port_crit_t); leave it, restoring the saved state
 *   uintptr_t evt_port_context_id(void);     id of the running thread/task
 *   int evt_port_in_isr(void);               non-zero in interrupt context
 *   unsigned evt_port_cpu(void);             current CPU number (0 on a single core)
 *   int evt_port_wait_bounded(void);         non-zero when a wait for another context may never
 *                                            end because that context is gone (POSIX: in a fork
 *                                            child, only the forking thread survives): a recorder
 *                                            then gives up after a bounded wait
 *   EVT_PORT_LOCK_MAY_FAIL                   1 if evt_port_lock_enter can return 0 (then drops
 *                                            decided outside a section race a close: the core's
 *                                            evt_loss_race_enter/close_wait); 0 if it never does
 *   EVT_PORT_LOCK_TELLS_NESTING              optional, 1: evt_port_lock_enter's state is 0 exactly
 *                                            for a context whose own thread is inside, entering
 *                                            or leaving a section of that lock (a handler that
 *                                            interrupted it), never for one that owns the section
 *                                            alone: a recorder that writes only inside its lock
 *                                            may take its nesting guard from it (evt_rec_guard_*)
 *   EVT_PORT_SINGLE_CORE                     optional, 1: every context that records runs on one
 *                                            core (thread code and its interrupts): acquire and
 *                                            release orderings then need no barrier instruction
 *   EVT_PORT_CALLS 1, with                   (optional; without it, the no-ops below: right on
 *   int evt_port_call_enter(void);           one core) bracket a public call that reaches an
 *   void evt_port_call_exit(void);           object a controller may re-initialise after a stop
 *   int evt_port_call_link(void);            (ETW sessions): enter returns 0 (nothing done) until
 *   void evt_port_call_unlinked_done(void);  link registered the context; link returns 0 when
 *   void evt_port_calls_quiesce(void);       it cannot (the call is then ended by
 *                                            unlinked_done after its exit); quiesce (the stop,
 *                                            after unpublishing the object) returns once no
 *                                            other context is inside a call that began before
 *                                            (POSIX: Q1-Q5)
 *   int evt_port_wait_step(unsigned *steps); (EVT_PORT_LOCK_MAY_FAIL 1 only) one step of a wait
 *                                            for another context (pause, yield where the context
 *                                            may wait; *steps starts at 0); non-zero: give up (a
 *                                            nested context that may be waiting for a context it
 *                                            interrupted, a fork child)
 */
#include "evt_port_impl.h"

#ifndef EVT_PORT_CALLS /* a port without calls in progress: nothing can overlap a stop (one core) */
static inline int evt_port_call_enter(void) { return 1; }
static inline void evt_port_call_exit(void) {}
static inline int evt_port_call_link(void) { return 1; }
static inline void evt_port_call_unlinked_done(void) {}
static inline void evt_port_calls_quiesce(void) {}
#endif

#endif
