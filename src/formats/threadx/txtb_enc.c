/* TXTB recorder (target side): ThreadX's trace API (evt_tx_*) writing the byte-exact ThreadX trace
 * buffer. Freestanding C99: no libc, no malloc; one static recorder, like ThreadX.
 * Facts: shared/formats/threadx.md. Layouts, ids, filter bits: txtb_defs.h. API: evtrace/txtb.h.
 *
 * Invariants
 *  I1 The core gate `g_hot.gate` (evtrace/recorder.h) has bits == enable_bits while state is ON,
 *     else 0; on == (state == ON). Both are written only inside the critical section and read
 *     without it (relaxed atomics): they are the whole hot-path test. A filtered or disabled insert
 *     reads `bits`, tests one bit and returns: no clock read, no context read, no lock, no shared
 *     write.
 *  I1b enable/disable publish bits and on together inside the gate's sequence count, so
 *     user_event_insert's return code comes from a consistent snapshot: SUCCESS means written or
 *     filtered while ON, never "missed an enable".
 *  I2 Every other member of g_rec, and every byte of the trace buffer while state is ON, is read
 *     and written only inside the recorder's own lock (g_rec.lock; no lock shared with another
 *     recorder), except loss.dropped, which a nested context increments atomically (the buffer
 *     init of enable runs outside the lock while state is ENABLING, when nothing else touches the
 *     buffer, see I4).
 *  I3 A record is reserved, filled and committed (current pointer + header word) in one critical
 *     section, so no reader of the buffer and no other recorder ever sees half a slot. The clock is
 *     read inside that section, so timestamps follow slot order (the port counter, which a CPU may
 *     read a few cycles early, is clamped to the last value used).
 *  I4 Inserts write only while state is ON; registrations only while reg_on. enable goes
 *     OFF -> ENABLING (buffer init, lock released) -> ON; disable goes ON -> OFF.
 *  I5 The nesting guard `nest` is set while one insert runs its context callback, time source,
 *     slot writes and buffer-full callback. An insert that enters while it is set (same context
 *     recursing: callbacks, a signal or interrupt inside the section) while state is ON is
 *     stashed (I9), not dropped; one that cannot take the lock in a nested context, or finds no
 *     room in the stash, is not written: it is counted in loss.dropped. An insert that passed the
 *     gate but finds the state no longer ON (it raced disable/enable) is treated as off: not
 *     written, not counted. written + dropped + stashed == inserts that passed the gate while ON.
 *  I6 When losses are pending just before a record's slot is written (after its context and clock
 *     reads, which may themselves have caused a drop), one EVTRACE_LOST (190) record is written
 *     first (info1 = the pending count, info2 = total reported since enable, info3 = magic), same
 *     context and timestamp as the record that follows it. Pending losses are flushed by a LOST
 *     record at disable. enable resets the loss account.
 *  I6b After the first wrap every slot written overwrites a record: a data record adds 1 to
 *     loss.overwritten, a LOST record adds its own count back (re-pended), so the LOST records left
 *     in the buffer always add up to every record dropped or overwritten since enable, less what is
 *     still pending. After disable: records in the buffer + sum of LOST counts == inserts issued.
 *  I6c disable closes the gate and sets OFF before it writes the stop's LOST record, so an insert
 *     nested in that write (a signal handler) sees the trace off: not issued, not counted (a drop
 *     counted then would stay pending after disable). A disable that finds a record of its own
 *     context in progress (nest set: it runs in a handler or callback nested in that record) cannot
 *     write; it sets `owed`, and whoever next frees the nesting guard (the interrupted record, or
 *     enable's RUNNING records) writes the LOST record right after, under the lock it still holds.
 *     A check of the state inside the record would miss a handler that lands after it. A nested
 *     context that could not take the lock (P3) tests the gate and counts its drop inside
 *     evt_loss_race_enter/exit, and disable calls evt_loss_close_wait after closing the gate: the
 *     drop is either counted before the LOST record takes its count, or not issued.
 *  I7 A filtered event never changes another entry (ThreadX's back-patching is not reproduced:
 *     callers supply final info values).
 *  I8 Registry changes follow ThreadX's algorithm (threadx.md §7) exactly; reg_busy keeps a nested
 *     registration (signal inside one) out, silently, like a full registry.
 *  I9 Nested stash (EVT_TX_NEST_STASH_WORDS > 0): an insert nested in a record of its own context
 *     (it holds the lock: the lock is re-entrant for its owner, so only the holder's thread and
 *     its handlers touch the stash) reserves its words with an atomic add on the active half's
 *     stash_used (a handler nested in it reserves after it), stores its slots with its own context
 *     and raw timestamp, and returns: the record is issued. Whoever holds the nesting guard writes
 *     the stashed records, in order, before it leaves the guard (nest_leave: it switches the
 *     active half, writes and empties the other, until the active one is empty), and tests the
 *     stash again after leaving it (a handler that stashed in between); a record that takes the
 *     guard writes whatever is still stashed before itself (a handler that stashed between the
 *     holder's last test and its exit, then another that found the guard free), so records keep
 *     the order they were issued in. On the POSIX port the
 *     drain runs with every signal of its thread blocked (evt_posix_hold_signals), so no handler
 *     lands in a drained record: under TSan, where each record is slow and lets pending signals
 *     in, handlers landing in drained records refilled the stash as fast as it drained and
 *     overflowed it (up to ~1,600 counted drops in 1 run of 3). Reservations that do not
 *     fit a half are dropped and counted; the ones that fit form a prefix of it. A drained record keeps the port
 *     counter's value read by its context, clamped to the last one written (it ran inside the
 *     interrupted record); a time source (TX_TRACE_TIME_SOURCE) is read when it is written. So slot
 *     timestamps still never go back. It is dropped and counted if tracing went off before it was
 *     written. A buffer-full callback that records a buffer's worth per wrap never ends (as it
 *     would recurse outside a record). */
#include "evtrace/txtb.h"

#include "evtrace/port.h"
#include "evtrace/recorder.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_stash.h"

#include "formats/threadx/txtb_switches.h"

/* The buffer's order differs from the host's: a constant 0 without EVT_TX_BYTE_SWAP. */
#define TX_SWAP(r) (EVT_TX_BYTE_SWAP ? (unsigned)(r)->swap : 0u)
/* A stop's LOST record is owed (I6c): only a nested disable can owe one, never without the
 * nesting guard (EVT_REC_NESTING 0, evtrace/recorder.h). */
#define TX_OWED(r) (EVT_REC_NESTING && (r)->owed)
/* A record can run the application's code (buffer-full callback, context callback, time source),
 * which may disable tracing in the middle of enable's RUNNING records. */
#define TX_CALLBACKS (EVT_TX_FULL_NOTIFY || EVT_TX_OPTIONS)

/* enable writes the header as 12 words indexed by field offset: every field starts on a word,
 * reserved1 and name_size share one (reserved1 first). */
/* the public header's inline LOST guard tests the format's own LOST facts */
typedef char tx_lost_facts_check[(EVT_TX_LOST_ID == TXTB_EVTRACE_LOST_ID && EVT_TX_LOST_MAGIC == TXTB_EVTRACE_LOST_MAGIC) ? 1 : -1];
typedef char tx_hdr_words_check[(TXTB_HEADER_SIZE == 48u && TXTB_HDR_RESERVED1 + 2u == TXTB_HDR_NAME_SIZE &&
                                 TXTB_HDR_RESERVED1 % 4u == 0u && TXTB_HDR_RESERVED4 == 44u) ? 1 : -1];

#define TX_LIKELY(x)   EVT_LIKELY(x)
#define TX_UNLIKELY(x) EVT_UNLIKELY(x)
#if defined(__GNUC__) || defined(__clang__)
#define TX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define TX_ALWAYS_INLINE inline
#endif
/* The whole insert inlined into each entry point on 64-bit hosts (speed); one copy on small
 * targets (size: the Cortex-M table in `make check` must not grow). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define TX_HOT_INLINE TX_ALWAYS_INLINE
#define TX_HOST_FAST 1 /* the common-case commit (commit_plain) beside the general one */
#define TX_COLD __attribute__((noinline, cold))
#define TX_GENERAL TX_ALWAYS_INLINE /* commit_locked inline as well: the hooks backend (context callback) takes it on every record */
#define TX_ONE_COPY TX_GENERAL
#else
#define TX_HOT_INLINE
#define TX_HOST_FAST 0 /* one commit only (size) */
#define TX_COLD
#define TX_GENERAL
#if defined(__GNUC__) || defined(__clang__)
#define TX_ONE_COPY __attribute__((noinline)) /* called from several places: one copy (size) */
#else
#define TX_ONE_COPY
#endif
#endif

enum { TX_OFF = 0, TX_ENABLING = 1, TX_ON = 2 };
/* How info fields come from the context (ISR enter/exit, interrupt control carry "stk" etc.). */
enum { TX_MODE_PLAIN = 0, TX_MODE_ISR = 1, TX_MODE_INTCTL = 2 };
/* Or'ed into a plain mode by user_event_insert on small targets: the gate read said off or
 * everything filtered; record decides under the lock (state and filter bits, one consistent
 * view: I1b) and counts a filtered record as done. */
#define TX_MODE_USER_TEST 4u
/* Or'ed into a plain mode by evt_tx_insert_slow_ (the kernel hooks' inserts): commit_plain also
 * serves a recorder whose context comes from the context callback (r->plain == TX_PLAIN_CTXFN).
 * The other inserts keep commit_plain free of that call (their registers). */
#define TX_MODE_CTX_PLAIN 8u
/* r->plain: commit_plain may write the record (port clock, host byte order) with the port's
 * context (TX_PLAIN_PORT) or the context callback's (TX_PLAIN_CTXFN, TX_MODE_CTX_PLAIN inserts). */
/* Or'ed into a plain mode by evt_tx_insert_ctx_: the context words are given (ctx_prio) for a
 * recorder whose context callback is the given fn; otherwise commit_locked takes the callback. */
