/* POSIX port of the recorder: monotonic clock (ns), a spinlock critical section shared by every
 * thread of the process, pthread ids as contexts, a per-thread "simulated ISR" flag. */
#ifndef EVT_PORT_IMPL_POSIX_H
#define EVT_PORT_IMPL_POSIX_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

typedef uint32_t evt_port_crit_t;

extern atomic_flag evt_posix_lock;             /* the process-wide recorder lock */
extern _Thread_local int evt_posix_in_isr;     /* set by a simulated interrupt handler */
extern _Thread_local unsigned evt_posix_crit_depth; /* nesting depth of crit sections held */

static inline uint64_t evt_port_timestamp(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline uint64_t evt_port_timestamp_hz(void) { return 1000000000u; }
static inline unsigned evt_port_timestamp_bits(void) { return 64; }

/* Nestable on one thread: only the outermost enter takes the lock. */
static inline evt_port_crit_t evt_port_crit_enter(void)
{
    if (evt_posix_crit_depth++ == 0) {
        while (atomic_flag_test_and_set_explicit(&evt_posix_lock, memory_order_acquire))
            sched_yield();
    }
    return 1;
}
static inline void evt_port_crit_exit(evt_port_crit_t st)
{
    (void)st;
    if (--evt_posix_crit_depth == 0) atomic_flag_clear_explicit(&evt_posix_lock, memory_order_release);
}

uintptr_t evt_posix_context_id(void);
static inline uintptr_t evt_port_context_id(void) { return evt_posix_context_id(); }
static inline int evt_port_in_isr(void) { return evt_posix_in_isr; }
static inline unsigned evt_port_cpu(void) { return 0; }

#endif
