/* The recorder core shared by every front end (TXTB, RKH, ETW, XRay, generic hooks): the
 * enable/filter gate, the per-context nesting guard, the loss account, the clock with its monotonic
 * clamp, the per-recorder lock, and the one stats structure every recorder reports.
 * Freestanding C99 (no libc); the hot-path pieces are inline. Invariants C1-C7 and the port contract
 * are in docs/recorder.md; the rules a front end follows are:
 *
 *   gate:   bits = evt_gate_bits(&g);            one relaxed load, decided inline: no clock read,
 *           if (!(bits & mine)) return;           no lock, no shared write when off or filtered
 *   lock:   if (!evt_rec_lock_enter(&lk, &st)) { evt_loss_drop(&loss); return; }
 *           (a recorder that can be closed meanwhile: evt_loss_race_enter, test open, drop, exit)
 *   nest:   if (!evt_nest_enter(&nest))         { evt_loss_drop(&loss); unlock; return; }
 *           (a recorder writing only inside its lock: evt_rec_guard_enter(&nest, st))
 *   time:   t = evt_clock_read(&clk);            inside the section: timestamps follow record order
 *   loss:   if (evt_loss_pending(&loss)) write a loss record carrying evt_loss_take(&loss)
 *   write the record; evt_loss_written(&loss, 1); evt_nest_exit(&nest); evt_rec_lock_exit(&lk, st);
 *
 * Drops may be counted from any context, including an interrupt (or signal) that arrived in the
 * middle of another record of the same recorder; everything else in the account is written only by
 * the context that holds the recorder's lock (or owns the per-thread buffer) and is not nested. */
#ifndef EVTRACE_RECORDER_H
#define EVTRACE_RECORDER_H

#include <stdint.h>
#include "evtrace/port.h"

/* ---- stats: one structure, read the same way for every recorder ----------------------------- */

/* Counters since the recorder was initialised or enabled (each front end says which). For every
 * record that passed the gate: written + dropped == issued. Every loss (dropped or overwritten)
 * is either pending or carried by a loss record in the trace: dropped + overwritten ==
 * lost_reported + pending. A decoder of a complete trace (the recorder stopped, pending flushed)
 * sees written - overwritten data records and loss records whose counts add up to lost_reported. */
typedef struct evt_rec_stats {
    uint64_t written;       /* data records stored (loss records not counted) */
    uint64_t dropped;       /* records refused: nested in a record of the same context, no room
                               under a drop policy, lock unavailable in a nested context, or
                               racing a disable */
    uint64_t overwritten;   /* stored records later overwritten by a flight-ring wrap (counted
                               where the format can tell a record boundary) */
    uint64_t pending;       /* losses not yet written into the trace by a loss record */
    uint64_t loss_records;  /* loss records written */
    uint64_t lost_reported; /* losses carried by the loss records written */
} evt_rec_stats;

/* ---- atomics for freestanding C99 (GCC/Clang builtins; plain volatile elsewhere) -------------- */

#if defined(__GNUC__) || defined(__clang__)
#define EVT_LOAD_RLX(p)      __atomic_load_n((p), __ATOMIC_RELAXED)
#define EVT_STORE_RLX(p, v)  __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#if defined(EVT_PORT_SINGLE_CORE) && EVT_PORT_SINGLE_CORE
/* One core (the port says so): every context that reads or writes these is this core's thread
 * code or one of its interrupts, which see memory in program order; acquire and release need only
 * keep the compiler from moving accesses across them (no barrier instruction). */
#define EVT_LOAD_ACQ(p)      __extension__({ __typeof__(*(p)) evt_v_ = __atomic_load_n((p), __ATOMIC_RELAXED); \
                                             __atomic_signal_fence(__ATOMIC_ACQUIRE); evt_v_; })
#define EVT_STORE_REL(p, v)  do { __atomic_signal_fence(__ATOMIC_RELEASE); \
                                  __atomic_store_n((p), (v), __ATOMIC_RELAXED); } while (0)