#define TX_MODE_CTX_GIVEN 16u
#define TX_PLAIN_PORT  1u
#define TX_PLAIN_CTXFN 2u

/* What the hot-path test reads (evtrace/txtb.h: evt_tx_hot_t), alone in its cache line on hosts
 * so that records written by one thread do not slow down the filtered/disabled test of another. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__))
#define TX_LINE_ALIGNED __attribute__((aligned(64)))
#else
#define TX_LINE_ALIGNED
#endif
evt_tx_hot_t evt_tx_hot_ TX_LINE_ALIGNED;
#define g_hot evt_tx_hot_

/* An entry: k (slots), context, priority word, raw timestamp, then k slots of 5 words (id, info1..4). */
#define TX_STASH_HEAD 4u
#define TX_STASH_SLOT 5u
/* The recorder. */
typedef struct tx_rec {
    evt_rec_lock lock;          /* this recorder's critical section (I2) */
    evt_nest nest;              /* an insert is in progress in this section (I5) */
    uint8_t state;              /* TX_OFF / TX_ENABLING / TX_ON */
    uint8_t reg_busy;           /* a registry change is in progress (I8) */
    uint8_t reg_on;             /* registry usable (ThreadX: registry start != NULL) */
    uint8_t swap;               /* buffer order differs from the host's */
    uint8_t wrapped;            /* the event area has wrapped since enable: slots hold records (I6b) */
    uint8_t plain;              /* set at enable: port clock, host byte order and TX_PLAIN_PORT (port
                                   context) or TX_PLAIN_CTXFN (context callback); 0: commit_locked */
    uint8_t owed;               /* disable met a record of its own context in progress (a signal or
                                   interrupt inside it, or its buffer-full callback): the stop's LOST
                                   record is written when that record ends (I6c) */
    uint32_t enable_bits;       /* ThreadX _tx_trace_event_enable_bits (kept while off) */
    uint8_t *hdr;               /* control header = buffer start */
    uint8_t *reg;               /* registry entry 0 */
    uint8_t *ev_start, *ev_end; /* event slots [start, end) */
    uint8_t *cur;               /* next slot to write (oldest after a wrap) */
    uint32_t addr_off;          /* target address of hdr less hdr's low 32 bits: a byte's target
                                   address is its own low 32 bits plus this (mod 2^32) */
    uint32_t reg_total;         /* registry entries R */
    uint32_t reg_avail;         /* ThreadX _tx_trace_available_registry_entries */
    uint32_t reg_search;        /* ThreadX _tx_trace_registry_search_start */
    uint32_t reg_size;          /* 16 + name_size */
    uint32_t name_size;         /* registry name field size */
    evt_clock32 clock;          /* time source (TX_TRACE_TIME_SOURCE) or the clamped port counter (I3) */
    evt_tx_context_fn ctxfn;    /* NULL: the port default */
    void (*full_cb)(void *);    /* buffer-full callback (survives disable/enable; NULL without
                                   EVT_TX_FULL_NOTIFY) */
    evt_loss loss;              /* since enable (I5, I6) */
    evt_rec_count wraps;        /* since enable (a word, like the loss account) */
#if EVT_TX_INSERT_CTX_ && TX_HOST_FAST
    evt_tx_context_fn plain_fn; /* ctxfn when plain == TX_PLAIN_CTXFN, else NULL: given context
                                   words may take commit_plain (one compare) */
#endif
#if EVT_TX_NEST_STASH_WORDS
    union {
        uint32_t half[2];       /* words of each half of g_stash reserved by nested inserts (I9) */
        uint64_t both;          /* both at once: the stash is empty when it is 0 (one load) */
    } stash_used;
    uint32_t stash_act;         /* the half nested inserts reserve in (the other one is empty or
                                   being written by the holder of the nesting guard) */
#endif
} tx_rec;

#if EVT_TX_NEST_STASH_WORDS
#define TX_STASH_HALF (EVT_TX_NEST_STASH_WORDS / 2u)
static uint32_t g_stash[2][TX_STASH_HALF];
#endif

static tx_rec g_rec TX_LINE_ALIGNED;
/* evt_tx_stats of the sessions before the last enable (lock holder; read by get_stats). Beside
 * g_rec, not in it: that keeps g_rec small enough for the short load/store encodings of small
 * targets to reach it and the gate after it. */
#if EVT_TX_STATS
static evt_tx_stats g_prior;
/* g_prior is written by enable (lock held) and read by get_stats from any context, another thread's
 * signal handler included: relaxed atomics where 64-bit ones are lock-free (hosts); elsewhere
 * (Cortex-M) the lock masks every reader while enable writes. */
#if EVT_ATOMIC64
#define TX_FOLD_PRIOR()                                            \
    do {                                                           \
        evt_tx_stats now_;                                         \
        evt_tx_trace_get_stats(&now_);                             \
        EVT_STORE64_RLX(&g_prior.written, now_.written);           \
        EVT_STORE64_RLX(&g_prior.dropped, now_.dropped);           \
        EVT_STORE64_RLX(&g_prior.wraps, now_.wraps);               \
        EVT_STORE64_RLX(&g_prior.lost_records, now_.lost_records); \
    } while (0)
#else
#define TX_FOLD_PRIOR() evt_tx_trace_get_stats(&g_prior)
#endif
#endif

/* ---- kernel-event filter bits, generated from TXTB_EVENT_TABLE ---------------------------------- */

#define TX_KERNEL_IDS 200u  /* ThreadX's own id range 1..199 */
/* Filter bit -> 1 + its bit number; 33 = "never recorded" (filter 0: the LOST record). */
#define TX_FIDX_(f) ((f) == 0u ? 33 : (f) == 0x1u ? 1 : (f) == 0x2u ? 2 : (f) == 0x4u ? 3 :        \
                     (f) == 0x8u ? 4 : (f) == 0x10u ? 5 : (f) == 0x20u ? 6 : (f) == 0x40u ? 7 :    \
                     (f) == 0x80u ? 8 : (f) == 0x100u ? 9 : (f) == 0x200u ? 10 : (f) == 0x400u ? 11 : \
                     (f) == 0x80000000u ? 32 : 0)
/* Compile-time checks: every table id lies in 1..199 and its filter is 0 or one known bit. */
#define TX_CHECK_(id, name, filt, kind) \
    char chk_##name[((id) >= 1 && (id) < TX_KERNEL_IDS && TX_FIDX_(filt) != 0) ? 1 : -1];
struct tx_table_check { TXTB_EVENT_TABLE(TX_CHECK_) };
#undef TX_CHECK_
/* No id twice in the table: a designated initializer per id, judged at compile time only
 * (-Woverride-init fails a duplicate; the array is never emitted). */
#define TX_DUP_(id, name, filt, kind) [id] = 1,
typedef char tx_table_ids_unique[sizeof((const uint8_t[TX_KERNEL_IDS]){TXTB_EVENT_TABLE(TX_DUP_)})];
#undef TX_DUP_

/* The table's filter groups as id ranges (ThreadX numbers each group's events consecutively); an
 * id in no range is internal. This replaces a 200-byte per-id table. It is the table: checked
 * against TXTB_EVENT_TABLE at compile time, every table id gets its own filter here, and the
 * ranges hold as many ids (of 0..199) as the table has ids outside the internal group, which the
 * unique ids above make exactly the table's. X(a, first id, last id, filter); the recorder scans
 * them as a 3-byte-per-range table (tx_ranges), the checks below read them as one expression. */
#define TX_RANGES_(X, a)                                                                               \
    X(a, 10u, 17u, TXTB_F_BLOCK) X(a, 20u, 27u, TXTB_F_BYTE) X(a, 30u, 37u, TXTB_F_FLAGS)              \
    X(a, 40u, 40u, TXTB_F_INTCTL) X(a, 50u, 57u, TXTB_F_MUTEX) X(a, 60u, 70u, TXTB_F_QUEUE)            \
    X(a, 80u, 89u, TXTB_F_SEM) X(a, 100u, 117u, TXTB_F_THREAD) X(a, 120u, 121u, TXTB_F_TIME)           \
    X(a, 122u, 129u, TXTB_F_TIMER) X(a, 190u, 190u, 0u)
