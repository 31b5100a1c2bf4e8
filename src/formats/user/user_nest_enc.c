/* User events, target side: records of a signal handler that its carrier's recorder would drop
 * because its thread is inside a record (RKH: the recorder's nesting guard, rkh_enc.c R3, for a
 * user record or one the application writes itself; XRay: its per-thread writer's guard,
 * xray_runtime.c, for a user record or a function, custom or typed one; TXTB stashes them in its own core, txtb_enc.c I9). On the POSIX port each
 * thread keeps a depth and a small stash, written out after the record the handler interrupted.
 *
 * Invariants
 *  N1 depth is 1 exactly while a user write of this thread through evt_user_nested_write_in_ runs
 *     (its record, then its drain); only the thread and its own signal handlers touch its depth
 *     and stash. (XRay's stash test reads it, N2.)
 *  N2 A write stashes its record when its thread is inside a recorder section that is not only
 *     waiting for its lock (port P4's count is non-zero and not every section waits, P3b: a
 *     handler that interrupted a record, a user one or the application's own, of any recorder),
 *     or (a carrier with its own test, evt_user_nested_write_in_: XRay) when it interrupted one of
 *     the carrier's records of its thread: one of a user write (N1, drained by that write) or any
 *     other (XRay: a function entry/exit, custom or typed record; drained at its end, N5). It reserves 1 + n words with an atomic add on
 *     used (a handler nested in it reserves after it and finishes first), stores the words, then
 *     the entry's header (rec | n << 8, never 0) last; it returns 2 (issued, written later). A
 *     reservation that does not fit stores a 0 header where it starts (if inside the stash: the
 *     end of the entries that fitted) and goes to the carrier as it is, which drops and counts it
 *     (nothing is lost uncounted). All entries of a thread's stash go to one carrier (the first
 *     one's: another carrier's record is handed to its carrier as it is, meanwhile). "Another
 *     carrier" is decided by reading the carrier again once the stash is seen non-empty: a
 *     handler nested between the two reads may have named this very carrier and stashed.
 *  N3 A drain writes the entries through the carrier in reservation order with every signal of its
 *     thread blocked (the port's evt_posix_hold_signals: two system calls, only when something was
 *     stashed), so no handler lands inside a drained record and the stash cannot grow while it
 *     drains, however slow each record is. (A drain that let handlers in, as the former second
 *     pass after a handler's stash did, grew the stash under load until it overflowed: bursts of
 *     15 to 254 counted drops in ~1 run of 50 of test_user_signals_rkh_mt beside a compiler.) It
 *     then empties the stash with a compare-and-swap on used, marks itself done (draining 0) and
 *     tests used again, starting over if a handler stashed in the meantime (one that ran when the
 *     mask was restored, inside a record of a context above it). At most one drain runs per
 *     thread: a context that finds draining set leaves the entries to it.
 *  N4 Every stash is drained with no record of its thread left open below the entry: a direct
 *     write (its thread in no section, or only waiting for a lock: it may take the lock itself)
 *     drains after its own record; and N5.
 *  N5 A stash made by N2's section test (the thread inside some section), or by the carrier's
 *     test outside a user write, also sets bit 0 of the port's evt_posix_deferred, so the outermost
 *     exit of its thread's sections (P4) drains it, after the interrupted record, whoever wrote
 *     that record (the application's evt_rkh_end; XRay: the runtime's record exit, xr_leave; ETW
 *     thread-owned slots: the record's exit, owned_after_record; an RKH thread-owned recorder: the
 *     owner's exit, rkh_enc.c O5). The hook waits (returns 1, P4
 *     calls it again at a later exit) while the carrier's test says the thread is still inside
 *     one of its records, so a drain never runs inside a record that would drop its lines.
 *     No drain runs above a reservation in progress: a context that would interrupt one finds the
 *     same thread state (frozen under it) and stashes too, and the outermost exit runs with no
 *     section left.
 * So every stashed line is written after the record it interrupted, with the time of its writing
 * (later than issued, never earlier than a record written before it). Lines of one thread's
 * handlers reach the stream in the order they were written (their timestamps), not always the
 * order they were issued in.
 * Other ports: the carrier's write and nothing else (their sections mask the interrupts that
 * could land inside a record). Freestanding C99 + GNU TLS/atomics builtins on the POSIX port. */
#include "evtrace/port.h"
#include "formats/user/user_enc.h"

#if defined(EVT_PORT_POSIX) && (defined(__GNUC__) || defined(__clang__))
#ifndef EVT_CFG_USER_NEST_WORDS
/* Words per thread (32 KiB): ~700 nested lines of a 3-argument printf. test_user_signals_rkh_*_mt
 * beside a parallel compiler (load ~21 on 2 CPUs) stashed up to 1,404 words within one section of
 * a thread, enough to overflow the former 2,048 in some runs (counted drops). */
#define EVT_CFG_USER_NEST_WORDS 8192u
#endif
typedef int (*nest_write_fn)(unsigned, const uint32_t *, uint32_t);
void (*evt_user_nest_test_hook_)(void); /* tests only (user_enc.h) */
static __thread struct {
    uint32_t depth;                        /* N1 */
    uint32_t draining;                     /* a drain of this thread runs (N3) */
    uint32_t used;                         /* words of buf reserved by nested writes (N2) */
    nest_write_fn write;                   /* the carrier of the entries (N2) */
    int (*inside)(void);                   /* its record test (XRay, ETW), or NULL (N5) */
    uint32_t buf[EVT_CFG_USER_NEST_WORDS]; /* entries: rec | n << 8, then n words */
} t_un;