#else
#define EVT_LOAD_ACQ(p)      __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define EVT_STORE_REL(p, v)  __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#endif
#define EVT_ADD_RLX(p, v)    ((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))
#define EVT_SIGNAL_FENCE()   __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define EVT_LIKELY(x)        __builtin_expect(!!(x), 1)
#define EVT_UNLIKELY(x)      __builtin_expect(!!(x), 0)
#else /* single-core targets where aligned word accesses are atomic */
#define EVT_LOAD_RLX(p)      (*(volatile const __typeof__(*(p)) *)(p))
#define EVT_LOAD_ACQ(p)      EVT_LOAD_RLX(p)
#define EVT_STORE_RLX(p, v)  (*(volatile __typeof__(*(p)) *)(p) = (v))
#define EVT_STORE_REL(p, v)  EVT_STORE_RLX(p, v)
#define EVT_ADD_RLX(p, v)    ((void)(*(volatile __typeof__(*(p)) *)(p) += (v)))
#define EVT_SIGNAL_FENCE()   ((void)0)
#define EVT_LIKELY(x)        (x)
#define EVT_UNLIKELY(x)      (x)
#endif

/* 64-bit counters that the stats calls read from any context (C7) while their writer changes them:
 * relaxed atomics where the compiler makes 64-bit ones lock-free (hosts), plain accesses elsewhere
 * (32-bit MCUs without 64-bit exclusive access, whose recorder locks mask every reader while the
 * counters are written). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__GCC_ATOMIC_LLONG_LOCK_FREE) && \
    __GCC_ATOMIC_LLONG_LOCK_FREE == 2
#define EVT_ATOMIC64 1
#define EVT_LOAD64_RLX(p)     __atomic_load_n((p), __ATOMIC_RELAXED)
#define EVT_STORE64_RLX(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define EVT_ATOMIC64 0
#define EVT_LOAD64_RLX(p)     (*(p))
#define EVT_STORE64_RLX(p, v) (*(p) = (v))
#endif

/* A counter as wide as the machine word: atomic increments are native on every port (Cortex-M3+
 * has no 64-bit exclusive access). Differences are taken modulo its width. */
typedef uintptr_t evt_rec_count;

/* ---- gate ------------------------------------------------------------------------------------ */

/* The hot-path test: `bits` is the front end's filter word while enabled and 0 while disabled, so
 * "off" and "filtered" are the same single test. `on` and the sequence count `gen` let a slow path
 * take a consistent (bits, on) snapshot (a call that must say "off" versus "filtered"). */
typedef struct evt_gate {
    uint32_t bits; /* filter bits while enabled, 0 while disabled: the one relaxed load */
    uint32_t on;   /* 1 while enabled */
    uint32_t gen;  /* odd while evt_gate_publish updates bits and on together */
} evt_gate;

static inline uint32_t evt_gate_bits(const evt_gate *g) { return EVT_LOAD_RLX(&g->bits); }
/* Set bits and on together (caller holds the recorder's lock: one writer at a time). */
void evt_gate_publish(evt_gate *g, uint32_t bits, uint32_t on);
/* Change the filter word while enabled (no effect on `on`; caller holds the lock). */
void evt_gate_set_bits(evt_gate *g, uint32_t bits);
/* Consistent snapshot; returns 0 if an update was in progress (treat as "off at some instant"). */
static inline int evt_gate_snapshot(const evt_gate *g, uint32_t *bits, uint32_t *on)
{
    uint32_t s1 = EVT_LOAD_ACQ(&g->gen);
    *bits = EVT_LOAD_ACQ(&g->bits);
    *on = EVT_LOAD_ACQ(&g->on);
    uint32_t s2 = EVT_LOAD_ACQ(&g->gen);
    return s1 == s2 && !(s1 & 1u);
}

/* ---- per-recorder lock ------------------------------------------------------------------------ */

/* The port's lock object (POSIX: an owner word; Cortex-M: nothing, interrupts are masked). One per
 * recorder instance, so unrelated recorders never serialise. */
typedef evt_port_lock evt_rec_lock;
#define EVT_REC_LOCK_INIT EVT_PORT_LOCK_INIT

