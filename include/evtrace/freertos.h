/* evtrace's FreeRTOS integration, the application's side (docs/freertos.md): start and stop
 * recording. The kernel's side is evtrace/freertos_trace.h, included at the end of FreeRTOSConfig.h;
 * the sources are the files of src/kernel/freertos/ with the recorder (CMake: target evtrace_freertos).
 *
 * Two transports:
 * - snapshot: a TXTB (ThreadX trace) buffer in the caller's memory, read after the run by GDB
 *   (scripts/evtrace-gdb-dump) or a memory dump; a ring, so it keeps the latest records;
 * - stream: an RKH stream through the caller's evt_rkh_recorder (its sink sends the bytes: UART,
 *   TCP, a file), read live by `evtrace convert --listen/--serial`.
 * Both carry the FreeRTOS kernel profile (EVT_HOOK_KERNEL_FREERTOS), so the host names FreeRTOS's
 * services and states and orders priorities as FreeRTOS does, and the clock rate. Start before the scheduler and the
 * application's objects are created (objects created earlier are recorded without their names).
 * Freestanding C99; any context may record, start/stop from a task or main(). */
#ifndef EVTRACE_FREERTOS_H
#define EVTRACE_FREERTOS_H

#include <stdint.h>
#include "evtrace/rkh.h"

#ifdef __cplusplus
extern "C" { /* a C++ application starts and stops the recording (FreeRTOS's headers are C too) */
#endif

/* The snapshot's timestamp source (32 bits, monotonic, any context) and its rate in Hz, for targets
 * whose port counter is missing or not modelled (no DWT cycle counter: Cortex-M0, QEMU); NULL: the
 * port's counter and rate. Call before evt_freertos_start_snapshot. (The stream's are the ones
 * given to evt_rkh_init.) */
void evt_freertos_set_clock(uint32_t (*fn)(void), uint64_t hz);
/* Snapshot: record into buf[size] as a TXTB buffer with `registry_entries` object slots (tasks,
 * queues, semaphores, timers: one each; three of them evtrace's own, and fewer than three is taken
 * as three). Returns 0, or -1 when the buffer is too small or another recording is on. */
int evt_freertos_start_snapshot(void *buf, uint32_t size, uint32_t registry_entries);
/* Stream: record into r, initialised by the caller with evt_rkh_init (its timestamp source and
 * rate go into the stream) and given a sink with evt_rkh_set_sink. Returns 0, or -1 when another
 * recording is on. */
int evt_freertos_start_stream(evt_rkh_recorder *r);
/* Stop recording (the snapshot buffer is then complete; the stream's recorder is detached). */
void evt_freertos_stop(void);
/* An application event with id 0..4095 and four values (user record of either transport). */
void evt_freertos_user(uint32_t id, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4);

/* On a POSIX simulator (FreeRTOS's POSIX port), evt_freertos_start_* switch the POSIX port's
 * signal-masking lock mode on (src/ports/posix/evt_port_impl.h S1): the port parks tasks in its
 * SIGALRM handler, which must never happen inside a recorder section. */

#ifdef __cplusplus
}
#endif

#endif
