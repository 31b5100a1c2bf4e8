/* POSIX port of the recorder: a cheap timestamp counter (the TSC on x86, calibrated once against
 * CLOCK_MONOTONIC; CLOCK_MONOTONIC ns elsewhere), one lock per recorder that is safe against signal
 * handlers recording on the thread that holds or is taking it, pthread ids as contexts, and
 * "simulated interrupts": signal handlers installed through evt_posix_isr_install() run with the
 * ISR flag set and are held off while their thread is inside (or entering, or leaving) any
 * recorder's critical section, as a masked interrupt would be.
 *
 * Lock invariants
 *  P1 A lock's owner word is 0 (free) or the token of the thread that holds it (the address of a
 *     thread-local variable: unique among live threads, the same in the thread's signal handlers).
 *     It changes only by a CAS 0 -> token (take) and a release store token -> 0 (give back), each one
 *     instruction: there is no instant at which a signal handler sees a half-taken lock.
 *  P2 enter on a lock whose owner is the caller's own token (the failed CAS returns it) is
 *     re-entry by a handler that interrupted the holder: it succeeds without waiting, and st = 0
 *     makes its exit a no-op. The
 *     recorder's nesting guard (evtrace/recorder.h) then keeps the nested record out of the
 *     interrupted one; a recorder that writes only inside its lock takes state 0 itself as the
 *     guard (EVT_PORT_LOCK_TELLS_NESTING, evt_rec_guard_enter: RKH).
 *  P3 A context that waits for a lock holds no other lock: a context entering a section while its
 *     thread is already inside (or entering, or leaving) one — a handler that interrupted it, or a
 *     recorder callback that records into another recorder — only tries, with a bounded spin, and
 *     reports failure (the record is dropped and counted). So no cycle of waiters can form, and
 *     nothing deadlocks. It never yields: a yield is where the next signal gets in, so handlers
 *     that waited that way piled up on a loaded machine (NESTED_TRIES in port_posix.c).
 *  P3b Except when its thread owns no lock: every other section of the thread is a context in the
 *     slow path of a take that owns nothing yet (waiting for a lock another thread holds, revoking
 *     a bias, yielding: port_posix.c t_waits), or a section of the same lock l that does not own
 *     it (entering or leaving it: evt_posix_sect names each depth's lock; were any of them inside
 *     l, the take would have seen its own token, P2). Such a context waits as an outermost one
 *     would, so a handler that lands where its thread waits for, takes or gives back a contended
 *     lock does not lose its record to a holder that was descheduled; the holder it waits for
 *     never waits for this thread (a context whose thread owns a lock only tries).
 *  P3c At most WAIT_DEPTH (4) contexts of a thread wait that way at once; a deeper one only tries,
 *     as in P3: a storm of SA_NODEFER signals that land in a wait otherwise piles waiting
 *     handlers up at every yield until the stack overflows (test_port_wait_storm_mt).
 *  P5 In a fork child (only the forking thread survives) a wait is bounded too: a lock held by a
 *     thread that did not survive the fork gives up after a bounded wait (drop + count, as P3),
 *     never hangs; details at wait_until in port_posix.c.
 *  P4 evt_posix_hold counts the sections the thread is inside, from before the take to after the
 *     give-back; a port-installed handler that arrives while it is non-zero is deferred and runs at
 *     the outermost exit. Raw handlers (not installed through the port) are not held off; P2 and P3
 *     keep them safe. Bit 0 of evt_posix_deferred (no signal has number 0) asks the outermost exit
 *     to call evt_posix_exit_hook (set by a context that left work for it: user_nest_enc.c N5).
 *
 * Biased locks (B1-B5): a lock used by one thread is entered without a locked instruction.
 *  B1 `bias` only moves forward: 0 (unclaimed) -> a thread's token (claimed) -> REVOKING -> OFF, or
 *     0 -> OFF. A thread that takes the P1 lock EVT_POSIX_BIAS_AFTER times in a row claims the bias
 *     (under the P1 lock, while bias is 0); a lock that changed takers EVT_POSIX_BIAS_SWITCHES times
 *     first is shared and goes to OFF. A lock is biased at most once in its life, so `busy` is only
 *     ever written by the one thread that held its bias (and that thread's handlers). Needs
 *     membarrier(2): without it a lock goes to OFF instead of being claimed.
 *  B2 The bias thread enters with plain accesses: busy = its token, then bias is loaded again; if it
 *     still names the thread, the section is entered (exit: busy = 0, release); otherwise busy goes
 *     back to 0 and the thread takes the P1 path. A handler on that thread that finds busy = its
 *     token re-enters (P2; the nesting guard decides).
 *  B2a The take that claims the bias (B1, holding the owner word) moves its section onto it: busy
 *     = its token, then bias = its token, then B2's second load; still its own: busy = inside,
 *     then the owner word is given back (st 2); revoked meanwhile: busy = 0, the owner word kept
 *     (st 1). Its handlers find their token in the owner word or busy at every step (P2), so none
 *     enters on the fresh bias beside the section (one did, before: st 2 inside its thread's P1
 *     section, which only the recorder's nesting flag then kept out), and state 0 stays re-entry
 *     alone (EVT_PORT_LOCK_TELLS_NESTING).
 *  B2b Once its second load saw the bias still its own, the bias thread marks busy as inside
 *     (EVT_POSIX_BUSY_IN: a plain store; only its own handlers read the difference). A handler of
 *     that thread that meets a revocation (bias REVOKING) while busy says inside re-enters (P2: the
 *     revoker waits for busy to be 0, so its thread's section is still exclusive); with busy = the
 *     token alone (its thread entering or backing off: it cannot tell which) goes on as B2c.
 *  B2c Such a handler takes the P1 owner word (CAS 0 -> its token) while the bias stays REVOKING,
 *     and holds the section with it. Exclusive: the only bias thread is its own, suspended outside
 *     the section until the handler returns (entering: if it goes on to enter on the bias, it does
 *     so after the handler left, and the revoker waits for that; backing off: it enters nothing);
 *     every other taker waits for the revocation, then takes the owner word (B3, B4); a handler
 *     nested in this one finds its own token there (P2). (It used to give up, dropping its record,
 *     counted: TSan runs of test_user_signals_txtb_mt, about 1 in 20.)
 *  B3 Any other thread revokes before it takes the P1 lock (so P2 still means "inside"): bias
 *     token -> REVOKING (CAS), membarrier(PRIVATE_EXPEDITED) (a full barrier on every thread of the
 *     process between that store and the next load), wait until busy is 0 (P3: bounded in a
 *     nested context), bias -> OFF. The barrier makes the store/load pairs of B2 and B3 a Dekker
 *     exclusion: either the bias thread's second load sees the change, or its busy store is visible
 *     to the revoker, which waits for the exit's release store. Any thread that finds REVOKING
 *     (its revoker gave up, or is still at it) runs the same steps.
 *  B4 With bias OFF the lock is P1 alone: a value of busy seen then is the former bias thread
 *     backing off (B2) and guards nothing. Takers test OFF with one acquire load (before the CAS
 *     inline, after it on the slow path). That acquire is what orders a P1 section after the last
 *     biased one: the bias thread never wrote the owner word, but the drain's release to OFF
 *     follows its acquire of the bias thread's last exit. Every access to bias and busy is
 *     acquire/release for that reason (free on x86, where plain loads and stores already are);
 *     with relaxed ones TSan reported the missing edge (test_etw_owned_mt, 1 loaded run in ~40),
 *     which weakly-ordered CPUs could act on.
 *  B5 A lock is held when owner != 0 or busy != 0 (evt_posix_lock_held).
 *
 * Signal-masking mode (S1-S2), for simulators that suspend a thread inside a signal handler (the
 * FreeRTOS POSIX port switches tasks in its SIGALRM handler and parks the interrupted pthread there;
 * parked inside a section, it would hold the lock forever and the next task would wait for it).
 *  S1 While evt_posix_mask_signals(1) is in force, a thread's outermost section blocks every
 *     asynchronous signal (pthread_sigmask) before its take and restores the thread's mask after its
 *     give-back (evt_posix_masked says it must). A signal sent meanwhile stays pending on the
 *     thread and runs at the restore, as a masked interrupt would: no handler runs inside, so no
 *     handler can park the thread half-way through a record. Synchronous signals (SIGSEGV, SIGBUS,
 *     SIGFPE, SIGILL, SIGTRAP) are never blocked.
 *  S2 The mode is switched before the recorders are used concurrently (it is read relaxed, once per
 *     outermost section); a section entered before the switch leaves as it entered. Off (the
 *     default) it costs the fast paths one load and one predictable branch. */