#define TX_RANGE_IF_(x, lo, hi, f) (x) >= (lo) && (x) <= (hi) ? (f) :
#define TX_RANGE_FILTER_(x) (TX_RANGES_(TX_RANGE_IF_, x) TXTB_F_INTERNAL)
/* A range's filter is 0 or one bit, so a row holds it as TX_FIDX_ mod 33: (1 << fidx) >> 1. */
#define TX_RANGE_BIT_OK_(a, lo, hi, f) char bit_##lo[(TX_FIDX_(f) != 0 && (lo) <= (hi) && (hi) < TX_KERNEL_IDS) ? 1 : -1];
struct tx_range_bit_check { TX_RANGES_(TX_RANGE_BIT_OK_, ~) };
#undef TX_RANGE_BIT_OK_
#define TX_RANGED_(id, name, filt, kind) char rng_##name[TX_RANGE_FILTER_(id) == (filt) ? 1 : -1];
struct tx_range_check { TXTB_EVENT_TABLE(TX_RANGED_) };
#undef TX_RANGED_
#define TX_IN_RANGES_(x) +(TX_RANGE_FILTER_(x) != TXTB_F_INTERNAL)
#define TX_TABLE_IN_RANGES_(id, name, filt, kind) TX_IN_RANGES_(id)
#define TX_TEN_(d) TX_IN_RANGES_(d##0) TX_IN_RANGES_(d##1) TX_IN_RANGES_(d##2) TX_IN_RANGES_(d##3)         \
    TX_IN_RANGES_(d##4) TX_IN_RANGES_(d##5) TX_IN_RANGES_(d##6) TX_IN_RANGES_(d##7) TX_IN_RANGES_(d##8)    \
    TX_IN_RANGES_(d##9)
#define TX_IDS_0_199_IN_RANGES_                                                                            \
    TX_TEN_() TX_TEN_(1) TX_TEN_(2) TX_TEN_(3) TX_TEN_(4) TX_TEN_(5) TX_TEN_(6) TX_TEN_(7) TX_TEN_(8)       \
    TX_TEN_(9) TX_TEN_(10) TX_TEN_(11) TX_TEN_(12) TX_TEN_(13) TX_TEN_(14) TX_TEN_(15) TX_TEN_(16)         \
    TX_TEN_(17) TX_TEN_(18) TX_TEN_(19)
typedef char tx_ranges_are_the_table[(0 TXTB_EVENT_TABLE(TX_TABLE_IN_RANGES_)) == (0 TX_IDS_0_199_IN_RANGES_) ? 1 : -1];
#undef TX_TABLE_IN_RANGES_
#undef TX_TEN_
#undef TX_IDS_0_199_IN_RANGES_
#undef TX_IN_RANGES_

#if EVT_TX_KERNEL_EVENTS
typedef struct tx_range {
    uint8_t first, span, fidx; /* ids first..first+span; filter (1 << fidx) >> 1 */
} tx_range;
#define TX_RANGE_ROW_(a, lo, hi, f) {(lo), (hi) - (lo), TX_FIDX_(f) % 33},
static const tx_range tx_ranges[] = {TX_RANGES_(TX_RANGE_ROW_, ~)};
#undef TX_RANGE_ROW_

static uint32_t kernel_filter(uint32_t id)
{
    if (id < TX_KERNEL_IDS) {
        for (const tx_range *g = tx_ranges; g < tx_ranges + sizeof tx_ranges / sizeof tx_ranges[0]; g++)
            if (id - g->first <= g->span) return (1u << g->fidx) >> 1;
        return TXTB_F_INTERNAL;
    }
    if (id < 300u) return TXTB_FX_ALL_EVENTS;
    if (id < 600u) return TXTB_NX_ALL_EVENTS;
    if (id < 1100u) return TXTB_UX_ALL_EVENTS;
    if (id < TXTB_USER_EVENT_START) return TXTB_F_INTERNAL;
    return TXTB_F_USER;
}
#endif

/* Publish gate and on for enable/disable (lock held), see I1b. */
static void publish(uint32_t gate, uint32_t on) { evt_gate_publish(&g_hot.gate, gate, on); }
/* Publish the filter bits and state in effect (I1), again until a publish saw them unchanged: a
 * filter call from a signal handler on this thread re-enters the lock (P2) and may land after the
 * values were read for the gate, its own publish then overwritten by the stale ones (before: about
 * 1 handler in 100 that changed the filter inside its thread's filter change had its change
 * undone in the gate until the next change, test_txtb_filter_isr_mt). Between the stale store and
 * the one after it a record may still see the stale word: a transient of a few instructions, not a
 * lost change. (A compare-and-swap from the word read first is no better: two handler runs that
 * flip a bit and back between the reads let a stale swap succeed for good.) Under the lock; not on
 * a record's path. Where the lock masks every context that could call in
 * (EVT_PORT_LOCK_MAY_FAIL 0) nothing nests: one publish, as before (small code). */
#if EVT_PORT_LOCK_MAY_FAIL
static void publish_state(tx_rec *r)
{
    for (;;) {
        uint32_t bits = EVT_LOAD_RLX(&r->enable_bits);
        uint32_t on = EVT_LOAD_RLX(&r->state) == TX_ON;
        publish(bits, on);
        if (EVT_LOAD_RLX(&r->enable_bits) == bits && (uint32_t)(EVT_LOAD_RLX(&r->state) == TX_ON) == on) return;
    }
}
/* set_filter while ON: the gate is not on yet inside enable's section, whose publish takes them. */
#define TX_PUBLISH_FILTER(r) do { if (EVT_LOAD_RLX(&g_hot.gate.on)) publish_state(r); } while (0)
#else
#define publish_state(r) publish((r)->enable_bits, 1u) /* only called while ON */
#define TX_PUBLISH_FILTER(r) evt_gate_set_bits(&g_hot.gate, (r)->enable_bits)
#endif

/* ---- byte helpers ------------------------------------------------------------------------------- */

static uint32_t addr_of(const tx_rec *r, const uint8_t *p) { return (uint32_t)(uintptr_t)p + r->addr_off; }

/* Store / load a 32-bit word in host order at any alignment (one store or load). */
static inline void store_host32(uint8_t *p, uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_memcpy(p, &v, 4);
#else
    const uint8_t *q = (const uint8_t *)&v;
    p[0] = q[0]; p[1] = q[1]; p[2] = q[2]; p[3] = q[3];
#endif
}
static inline uint32_t load_host32(const uint8_t *p)
{
    uint32_t v;
#if defined(__GNUC__) || defined(__clang__)
    __builtin_memcpy(&v, p, 4);
#else
    uint8_t *q = (uint8_t *)&v;
    q[0] = p[0]; q[1] = p[1]; q[2] = p[2]; q[3] = p[3];
#endif
    return v;
}
static inline uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

/* A word of the buffer in the buffer's byte order (swap: it differs from the host's). Every
 * multi-byte field of the buffer goes through these two. */
static void put_word(uint8_t *p, uint32_t v, unsigned swap) { store_host32(p, swap ? bswap32(v) : v); }
static uint32_t get_word(const uint8_t *p, unsigned swap)
{
    uint32_t v = load_host32(p);
    return swap ? bswap32(v) : v;
}

/* One slot's eight words in the host's byte order, by field offset (txtb_defs.h). */
static inline void store_slot_host(uint8_t *s, uint32_t ctx, uint32_t prio, uint32_t id, uint32_t ts,
                                   uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    store_host32(s + TXTB_EV_CONTEXT, ctx);
    store_host32(s + TXTB_EV_PRIORITY, prio);
    store_host32(s + TXTB_EV_ID, id);
    store_host32(s + TXTB_EV_TIMESTAMP, ts);
    store_host32(s + TXTB_EV_INFO1, i1);
    store_host32(s + TXTB_EV_INFO2, i2);
    store_host32(s + TXTB_EV_INFO3, i3);
    store_host32(s + TXTB_EV_INFO4, i4);
}

/* enable clears a registry entry's four leading bytes as one word. */
typedef char tx_reg_word_check[(TXTB_REG_AVAILABLE == 0u && TXTB_REG_TYPE == 1u && TXTB_REG_RESERVED1 == 2u &&
                                TXTB_REG_RESERVED2 == 3u && TXTB_REG_POINTER == 4u) ? 1 : -1];

/* A record being written, as the slot's eight words: word k is stored at offset 4k. */
enum { W_CTX, W_PRIO, W_ID, W_TS, W_I1, W_I2, W_I3, W_I4, W_N };
typedef char tx_slot_words_check[(TXTB_EV_CONTEXT == 4u * W_CTX && TXTB_EV_PRIORITY == 4u * W_PRIO &&
                                  TXTB_EV_ID == 4u * W_ID && TXTB_EV_TIMESTAMP == 4u * W_TS &&
                                  TXTB_EV_INFO1 == 4u * W_I1 && TXTB_EV_INFO2 == 4u * W_I2 &&
                                  TXTB_EV_INFO3 == 4u * W_I3 && TXTB_EV_INFO4 == 4u * W_I4 &&
                                  TXTB_EVENT_SIZE == 4u * W_N) ? 1 : -1];

/* ---- context ------------------------------------------------------------------------------------ */

/* What a record and the LOST record written before or after it share: the context and the
 * timestamp. */
typedef struct tx_head {
    evt_tx_context c;
    uint32_t ts;
} tx_head;

/* The context (callback or port default). */
static TX_GENERAL void begin_context(tx_rec *r, tx_head *h)
{
    evt_tx_context *c = &h->c;
#if EVT_TX_OPTIONS
    c->context = 0;
    c->priority_word = 0;
    c->system_state = 0;
    c->preempt_disable = 0;
    c->stack = evt_tx_addr(c);
    if (r->ctxfn) {
        r->ctxfn(c);
    } else if (evt_port_in_isr()) {
        c->context = TXTB_CTX_ISR;
    } else {
        c->context = (uint32_t)evt_port_context_id();
        c->priority_word = TXTB_PRIO_CURRENT_BIT;
    }
    /* Context 0 would mark the slot as never written: report it as initialisation. */
    if (c->context == TXTB_CTX_NONE) {
        c->context = TXTB_CTX_INIT;
        c->priority_word = 0;
    }
    if (c->system_state == 0u) {
        if (c->context == TXTB_CTX_ISR) c->system_state = 1u;
        else if (c->context == TXTB_CTX_INIT) c->system_state = TXTB_CTX_INIT;
    }
#else
    /* The port's context only, the same values; no record reads system_state, stack or
     * preempt_disable (context_insert gives the ISR records their infos). */
    (void)r;
    uint32_t ctx = TXTB_CTX_ISR, prio = 0u;
    if (!evt_port_in_isr()) {
        ctx = (uint32_t)evt_port_context_id();
        prio = TXTB_PRIO_CURRENT_BIT;
        if (ctx == TXTB_CTX_NONE) { /* context 0 would mark the slot as never written */
            ctx = TXTB_CTX_INIT;
            prio = 0u;
        }
    }
    c->context = ctx;
    c->priority_word = prio;
#endif
}

/* The context and, after it, the timestamp (I3: inside the section). */
static TX_GENERAL void begin_record(tx_rec *r, tx_head *h)
{
    begin_context(r, h);
#if EVT_TX_OPTIONS
    h->ts = evt_clock32_read(&r->clock);
#else
    h->ts = evt_clock32_read_port(&r->clock);
#endif
}

/* ---- the insert --------------------------------------------------------------------------------- */

/* The slot at cur is about to be written: after a wrap it holds a record, which is lost (I6b). */
static TX_GENERAL void reclaim_slot(tx_rec *r)
{
    if (TX_LIKELY(!r->wrapped)) return;
    const uint8_t *s = r->cur;
    unsigned swap = TX_SWAP(r);
    /* After a wrap every slot holds a record (its context is never 0): the id word decides. */
    if (TX_LIKELY(get_word(s + TXTB_EV_ID, swap) != TXTB_EVTRACE_LOST_ID) ||
        get_word(s + TXTB_EV_INFO3, swap) != TXTB_EVTRACE_LOST_MAGIC)
        evt_loss_overwritten_at_stop(&r->loss, 1u);
    else /* a LOST record: re-pend what it carried */
        evt_loss_repend(&r->loss, (uint32_t)(get_word(s + TXTB_EV_INFO1, swap) + get_word(s + TXTB_EV_INFO4, swap)));
}

/* A slot's words in the buffer's order, one by one (small code; on hosts only for the other byte
 * order). */
static TX_COLD void store_slot_words(uint8_t *s, const tx_head *h, uint32_t id, uint32_t i1, uint32_t i2,
                                     uint32_t i3, uint32_t i4, unsigned swap)
{
    const uint32_t w[W_N] = {h->c.context, h->c.priority_word, id, h->ts, i1, i2, i3, i4};
    for (unsigned k = 0; k < W_N; k++) put_word(s + 4u * k, w[k], swap);
}

/* Store a record in the slot at cur (already reclaimed) and advance cur. A wrap is counted, marks
 * the area wrapped (I6b) and returns 1 (the caller calls the buffer-full callback). */
static TX_ONE_COPY unsigned put_slot(tx_rec *r, const tx_head *h, uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3,
                                    uint32_t i4)
{
    uint8_t *s = r->cur;
    unsigned swap = TX_SWAP(r), wrapped = 0;
#if TX_HOST_FAST || !EVT_TX_BYTE_SWAP /* (without the other order: eight stores, less code than the loop) */
    if (TX_LIKELY(!swap)) store_slot_host(s, h->c.context, h->c.priority_word, id, h->ts, i1, i2, i3, i4);
    else
#endif
    store_slot_words(s, h, id, i1, i2, i3, i4, swap);
    s += TXTB_EVENT_SIZE;
    if (TX_UNLIKELY(s >= r->ev_end)) {
        s = r->ev_start;
#if EVT_TX_STATS
        EVT_STORE_RLX(&r->wraps, r->wraps + 1u); /* read by get_stats from any context */
#endif
        r->wrapped = 1u;
        wrapped = 1u;
    }
    r->cur = s;
    put_word(r->hdr + TXTB_HDR_CURRENT, addr_of(r, s), swap);
    return wrapped;
}

/* Write one LOST record (I6) with the context and timestamp of h: info1 = pending drops (and
 * re-pended counts), info2 = their total since enable, info4 = records overwritten by wraps not yet
 * reported (only at stop: `at_stop`). Lock held, nest set. Returns 1 if the slot write wrapped. */
static unsigned put_lost(tx_rec *r, const tx_head *h, int at_stop)
{
    reclaim_slot(r); /* first: an overwritten LOST record's count is carried by this one */
    uint32_t n = (uint32_t)evt_loss_take(&r->loss);
    uint32_t ow = at_stop ? (uint32_t)evt_loss_take_at_stop(&r->loss) : 0u;
    return put_slot(r, h, TXTB_EVTRACE_LOST_ID, n, (uint32_t)r->loss.reported, TXTB_EVTRACE_LOST_MAGIC, ow);
}

/* Losses to flush when tracing stops. */
static inline int stop_pending(const tx_rec *r)
{
    return evt_loss_pending(&r->loss) != 0u || evt_loss_pending_at_stop(&r->loss) != 0u;
}

/* The stop's LOST record (I6, I6c), lock held, trace off: written if losses are pending. Returns 0
 * when a record of this context is in progress (the nesting guard is set: nothing can be written;
 * the caller leaves it owed). */
static TX_COLD int stop_lost(tx_rec *r)
{
    if (!evt_nest_enter(&r->nest)) return 0;
    /* Inside the guard a nested enable or disable is refused: state and account stay as seen. */
    if ((!EVT_REC_NESTING || r->state == TX_OFF) && stop_pending(r)) { /* (no guard: nothing nests, still OFF) */
        tx_head h;
        begin_record(r, &h);
        (void)put_lost(r, &h, 1);
    }
    evt_nest_exit(&r->nest);
    return 1;
}

/* A disable nested in a record of this context could not write the stop's LOST record (I6c):
 * write it now. Lock held, nest free (the record that was in progress has ended). */
static TX_COLD void flush_owed(tx_rec *r) { r->owed = (uint8_t)!stop_lost(r); }

/* The buffer-full callback once per wrap, after the record that wrapped. */
static void notify_full(const tx_rec *r, unsigned wraps)
{
#if EVT_TX_FULL_NOTIFY
    for (; wraps != 0u; wraps--) {
        void (*cb)(void *) = EVT_LOAD_ACQ(&r->full_cb);
        if (cb) cb(r->hdr);
    }
#else
    (void)r; (void)wraps;
#endif
}

/* The infos an ISR or interrupt-control record takes from its context (with options; without
 * them, context_insert gives these records their infos). */
static inline void mode_infos(const tx_head *h, unsigned mode, uint32_t *i1, uint32_t *i2, uint32_t *i3,
                              uint32_t *i4)
{
#if EVT_TX_OPTIONS
    if (mode == TX_MODE_ISR) {
        *i1 = h->c.stack;
        *i3 = h->c.system_state;
        *i4 = h->c.preempt_disable;
    } else if (mode == TX_MODE_INTCTL) {
        *i2 = h->c.stack;
    }
#else
    (void)h, (void)mode, (void)i1, (void)i2, (void)i3, (void)i4;
#endif
}

/* Write one record (plus a LOST record first if losses are pending). Lock held, nest set, state ON. */
static TX_GENERAL void commit_locked(tx_rec *r, uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4,
                          unsigned mode)
{
    tx_head h;
    unsigned wraps = 0;
    begin_record(r, &h);
    mode_infos(&h, mode, &i1, &i2, &i3, &i4);
    if (TX_UNLIKELY(evt_loss_pending(&r->loss) != 0u)) wraps = put_lost(r, &h, 0);
    reclaim_slot(r);
    wraps += put_slot(r, &h, id, i1, i2, i3, i4);
    evt_loss_written(&r->loss, 1u);
    if (TX_UNLIKELY(wraps != 0u)) notify_full(r, wraps);
    /* Disabled meanwhile (buffer-full callback, or a handler inside this record): the caller
     * writes the owed LOST record after leaving the nesting guard (I6c). */
}

/* The rare end of commit_plain, out of line so that its common path makes no call (hosts): the
 * slot it wrote wrapped. */
static TX_COLD void plain_wrapped(tx_rec *r)
{
    EVT_STORE_RLX(&r->wraps, r->wraps + 1u); /* read by get_stats from any context */
    r->wrapped = 1u;
    notify_full(r, 1u);
}

/* commit_locked for a plain-mode record of a recorder with r->plain set and no loss pending (the
 * common case on hosts): the same slot, context, timestamp and accounting, without the callbacks,
 * the byte swap and the context structure. Returns 0, having written nothing, when a loss is
 * pending (the caller then takes commit_locked, which writes the loss record first). Lock held,
 * nest set, state ON. */
static TX_HOT_INLINE unsigned commit_plain(tx_rec *r, uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4,
                                           unsigned ctxp, uint64_t given)
{
    if (TX_UNLIKELY(evt_loss_pending(&r->loss) != 0u)) return 0;
    uint32_t ctx = TXTB_CTX_ISR, prio = 0u; /* begin_record with no context callback */
#if EVT_TX_OPTIONS
    if (ctxp == TX_MODE_CTX_GIVEN) { /* what the callback would give (never context 0) */
        ctx = (uint32_t)given;
        prio = (uint32_t)(given >> 32);
    } else if (ctxp && r->plain == TX_PLAIN_CTXFN) { /* the callback's context: the two words a plain record keeps */
        tx_head h;
        begin_context(r, &h);
        ctx = h.c.context;
        prio = h.c.priority_word;
    } else
#else
    (void)ctxp;
    (void)given;
#endif
    if (TX_LIKELY(!evt_port_in_isr())) {
        ctx = (uint32_t)evt_port_context_id();
        prio = TXTB_PRIO_CURRENT_BIT;
        if (TX_UNLIKELY(ctx == TXTB_CTX_NONE)) {
            ctx = TXTB_CTX_INIT;
            prio = 0u;
        }
    }
    uint32_t ts = evt_clock32_read_port(&r->clock);
    uint8_t *s = r->cur;
    if (TX_LIKELY(r->wrapped)) { /* reclaim_slot in host order */
        uint32_t w_id, w_i3;
        __builtin_memcpy(&w_id, s + TXTB_EV_ID, 4);
        __builtin_memcpy(&w_i3, s + TXTB_EV_INFO3, 4);
        if (TX_LIKELY(w_id != TXTB_EVTRACE_LOST_ID) || w_i3 != TXTB_EVTRACE_LOST_MAGIC) {
            evt_loss_overwritten_at_stop(&r->loss, 1u);
        } else {
            uint32_t n1, n4;
            __builtin_memcpy(&n1, s + TXTB_EV_INFO1, 4);
            __builtin_memcpy(&n4, s + TXTB_EV_INFO4, 4);
            evt_loss_repend(&r->loss, (uint32_t)(n1 + n4));
        }
    }
    store_slot_host(s, ctx, prio, id, ts, i1, i2, i3, i4);
    s += TXTB_EVENT_SIZE;
    unsigned wrapped = 0;
    if (TX_UNLIKELY(s >= r->ev_end)) {
        s = r->ev_start;
        wrapped = 1u;
    }
    r->cur = s;
    store_host32(r->hdr + TXTB_HDR_CURRENT, addr_of(r, s));
    evt_loss_written(&r->loss, 1u);
    if (TX_UNLIKELY(wrapped)) plain_wrapped(r);
    return 1;
}

/* ---- I9: records nested in a record of their own context ------------------------------------- */

#if EVT_TX_NEST_STASH_WORDS
/* Reserve an entry of k slots in the stash for a nested insert (lock held by this thread, nest
 * set by an interrupted record, state ON); fill its head (this context, the raw clock: the clamp
 * state belongs to the interrupted record) into h and the entry. Returns the entry's slots (k * 5
 * words to fill), or NULL when it does not fit (dropped, counted; a marker k = 0 ends the prefix). */
static TX_COLD uint32_t *stash_reserve(tx_rec *r, uint32_t k, tx_head *h)
{
    uint32_t need = TX_STASH_HEAD + TX_STASH_SLOT * k, a = EVT_LOAD_RLX(&r->stash_act);
    /* a handler nested here reserves after (the half cannot change under us: only the holder of
     * the nesting guard, an outer frame, switches it) */
    uint32_t at = __atomic_fetch_add(&r->stash_used.half[a], need, __ATOMIC_RELAXED);
    if (need > TX_STASH_HALF || at > TX_STASH_HALF - need) {
        if (at < TX_STASH_HALF) g_stash[a][at] = 0u;
        EVT_ADD_RLX(&r->loss.dropped, k); /* k drops (evt_loss_drop k times, one add) */
        return 0;
    }
    uint32_t *e = g_stash[a] + at;
    begin_context(r, h);
    h->ts = r->clock.fn ? 0u : (uint32_t)evt_port_timestamp(); /* a time source: read when written */
    e[1] = h->c.context;
    e[2] = h->c.priority_word;
    e[3] = h->ts;
    e[0] = k;
    return e + TX_STASH_HEAD;
}

/* Write one stashed entry as its record (plus a LOST record first if losses are pending). Lock
 * held, nest set. */
static TX_COLD void stash_write(tx_rec *r, const uint32_t *e)
{
    uint32_t k = e[0];
    if (r->state != TX_ON || (uint32_t)((r->ev_end - r->ev_start) / TXTB_EVENT_SIZE) <= k) {
        for (uint32_t j = 0; j < k; j++) evt_loss_drop(&r->loss); /* issued while ON: counted */
        return;
    }
    tx_head h;
    h.c.context = e[1];
    h.c.priority_word = e[2];
    uint32_t t = e[3];
    if (r->clock.fn) { /* a time source is read in record order (I3): now */
        t = r->clock.fn();
    } else { /* it ran inside the record written last: never before it */
        if (evt_port_timestamp_bits() >= 32u && (uint32_t)(r->clock.last - t) - 1u < EVT_CLOCK_CLAMP_TICKS - 1u)
            t = r->clock.last;
        r->clock.last = t;
    }
    h.ts = t;
    unsigned wraps = 0;
    if (evt_loss_pending(&r->loss) != 0u) wraps = put_lost(r, &h, 0);
    for (uint32_t j = 0; j < k; j++) {
        const uint32_t *v = e + TX_STASH_HEAD + TX_STASH_SLOT * j;
        reclaim_slot(r);
        wraps += put_slot(r, &h, v[0], v[1], v[2], v[3], v[4]);
    }
    evt_loss_written(&r->loss, k);
    if (wraps != 0u) notify_full(r, wraps);
}

/* Write every stashed entry, in order, and empty the stash (lock held, nest set): the active half is
 * switched, then written whole and emptied, while entries a handler adds meanwhile go to the other
 * half, written next (so a steady stream of handlers never fills a half that is being written). */
static TX_COLD void stash_drain(tx_rec *r)
{
#ifdef EVT_PORT_POSIX
    evt_posix_hold_signals(1); /* no handler lands in a drained record (I9): two system calls */
#endif
    for (;;) {
        uint32_t a = EVT_LOAD_RLX(&r->stash_act), used = __atomic_load_n(&r->stash_used.half[a], __ATOMIC_RELAXED);
        if (used == 0u) break;
        /* New nested inserts go to the other half (empty); every one that reserved in this half
         * has finished (it interrupted this context), so this half is still now. */
        EVT_STORE_RLX(&r->stash_act, a ^ 1u);
        EVT_SIGNAL_FENCE();
        used = __atomic_load_n(&r->stash_used.half[a], __ATOMIC_RELAXED);
        uint32_t lim = used < TX_STASH_HALF ? used : TX_STASH_HALF;
        for (uint32_t pos = 0; pos < lim && g_stash[a][pos] != 0u; /* k = 0: one that did not fit, the end */
             pos += TX_STASH_HEAD + TX_STASH_SLOT * g_stash[a][pos])
            stash_write(r, g_stash[a] + pos);
        EVT_SIGNAL_FENCE();
        EVT_STORE_RLX(&r->stash_used.half[a], 0u);
    }
#ifdef EVT_PORT_POSIX
    evt_posix_hold_signals(0); /* the signals held meanwhile land now: nest_leave tests again */
#endif
}
#endif

/* Take the nesting guard (lock held, cs its enter state) for a record; 0 if a record of this
 * context holds it. With the guard, whatever is still stashed is written first (I9): a handler
 * that stashed just before the holder left the guard is drained by this record, not after it, so
 * records reach the buffer in the order they were issued (a CALL never before the SITE record a
 * handler stashed). Only a context that re-entered the lock its thread holds can find the stash
 * non-empty (an outermost take follows a holder that left the guard with the stash empty, and
 * nothing stashes while the guard is free): on the POSIX port (re-entry: cs 0) the others do not
 * look. */
static TX_HOT_INLINE int nest_take(tx_rec *r, evt_port_crit_t cs)
{
    if (TX_UNLIKELY(!evt_nest_enter(&r->nest))) return 0;
#if EVT_TX_NEST_STASH_WORDS
#ifdef EVT_PORT_POSIX
    if (TX_LIKELY(cs != 0u)) return 1;
#endif
    if (TX_UNLIKELY(EVT_LOAD_RLX(&r->stash_used.both) != 0u)) stash_drain(r);
#endif
    (void)cs;
    return 1;
}

/* Leave the nesting guard (lock held), writing first what nested inserts stashed (I9), and again
 * if a handler stashed between that and the exit. */
static TX_HOT_INLINE void nest_leave(tx_rec *r)
{
#if EVT_TX_NEST_STASH_WORDS
    for (;;) {
        if (TX_UNLIKELY(EVT_LOAD_RLX(&r->stash_used.both) != 0u)) stash_drain(r);
        evt_nest_exit(&r->nest);
        if (TX_LIKELY(EVT_LOAD_RLX(&r->stash_used.both) == 0u) ||
            !evt_nest_enter(&r->nest))
            return;
    }
#else
    evt_nest_exit(&r->nest);
#endif
}

#if EVT_TX_NEST_STASH_WORDS
/* An insert that found a record of its own context in progress (nest set, lock held): stashed
 * while ON (I9: returns 1, issued), else not written (I5). */
static TX_COLD unsigned nested_insert(tx_rec *r, uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4,
                                      unsigned mode)
{
    if (r->state != TX_ON) return 0; /* off (a disable's LOST record in progress): not issued */
    tx_head h;
    uint32_t *v = stash_reserve(r, 1u, &h);
    if (!v) return 0;
    mode_infos(&h, mode, &i1, &i2, &i3, &i4);
    v[0] = id;
    v[1] = i1;
    v[2] = i2;
    v[3] = i3;
    v[4] = i4;
    return 1;
}
#endif

/* plain == TX_PLAIN_CTXFN && ctxfn == fn (fn never NULL). */
#if EVT_TX_INSERT_CTX_ && TX_HOST_FAST
#define TX_PLAIN_FN_IS(r, fn) ((r)->plain_fn == (fn))
#else
#define TX_PLAIN_FN_IS(r, fn) ((r)->plain == TX_PLAIN_CTXFN && (r)->ctxfn == (fn))
#endif

/* The insert after the gate passed. Returns 1 if written, 0 if dropped or off. */
static TX_HOT_INLINE unsigned record_ctx(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, unsigned mode,
                                         uint64_t given, evt_tx_context_fn given_fn)
{
    tx_rec *r = &g_rec;
    evt_port_crit_t cs;
    unsigned ctxp = mode & (TX_MODE_CTX_PLAIN | TX_MODE_CTX_GIVEN); /* a constant, as mode */
    mode &= ~(TX_MODE_CTX_PLAIN | TX_MODE_CTX_GIVEN);
    if (TX_UNLIKELY(!evt_rec_lock_enter(&r->lock, &cs))) {
        /* A nested context could not take the lock without waiting: a drop, unless the trace went
         * off meanwhile (the holder was a disable, which closes the gate before it writes the
         * stop's LOST record): then, as I5 says for state, not issued and not counted, so no drop
         * stays pending after disable. The test and the count race a disable on another thread:
         * the core's race protocol orders them (disable's evt_loss_close_wait). */
        evt_loss_race_enter(&r->loss);
        if (evt_gate_bits(&g_hot.gate)) evt_loss_drop(&r->loss);
        evt_loss_race_exit(&r->loss);
        return 0;
    }
    unsigned ok = 0;
    if (TX_UNLIKELY(mode & TX_MODE_USER_TEST)) { /* off or filtered as the gate said, or not now */
        mode = TX_MODE_PLAIN;
        if (r->state == TX_ON && !(r->enable_bits & TXTB_F_USER)) ok = 1; /* filtered while ON */
    }
    if (ok) {
        /* filtered: nothing to write */
    } else if (TX_UNLIKELY(!nest_take(r, cs))) {
#if EVT_TX_NEST_STASH_WORDS
        ok = nested_insert(r, id, i1, i2, i3, i4, mode); /* an insert of this context is in progress (I5, I9) */
#else
        evt_loss_drop(&r->loss); /* an insert of this context is in progress (I5) */
#endif
    } else {
        if (TX_LIKELY(r->state == TX_ON)) {
            if (!(TX_HOST_FAST && mode == TX_MODE_PLAIN &&
                  TX_LIKELY(ctxp == TX_MODE_CTX_GIVEN ? TX_PLAIN_FN_IS(r, given_fn)
                            : ctxp ? r->plain != 0u : r->plain == TX_PLAIN_PORT) &&
                  commit_plain(r, id, i1, i2, i3, i4, ctxp, given)))
                commit_locked(r, id, i1, i2, i3, i4, mode);
            ok = 1;
        }
        nest_leave(r);
        /* Disabled from inside this record (I6c). Tested after the guard is left: a handler that
         * disables after this test finds the guard free and writes the LOST record itself. */
        if (TX_UNLIKELY(TX_OWED(r))) flush_owed(r);
    }
    evt_rec_lock_exit(&r->lock, cs);
    return ok;
}

/* record_ctx without given context words. */
static TX_HOT_INLINE unsigned record(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, unsigned mode)
{
    return record_ctx(id, i1, i2, i3, i4, mode, 0u, 0);
}

/* A user insert that would read back as evtrace's LOST record (id 190, info3 "evtr": its record
 * gone, its info1 + info4 taken as losses, and at a wrap re-pended as such: 2 inserts read back as
 * 1,564 lost before 2 Dec 2026). Refused by user_event_insert (the inline fast path of
 * evtrace/txtb.h, or the plain function): while user events are recorded, dropped and counted as
 * the lock's nested refusal is (the race protocol with disable), NOT_DONE; filtered: SUCCESS;
 * off: NOT_DONE. */
#if EVT_TX_LOST_GUARD
TX_COLD unsigned evt_tx_lost_lookalike_(uint32_t g)
{
    if (g != 0u && !(g & TXTB_F_USER)) return EVT_TX_SUCCESS;
    tx_rec *r = &g_rec;
    evt_loss_race_enter(&r->loss);
    if (evt_gate_bits(&g_hot.gate) & TXTB_F_USER) evt_loss_drop(&r->loss);
    evt_loss_race_exit(&r->loss);
    return EVT_TX_NOT_DONE;
}
#endif

/* Out-of-line part of user_event_insert, after the gate word g was read (inline fast path in
 * evtrace/txtb.h, or the plain function below). */
unsigned evt_tx_user_event_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t g)
{
#if TX_HOST_FAST
    if (TX_LIKELY(g & TXTB_F_USER))
        return record(id, i1, i2, i3, i4, TX_MODE_PLAIN) ? EVT_TX_SUCCESS : EVT_TX_NOT_DONE;
    if (g != 0u) return EVT_TX_SUCCESS; /* gate != 0 only while ON: filtered */
    /* Everything filtered, or off: which one, from a consistent snapshot (I1b). A call
     * overlapping an enable/disable returns NOT_DONE: tracing was off at some instant of it. */
    uint32_t gate, on;
    if (!evt_gate_snapshot(&g_hot.gate, &gate, &on) || !on) return EVT_TX_NOT_DONE;
    if (gate & TXTB_F_USER) /* enabled meanwhile */
        return record(id, i1, i2, i3, i4, TX_MODE_PLAIN) ? EVT_TX_SUCCESS : EVT_TX_NOT_DONE;
    return EVT_TX_SUCCESS;
#else
    /* Small targets: one inlined record (size). Filtered while ON as the gate said: done; off or
     * everything filtered: record decides under the lock, where state and filter bits are one
     * consistent view (I1b): NOT_DONE when off, SUCCESS when filtered or written. */
    if (TX_UNLIKELY(!(g & TXTB_F_USER)) && g != 0u) return EVT_TX_SUCCESS;
    return record(id, i1, i2, i3, i4, g == 0u ? TX_MODE_PLAIN | TX_MODE_USER_TEST : TX_MODE_PLAIN) ? EVT_TX_SUCCESS
                                                                                                 : EVT_TX_NOT_DONE;
#endif
}

#if EVT_TX_KERNEL_EVENTS
void evt_tx_kernel_event_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t g)
{
    if (g & kernel_filter(id)) (void)record(id, i1, i2, i3, i4, TX_MODE_PLAIN);
}

