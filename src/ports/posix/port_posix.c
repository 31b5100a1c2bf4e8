/* POSIX port state: per-thread flags and lock token, the contended lock path, simulated
 * interrupts held off during critical sections, and the timestamp-frequency calibration.
 * Invariants P1-P4: evt_port_impl.h. */
#include "evtrace/port.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

_Thread_local int evt_posix_in_isr;
_Thread_local unsigned evt_posix_hold;
_Thread_local volatile unsigned evt_posix_deferred;
_Thread_local char evt_posix_token_;
_Thread_local uintptr_t evt_posix_self;
evt_port_lock evt_posix_global_lock = EVT_PORT_LOCK_INIT;

uintptr_t evt_posix_context_id(void)
{
    evt_posix_self = (uintptr_t)pthread_self();
    return evt_posix_self;
}

/* Spins before a nested context gives up (P3): long enough for a holder on another CPU to finish
 * a record (tens of ns), short enough that a handler never stalls its thread for long. */
#define NESTED_TRIES 4096u

int evt_posix_lock_contended(evt_port_lock *l, uintptr_t self)
{
    int may_wait = evt_posix_hold == 1u; /* this is the thread's only section: P3 */
    unsigned spins = 0, tries = 0;
    for (;;) {
        while (atomic_load_explicit(&l->owner, memory_order_relaxed) != 0) {
            if (!may_wait && ++tries >= NESTED_TRIES) return 0;
            if (++spins < 256u) evt_posix_cpu_relax();
            else { sched_yield(); spins = 0; }
        }
        uintptr_t expect = 0;
        if (atomic_compare_exchange_weak_explicit(&l->owner, &expect, self, memory_order_acquire,
                                                  memory_order_relaxed))
            return 1;
    }
}

/* ---- simulated interrupts (P4) ----------------------------------------------------------------- */

static void (*volatile k_isr_fn[32])(int);

static void run_isr(int signo)
{
    evt_posix_in_isr++;
    k_isr_fn[signo](signo);
    evt_posix_in_isr--;
}

static void isr_trampoline(int signo)
{
    if (evt_posix_hold != 0u) { /* inside a section: hold it off until the outermost exit */
        __atomic_fetch_or(&evt_posix_deferred, 1u << signo, __ATOMIC_RELAXED);
        return;
    }
    run_isr(signo);
}

void evt_posix_run_deferred(void)
{
    unsigned bits;
    while ((bits = __atomic_exchange_n(&evt_posix_deferred, 0u, __ATOMIC_RELAXED)) != 0u) {
        for (int s = 1; s < 32; s++)
            if (bits & (1u << s)) run_isr(s);
    }
}

int evt_posix_isr_install(int signo, void (*fn)(int signo))
{
    if (signo < 1 || signo > 31 || !fn) return -1;
    k_isr_fn[signo] = fn;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = isr_trampoline;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    return sigaction(signo, &sa, NULL) == 0 ? 0 : -1;
}

/* ---- timestamp frequency ----------------------------------------------------------------------- */

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