#ifndef EVT_PORT_IMPL_POSIX_H
#define EVT_PORT_IMPL_POSIX_H
#define EVT_PORT_POSIX 1 /* this port (integrations that use its own calls test it) */

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* Also in evtrace/port.h, which includes this file; C99 allows one typedef, hence the guard. */
#ifndef EVT_PORT_CRIT_T_DEFINED
#define EVT_PORT_CRIT_T_DEFINED
typedef uint32_t evt_port_crit_t;
#endif

/* A recorder's lock: the P1 owner word and the bias (B1-B5). Alone in its cache line is the caller's
 * choice (recorders that share a line with hot data pay for it). */
typedef struct evt_port_lock {
    _Atomic uintptr_t owner; /* P1: 0 or the holder's token */
    _Atomic uintptr_t bias;  /* B1: 0 (not yet), the bias thread's token, REVOKING or OFF */
    _Atomic uintptr_t busy;  /* B2: the bias thread's token while it is inside, else 0 */
    uintptr_t last;          /* B1: token of the last P1 taker (P1 lock holder only) */
    uint32_t streak;         /* B1: its consecutive P1 takes (P1 lock holder only) */
    uint32_t switches;       /* B1: takes by a thread other than `last` (P1 lock holder only) */
} evt_port_lock;
#define EVT_PORT_LOCK_INIT {0, 0, 0, 0, 0, 0}
#define EVT_POSIX_BIAS_OFF ((uintptr_t)-1)      /* B1: revoked and drained, or never to be biased */
#define EVT_POSIX_BIAS_REVOKING ((uintptr_t)-2) /* B3: revocation under way */
#define EVT_POSIX_BIAS_AFTER 64u   /* consecutive P1 takes by one thread before it claims the bias */
#define EVT_POSIX_BIAS_SWITCHES 8u /* changes of taker before a claim: the lock is shared, never biased */
/* B2b: `busy` once the bias thread has seen its bias still held (it is inside), as opposed to its
 * token alone (entering, or backing off). token + 1 lies in the thread's own TLS block: no other
 * thread's token. */