void evt_tx_insert_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    (void)record(id, i1, i2, i3, i4, TX_MODE_PLAIN | TX_MODE_CTX_PLAIN);
}

#if EVT_TX_INSERT_CTX_
void evt_tx_insert_ctx_(uint32_t id, uint32_t i1, uint32_t i2, uint64_t i34, uint64_t ctx_prio, evt_tx_context_fn fn)
{
    (void)record_ctx(id, i1, i2, (uint32_t)i34, (uint32_t)(i34 >> 32), TX_MODE_PLAIN | TX_MODE_CTX_GIVEN, ctx_prio, fn);
}
#endif
#else /* user events only: the kernel's inserts record nothing */
void evt_tx_kernel_event_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t g)
{
    (void)id; (void)i1; (void)i2; (void)i3; (void)i4; (void)g;
}

void evt_tx_insert_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    (void)id; (void)i1; (void)i2; (void)i3; (void)i4;
}

#if EVT_TX_INSERT_CTX_
void evt_tx_insert_ctx_(uint32_t id, uint32_t i1, uint32_t i2, uint64_t i34, uint64_t ctx_prio, evt_tx_context_fn fn)
{
    (void)id; (void)i1; (void)i2; (void)i34; (void)ctx_prio; (void)fn;
}
#endif
#endif

