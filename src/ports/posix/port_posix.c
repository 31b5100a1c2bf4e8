/* POSIX port state: the recorder lock, per-thread flags, the lock's contended path and the
 * timestamp-frequency calibration. */
#include "evtrace/port.h"

#include <pthread.h>

atomic_int evt_posix_lock = 0;
_Thread_local int evt_posix_in_isr;
_Thread_local unsigned evt_posix_crit_depth;

_Thread_local uintptr_t evt_posix_self;

uintptr_t evt_posix_context_id(void)
{
    evt_posix_self = (uintptr_t)pthread_self();
    return evt_posix_self;
}

void evt_posix_lock_contended(void)
{
    unsigned spins = 0;
    for (;;) {
        while (atomic_load_explicit(&evt_posix_lock, memory_order_relaxed) != 0) {
            if (++spins < 256u) evt_posix_cpu_relax();
            else { sched_yield(); spins = 0; }
        }
        if (atomic_exchange_explicit(&evt_posix_lock, 1, memory_order_acquire) == 0) return;
    }
}

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static _Atomic uint64_t k_hz; /* 0 until calibrated */

uint64_t evt_posix_timestamp_hz(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint64_t hz = atomic_load_explicit(&k_hz, memory_order_relaxed);
    if (hz == 0) {
        /* Count TSC ticks over ~10 ms of CLOCK_MONOTONIC; round to 1 kHz. */
        uint64_t n0 = mono_ns(), c0 = evt_port_timestamp(), n1, c1;
        do {
            n1 = mono_ns();
            c1 = evt_port_timestamp();
        } while (n1 - n0 < 10000000u);
        hz = (uint64_t)((double)(c1 - c0) * 1e9 / (double)(n1 - n0) / 1000.0 + 0.5) * 1000u;
        if (hz == 0) hz = 1;
        atomic_store_explicit(&k_hz, hz, memory_order_relaxed);
    }
    return hz;
#else
    return 1000000000u;
#endif
}