#define EVT_POSIX_BUSY_IN(token) ((token) + 1u)

/* 1 if membarrier(PRIVATE_EXPEDITED) is registered and usable (registers on the first call; any
 * context, including a signal handler). */
int evt_posix_membarrier_ready(void);
/* A full memory barrier on every running thread of the process (membarrier(2)); falls back to
 * MEMBARRIER_CMD_GLOBAL, then to a fence on this thread only. Returns 1 if every thread was fenced. */
int evt_posix_membarrier(void);

extern _Thread_local int evt_posix_in_isr;        /* set while a simulated interrupt handler runs */
extern _Thread_local unsigned evt_posix_hold; /* sections entered, incl. taking (P4) */
/* P3b: the lock of the thread's section at each depth 1-7 (slot evt_posix_sect_slot(depth)). Deeper
 * sections all write slot 0, which is never read: a context nested that deep never waits without
 * bound (port_posix.c may_wait_now_), and it must not overwrite a shallower depth's name (with
 * index depth & 7, depth 9 wrote over depth 1 and never restored it, so a later handler inside
 * depth 1's section took it for a section of the lock it wanted, owning nothing, and waited). */
extern _Thread_local evt_port_lock *evt_posix_sect[8];
static inline unsigned evt_posix_sect_slot(unsigned depth) { return depth < 8u ? depth : 0u; }
/* 1 when the calling context interrupted sections of its thread that all wait to take a lock
 * (P3b: none is inside one), so it may take the lock itself; 0 otherwise (user_nest_enc.c). */