/* ---- multi-slot user records (evtrace/user.h, TXTB carrier of evtrace/user_defs.h) --------------
 * EVT_TX_USER_RECORDS 0 leaves them out (scripts/build-cortex-m.sh measures the recorder both ways:
 * the plain TXTB recorder must not grow). */
#if EVT_TX_USER_RECORDS

unsigned evt_tx_user_slot_insert_(uint32_t head_id, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
    return record(head_id, w0, w1, w2, w3, TX_MODE_PLAIN); /* off meanwhile: state, under the lock */
}

/* One record of n words over k = ceil(n / 4) consecutive slots, in one critical section: slot 0 has
 * id head_id and words 0..3, slot j has id cont_id | j and words 4j..4j+3 (zero-padded). Every slot
 * counts as one record in the stats and the loss account (written, dropped, overwritten). */
unsigned evt_tx_trace_user_words_insert(uint32_t head_id, uint32_t cont_id, const uint32_t *w, uint32_t n)
{
    if (!(evt_gate_bits(&g_hot.gate) & TXTB_F_USER)) return 0u;
    if (n == 0u || w == (const uint32_t *)0) return 0u;
    /* One slot: the plain insert (its common-case commit on hosts), same accounting. */
    if (n <= 4u)
        return record(head_id, w[0], n > 1u ? w[1] : 0u, n > 2u ? w[2] : 0u, n > 3u ? w[3] : 0u, TX_MODE_PLAIN);
    uint32_t k = (n + 3u) / 4u;
    tx_rec *r = &g_rec;
    evt_port_crit_t cs;
    if (TX_UNLIKELY(!evt_rec_lock_enter(&r->lock, &cs))) {
        evt_loss_race_enter(&r->loss);
        if (evt_gate_bits(&g_hot.gate))
            for (uint32_t j = 0; j < k; j++) evt_loss_drop(&r->loss);
        evt_loss_race_exit(&r->loss);
        return 0u;
    }
    unsigned ok = 0;
    if (TX_UNLIKELY(!nest_take(r, cs))) {
#if EVT_TX_NEST_STASH_WORDS
        tx_head h;
        uint32_t *v;
        if (r->state == TX_ON && (v = stash_reserve(r, k, &h)) != 0) { /* I9 */
            for (uint32_t j = 0; j < k; j++, v += TX_STASH_SLOT) {
                v[0] = j == 0u ? head_id : (cont_id | (j & 0x3FFu));
                for (uint32_t i = 0; i < 4u; i++) v[1u + i] = 4u * j + i < n ? w[4u * j + i] : 0u;
            }
            ok = 1;
        }
#else
        for (uint32_t j = 0; j < k; j++) evt_loss_drop(&r->loss);
#endif
    } else {
        if (TX_LIKELY(r->state == TX_ON)) {
            /* A record longer than the buffer (less one slot for a LOST record) would overwrite
             * its own head: dropped, counted. */
            if ((uint32_t)((r->ev_end - r->ev_start) / TXTB_EVENT_SIZE) <= k) {
                for (uint32_t j = 0; j < k; j++) evt_loss_drop(&r->loss);
            } else {
                tx_head h;
                unsigned wraps = 0;
                begin_record(r, &h);
                if (TX_UNLIKELY(evt_loss_pending(&r->loss) != 0u)) wraps = put_lost(r, &h, 0);
                for (uint32_t j = 0; j < k; j++) {
                    uint32_t v[4]; /* element by element: no memset on a no-libc target */
                    for (uint32_t i = 0; i < 4u; i++) v[i] = 4u * j + i < n ? w[4u * j + i] : 0u;
                    reclaim_slot(r);
                    wraps += put_slot(r, &h, j == 0u ? head_id : (cont_id | (j & 0x3FFu)), v[0], v[1], v[2], v[3]);
                }
                evt_loss_written(&r->loss, k);
                if (TX_UNLIKELY(wraps != 0u)) notify_full(r, wraps);
                ok = 1;
            }
        }
        nest_leave(r);
        if (TX_UNLIKELY(TX_OWED(r))) flush_owed(r);
    }
    evt_rec_lock_exit(&r->lock, cs);
    return ok;
}
#endif /* EVT_TX_USER_RECORDS */

