/* POSIX port of the recorder: a cheap timestamp counter (the TSC on x86, calibrated once against
 * CLOCK_MONOTONIC; CLOCK_MONOTONIC ns elsewhere), a test-and-test-and-set spinlock as the critical
 * section shared by every thread of the process (nestable per thread), pthread ids as contexts, a
 * per-thread "simulated ISR" flag. */
#ifndef EVT_PORT_IMPL_POSIX_H
#define EVT_PORT_IMPL_POSIX_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

typedef uint32_t evt_port_crit_t;

extern atomic_int evt_posix_lock;              /* the process-wide recorder lock: 0 free, 1 held */
extern _Thread_local int evt_posix_in_isr;     /* set by a simulated interrupt handler */
extern _Thread_local unsigned evt_posix_crit_depth; /* nesting depth of crit sections held */

/* Timestamp counter frequency in Hz (TSC: measured once, ~10 ms, on first use). */
uint64_t evt_posix_timestamp_hz(void);

#if defined(__x86_64__) || defined(__i386__)
/* The TSC: invariant on every x86 CPU of the last decade (constant_tsc, nonstop_tsc) and 2-5x
 * cheaper than clock_gettime. Not ordered: RDTSC may execute before earlier instructions complete,
 * even before the locked exchange of evt_port_crit_enter(), so two threads taking turns in the
 * critical section can read values a few cycles out of turn. A recorder that needs timestamps in
 * slot order keeps the last value and clamps (the TXTB recorder does); ordering it with
 * LFENCE/RDTSCP doubled the cost of a record here (17 -> 34 ns). */
static inline uint64_t evt_port_timestamp(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#else
static inline uint64_t evt_port_timestamp(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif
static inline uint64_t evt_port_timestamp_hz(void) { return evt_posix_timestamp_hz(); }
static inline unsigned evt_port_timestamp_bits(void) { return 64; }

static inline void evt_posix_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Slow path of evt_port_crit_enter: spin on a plain load (no cache-line ping-pong), yield the CPU
 * after a while (the holder may have been preempted). */
void evt_posix_lock_contended(void);

/* Nestable on one thread: only the outermost enter takes the lock. Uncontended cost: one atomic
 * exchange. */
static inline evt_port_crit_t evt_port_crit_enter(void)
{
    if (evt_posix_crit_depth++ == 0) {
        if (atomic_exchange_explicit(&evt_posix_lock, 1, memory_order_acquire) != 0)
            evt_posix_lock_contended();
    }
    return 1;
}
static inline void evt_port_crit_exit(evt_port_crit_t st)
{
    (void)st;
    if (--evt_posix_crit_depth == 0) atomic_store_explicit(&evt_posix_lock, 0, memory_order_release);
}

/* pthread_self() of the calling thread, cached per thread (0 until the first call). */
extern _Thread_local uintptr_t evt_posix_self;
uintptr_t evt_posix_context_id(void);
static inline uintptr_t evt_port_context_id(void)
{
    uintptr_t id = evt_posix_self;
    return id ? id : evt_posix_context_id();
}
static inline int evt_port_in_isr(void) { return evt_posix_in_isr; }
static inline unsigned evt_port_cpu(void) { return 0; }

#endif