/* Write the stashed entries from pos up to lim; returns the position reached. */
static uint32_t drain_run(nest_write_fn write, uint32_t pos, uint32_t lim)
{
    while (pos < lim) {
        uint32_t h = t_un.buf[pos], n = h >> 8;
        if (n == 0u) return lim; /* a reservation that did not fit: nothing after it fitted (N2) */
        (void)write(h & 0xFFu, t_un.buf + pos + 1u, n);
        pos += 1u + n;
    }
    return pos;
}

/* Drain the stash, unless a drain of this thread runs already (N3). */
static void drain(void)
{
    while (__atomic_load_n(&t_un.used, __ATOMIC_RELAXED) != 0u &&
           !__atomic_load_n(&t_un.draining, __ATOMIC_RELAXED)) {
        __atomic_store_n(&t_un.draining, 1u, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        evt_posix_hold_signals(1);
        uint32_t pos = 0;
        for (;;) { /* nothing stashes now: one pass and one CAS, unless entries of a handler that
                      ran before the mask took effect were still being stored (they were not: N5) */
            uint32_t used = __atomic_load_n(&t_un.used, __ATOMIC_RELAXED);
            if (used == 0u) break;
            pos = drain_run(t_un.write, pos, used < EVT_CFG_USER_NEST_WORDS ? used : EVT_CFG_USER_NEST_WORDS);
            if (__atomic_compare_exchange_n(&t_un.used, &used, 0u, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) pos = 0;
        }
        evt_posix_hold_signals(0); /* signals held meanwhile run here */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&t_un.draining, 0u, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
}

/* N5: the outermost exit of a thread that stashed inside a section, or the end of the carrier's
 * record the stash was made in. Not while the thread is still inside a record of the carrier (an
 * ETW thread-owned record whose slow path took the session lock exits that section inside the
 * record: a drain there would only have its records dropped by the slot's guard): 1, called
 * again at the record's own exit (etw_enc.c owned_after_record). */
static int exit_hook(void)
{
    int (*inside)(void) = t_un.inside;
    if (inside && __atomic_load_n(&t_un.used, __ATOMIC_RELAXED) != 0u && inside()) return 1;
    drain();
    return 0;
}

/* Reserve and fill a stash entry (N2); 2, or the carrier's result for one that does not fit. */
static int stash(nest_write_fn write, int (*inside)(void), unsigned rec, const uint32_t *w, uint32_t n, int at_exit)
{
    evt_posix_note_nested(); /* ETW holds signals around its writes from now on (etw_enc.c hold_begin) */
    if (t_un.write != write) { /* the first entry of an empty stash names its carrier */
        if (evt_user_nest_test_hook_) evt_user_nest_test_hook_();
        /* Entries of another carrier: this record goes to its own as it is. A handler nested here
         * may have named this carrier and stashed since the test above (the thread's first stash,
         * two handlers): then `write` is this carrier's again, and the record is stashed too.
         * Before 2 Dec 2026 it went to the carrier, whose guard dropped it (counted: 1 line in
         * about 1,500 runs of test_user_signals_etw_mt; test_user_nest_first_stash). */
        if (__atomic_load_n(&t_un.used, __ATOMIC_RELAXED) != 0u) {
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            if (t_un.write != write) return write(rec, w, n);
        }
        t_un.write = write;
        t_un.inside = inside;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    uint32_t need = 1u + n, at = __atomic_fetch_add(&t_un.used, need, __ATOMIC_RELAXED);
    if (n == 0u || rec > 0xFFu || need > EVT_CFG_USER_NEST_WORDS || at > EVT_CFG_USER_NEST_WORDS - need) {
        if (at < EVT_CFG_USER_NEST_WORDS) t_un.buf[at] = 0u;
        return write(rec, w, n);
    }
    for (uint32_t i = 0; i < n; i++) t_un.buf[at + 1u + i] = w[i];
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t_un.buf[at] = rec | n << 8;
    if (at_exit) { /* N5 */
        if (!__atomic_load_n(&evt_posix_exit_hook, __ATOMIC_RELAXED))
            __atomic_store_n(&evt_posix_exit_hook, exit_hook, __ATOMIC_RELAXED);
        __atomic_fetch_or(&evt_posix_deferred, 1u, __ATOMIC_RELAXED);
    }
    return 2;
}

int evt_user_nested_write_in_(nest_write_fn write, int (*inside)(void), unsigned rec, const uint32_t *w, uint32_t n)
{
    uint32_t prev = __atomic_load_n(&t_un.depth, __ATOMIC_RELAXED);
    int sect = evt_posix_hold != 0u && !evt_posix_waits_only();
    if (sect) return stash(write, inside, rec, w, n, 1); /* N2, N5 */
    if (inside && inside()) return stash(write, inside, rec, w, n, !prev); /* N2 (XRay, ETW); N5 unless a user write runs */
    __atomic_store_n(&t_un.depth, 1u, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    int r = write(rec, w, n);
    drain(); /* N4 */
    if (!prev) {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        __atomic_store_n(&t_un.depth, 0u, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        drain(); /* a handler that stashed before depth was cleared */
    }
    return r;
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
