/* POSIX port state: per-thread flags and lock token, the contended lock path, simulated
 * interrupts held off during critical sections, biased locks (claim and revocation, membarrier), and the timestamp-frequency calibration.
 * Invariants P1-P5, B1-B5: evt_port_impl.h. */
#define _GNU_SOURCE /* syscall(2) for membarrier */
#include "evtrace/port.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "posix_masked_lock.h"
#if defined(__linux__)
#include <sys/syscall.h>
#endif

_Thread_local int evt_posix_in_isr;
_Thread_local unsigned evt_posix_hold;
_Thread_local evt_port_lock *evt_posix_sect[8];
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
 * a record (tens of ns), short enough that a handler never stalls its thread for long: 1024 pauses,
 * 25 us on this project's AMD EPYC machines. A nested context only spins, it never yields: each
 * sched_yield is a point where another signal is delivered, and under load it can last a time
 * slice, so with SA_NODEFER handlers and a steady signal rate every waiting handler gathered more
 * waiting handlers on top of it (4096 tries with a yield every 256 overflowed an 8 MiB thread stack
 * with 30,749 frames in 1 of 9 loaded runs of an ETW stress program). */
#define NESTED_TRIES 1024u

/* P3c: at most this many contexts of one thread wait without bound (P3b) at once: the thread and
 * the handlers nested in its wait. A deeper one only tries, as P3's nested contexts do, and drops
 * and counts its record if it cannot have the lock. An unbounded wait yields, and every yield lets
 * another signal in: under a steady storm of SA_NODEFER signals while the holder was descheduled,
 * each waiting handler gathered more waiting handlers on top of it until the stack overflowed (an
 * outside stress program on one RKH recorder: about 2,970 nested handlers, every one in lock_slow;
 * test_port_wait_storm_mt reached its depth limit of 64 in every run). Two signals of different
 * handlers nested in a waiting thread (the user-event signal tests) stay within it. */
#define WAIT_DEPTH 4u

/* P5 fork: a fork child has only the thread that called fork; a lock another thread held (or was
 * inside on its bias) at that instant stays held forever. So in a fork child every wait is bounded
 * (FORK_TRIES tries, 256 yields) and the record is dropped and counted, as P3's; a thread that
 * gave up on a lock gives up at once while the lock still shows the same holder (t_dead[], one
 * entry per dead lock, up to DEAD_LOCKS of them), so a dead lock costs one bounded wait per
 * thread, not one per record. (With one entry, a child recording into two dead recorders in turn
 * waited again on every record: under load, where each yield can take a time slice, that passed
 * its 20 s alarm in test_port_fork, 1 run in about 24.) Nothing on the fast paths. */
#define FORK_TRIES (256u * 256u)
#define DEAD_LOCKS 8u
_Atomic int evt_posix_forked; /* set in a fork child (pthread_atfork) */
static _Thread_local struct dead_lock {
    evt_port_lock *lock;
    uintptr_t owner, busy; /* its holder when this thread gave up on it */
} t_dead[DEAD_LOCKS];
static _Thread_local unsigned t_dead_next; /* the entry to replace next (round robin) */
static void calls_after_fork(void);
static void after_fork_child(void)
{
    atomic_store_explicit(&evt_posix_forked, 1, memory_order_relaxed);
    calls_after_fork();
}
static pthread_key_t g_calls_key; /* Q3: unlinks a thread's entry at its exit */
static void calls_unlink(void *arg);
static pthread_key_t g_exit_key; /* evt_posix_on_thread_exit */
static void exit_fn_run(void *arg) { ((const evt_posix_exit_fn *)arg)->fn(); }
void evt_posix_on_thread_exit(const evt_posix_exit_fn *f) { (void)pthread_setspecific(g_exit_key, f); }
/* Registered when the library is loaded: before any lock can be held (a first take registering it
 * could run in a signal handler, where pthread_once is not allowed). */