int evt_posix_waits_only(void);
/* on: block every signal of the calling thread, remembering its mask; 0: restore it. Holds nest
 * (counted per thread; each 1 paired with a 0 by the same context): only the outermost pair blocks
 * and restores (user_nest_enc.c N3 and txtb_enc.c I9: the drain of a thread's stash; etw_enc.c: a
 * buffer written out inside a record). */
void evt_posix_hold_signals(int on);
/* Set (never cleared) once a context of the process has found a record of its own thread open: a
 * signal handler that records, dropped by a nesting guard or stashed (user_nest_enc.c N2); or once
 * user events are attached to an ETW session (etw_user_enc.c: before the first write, which a
 * storm of handler lines could otherwise fill the stash in). ETW holds signals around its file
 * writes only from then on (etw_enc.c hold_begin): a process whose handlers never record has
 * nothing a hold would keep out of a write, and saves its two system calls per buffer. */
extern int evt_posix_nested_seen;
static inline void evt_posix_note_nested(void)
{
    if (!__atomic_load_n(&evt_posix_nested_seen, __ATOMIC_RELAXED))
        __atomic_store_n(&evt_posix_nested_seen, 1, __ATOMIC_RELAXED);
}
extern _Thread_local volatile unsigned evt_posix_deferred; /* held-off simulated interrupts */
/* Called at the outermost exit of a thread whose evt_posix_deferred has bit 0 set (P4), with the
 * bit cleared first; set once, before any context sets the bit. It returns 1 to be called again
 * at a later exit (its work must wait: the thread is still inside a record that is not a port
 * section, e.g. an ETW thread-owned slot's record that took the session lock), else 0. */
extern int (*evt_posix_exit_hook)(void);
extern _Thread_local char evt_posix_token_;       /* its address is the thread's lock token */
extern _Atomic int evt_posix_mask_mode;           /* S1-S2: outermost sections block signals */
extern _Thread_local unsigned evt_posix_masked;   /* S1: this thread's mask is to be restored */

/* S1-S2: on (non-zero) or off, process-wide. Call before recorders are used concurrently. */
void evt_posix_mask_signals(int on);
/* S1: block the asynchronous signals, remember the mask (outermost section, mode on). */
void evt_posix_mask_enter(void);
/* The end of the outermost section: restore the mask (S1), run held-off interrupts (P4). */
void evt_posix_hold_end(void);

/* Leave a section's count (P4): the new count, stored before the caller reads evt_posix_deferred
 * (a handler that finds the count still non-zero sets its bit first, one that finds it 0 sets
 * none; a compiler barrier only). */
static inline unsigned evt_posix_hold_dec_(void)
{
    unsigned h = --evt_posix_hold;
    atomic_signal_fence(memory_order_seq_cst);
    return h;
}

/* A lock is held (by some thread) right now (B5). For tests and assertions. */
static inline int evt_posix_lock_held(evt_port_lock *l)
{
    return atomic_load_explicit(&l->owner, memory_order_acquire) != 0 ||
           atomic_load_explicit(&l->busy, memory_order_acquire) != 0;
}

/* Timestamp counter frequency in Hz (TSC: measured once, ~10 ms, on first use). */
uint64_t evt_posix_timestamp_hz(void);

#if defined(__x86_64__) || defined(__i386__)
/* The TSC: invariant on every x86 CPU of the last decade (constant_tsc, nonstop_tsc) and 2-5x
 * cheaper than clock_gettime. Not ordered: RDTSC may execute before earlier instructions complete,
 * even before the locked exchange of a lock enter, so two threads taking turns in a critical
 * section can read values a few cycles out of turn: recorders clamp (evt_clock_read). */
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

#define EVT_PORT_LIKELY_(x) __builtin_expect(!!(x), 1)

/* Run the simulated interrupts held off while the thread was in a section (P4). */
void evt_posix_run_deferred(void);

