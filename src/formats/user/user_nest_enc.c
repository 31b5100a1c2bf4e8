/* User events, target side: records of a signal handler nested in a user record of its own thread,
 * for a carrier whose recorder drops such a record (RKH: its nesting guard, rkh_enc.c R3; XRay:
 * its per-thread writer's guard, xray_runtime.c; TXTB stashes them in its own core, txtb_enc.c
 * I9). On the POSIX port each thread keeps a depth and a
 * small stash.
 *
 * Invariants
 *  N1 depth is 1 exactly while a user write of this thread through evt_user_nested_write_ runs
 *     (its record, then its drain), set before the carrier is called and cleared only with the
 *     stash empty; only the thread and its own signal handlers touch its depth and stash.
 *  N2 A write that finds depth 1 (a handler that interrupted that write) while its thread is
 *     inside a recorder section that is not only waiting for its lock (N4), or (a carrier with
 *     its own test, evt_user_nested_write_in_: XRay) inside a record, stashes its record:
 *     it reserves 1 + n words with an atomic add on used (a handler nested in it reserves after
 *     it and finishes first), stores the words, then the entry's header (rec | n << 8, never 0)
 *     last; it returns 2 (issued, written later). A reservation that does not fit stores a 0
 *     header where it starts (if inside the stash: the end of the entries that fitted) and goes to
 *     the carrier as it is, which drops and counts it (nothing is lost uncounted).
 *  N3 The interrupted write, after its own record, writes the stashed entries through the carrier
 *     in reservation order with every signal of its thread blocked (the port's
 *     evt_posix_hold_signals: two system calls, only when something was stashed), so no handler
 *     lands inside a drained record: the stash cannot grow while it drains, however slow each
 *     record is (under TSan, where records are slow and every intercepted call inside one lets
 *     pending signals in, a drain that let handlers in grew the stash past any size). It then
 *     empties the stash with a compare-and-swap on used (which fails, and it writes on from
 *     where it was, if a handler reserved meanwhile), clears depth and tests used again (starting
 *     over if a handler stashed in between), and restores the mask: the signals held meanwhile
 *     are then delivered and write directly. So every stashed line is written before that write
 *     returns, after the record it interrupted, with the time of its writing (later than issued,
 *     never earlier than a record written before it).
 *  N4 A handler whose thread is in no recorder section (before the interrupted write's record,
 *     or between it and the stashed ones: port P4's count is 0), or only waits to take a
 *     recorder lock (port P3b: every section of the thread waits in lock_slow, none is inside),
 *     writes directly, as it may take the lock itself; then, if anything is stashed (by handlers
 *     nested in records of earlier such handlers: the thread is in none of its records now), it
 *     drains the stash as N3 does (signals held, emptied by compare-and-swap) but leaves depth
 *     1 to the interrupted write, which drains what comes later. So the stash holds only what
 *     handlers put there during one record of the thread, however long the interrupted write
 *     waits for its lock (a loaded machine: a lock holder descheduled for milliseconds while
 *     handlers keep landing in the wait), and only handlers that land inside a record are stashed.
 *     Lines of handlers of one thread thus reach the stream in the order they were
 *     written (their timestamps), not always the order they were issued in.
 * Other ports: the carrier's write and nothing else (their sections mask the interrupts that
 * could land inside a record). Freestanding C99 + GNU TLS/atomics builtins on the POSIX port. */
#include "evtrace/port.h"
#include "formats/user/user_enc.h"

#if defined(EVT_PORT_POSIX) && (defined(__GNUC__) || defined(__clang__))
#ifndef EVT_CFG_USER_NEST_WORDS
#define EVT_CFG_USER_NEST_WORDS 2048u /* per thread: ~150 nested lines of a 3-argument printf */
#endif
static __thread struct {
    uint32_t depth;                        /* N1 */
    uint32_t used;                         /* words of buf reserved by nested writes (N2) */
    uint32_t buf[EVT_CFG_USER_NEST_WORDS]; /* entries: rec | n << 8, then n words */
} t_un;