/* Enter the recorder's critical section. Returns 1 with *st to pass to exit, or 0 when the section
 * cannot be entered without risking a deadlock (a nested context — an interrupt or signal that
 * arrived while its thread held another recorder's lock — found this one held elsewhere): the
 * caller then drops and counts the record. Re-entry by the context that holds it (a nested
 * interrupt on the owning thread) succeeds: the nesting guard then decides. */
static inline int evt_rec_lock_enter(evt_rec_lock *l, evt_port_crit_t *st) { return evt_port_lock_enter(l, st); }
static inline void evt_rec_lock_exit(evt_rec_lock *l, evt_port_crit_t st) { evt_port_lock_exit(l, st); }

/* ---- nesting guard ---------------------------------------------------------------------------- */

/* Set while a context writes a record into the buffer the guard protects (a recorder with one lock
 * has one guard; a per-thread or per-CPU buffer has its own). An interrupt or signal handler that
 * records into that buffer while it is set runs to completion before the interrupted record
 * resumes, so a plain flag is enough: it sees busy and drops, or, arriving between the test and the
 * set, writes its whole record first (the interrupted context has touched nothing yet). */
typedef struct evt_nest {
    volatile uint8_t busy; /* a record is being written */
} evt_nest;

/* EVT_REC_NESTING 0 (a compile-time switch, docs/firmware.md) compiles the guard out, for
 * single-priority targets whose recorder sections mask every interrupt that records and where no
 * callback of a recorder (buffer-full, context, time source, sink) and no NMI or fault handler
 * records into it: nothing can nest, so nothing is tested. Default 1: the guard (C3). */
#ifndef EVT_REC_NESTING
#define EVT_REC_NESTING 1
#endif
#if EVT_REC_NESTING
static inline int evt_nest_enter(evt_nest *n)
{
    if (n->busy) return 0;
    n->busy = 1u;
    EVT_SIGNAL_FENCE();
    return 1;
}
static inline void evt_nest_exit(evt_nest *n)
{
    EVT_SIGNAL_FENCE();
    n->busy = 0u;
}
#else
static inline int evt_nest_enter(evt_nest *n) { (void)n; return 1; }
static inline void evt_nest_exit(evt_nest *n) { (void)n; }
#endif

/* The guard of a recorder that touches its guarded state only inside its own evt_rec_lock (RKH),
 * entered right after the lock with the lock's state st. On a port whose lock tells nesting
 * (EVT_PORT_LOCK_TELLS_NESTING 1: POSIX), st is 0 exactly for a context nested in a section of its
 * own thread, so st is the guard: a nested context is refused as the flag would refuse it (and one
 * that lands while its thread enters or leaves the section is refused too, where the flag would
 * let it write first: both counted drops), and the owner pays no store and no compiler barrier.
 * Elsewhere: the flag (evt_nest_enter/exit). */
#if EVT_REC_NESTING && defined(EVT_PORT_LOCK_TELLS_NESTING) && EVT_PORT_LOCK_TELLS_NESTING
static inline int evt_rec_guard_enter(evt_nest *n, evt_port_crit_t st)
{
    (void)n;
    return st != 0;
}
static inline void evt_rec_guard_exit(evt_nest *n) { (void)n; }
#else
static inline int evt_rec_guard_enter(evt_nest *n, evt_port_crit_t st)
{
    (void)st;
    return evt_nest_enter(n);
}
static inline void evt_rec_guard_exit(evt_nest *n) { evt_nest_exit(n); }
#endif

/* ---- loss account ----------------------------------------------------------------------------- */

/* Losses are pending until a loss record carries them. Two kinds:
 *  - in-stream losses (drops, and overwrites a format reports at once): pending = dropped +
 *    overwritten + repended - reported; a loss record is written before the next record that gets
 *    through (evt_loss_pending / evt_loss_take);
 *  - stop-time overwrites (a flight ring's wrap, normal operation: reporting each one in-stream would
 *    put a loss record before every record): counted by evt_loss_overwritten_at_stop and carried by
 *    the loss record written when the recorder stops, disables or is drained
 *    (evt_loss_pending_at_stop / evt_loss_take_at_stop).
 * When a wrap overwrites a loss record, its whole count is re-pended (evt_loss_repend), so the loss
 * records left in a buffer always add up to the losses, less what is pending. `dropped` is
 * incremented atomically from any context; every other member only by the non-nested context that
 * holds the lock, with relaxed atomic stores for the members evt_loss_stats reads (a plain store
 * on every port: evt_rec_count is a machine word), since the stats may be read from any context,
 * without the lock when a nested context cannot have it. */