#ifdef EVT_TX_INLINE_FAST
/* The external definitions of the C99 inline functions of evtrace/txtb.h. */
extern unsigned evt_tx_trace_user_event_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
extern void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
extern void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit);
#else
unsigned evt_tx_trace_user_event_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    uint32_t g = evt_gate_bits(&g_hot.gate);
#if EVT_TX_LOST_GUARD
    if (TX_UNLIKELY(id == TXTB_EVTRACE_LOST_ID) && i3 == TXTB_EVTRACE_LOST_MAGIC) return evt_tx_lost_lookalike_(g);
#endif
    return evt_tx_user_event_slow_(id, i1, i2, i3, i4, g);
}

void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    uint32_t g = evt_gate_bits(&g_hot.gate);
    if (g != 0u) evt_tx_kernel_event_slow_(id, i1, i2, i3, i4, g);
}

void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit)
{
    if (evt_gate_bits(&g_hot.gate) & filter_bit) evt_tx_insert_slow_(id, i1, i2, i3, i4);
}
#endif

/* The inserts whose info fields come partly from the context: ISR enter/exit (arg = the ISR id,
 * info2; INTERNAL bit) and interrupt control (arg = the new posture, info1; INTCTL bit). */
static void context_insert(uint32_t id, uint32_t arg)
{
#if !EVT_TX_KERNEL_EVENTS
    (void)id; (void)arg;
#else
    unsigned intctl = id == TXTB_EVENT_INTERRUPT_CONTROL;
    if (!(evt_gate_bits(&g_hot.gate) & (intctl ? TXTB_F_INTCTL : TXTB_F_INTERNAL))) return;
#if EVT_TX_OPTIONS
    (void)record(id, intctl ? arg : 0u, intctl ? 0u : arg, 0u, 0u, intctl ? TX_MODE_INTCTL : TX_MODE_ISR);
#else
    /* No context callback: the infos begin_record would give these records, from the port here
     * (the context does not change between here and the record): a stack address of this
     * context, and system_state 1 in an ISR, TXTB_CTX_INIT before the kernel runs. */
#if defined(__GNUC__) || defined(__clang__)
    uint32_t stk = evt_tx_addr(__builtin_frame_address(0));
#else
    uint32_t stk = evt_tx_addr(&intctl);
#endif
    uint32_t i1 = stk, sys = 0u;
    if (intctl) i1 = arg, arg = stk;
    else sys = evt_port_in_isr() ? 1u : evt_port_context_id() == 0u ? TXTB_CTX_INIT : 0u;
    (void)record(id, i1, arg, sys, 0u, TX_MODE_PLAIN);
#endif
#endif
}