/* After a record that is not a port section (the XRay writer's guard, an ETW thread-owned slot's
 * record): the work a signal handler that landed inside it left for its end (bit 0: a user line it
 * stashed, user_nest_enc.c N5), run now, right after the record. Only outside the port's sections
 * (inside one, its outermost exit runs it, P4). A handler that lands after the record's guard is
 * freed writes directly and drains the stash itself (N4). One load and a predictable branch. */
static inline void evt_posix_after_record(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (__builtin_expect(evt_posix_deferred != 0u, 0) && evt_posix_hold == 0u) evt_posix_run_deferred();
}

/* Every entry but the two fast ones (B2 on the caller's bias, P1 on a lock whose bias is OFF):
 * revocation (B3), the P1 take with P2 re-entry and the contended wait, and the claim (B1).
 * Returns the exit state (0, 1 or 2, as evt_port_lock_enter's *st), or -1 when a nested context
 * gave up (P3). A return value, not a pointer: the caller's state then never needs an address,
 * so a recorder keeps it in a register on its fast path. */
int evt_posix_lock_slow(evt_port_lock *l, uintptr_t self);

/* B2's second half, once busy holds the caller's token: load the bias again; still its own: busy
 * says inside (B2b), 1; revoked meanwhile: busy back to 0, 0. (Also B2a's, port_posix.c.) */
static inline int evt_posix_bias_confirm(evt_port_lock *l, uintptr_t self)
{
    atomic_signal_fence(memory_order_seq_cst); /* the CPU may still reorder: B3's membarrier */
    if (EVT_PORT_LIKELY_(atomic_load_explicit(&l->bias, memory_order_acquire) == self)) {
        atomic_store_explicit(&l->busy, EVT_POSIX_BUSY_IN(self), memory_order_relaxed); /* B2b: inside */
        atomic_signal_fence(memory_order_seq_cst);
        return 1;
    }
    atomic_store_explicit(&l->busy, 0, memory_order_release);
    return 0;
}

/* B2 for the thread whose token the bias holds: 1 with *st set (0 a handler re-entering, 2 entered
 * on the bias), or 0 when the bias was revoked meanwhile (busy is 0 again: take the P1 path). */
static inline int evt_posix_bias_enter(evt_port_lock *l, uintptr_t self, evt_port_crit_t *st)
{
    uintptr_t bz = atomic_load_explicit(&l->busy, memory_order_acquire);
    if (bz == self || bz == EVT_POSIX_BUSY_IN(self)) { /* a handler inside */
        *st = 0;
        return 1;
    }
    atomic_store_explicit(&l->busy, self, memory_order_release);
    if (EVT_PORT_LIKELY_(evt_posix_bias_confirm(l, self))) {
        *st = 2;
        return 1;
    }
    return 0;
}

/* Exit states: 0 nested re-entry (no-op), 1 P1 lock taken, 2 entered on the bias (B2). */
static inline int evt_port_lock_enter(evt_port_lock *l, evt_port_crit_t *st)
{
    uintptr_t self = (uintptr_t)&evt_posix_token_;
    if (__builtin_expect(atomic_load_explicit(&evt_posix_mask_mode, memory_order_relaxed) != 0, 0) &&
        evt_posix_hold == 0u)
        evt_posix_mask_enter(); /* S1 */
    evt_posix_sect[evt_posix_sect_slot(++evt_posix_hold)] = l;
    atomic_signal_fence(memory_order_seq_cst);
    uintptr_t b = atomic_load_explicit(&l->bias, memory_order_acquire);
    if (EVT_PORT_LIKELY_(b == self)) { /* B2; revoked meanwhile: the slow path */
        if (EVT_PORT_LIKELY_(evt_posix_bias_enter(l, self, st))) return 1;
    } else if (EVT_PORT_LIKELY_(b == EVT_POSIX_BIAS_OFF)) { /* B4: a plain P1 lock */
        uintptr_t expect = 0;
        if (EVT_PORT_LIKELY_(atomic_compare_exchange_strong_explicit(&l->owner, &expect, self, memory_order_acquire,
                                                                     memory_order_relaxed))) {
            *st = 1;
            return 1;
        }
        if (expect == self) { /* P2: a handler on the holding thread (the CAS saw our own token) */
            *st = 0;
            return 1;
        }
    }
    int slow = evt_posix_lock_slow(l, self);
    if (slow >= 0) {
        *st = (evt_port_crit_t)slow;
        return 1;
    }
    *st = 0;
    atomic_signal_fence(memory_order_seq_cst);
    if (evt_posix_hold_dec_() == 0u && (evt_posix_deferred | evt_posix_masked)) evt_posix_hold_end();
    return 0;
}