/* Write the stashed entries from pos up to lim (N3); returns the position reached. */
static uint32_t drain(int (*write)(unsigned, const uint32_t *, uint32_t), uint32_t pos, uint32_t lim)
{
    while (pos < lim) {
        uint32_t h = t_un.buf[pos], n = h >> 8;
        if (n == 0u) return lim; /* a reservation that did not fit: nothing after it fitted (N2) */
        (void)write(h & 0xFFu, t_un.buf + pos + 1u, n);
        pos += 1u + n;
    }
    return pos;
}

/* N4: empty the stash, signals held (nothing lands in the records it writes). */
static void drain_held(int (*write)(unsigned, const uint32_t *, uint32_t))
{
    uint32_t pos = 0;
    evt_posix_hold_signals(1);
    for (;;) {
        uint32_t used = __atomic_load_n(&t_un.used, __ATOMIC_RELAXED);
        if (used == 0u) break;
        pos = drain(write, pos, used < EVT_CFG_USER_NEST_WORDS ? used : EVT_CFG_USER_NEST_WORDS);
        if (__atomic_compare_exchange_n(&t_un.used, &used, 0u, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
    evt_posix_hold_signals(0);
}

int evt_user_nested_write_in_(int (*write)(unsigned, const uint32_t *, uint32_t), int (*inside)(void), unsigned rec,
                              const uint32_t *w, uint32_t n)
{
    uint32_t prev = __atomic_load_n(&t_un.depth, __ATOMIC_RELAXED);
    if (prev && (inside ? inside() : evt_posix_hold != 0u && !evt_posix_waits_only())) { /* N2 */
        uint32_t need = 1u + n, at = __atomic_fetch_add(&t_un.used, need, __ATOMIC_RELAXED);
        if (n == 0u || rec > 0xFFu || need > EVT_CFG_USER_NEST_WORDS || at > EVT_CFG_USER_NEST_WORDS - need) {
            if (at < EVT_CFG_USER_NEST_WORDS) t_un.buf[at] = 0u;
            return write(rec, w, n);
        }
        for (uint32_t i = 0; i < n; i++) t_un.buf[at + 1u + i] = w[i];
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t_un.buf[at] = rec | n << 8;
        return 2;
    }
    __atomic_store_n(&t_un.depth, 1u, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    int r = write(rec, w, n);
    if (prev) { /* N4: what handlers stashed since (in earlier records), the write this interrupted drains the rest */
        if (__atomic_load_n(&t_un.used, __ATOMIC_RELAXED) != 0u) drain_held(write);
        return r;
    }
    uint32_t pos = 0, held = 0;
    if (__atomic_load_n(&t_un.used, __ATOMIC_RELAXED) != 0u) { /* N3: nothing nests in the drain */
        evt_posix_hold_signals(1);
        held = 1;
    }
    for (;;) { /* N3 */
        uint32_t used = __atomic_load_n(&t_un.used, __ATOMIC_RELAXED);
        if (used != 0u) {
            pos = drain(write, pos, used < EVT_CFG_USER_NEST_WORDS ? used : EVT_CFG_USER_NEST_WORDS);
            if (!__atomic_compare_exchange_n(&t_un.used, &used, 0u, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) continue;
            pos = 0;
        }
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&t_un.depth, 0u, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (__atomic_load_n(&t_un.used, __ATOMIC_RELAXED) == 0u) {
            if (held) evt_posix_hold_signals(0);
            return r;
        }
        __atomic_store_n(&t_un.depth, 1u, __ATOMIC_RELAXED); /* a handler stashed after the drain */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
}
#else
int evt_user_nested_write_in_(int (*write)(unsigned, const uint32_t *, uint32_t), int (*inside)(void), unsigned rec,
                              const uint32_t *w, uint32_t n)
{
    (void)inside;
    return write(rec, w, n);
}
#endif

int evt_user_nested_write_(int (*write)(unsigned, const uint32_t *, uint32_t), unsigned rec, const uint32_t *w,
                           uint32_t n)
{
    return evt_user_nested_write_in_(write, 0, rec, w, n);
}