__attribute__((constructor)) static void register_fork_handler(void)
{
    (void)pthread_atfork(NULL, NULL, after_fork_child);
    (void)pthread_key_create(&g_calls_key, calls_unlink);
    (void)pthread_key_create(&g_exit_key, exit_fn_run);
}

/* ---- Q1-Q3: calls in progress (evt_port_impl.h) -------------------------------------------------- */

_Thread_local evt_posix_calls evt_posix_calls_;
static evt_posix_calls *g_calls; /* registered threads, under g_calls_mu */
static pthread_mutex_t g_calls_mu = PTHREAD_MUTEX_INITIALIZER;

/* The registry's mutex, with the thread's signals blocked (posix_masked_lock.h). */
static void calls_lock(sigset_t *old) { evt_posix_masked_lock(&g_calls_mu, old); }
static void calls_unlock(const sigset_t *old) { evt_posix_masked_unlock(&g_calls_mu, old); }

/* Q4: calls of threads the registry no longer holds (their exit unlinked them), in progress. */
static _Atomic unsigned g_unlinked_calls;

int evt_port_call_link(void)
{
    evt_posix_calls *t = &evt_posix_calls_;
    if (t->gone) { /* Q4: counted before the call loads anything (seq_cst: quiesce's membarrier pairs with it) */
        atomic_fetch_add_explicit(&g_unlinked_calls, 1u, memory_order_seq_cst);
        t->unlinked++;
        atomic_signal_fence(memory_order_seq_cst);
        atomic_store_explicit(&t->depth, 1u, memory_order_relaxed); /* enter then succeeds */
        return 0;
    }
    sigset_t old;
    calls_lock(&old);
    if (atomic_load_explicit(&t->depth, memory_order_relaxed) == 0u) {
        t->prev = NULL;
        t->next = g_calls;
        if (g_calls) g_calls->prev = t;
        g_calls = t;
        atomic_store_explicit(&t->depth, 1u, memory_order_relaxed); /* registered, outside any call */
        (void)pthread_setspecific(g_calls_key, t);
    }
    calls_unlock(&old);
    return 1;
}

/* Q4: the end of a call that link counted process-wide (after its evt_port_call_exit). A handler
 * that lands here finds depth 0 and counts its own call. */