void evt_tx_trace_isr_enter_insert(uint32_t isr_id) { context_insert(TXTB_EVENT_ISR_ENTER, isr_id); }
void evt_tx_trace_isr_exit_insert(uint32_t isr_id) { context_insert(TXTB_EVENT_ISR_EXIT, isr_id); }
void evt_tx_trace_interrupt_control(uint32_t new_posture) { context_insert(TXTB_EVENT_INTERRUPT_CONTROL, new_posture); }

/* ---- enable / disable / filter ------------------------------------------------------------------ */

static int host_is_big(void)
{
    const uint16_t one = 1u;
    return *(const uint8_t *)&one == 0u;
}

unsigned evt_tx_trace_enable_ex(void *buffer, uint32_t size, uint32_t registry_entries,
                                const evt_tx_options *opt)
{
    tx_rec *r = &g_rec;
#if !EVT_TX_OPTIONS
    if (opt) return EVT_TX_PTR_ERROR; /* built without the options */
#endif
#if !EVT_TX_REGISTRY
    registry_entries = 0; /* built without the registry: no registry area */
#endif
    uint32_t name_size = (opt && opt->name_size) ? opt->name_size : TXTB_DEFAULT_NAME_SIZE;
    uint32_t reg_size = TXTB_REG_FIXED_SIZE + name_size;
    /* size >= header + R entries + one slot, without a 64-bit product (reg_size >= 17) */
    if (size < TXTB_HEADER_SIZE + TXTB_EVENT_SIZE ||
        registry_entries > (size - TXTB_HEADER_SIZE - TXTB_EVENT_SIZE) / reg_size)
        return EVT_TX_SIZE_ERROR;
    uint32_t reg_bytes = reg_size * registry_entries;
    if (!buffer) return EVT_TX_PTR_ERROR;
#if !EVT_TX_BYTE_SWAP
    if (opt && opt->big_endian != -1 && (unsigned)(opt->big_endian != 0) != (unsigned)host_is_big())
        return EVT_TX_PTR_ERROR; /* built without the other byte order */
#endif

    evt_port_crit_t cs;
    if (!evt_rec_lock_enter(&r->lock, &cs)) return EVT_TX_NOT_DONE;
    if (r->state != TX_OFF || (EVT_REC_NESTING && r->nest.busy)) {
        evt_rec_lock_exit(&r->lock, cs);
        return EVT_TX_NOT_DONE;
    }
    /* A handler's disable inside a record that has left its guard but not yet written the owed
     * LOST record, then this enable in another handler: write it before the buffer is given up. */
    if (TX_UNLIKELY(TX_OWED(r))) flush_owed(r);
    r->state = TX_ENABLING; /* I4: nothing else writes the buffer until ON */
    evt_rec_lock_exit(&r->lock, cs);

    unsigned big = (unsigned)host_is_big();
    if (opt && opt->big_endian != -1) big = opt->big_endian != 0;
    unsigned swap = big ^ (unsigned)host_is_big();
    uint8_t *b = buffer;
    uint8_t *reg = b + TXTB_HEADER_SIZE;
    uint8_t *ev_start = reg + reg_bytes;
    uint32_t slots = (uint32_t)((size - TXTB_HEADER_SIZE - reg_bytes) / TXTB_EVENT_SIZE);
    uint8_t *ev_end = ev_start + slots * TXTB_EVENT_SIZE;
    uint32_t base = (opt && opt->base_address) ? opt->base_address : evt_tx_addr(buffer);
    uint32_t mask = 0xFFFFFFFFu;
    if (opt && opt->time_mask) mask = opt->time_mask;
    else if (!(opt && opt->time_source) && evt_port_timestamp_bits() < 32u)
        mask = ((uint32_t)1u << evt_port_timestamp_bits()) - 1u; /* a narrow port counter */

    /* Registry: available=1, type=0, reserved=0, pointer=0 (the first four bytes one word whose
     * first byte is 1 in either host order, the pointer another); params and name left as they
     * are. */
    uint32_t avail_word = host_is_big() ? 0x01000000u : 1u;
    for (uint32_t i = 0; i < registry_entries; i++) {
        uint8_t *e = reg + i * reg_size;
        store_host32(e + TXTB_REG_AVAILABLE, avail_word); /* with type and the two reserved bytes */
        store_host32(e + TXTB_REG_POINTER, 0u);
    }
    /* Events: only word 0 (context) of each slot. */
    for (uint8_t *s = ev_start; s < ev_end; s += TXTB_EVENT_SIZE) store_host32(s + TXTB_EV_CONTEXT, 0u);
    /* Header: its 12 words by field offset, then stored in the buffer's order (one loop: small
     * code). The 16-bit reserved1/name_size pair is one word: name_size in its upper half of the
     * bytes, so the word's value is name_size (big-endian) or name_size << 16 (little-endian). */
    uint32_t h[TXTB_HEADER_SIZE / 4u];
    h[TXTB_HDR_ID / 4u] = TXTB_ID;
    h[TXTB_HDR_TIMER_MASK / 4u] = mask;
    h[TXTB_HDR_BASE / 4u] = base;
    h[TXTB_HDR_REG_START / 4u] = base + (uint32_t)(reg - b);
    h[TXTB_HDR_RESERVED1 / 4u] = big ? name_size : name_size << 16; /* reserved1 = 0 */
    h[TXTB_HDR_REG_END / 4u] = base + (uint32_t)(ev_start - b);
    h[TXTB_HDR_BUF_START / 4u] = base + (uint32_t)(ev_start - b);
    h[TXTB_HDR_BUF_END / 4u] = base + (uint32_t)(ev_end - b);
    h[TXTB_HDR_CURRENT / 4u] = base + (uint32_t)(ev_start - b);
    h[TXTB_HDR_RESERVED2 / 4u] = TXTB_RESERVED2;
    h[TXTB_HDR_RESERVED3 / 4u] = TXTB_RESERVED3;
    h[TXTB_HDR_RESERVED4 / 4u] = TXTB_RESERVED4;
    for (unsigned k = 0; k < TXTB_HEADER_SIZE / 4u; k++) put_word(b + 4u * k, h[k], swap);

    while (!evt_rec_lock_enter(&r->lock, &cs)) {} /* ENABLING: only a nested context can contend */
    /* (the members a feature compiled out never reads are not set: small code) */
#if EVT_TX_BYTE_SWAP
    r->swap = (uint8_t)swap;
#endif
    r->hdr = b;
    r->ev_start = ev_start;
    r->ev_end = ev_end;
    r->cur = ev_start;
    r->addr_off = base - (uint32_t)(uintptr_t)b;
#if EVT_TX_REGISTRY
    r->reg = reg;
    r->reg_total = registry_entries;
    r->reg_avail = registry_entries;
    r->reg_search = 0;
    r->reg_size = reg_size;
    r->name_size = name_size;
#endif
#if EVT_TX_OPTIONS
    r->clock.fn = opt ? opt->time_source : 0; /* the port counter's clamp value is kept */
    r->ctxfn = opt ? opt->context : 0;
#endif
    r->wrapped = 0;
#if TX_HOST_FAST
    r->plain = (uint8_t)(TX_SWAP(r) || r->clock.fn ? 0u : r->ctxfn ? TX_PLAIN_CTXFN : TX_PLAIN_PORT);
#if EVT_TX_INSERT_CTX_
    r->plain_fn = r->plain == TX_PLAIN_CTXFN ? r->ctxfn : 0;
#endif
#endif
    /* Fold the previous session's account into the since-program-start stats, then reset it. */
#if EVT_TX_STATS
    TX_FOLD_PRIOR();
#endif
    evt_loss_reset(&r->loss);
#if EVT_TX_STATS
    EVT_STORE_RLX(&r->wraps, 0u);
#endif
#if EVT_TX_REGISTRY
    r->reg_on = 1;
#endif
    r->enable_bits = 0xFFFFFFFFu;
    r->state = TX_ON;
    (void)evt_nest_enter(&r->nest); /* free: state was ENABLING */
    /* Two RUNNING records (the account was just reset: `written` counts them); the buffer-full
     * callback of a tiny buffer may disable after the first. */
    while ((!TX_CALLBACKS || r->state == TX_ON) && r->loss.written < 2u)
        commit_locked(r, TXTB_EVENT_RUNNING, 0u, 0u, 0u, 0u, TX_MODE_PLAIN);
    nest_leave(r);
    if (TX_OWED(r)) flush_owed(r); /* disabled by the buffer-full callback (I6c) */
    if (!TX_CALLBACKS || r->state == TX_ON) publish_state(r);
    evt_rec_lock_exit(&r->lock, cs);
    return EVT_TX_SUCCESS;
}