static inline void evt_port_lock_exit(evt_port_lock *l, evt_port_crit_t st)
{
    if (st == 2u) atomic_store_explicit(&l->busy, 0, memory_order_release);
    else if (st) atomic_store_explicit(&l->owner, 0, memory_order_release);
    atomic_signal_fence(memory_order_seq_cst);
    if (evt_posix_hold_dec_() == 0u && (evt_posix_deferred | evt_posix_masked)) evt_posix_hold_end();
}

/* The legacy process-wide critical section (evt_port_crit_enter/exit): one shared lock. Kept for
 * code outside the recorders; recorders use their own evt_port_lock. Always entered (a nested
 * context that cannot wait spins until the holder, on another thread, gives it back). */
extern evt_port_lock evt_posix_global_lock;
static inline evt_port_crit_t evt_port_crit_enter(void)
{
    evt_port_crit_t st;
    while (!evt_port_lock_enter(&evt_posix_global_lock, &st)) evt_posix_cpu_relax();
    return st;
}
static inline void evt_port_crit_exit(evt_port_crit_t st) { evt_port_lock_exit(&evt_posix_global_lock, st); }

/* Simulated interrupts. install: run fn(signo) as the handler of signo (sigaction, SA_RESTART),
 * with evt_posix_in_isr set, held off while the interrupted thread is inside a recorder's section
 * (P4). signo 1..31. Returns 0, or -1 if sigaction failed. */
int evt_posix_isr_install(int signo, void (*fn)(int signo));

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
/* Set in a fork child (pthread_atfork): the threads that did not call fork are gone (P5). */
extern _Atomic int evt_posix_forked;
static inline int evt_port_wait_bounded(void) { return atomic_load_explicit(&evt_posix_forked, memory_order_relaxed); }
/* One step of a wait for another context (the core's evt_loss_close_wait): a pause, with a yield
 * every 256 steps when this is the thread's only section (evt_posix_hold <= 1); returns 1 to give
 * up: a nested context after NESTED_TRIES pauses (it may be waiting for a context it interrupted
 * on its own thread, P3), a fork child after FORK_TRIES steps (P5). */
int evt_port_wait_step(unsigned *steps);
/* The same for a context that holds l (its innermost section) and waits for a thread that needs no
 * lock to finish (rkh_enc.c O3: a thread-owned recorder's owner): it waits without bound, as a
 * context with one section does, when every other section of its thread waits to take l (P3b: a
 * handler that landed in its thread's wait for l and took l itself; they own nothing). l NULL:
 * bounded as a nested context's wait, whatever the thread holds. */
int evt_posix_wait_step_holding(unsigned *steps, const evt_port_lock *l);
/* f->fn runs at the calling thread's exit (a thread-specific key's destructor, after the thread's
 * code returned or called pthread_exit): one per thread, a later call replaces it, NULL removes
 * it. rkh_enc.c gives up the recorders the thread owns there. */
typedef struct evt_posix_exit_fn {
    void (*fn)(void);
} evt_posix_exit_fn;
void evt_posix_on_thread_exit(const evt_posix_exit_fn *f);
/* A nested context may give up on a lock held by another thread (P3). */
#define EVT_PORT_LOCK_MAY_FAIL 1
/* State 0 is re-entry and nothing else (P2, B2, B2a, B2b: the owner word or busy holds the caller's own
 * token only while a context of its thread is inside, entering or leaving the section; every
 * other entry gives 1 or 2): a recorder may take its nesting guard from it (evtrace/recorder.h). */