void evt_port_call_unlinked_done(void)
{
    evt_posix_calls *t = &evt_posix_calls_;
    atomic_store_explicit(&t->depth, 0u, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    t->unlinked--;
    atomic_fetch_sub_explicit(&g_unlinked_calls, 1u, memory_order_release);
}

/* Thread exit (the key's destructor): leave the registry for good (Q4), once no quiesce has the
 * entry pinned (Q5). */
static void calls_unlink(void *arg)
{
    evt_posix_calls *t = arg;
    sigset_t old;
    calls_lock(&old);
    while (t->pins != 0u) { /* a quiesce reads this entry without the mutex: wait for it */
        calls_unlock(&old);
        sched_yield();
        calls_lock(&old);
    }
    if (atomic_load_explicit(&t->depth, memory_order_relaxed) != 0u) {
        if (t->prev) t->prev->next = t->next;
        else g_calls = t->next;
        if (t->next) t->next->prev = t->prev;
        t->next = t->prev = NULL;
        atomic_store_explicit(&t->depth, 0u, memory_order_relaxed);
    }
    t->gone = 1u;
    calls_unlock(&old);
}

/* Fork child: only this thread lives on (the others may have been inside calls, or pinned). */
static void calls_after_fork(void)
{
    pthread_mutex_init(&g_calls_mu, NULL);
    evt_posix_calls *t = &evt_posix_calls_;
    g_calls = atomic_load_explicit(&t->depth, memory_order_relaxed) != 0u && !t->gone ? t : NULL;
    t->next = t->prev = NULL;
    t->pins = 0u;
    atomic_store_explicit(&g_unlinked_calls, t->unlinked, memory_order_relaxed);
}

static void calls_spin(unsigned *spins)
{
    if ((++*spins & 255u) == 0u) sched_yield();
    else evt_posix_cpu_relax();
}

void evt_port_calls_quiesce(void)
{
    (void)evt_posix_membarrier(); /* Q2 */
    evt_posix_calls *self = &evt_posix_calls_;
    unsigned spins = 0;
    /* Q4: the calls of unlinked threads (not this thread's own: a stop nested in one) */
    while (atomic_load_explicit(&g_unlinked_calls, memory_order_acquire) > self->unlinked) calls_spin(&spins);
    sigset_t old;
    calls_lock(&old);
    for (evt_posix_calls *t = g_calls; t; t = t->next) {
        if (t == self || atomic_load_explicit(&t->depth, memory_order_acquire) <= 1u) continue;
        /* Q5: wait without the mutex (a handler of that thread may need it to finish its call);
         * the pin keeps the entry linked, so the walk goes on from it */
        t->pins++;
        calls_unlock(&old);
        while (atomic_load_explicit(&t->depth, memory_order_acquire) > 1u) calls_spin(&spins);
        calls_lock(&old);
        t->pins--;
    }
    calls_unlock(&old);
}

/* One step of a wait: a pause, and every 256th step a yield when the context may wait (a nested
 * context only spins: P3, NESTED_TRIES). */
static void pause_or_yield(unsigned *spins, int may_wait)
{
    if (++*spins < 256u || !may_wait) {
        evt_posix_cpu_relax();
    } else {
        sched_yield();
        *spins = 0;
    }
}

static int wait_step_(unsigned *steps, int may_wait)
{
    unsigned n = ++*steps;
    if (!may_wait ? n >= NESTED_TRIES : atomic_load_explicit(&evt_posix_forked, memory_order_relaxed) && n >= FORK_TRIES)
        return 1;
    int saved = errno; /* sched_yield: a handler's wait leaves errno as it was */
    unsigned spins = (n - 1u) & 255u; /* pause_or_yield's own count: a yield every 256th step */
    pause_or_yield(&spins, may_wait);
    errno = saved;
    return 0;
}
int evt_port_wait_step(unsigned *steps) { return wait_step_(steps, evt_posix_hold <= 1u); }

int evt_posix_wait_step_holding(unsigned *steps, const evt_port_lock *l)
{
    unsigned h = evt_posix_hold;
    int may_wait = l && h <= 8u; /* depths 1 to h - 1 <= 7 are named (evt_posix_sect_slot) */
    for (unsigned d = 1; may_wait && d < h; d++)
        if (evt_posix_sect[d] != l) may_wait = 0;
    return wait_step_(steps, may_wait);
}

/* P3b: contexts of this thread inside lock_slow that own nothing there (taking: the count drops
 * just before each attempt to take the lock or the bias, and rises again only when it failed). A
 * context in lock_slow may wait without bound when every section its thread has (evt_posix_hold
 * counts them) is such a context: then its thread owns no lock, and the holder it waits for never
 * waits without bound itself (a context whose thread owns a lock only tries, P3), so no cycle can
 * form. A handler that lands where its thread waits for a contended lock (or revokes a bias, or
 * yields in that wait), or in another handler's such wait, thus waits too instead of losing its
 * record to a holder that was descheduled. */
static _Thread_local volatile unsigned t_waits;
#define WAITING_() do { atomic_signal_fence(memory_order_seq_cst); t_waits++; atomic_signal_fence(memory_order_seq_cst); } while (0)
#define TAKING_()  do { atomic_signal_fence(memory_order_seq_cst); t_waits--; atomic_signal_fence(memory_order_seq_cst); } while (0)

int evt_posix_waits_only(void)
{
    unsigned h = evt_posix_hold;
    return h != 0u && h == t_waits;
}

/* The mask the outermost evt_posix_hold_signals(1) replaced, and how many holds are in force on
 * this thread (they nest: TXTB's stash drain, txtb_enc.c I9, can run a buffer-full callback that
 * records through a carrier draining its own stash, user_nest_enc.c N3). Both change only with
 * every signal blocked, so no handler of the thread sees them change half-way; a handler that
 * lands before the outermost block sees depth 0 and holds and releases on its own. */
static _Thread_local sigset_t t_held_mask;
static _Thread_local unsigned t_held_depth;

int evt_posix_nested_seen; /* atomic accesses only (evt_port_impl.h) */

void evt_posix_hold_signals(int on)
{
    if (on) {
        if (t_held_depth == 0u) {
            sigset_t all, old;
            sigfillset(&all);
            (void)pthread_sigmask(SIG_BLOCK, &all, &old);
            t_held_mask = old;
        }
        t_held_depth++;
    } else if (t_held_depth != 0u && --t_held_depth == 0u) {
        (void)pthread_sigmask(SIG_SETMASK, &t_held_mask, NULL);
    }
}

/* Whether this context (in lock_slow, counted in t_waits) may wait without bound (P3, P3b): every
 * section of its thread waits in lock_slow, or (l: it waits for the owner word of l, bias 0 or OFF,
 * which is then the only truth and is not this thread's token) every other section is one of l,
 * entering or leaving it: owning nothing. */
static int may_wait_now_(const evt_port_lock *l)
{
    unsigned h = evt_posix_hold;
    if (t_waits > WAIT_DEPTH) return 0; /* a storm's handlers piling up on one wait: try only (P3c) */
    if (h == t_waits) return 1;
    if (!l || h > 8u) return 0; /* depths 1 to h - 1 <= 7 are named (evt_posix_sect_slot) */
    for (unsigned d = 1; d < h; d++)
        if (evt_posix_sect[d] != l) return 0;
    return 1;
}

/* Wait until done(l) holds: spin, then yield, when this context may wait (may_wait_now: its
 * thread owns no lock), else spin only, for at most NESTED_TRIES tries in all, counted in *tries
 * across calls (P3); in a fork child, at most FORK_TRIES (P5). Returns 0 if it gave up. */
static int wait_until_(evt_port_lock *l, int (*done)(evt_port_lock *), unsigned *tries, int may_wait);
static int owner_free(evt_port_lock *l);
#define owner_free_ owner_free
static int wait_until(evt_port_lock *l, int (*done)(evt_port_lock *), unsigned *tries)
{
    return wait_until_(l, done, tries, may_wait_now_(done == owner_free_ ? l : NULL));
}
static int wait_until_(evt_port_lock *l, int (*done)(evt_port_lock *), unsigned *tries, int may_wait)
{
    unsigned spins = 0;
    if (!done(l) && atomic_load_explicit(&evt_posix_forked, memory_order_relaxed)) {
        uintptr_t o = atomic_load_explicit(&l->owner, memory_order_relaxed);
        uintptr_t b = atomic_load_explicit(&l->busy, memory_order_relaxed);
        for (unsigned i = 0; i < DEAD_LOCKS; i++)
            if (t_dead[i].lock == l && t_dead[i].owner == o && t_dead[i].busy == b) return 0; /* P5: still dead */
        while (!done(l)) {
            if (++*tries >= (may_wait ? FORK_TRIES : NESTED_TRIES)) {
                if (may_wait) { /* the same holder all along: remember it */
                    struct dead_lock *d = &t_dead[t_dead_next++ % DEAD_LOCKS];
                    d->lock = l;
                    d->owner = o;
                    d->busy = b;
                }
                return 0;
            }
            if (atomic_load_explicit(&l->owner, memory_order_relaxed) != o ||
                atomic_load_explicit(&l->busy, memory_order_relaxed) != b) {
                o = atomic_load_explicit(&l->owner, memory_order_relaxed); /* a live holder: wait on */
                b = atomic_load_explicit(&l->busy, memory_order_relaxed);
                if (may_wait) *tries = 0; /* (a nested context keeps P3's budget) */
            }
            pause_or_yield(&spins, may_wait);
        }
        return 1;
    }
    while (!done(l)) {
        if (!may_wait && ++*tries >= NESTED_TRIES) return 0;
        pause_or_yield(&spins, may_wait);
    }
    return 1;
}
static int owner_free(evt_port_lock *l) { return atomic_load_explicit(&l->owner, memory_order_relaxed) == 0; }
static int not_busy(evt_port_lock *l) { return atomic_load_explicit(&l->busy, memory_order_acquire) == 0; }

/* ---- biased locks (B1-B5) ---------------------------------------------------------------------- */

/* membarrier(2) commands (linux/membarrier.h values; the header may be missing). */
#define MB_CMD_GLOBAL 1
#define MB_CMD_PRIVATE_EXPEDITED 8
#define MB_CMD_REGISTER_PRIVATE_EXPEDITED 16
static _Atomic int k_mb_state; /* 0 not tried, 1 registered, -1 unavailable */

/* The port's calls that make system calls may run in a signal handler (a record, a stop): each
 * gives the interrupted code its errno back (a failed membarrier sets it). */
int evt_posix_membarrier_ready(void)
{
    int s = atomic_load_explicit(&k_mb_state, memory_order_acquire);
    if (s == 0) { /* registering twice (two threads at once) is harmless */
#ifdef SYS_membarrier
        int saved = errno;
        s = syscall(SYS_membarrier, MB_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0 ? 1 : -1;
        errno = saved;
#else
        s = -1;
#endif
        atomic_store_explicit(&k_mb_state, s, memory_order_release);
    }
    return s == 1;
}

int evt_posix_membarrier(void)
{
#ifdef SYS_membarrier
    int saved = errno, done = 0;
    if (evt_posix_membarrier_ready() && syscall(SYS_membarrier, MB_CMD_PRIVATE_EXPEDITED, 0, 0) == 0) done = 1;
    else if (syscall(SYS_membarrier, MB_CMD_GLOBAL, 0, 0) == 0) done = 1;
    errno = saved;
    if (done) return 1;
#endif
    static _Atomic int fence_word; /* a locked RMW: this thread's full barrier (TSan knows no fences) */
    (void)atomic_fetch_add_explicit(&fence_word, 0, memory_order_seq_cst);
    return 0;
}

/* B3: revoke the bias of another thread (bias b: its token or REVOKING) and wait for it to leave.
 * Returns 0 if a nested context gave up waiting (bias stays REVOKING: the next taker goes on), 2
 * when it is a handler whose thread is inside on that bias (B2b: re-entry, as P2), 3 when it is a
 * handler whose thread is entering or backing off on it (B2c: take the owner word). */
static int bias_revoke(evt_port_lock *l, uintptr_t b, unsigned *tries)
{
    /* A handler whose own thread is inside on the bias being revoked re-enters (B2b); one whose
     * thread is entering or backing off cannot wait for itself, nor tell which: it takes the P1
     * owner word instead (B2c). Only a nested context sees this (B2 clears busy before its thread
     * takes this path). */
    uintptr_t bz = atomic_load_explicit(&l->busy, memory_order_acquire), self = (uintptr_t)&evt_posix_token_;
    if (bz == EVT_POSIX_BUSY_IN(self)) return 2;
    if (bz == self) return 3;
    if (b != EVT_POSIX_BIAS_REVOKING &&
        !atomic_compare_exchange_strong_explicit(&l->bias, &b, EVT_POSIX_BIAS_REVOKING, memory_order_acq_rel,
                                                 memory_order_acquire) &&
        b != EVT_POSIX_BIAS_REVOKING)
        return 1; /* another revoker finished first (OFF): the caller reloads */
    evt_posix_membarrier(); /* registered: the bias was claimed only then */
    if (!wait_until(l, not_busy, tries)) return 0;
    b = EVT_POSIX_BIAS_REVOKING;
    atomic_compare_exchange_strong_explicit(&l->bias, &b, EVT_POSIX_BIAS_OFF, memory_order_acq_rel,
                                            memory_order_acquire);
    return 1;
}

/* B1, under the P1 lock while bias is 0: count this take towards a claim. Returns the state of the
 * section the caller now holds: 1 (the owner word), or 2 when this take claimed the bias and the
 * section moved onto it (B2a). */
static evt_port_crit_t count_take(evt_port_lock *l, uintptr_t self)
{
    if (l->last != self) {
        l->last = self;
        l->streak = 0;
        if (++l->switches >= EVT_POSIX_BIAS_SWITCHES) {
            atomic_store_explicit(&l->bias, EVT_POSIX_BIAS_OFF, memory_order_release); /* shared */
            return 1;
        }
    }
    if (++l->streak < EVT_POSIX_BIAS_AFTER) return 1;
    if (!evt_posix_membarrier_ready()) {
        atomic_store_explicit(&l->bias, EVT_POSIX_BIAS_OFF, memory_order_release);
        return 1;
    }
    /* B2a: busy says "entering" before the bias names this thread, so a handler of it that lands
       anywhere from here on re-enters (P2: the owner word or busy holds its token), never enters
       on the bias beside this section; then B2's second load, as an entry on the bias. */
    atomic_store_explicit(&l->busy, self, memory_order_release);
    atomic_store_explicit(&l->bias, self, memory_order_release);
    if (!evt_posix_bias_confirm(l, self)) return 1; /* revoked already: the owner word kept */
    atomic_store_explicit(&l->owner, 0, memory_order_release); /* held by busy now (B5) */
    return 2;
}

static int lock_slow(evt_port_lock *l, uintptr_t self, evt_port_crit_t *st);
int evt_posix_lock_slow(evt_port_lock *l, uintptr_t self)
{
    int saved = errno; /* sched_yield, membarrier: a handler's record leaves errno as it was */
    evt_port_crit_t st = 0;
    int r = lock_slow(l, self, &st);
    errno = saved;
    return r ? (int)st : -1;
}

static int lock_slow(evt_port_lock *l, uintptr_t self, evt_port_crit_t *st)
{
    unsigned tries = 0; /* P3's budget for a nested context, over every wait below */
    WAITING_(); /* P3b: owns nothing here until a take succeeds */
    for (;;) {
        uintptr_t b = atomic_load_explicit(&l->bias, memory_order_acquire);
        if (b == self) { /* B2, when the inline attempt lost a race with our own claim */
            TAKING_();
            if (evt_posix_bias_enter(l, self, st)) return 1;
            WAITING_();
            continue;
        }
        if (b != 0 && b != EVT_POSIX_BIAS_OFF) { /* another thread's bias, or REVOKING */
            int rv = bias_revoke(l, b, &tries);
            if (rv == 3) { /* B2c: the owner word, the bias still REVOKING */
                uintptr_t expect = 0;
                TAKING_();
                if (atomic_compare_exchange_strong_explicit(&l->owner, &expect, self, memory_order_acquire,
                                                            memory_order_relaxed)) {
                    *st = 1;
                    return 1;
                }
                if (expect == self) { *st = 0; return 1; } /* P2 */
                WAITING_();
                if (!wait_until(l, owner_free, &tries)) {
                    TAKING_();
                    return 0;
                }
                continue;
            }
            if (rv == 2 || !rv) {
                TAKING_();
                if (rv == 2) *st = 0; /* B2b */
                return rv == 2;
            }
            continue;
        }
        uintptr_t expect = 0; /* P1 */
        TAKING_();
        if (!atomic_compare_exchange_strong_explicit(&l->owner, &expect, self, memory_order_acquire,
                                                     memory_order_relaxed)) {
            if (expect == self) { *st = 0; return 1; } /* P2 */
            WAITING_();
            for (;;) {
                if (!wait_until(l, owner_free, &tries) || (!may_wait_now_(l) && ++tries >= NESTED_TRIES)) {
                    TAKING_();
                    return 0;
                }
                expect = 0;
                TAKING_();
                if (atomic_compare_exchange_weak_explicit(&l->owner, &expect, self, memory_order_acquire,
                                                          memory_order_relaxed))
                    break;
                WAITING_();
            }
        }
        b = atomic_load_explicit(&l->bias, memory_order_acquire); /* B4: OFF carries the drain */
        if (b == 0) {
            *st = count_take(l, self);
            return 1;
        } else if (b != EVT_POSIX_BIAS_OFF) { /* claimed since we looked: give it back, revoke first */
            atomic_store_explicit(&l->owner, 0, memory_order_release);
            WAITING_();
            continue;
        }
        *st = 1;
        return 1;
    }
}

/* ---- simulated interrupts (P4) ----------------------------------------------------------------- */

static void (*volatile k_isr_fn[32])(int);

static void run_isr(int signo)
{
    int saved = errno; /* the interrupted code's errno, whatever the ISR calls */
    evt_posix_in_isr++;
    k_isr_fn[signo](signo);
    evt_posix_in_isr--;
    errno = saved;
}

static void isr_trampoline(int signo)
{
    if (evt_posix_hold != 0u) { /* inside a section: hold it off until the outermost exit */
        __atomic_fetch_or(&evt_posix_deferred, 1u << signo, __ATOMIC_RELAXED);
        return;
    }
    run_isr(signo);
}

/* ---- signal-masking mode (S1-S2) ---------------------------------------------------------------- */

_Atomic int evt_posix_mask_mode;
_Thread_local unsigned evt_posix_masked;
static _Thread_local sigset_t t_saved_mask; /* the mask to restore (valid while evt_posix_masked) */

void evt_posix_mask_signals(int on) { atomic_store_explicit(&evt_posix_mask_mode, on != 0, memory_order_relaxed); }

void evt_posix_mask_enter(void)
{
    int saved = errno;
    sigset_t all;
    sigfillset(&all);
    static const int sync_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
    for (unsigned i = 0; i < sizeof sync_signals / sizeof sync_signals[0]; i++) sigdelset(&all, sync_signals[i]);
    if (pthread_sigmask(SIG_BLOCK, &all, &t_saved_mask) == 0) evt_posix_masked = 1u;
    errno = saved;
}

void evt_posix_hold_end(void)
{
    if (evt_posix_masked) { /* S1: pending signals run here, after the give-back */
        int saved = errno;
        evt_posix_masked = 0u;
        (void)pthread_sigmask(SIG_SETMASK, &t_saved_mask, NULL);
        errno = saved;
    }
    if (evt_posix_deferred) evt_posix_run_deferred();
}

int (*evt_posix_exit_hook)(void);

void evt_posix_run_deferred(void)
{
    unsigned bits, later = 0u;
    while ((bits = __atomic_exchange_n(&evt_posix_deferred, 0u, __ATOMIC_RELAXED)) != 0u) {
        int (*hook)(void) = __atomic_load_n(&evt_posix_exit_hook, __ATOMIC_RELAXED);
        /* P4: work a nested context left for the outermost exit (or for a later one) */
        if ((bits & 1u) && hook && hook()) later = 1u;
        for (int s = 1; s < 32; s++)
            if (bits & (1u << s)) run_isr(s);
    }
    if (later) __atomic_fetch_or(&evt_posix_deferred, 1u, __ATOMIC_RELAXED); /* after the loop: no spin */
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
