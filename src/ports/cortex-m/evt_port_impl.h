/* Cortex-M3/M4/M7 port of the recorder (ARMv7-M, Thumb-2): the DWT cycle counter as timestamp,
 * PRIMASK as the critical section, IPSR for "in an interrupt", and a kernel-provided "current
 * task" pointer as the context id. Freestanding: no libc, no CMSIS headers (registers by address).
 *
 * Setup: call evt_cm_port_init(core_clock_hz) once before enabling a recorder; it switches the
 * cycle counter on (DEMCR.TRCENA, DWT_CTRL.CYCCNTENA). The kernel adapter keeps
 * evt_cm_current_task pointing at the running task's control block (a weak NULL default is
 * provided, so a bare-metal program links without a kernel). Single core: evt_port_cpu() is 0.
 * ARMv6-M (Cortex-M0/M0+) has no DWT cycle counter: a port for it needs another time source. */
#ifndef EVT_PORT_IMPL_CORTEX_M_H
#define EVT_PORT_IMPL_CORTEX_M_H

#include <stdint.h>

/* Core debug and DWT registers (ARMv7-M Architecture Reference Manual, C1.6 and C1.8). */
#define EVT_CM_DEMCR          (*(volatile uint32_t *)0xE000EDFCu) /* Debug Exception and Monitor Control */
#define EVT_CM_DEMCR_TRCENA   (1u << 24)                          /* enables DWT and ITM */
#define EVT_CM_DWT_CTRL       (*(volatile uint32_t *)0xE0001000u) /* DWT control */
#define EVT_CM_DWT_CTRL_CYCCNTENA (1u << 0)                       /* cycle counter enable */
#define EVT_CM_DWT_CYCCNT     (*(volatile uint32_t *)0xE0001004u) /* 32-bit cycle counter */
#define EVT_CM_DWT_LAR        (*(volatile uint32_t *)0xE0001FB0u) /* lock access (Cortex-M7) */
#define EVT_CM_DWT_LAR_KEY    0xC5ACCE55u

/* The running task's control block, maintained by the kernel adapter (weak NULL default in
 * port_cortex_m.c; a kernel defines its own strong symbol or assigns it on every switch). */
extern void *volatile evt_cm_current_task;
/* Core clock in Hz as given to evt_cm_port_init() (0 until then). */
extern uint32_t evt_cm_core_hz;

/* Enable the DWT cycle counter, reset it to 0 and remember the core clock for
 * evt_port_timestamp_hz(). Safe to call again. Returns 0 if the counter runs, -1 if this core has
 * no cycle counter (DWT_CTRL.NOCYCCNT set). */
int evt_cm_port_init(uint32_t core_hz);

static inline uint64_t evt_port_timestamp(void) { return EVT_CM_DWT_CYCCNT; }
static inline uint64_t evt_port_timestamp_hz(void) { return evt_cm_core_hz; }
static inline unsigned evt_port_timestamp_bits(void) { return 32; }

/* Save PRIMASK, then mask every configurable-priority interrupt. Nestable: the inner exit restores
 * the "masked" state the outer enter left, the outer exit restores the caller's state. */
static inline evt_port_crit_t evt_port_crit_enter(void)
{
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
    return primask;
}
static inline void evt_port_crit_exit(evt_port_crit_t st)
{
    __asm__ volatile("msr primask, %0" : : "r"(st) : "memory");
}

/* A recorder's lock: on a single core, masking interrupts is the whole lock, so the object carries
 * nothing; it exists so that recorders are written once for every port. Always entered. */
typedef struct evt_port_lock {
    uint8_t unused;
} evt_port_lock;
#define EVT_PORT_LOCK_INIT {0}
static inline int evt_port_lock_enter(evt_port_lock *l, evt_port_crit_t *st)
{
    (void)l;
    *st = evt_port_crit_enter();
    return 1;
}
static inline void evt_port_lock_exit(evt_port_lock *l, evt_port_crit_t st)
{
    (void)l;
    evt_port_crit_exit(st);
}

static inline uintptr_t evt_port_context_id(void) { return (uintptr_t)evt_cm_current_task; }

/* IPSR holds the active exception number (0 in thread mode). */
static inline int evt_port_in_isr(void)
{
    uint32_t ipsr;
    __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
    return (ipsr & 0x1FFu) != 0u;
}
static inline unsigned evt_port_cpu(void) { return 0; }
static inline int evt_port_wait_bounded(void) { return 0; } /* contexts never vanish */
/* The lock masks interrupts and never fails (evt_port_lock_enter returns 1): no drop is ever
 * decided outside a section, so the core's race protocol compiles to nothing here (and needs no
 * evt_port_wait_step). */
#define EVT_PORT_LOCK_MAY_FAIL 0
/* No EVT_PORT_CALLS (the POSIX port's Q1-Q3): on one core a stop in thread context cannot overlap
 * another context's call (an interrupt runs to completion first); port.h's no-ops. */
/* One core: the recorders' acquire/release orderings need no DMB (evtrace/recorder.h). A
 * dual-core part (Cortex-M7 + M4) whose cores share a recorder must not define it. */
#define EVT_PORT_SINGLE_CORE 1

#endif