unsigned evt_tx_trace_enable(void *buffer, uint32_t size, uint32_t registry_entries)
{
    return evt_tx_trace_enable_ex(buffer, size, registry_entries, 0);
}

unsigned evt_tx_trace_disable(void)
{
    tx_rec *r = &g_rec;
    evt_port_crit_t cs;
    if (!evt_rec_lock_enter(&r->lock, &cs)) return EVT_TX_NOT_DONE;
    if (r->state != TX_ON) {
        evt_rec_lock_exit(&r->lock, cs);
        return EVT_TX_NOT_DONE;
    }
    /* Off first, then flush pending losses (I6, I6c): an insert nested in the LOST record's write
     * (a signal handler) finds the trace off and is not issued. Inside a record of this context
     * (its buffer-full callback, or a handler that interrupted it) nothing can be written now:
     * that record writes the LOST record when it leaves its guard. */
    r->state = TX_OFF;
#if EVT_TX_REGISTRY
    r->reg_on = 0;
#endif
    publish(0u, 0u);
    evt_loss_close_wait(&r->loss); /* drops decided outside the lock while the gate was open */
#if EVT_REC_NESTING
    r->owed = (uint8_t)!stop_lost(r);
#else
    (void)stop_lost(r); /* no guard: nothing in progress, never owed */
#endif
    evt_rec_lock_exit(&r->lock, cs);
    return EVT_TX_SUCCESS;
}

/* Apply a new filter word (ThreadX: always SUCCESS; NOT_DONE only from a nested context that could
 * not take the lock). */
static unsigned set_filter(uint32_t clear, uint32_t set)
{
    tx_rec *r = &g_rec;
    evt_port_crit_t cs;
    if (!evt_rec_lock_enter(&r->lock, &cs)) return EVT_TX_NOT_DONE;
#if EVT_PORT_LOCK_MAY_FAIL
    /* Atomic read-modify-writes: a handler on this thread that re-entered the lock (P2) may change
     * other bits between a plain load and store, which the store would undo. */
    if (clear) (void)__atomic_fetch_and(&r->enable_bits, ~clear, __ATOMIC_RELAXED);
    if (set) (void)__atomic_fetch_or(&r->enable_bits, set, __ATOMIC_RELAXED);
#else
    r->enable_bits = (r->enable_bits & ~clear) | set;
#endif
    if (r->state == TX_ON) TX_PUBLISH_FILTER(r);
    evt_rec_lock_exit(&r->lock, cs);
    return EVT_TX_SUCCESS;
}

unsigned evt_tx_trace_event_filter(uint32_t bits) { return set_filter(bits, 0u); }
unsigned evt_tx_trace_event_unfilter(uint32_t bits) { return set_filter(0u, bits); }

#if EVT_TX_FULL_NOTIFY
/* One pointer, stored atomically without the lock: a handler that calls this never waits (one
 * that interrupted its thread inside a biased section another thread is revoking could not take
 * the lock until it returned). A wrap in progress calls the old or the new callback. */
unsigned evt_tx_trace_buffer_full_notify(void (*fn)(void *buffer))
{
    EVT_STORE_REL(&g_rec.full_cb, fn);
    return EVT_TX_SUCCESS;
}
#endif

#if EVT_TX_STATS
void evt_tx_trace_get_stats(evt_tx_stats *out)
{
    /* written, dropped and loss_records are the loss account's counters as evt_loss_stats
     * reports them: read directly, without the rest of evt_rec_stats. */
    const tx_rec *r = &g_rec;
    const evt_tx_stats *p = &g_prior;
    out->written = EVT_LOAD64_RLX(&p->written) + EVT_LOAD_RLX(&r->loss.written);
    out->dropped = EVT_LOAD64_RLX(&p->dropped) + EVT_LOAD_RLX(&r->loss.dropped);
    out->wraps = EVT_LOAD64_RLX(&p->wraps) + EVT_LOAD_RLX(&r->wraps);
    out->lost_records = EVT_LOAD64_RLX(&p->lost_records) + EVT_LOAD_RLX(&r->loss.loss_records);
}

void evt_tx_trace_get_rec_stats(evt_rec_stats *out) { evt_loss_stats(&g_rec.loss, out); }
#endif

/* ---- object registry (threadx.md §7) ------------------------------------------------------------ */

#if EVT_TX_REGISTRY
/* One more registration not written: counted in the header's reserved1 (0 at enable), low byte
 * first in either byte order, saturating at 0xFFFF (txtb_defs.h), so a dump says names were lost.
 * The header bytes are the counter. Under the lock. */
static void reg_count_lost(const tx_rec *r)
{
    uint8_t *p = r->hdr + TXTB_HDR_RESERVED1;
    unsigned n = (unsigned)p[0] | (unsigned)p[1] << 8;
    if (n == 0xFFFFu) return;
    n++;
    p[0] = (uint8_t)n;
    p[1] = (uint8_t)(n >> 8);
}
#endif

/* reserved: the entry's two reserved bytes as reserved1 << 8 | reserved2 (a thread's priority). */
static void reg_add(uint8_t type, uint32_t ptr, const char *name, uint32_t p1, uint32_t p2, uint32_t reserved)
{
#if !EVT_TX_REGISTRY
    (void)type; (void)ptr; (void)name; (void)p1; (void)p2; (void)reserved; /* as a full registry */
#else
    tx_rec *r = &g_rec;
    evt_port_crit_t cs;
    if (!evt_rec_lock_enter(&r->lock, &cs)) return; /* nested context, lock busy: like a full registry */
    if (!r->reg_on || r->reg_busy || r->reg_avail == 0u) {
        if (r->reg_on) reg_count_lost(r); /* full (or busy): dropped as ThreadX does, but counted */
        evt_rec_lock_exit(&r->lock, cs);
        return;
    }
    r->reg_busy = 1;
    uint32_t entries = r->reg_total, found = entries, i = r->reg_search;
    do {
        const uint8_t *e = r->reg + i * r->reg_size;
        uint32_t p = get_word(e + TXTB_REG_POINTER, TX_SWAP(r));
        if (p == 0u || p == ptr) { /* never used, or this very address: taken at once */
            found = i;
            break;
        }
        if (e[TXTB_REG_AVAILABLE] == 1u) {
            /* ThreadX keeps the first available slot only while its type is 0; a deleted slot
             * (type != 0) is replaced by every later available one: the LAST one met wins. */
            if (found == entries || r->reg[found * r->reg_size + TXTB_REG_TYPE] != 0u) found = i;
        }
        if (++i >= entries) i = 0;
    } while (i != r->reg_search);
    if (found < entries) {
        uint8_t *e = r->reg + found * r->reg_size;
        uint32_t n = r->name_size - 1u, k = 0;
        /* the slot ThreadX's search picks, but the count of available entries goes down only when
           it was available (the byte is 1 or 0): ThreadX's own goes down for an entry in use at
           this address too (an object registered again), and then drops later objects while
           entries are free */
        r->reg_avail -= e[TXTB_REG_AVAILABLE];
        r->reg_search = (found + 1u < entries) ? found + 1u : 0u;
        e[TXTB_REG_AVAILABLE] = 0u;
        e[TXTB_REG_TYPE] = type;
        put_word(e + TXTB_REG_POINTER, ptr, TX_SWAP(r));
        put_word(e + TXTB_REG_PARAM1, p1, TX_SWAP(r));
        put_word(e + TXTB_REG_PARAM2, p2, TX_SWAP(r));
        if (name) {
            for (; k < n; k++) {
                e[TXTB_REG_NAME + k] = (uint8_t)name[k];
                if (name[k] == '\0') break;
            }
        }
        e[TXTB_REG_NAME + k] = 0u; /* bytes after the NUL keep the old name's tail */
        e[TXTB_REG_RESERVED1] = (uint8_t)(reserved >> 8);
        e[TXTB_REG_RESERVED2] = (uint8_t)reserved;
    } /* (reg_avail > 0: an available slot exists, found) */
    r->reg_busy = 0;
    evt_rec_lock_exit(&r->lock, cs);
#endif
}

void evt_tx_trace_object_register(uint8_t type, const void *object, const char *name,
                                  uint32_t param1, uint32_t param2)
{
    reg_add(type, evt_tx_addr(object), name, param1, param2, 0u);
}

void evt_tx_trace_thread_register(const void *thread, const char *name, uint32_t stack_start,
                                  uint32_t stack_size, uint32_t priority)
{
    reg_add(TXTB_OBJ_THREAD, evt_tx_addr(thread), name, stack_start, stack_size,
            (uint32_t)(TXTB_REG_PRIO_PRESENT | (uint8_t)(priority >> 8)) << 8 | (priority & 0xFFu));
}

void evt_tx_trace_object_unregister(const void *object)
{
#if !EVT_TX_REGISTRY
    (void)object;
#else
    tx_rec *r = &g_rec;
    uint32_t ptr = evt_tx_addr(object); /* NULL: matches only never-used entries, all available */
    evt_port_crit_t cs;
    if (!evt_rec_lock_enter(&r->lock, &cs)) return;
    if (r->reg_on && !r->reg_busy) {
        /* the entry in use with this pointer: one already available (an object unregistered
           twice, or an earlier object's entry left at this address) is not counted again, so
           reg_avail stays the number of available entries and a full registry's drop is counted
           (reg_add) instead of passing a search that finds no slot */
        for (uint32_t i = 0; i < r->reg_total; i++) {
            uint8_t *e = r->reg + i * r->reg_size;
            if (get_word(e + TXTB_REG_POINTER, TX_SWAP(r)) == ptr && e[TXTB_REG_AVAILABLE] == 0u) {
                e[TXTB_REG_AVAILABLE] = 1u;
                r->reg_avail++;
                r->reg_search = i;
                break;
            }
        }
    }
    evt_rec_lock_exit(&r->lock, cs);
#endif
}