typedef struct evt_loss {
    evt_rec_count dropped;      /* any context, atomic increments */
    evt_rec_count overwritten;  /* lock holder: overwrites reported in-stream */
    evt_rec_count repended;     /* lock holder: counts of overwritten loss records */
    evt_rec_count reported;     /* lock holder: in-stream losses carried by loss records */
    evt_rec_count written;      /* lock holder: data records stored */
    evt_rec_count loss_records; /* lock holder */
    evt_rec_count ow_stop;      /* lock holder: overwrites reported at stop */
    evt_rec_count ow_reported;  /* lock holder: stop-time overwrites carried by loss records */
    evt_rec_count owed;         /* lock holder: overwritten + repended - reported, kept so that the
                                   per-record test is two loads */
    evt_rec_count racing;       /* any context: drops being decided outside the lock against a
                                   close (evt_loss_race_enter / evt_loss_close_wait) */
} evt_loss;

void evt_loss_reset(evt_loss *l);
static inline void evt_loss_drop(evt_loss *l) { EVT_ADD_RLX(&l->dropped, 1u); }
static inline void evt_loss_written(evt_loss *l, evt_rec_count n) { EVT_STORE_RLX(&l->written, l->written + n); }
static inline void evt_loss_overwritten(evt_loss *l, evt_rec_count n) { EVT_STORE_RLX(&l->overwritten, l->overwritten + n); l->owed += n; }
static inline void evt_loss_repend(evt_loss *l, evt_rec_count n) { EVT_STORE_RLX(&l->repended, l->repended + n); l->owed += n; }
static inline void evt_loss_overwritten_at_stop(evt_loss *l, evt_rec_count n) { EVT_STORE_RLX(&l->ow_stop, l->ow_stop + n); }
static inline evt_rec_count evt_loss_pending(const evt_loss *l)
{
    return (evt_rec_count)(EVT_LOAD_RLX(&l->dropped) + l->owed);
}
/* The count to write in a loss record now; marks it reported (call only when the record will be
 * written). A drop counted by a nested context after this call stays pending for the next one. */
static inline evt_rec_count evt_loss_take(evt_loss *l)
{
    evt_rec_count n = evt_loss_pending(l);
    EVT_STORE_RLX(&l->reported, l->reported + n);
    l->owed -= n;
    EVT_STORE_RLX(&l->loss_records, l->loss_records + 1u);
    return n;
}
static inline evt_rec_count evt_loss_pending_at_stop(const evt_loss *l)
{
    return (evt_rec_count)(l->ow_stop - l->ow_reported);
}
/* The stop-time overwrite count for the loss record being written (with evt_loss_take, which
 * counts the record). */
static inline evt_rec_count evt_loss_take_at_stop(evt_loss *l)
{
    evt_rec_count n = evt_loss_pending_at_stop(l);
    EVT_STORE_RLX(&l->ow_reported, l->ow_reported + n);
    return n;
}
/* A drop decided by a context that could not take the recorder's lock (a nested context that may
 * not wait, P3), racing a close (disable, stop) on another thread that then writes its last loss
 * record: the record counts as issued and dropped only while the recorder is open, and then its
 * drop must reach that last record. The nested context brackets its test of the open state and
 * its evt_loss_drop with evt_loss_race_enter/exit; the close changes the open state first and
 * then calls evt_loss_close_wait before it takes its last count. Each side reads the other through
 * the read-modify-writes on `racing`: either the nested context sees the recorder closed (not
 * issued, not counted), or the close waits until the drop is counted. The wait is for a few
 * instructions of a context that may be preempted; it follows the port's evt_port_wait_step,
 * which gives up only in a nested context (a close from a handler nested in such a window on its
 * own thread would otherwise wait for itself) or a fork child. */