#define EVT_PORT_LOCK_TELLS_NESTING 1

/* Calls in progress (Q1-Q3), for a recorder whose object a controller may re-initialise after a
 * stop while other threads still call it (ETW: a session started again after evt_etw_session_stop,
 * on the same memory).
 *  Q1 Each public call that reaches such an object through a shared pointer raises its thread's
 *     depth (evt_port_call_enter) before it loads the pointer and lowers it (evt_port_call_exit,
 *     release) after the object's last access. A signal handler's call nests (depth 2).
 *  Q2 Stop unpublishes the object first (its pointers and gates), then evt_port_calls_quiesce:
 *     membarrier (every thread's depth store is visible to it, or that thread's later load of the
 *     pointer sees the object unpublished), then waits until each other registered thread has
 *     been seen outside any call (depth 1). After it, no other thread can be touching the object: re-initialising
 *     it races nothing.
 *  Q3 A thread registers (a list under a mutex, signals blocked: evt_port_call_link) before its
 *     first call, is unlinked at its exit (a thread-specific key's destructor) and, in a fork
 *     child, the list keeps only the thread that called fork. The calling thread is never waited
 *     for (a stop in a signal handler does not wait for the call its thread was making).
 *  Q4 Once its exit's destructor has unlinked it, a thread never registers again: a call it makes
 *     later (a thread-specific destructor that runs after the registry's, a signal handler that
 *     lands after the destructors) may come after the last destructor round, where nothing would
 *     unlink it, and the list would keep the address of thread-local memory that the next thread
 *     on the same stack reuses (its own link then made the list a cycle: the next stop looped
 *     forever). link returns 0 to such a thread; its call is counted process-wide instead
 *     (evt_port_call_unlinked_done ends it) and quiesce waits for that count too.
 *  Q5 quiesce waits for a thread with the registry's mutex released, the thread's entry pinned
 *     (its exit's unlink waits for the pin): a stop made in a signal handler that interrupted a
 *     call of its thread waits for the mutex, and used to wait forever for a quiesce that held it
 *     while waiting for that very call. */
#define EVT_PORT_CALLS 1
typedef struct evt_posix_calls {
    _Atomic unsigned depth; /* 0: not registered; 1 + this thread's calls in progress */
    struct evt_posix_calls *next, *prev; /* the registry, under its mutex */
    unsigned pins;          /* Q5: quiesces waiting for this entry (under the mutex) */
    unsigned gone;          /* Q4: unlinked at the thread's exit (this thread only) */
    unsigned unlinked;      /* Q4: this thread's calls counted process-wide (this thread only) */
} evt_posix_calls;
extern _Thread_local evt_posix_calls evt_posix_calls_;
/* Q1: 1 with the depth raised, or 0 (nothing done) when the thread is not registered yet: the
 * caller then calls evt_port_call_link and enters again (kept out of the usual path). */
static inline int evt_port_call_enter(void)
{
    evt_posix_calls *t = &evt_posix_calls_;
    unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
    if (__builtin_expect(d == 0u, 0)) return 0;
    atomic_store_explicit(&t->depth, d + 1u, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* before the pointer's load; the CPU: Q2's membarrier */
    return 1;
}
static inline void evt_port_call_exit(void)
{
    evt_posix_calls *t = &evt_posix_calls_;
    atomic_store_explicit(&t->depth, atomic_load_explicit(&t->depth, memory_order_relaxed) - 1u, memory_order_release);
}
/* Q3: register the calling thread (any context): 1, after which enter succeeds. 0 (Q4: the
 * thread's exit unlinked it): the call is counted process-wide and enter succeeds too; the caller
 * calls evt_port_call_unlinked_done after the call's evt_port_call_exit. */
int evt_port_call_link(void);
void evt_port_call_unlinked_done(void);
/* Q2: wait until no other thread is inside a call that began before the object was unpublished.
 * Thread context (a stop); bounded only by the calls in progress. */
void evt_port_calls_quiesce(void);

#endif
