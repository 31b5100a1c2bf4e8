/* The port contract: the few primitives the recorder core needs from a platform. A port is a
 * folder src/ports/<name>/ with evt_port_impl.h (inline definitions of the functions below) and
 * optionally a .c file; the build picks one folder (include path + sources), no #if ladders.
 * Everything here may be called from any context, including interrupt handlers. */
#ifndef EVTRACE_PORT_H
#define EVTRACE_PORT_H

#include <stdint.h>

/* Interrupt/critical-section state saved by evt_port_crit_enter(). */
typedef uint32_t evt_port_crit_t;

/* The port implements, as static inline functions in evt_port_impl.h:
 *   uint64_t evt_port_timestamp(void);       current timestamp counter (free-running)
 *   uint64_t evt_port_timestamp_hz(void);    its frequency in Hz (0 if unknown)
 *   unsigned evt_port_timestamp_bits(void);  its width in bits (32 or 64, ...)
 *   evt_port_crit_t evt_port_crit_enter(void); enter a short critical section (mask interrupts
 *                                            or take the port's lock); nestable via the state
 *   void evt_port_crit_exit(evt_port_crit_t); leave it, restoring the saved state
 *   uintptr_t evt_port_context_id(void);     id of the running thread/task
 *   int evt_port_in_isr(void);               non-zero in interrupt context
 *   unsigned evt_port_cpu(void);             current CPU number (0 on a single core)
 */
#include "evt_port_impl.h"

#endif