#ifndef EVT_PORT_LOCK_MAY_FAIL
#define EVT_PORT_LOCK_MAY_FAIL 1 /* a port that does not say: assume nested contexts may give up */
#endif
#if (defined(__GNUC__) || defined(__clang__)) && EVT_PORT_LOCK_MAY_FAIL
#define EVT_LOSS_RACES_ 1
static inline void evt_loss_race_enter(evt_loss *l) { (void)__atomic_fetch_add(&l->racing, 1u, __ATOMIC_ACQ_REL); }
static inline void evt_loss_race_exit(evt_loss *l) { (void)__atomic_fetch_sub(&l->racing, 1u, __ATOMIC_RELEASE); }
void evt_loss_close_wait(evt_loss *l);
#else /* the port's lock never fails (one core, interrupts masked), or no atomics: nothing races */
static inline void evt_loss_race_enter(evt_loss *l) { (void)l; }
static inline void evt_loss_race_exit(evt_loss *l) { (void)l; }
static inline void evt_loss_close_wait(evt_loss *l) { (void)l; }
#endif
/* Fill the common stats structure. Safe from any context (values may be a moment old).
 * overwritten = in-stream + stop-time overwrites; pending = both kinds; lost_reported = what the
 * loss records not themselves overwritten carry. */
void evt_loss_stats(const evt_loss *l, evt_rec_stats *out);
/* A loss count for a format's 32-bit field: saturated at 0xFFFFFFFF ("at least that many") rather
 * than wrapped to a small count. */
static inline uint32_t evt_loss_u32(uint64_t n) { return n > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)n; }

/* ---- clock ------------------------------------------------------------------------------------ */

/* The recorder's time source: a user callback, or the port's counter. Read inside the critical
 * section; a small step back (the port counter read a few cycles out of turn by another CPU, less
 * than EVT_CLOCK_CLAMP_TICKS in the counter's width) is clamped to the last value, so timestamps
 * never go back in record order; a larger step is a wrap or a long pause and is kept. */
typedef uint64_t (*evt_clock_fn)(void *user);
typedef struct evt_clock {
    evt_clock_fn fn; /* NULL: evt_port_timestamp() */
    void *user;      /* passed to fn */
    uint64_t mask;   /* the counter's width as a mask (port counter or fn's declared width) */
    uint64_t last;   /* last value returned */
} evt_clock;
#define EVT_CLOCK_CLAMP_TICKS 0x10000u

/* bits = width of fn's values (0 = 64); with fn NULL the port counter's width is used. */
void evt_clock_init(evt_clock *c, evt_clock_fn fn, void *user, unsigned bits);
static inline uint64_t evt_clock_read(evt_clock *c)
{
    uint64_t t = c->fn ? c->fn(c->user) : evt_port_timestamp();
    uint64_t back = (c->last - t) & c->mask;
    if (EVT_UNLIKELY(back - 1u < (uint64_t)EVT_CLOCK_CLAMP_TICKS - 1u)) t = c->last;
    c->last = t;
    return t;
}

/* The 32-bit flavour, for formats whose records hold 32-bit timestamps (TXTB; RKH's ts32): all
 * arithmetic in 32 bits (cheap on 32-bit targets). The port counter's low 32 bits are clamped as
 * above; a user callback is taken as it is (it may count down: ThreadX time sources do, with the
 * header's timer mask). */
typedef struct evt_clock32 {
    uint32_t (*fn)(void); /* NULL: the low 32 bits of evt_port_timestamp() */
    uint32_t last;        /* last port-counter value returned */
} evt_clock32;
/* evt_clock32_read for a clock known to have no callback (c->fn == NULL). */
static inline uint32_t evt_clock32_read_port(evt_clock32 *c)
{
    uint32_t t = (uint32_t)evt_port_timestamp();
    if (evt_port_timestamp_bits() >= 32u && EVT_UNLIKELY((uint32_t)(c->last - t) - 1u < EVT_CLOCK_CLAMP_TICKS - 1u))
        t = c->last;
    c->last = t;
    return t;
}
static inline uint32_t evt_clock32_read(evt_clock32 *c)
{
    return c->fn ? c->fn() : evt_clock32_read_port(c);
}

#endif
