/* ETW-classic recorder and .etl writer (see include/evtrace/etw.h). Freestanding: no libc.
 *
 * Invariants:
 *  - Every slot buffer holds [WMI_BUFFER_HEADER 72][records, each 8-aligned]; slot->used is the
 *    fill level incl. the header; a record is written whole or not at all (never spans buffers).
 *  - File layout: buffer 0 (logfile header) at offset 0, data buffer k (k = 0, 1, ...) at
 *    buffer_size * (1 + k) (sequential) or buffer_size * (1 + k % R) with R = max_file_buffers - 1
 *    (circular: the oldest buffer is overwritten and counted). Buffer 0 is rewritten at stop with
 *    the final counts. SequenceNumber: 0 for buffer 0, then 1, 2, ... in flush order.
 *  - On the recorder core (evtrace/recorder.h): the session's own lock (no lock shared with
 *    other sessions or recorders) and one nesting guard, taken in that order around every record,
 *    flush and stop. Slots, the file state and the loss account are touched only inside both.
 *    A signal handler (or interrupt) that records while its thread holds the session finds the
 *    guard busy: its record is dropped and counted, never spliced into the interrupted one
 *    (user events stash such a record in the user layer instead: etw_user_enc.c). On the POSIX
 *    port every cfg.write runs with the thread's signals held (write_at) once a handler of the
 *    process has recorded inside a record of its thread (hold_begin).
 *  - Providers' gates: bits = ETW_GATE_ON | enable level while the provider is enabled by a
 *    running session, 0 otherwise; evt_etw_write tests it inline (no clock read when filtered).
 *    A provider's `session` changes only inside a session's section: S -> 0 inside S (disable,
 *    stop; its members reset before that release store), 0 -> S inside S by CAS. So it is on the
 *    list of exactly the session it names, and its gate is written inside that session only.
 *  - Loss account (evt_loss): every TraceEvent that passed the gate is written, dropped (nested,
 *    lock unavailable to a nested context, no slot, too big, file full) or, when it raced a stop
 *    and the stop's section came first, not issued: INVALID_HANDLE and not counted, as a call
 *    after stop (a drop counted then could never reach the file; drop_unless_stopped).
 *    Buffers that leave the file add their data events to `overwritten` and the counts of their
 *    loss records to `repended`: circular overwrite (ring[] keeps both counts of the buffer at
 *    each file position), a full sequential file, a failed write. A loss record (EVTRACE_LOSS
 *    class event carrying the pending count) is written before the next event that gets through and at stop;
 *    what stays pending at stop (file full) goes into the logfile header's EventsLost, and the
 *    header's LoggerName pointer field holds ETW_EVT_LOSS_MARK. So a reader's events plus the
 *    counts of loss records plus EventsLost equal the events issued, exactly.
 *  - A full buffer is flushed (written through cfg.write) inline by the context that filled it:
 *    whole, in one write of buffer_size (header and 0xFF tail put into the buffer's own bytes:
 *    write_whole), unless a THREAD_OWNED flush already wrote some of its records (write_records:
 *    header, records and tail in pieces, the signals held once around them).
 *  - THREAD_OWNED slots (per_thread == 2, or the default resolved to it at start): a record takes
 *    no lock. Its thread finds its slot (tkey == its id + 1, claimed once by CAS in [0, nown)),
 *    sets `active`, the slot's nesting guard (a same-thread signal handler arriving mid-record
 *    finds it set: drops and counts), tests pt_flags (one relaxed
 *    load: closed, or a loss pending) and the room left, writes the record with plain stores,
 *    publishes it (committed, release) and clears `active`. Only the owner (and its nested
 *    handlers, which run to completion) touches `used` and the bytes at or after `committed`.
 *    Everything else happens under the session lock and guard, per BUFFER: the owner writes its
 *    records [base, used) to the file when the next record does not fit, or writes a loss record
 *    when pt_flags says one is pending; flush and stop write each slot's published records [base,
 *    committed) and move base (the owner keeps appending after them); losses no slot carries
 *    go out as a one-record buffer of the session's own stream (ProcessorIndex = nslots). Stop sets
 *    pt_flags closed, leaves the lock, runs cfg.sync_writers and waits for every slot's `active`
 *    to be 0 (a record that saw the session open is complete; one that starts later sees it
 *    closed: not issued, INVALID_HANDLE), then writes what the slots hold. The default mode keeps
 *    the last slot (nown) back, shared: a thread that can claim no slot writes into it under the
 *    lock and guard (record_shared), as its owner for that record. A stop nested in a
 *    record of its own thread would wait for itself: it is refused first (BUSY). In a fork child
 *    the wait gives up on a slot after ETW_DEAD_SPINS (its owner may be gone). Drops: s->loss.dropped (atomic)
 *    and the ETW_PT_LOSS bit; written: each slot's counter (relaxed stores), summed by the stats.
 *    Timestamps: each slot has its own clock state; with the port's 64-bit counter (owned_early)
 *    the counter is read when the call starts and, inside the guard, raised to the slot's last
 *    timestamp if behind it (a handler's record may have come in between): a slot's timestamps
 *    never go back in record order. Other clocks are read inside the guard (evt_clock_read).
 *    CPU times (cfg.cpu_times): each slot caches its owner's KernelTime/UserTime word, read
 *    through the hook inside the guard on the owner's first record and when the record timestamp
 *    is s->cpu_res (one timer_resolution) or more past the last read; the shared slot and the
 *    locked modes call the hook per record. */
#include "evtrace/etw.h"
#include <stddef.h>

#include "evtrace/port.h"
#include "evtrace/recorder.h"
#include "formats/common/bytes.h"
#include "formats/etw/etw_enc_int.h"

/* Enter a call of the port's Q1 (calls in progress: a stop waits for the calls that may have
 * loaded its session, so a start may re-initialise the object; port.h), registering the thread on
 * its first call. Returns 0 when the port could not register the thread (POSIX Q4: a call made
 * after its exit's destructor): call_exit then ends the call the port counted instead. */
static inline int call_enter(void)
{
    if (!evt_port_call_enter()) {
        int linked = evt_port_call_link();
        (void)evt_port_call_enter();
        return linked;
    }
    return 1;
}
static inline void call_exit(int linked)
{
    evt_port_call_exit();
    if (!linked) evt_port_call_unlinked_done();
}

/* Slow paths kept out of TraceEvent's body (fewer registers to save on every event). */
#if defined(__GNUC__) || defined(__clang__)
#define ETW_COLD __attribute__((noinline, cold))
#define ETW_NOINLINE __attribute__((noinline))
/* A record's body: everything it calls inlined (the port's lock entry too, which the compiler
 * otherwise keeps out of line: a call, a frame and the exit state through memory per record);
 * the ETW_COLD slow paths stay out. Not when optimising for size (-Os: the MCU text budgets). */
#ifdef __OPTIMIZE_SIZE__
#define ETW_RECORD_FN __attribute__((noinline))
#else
#define ETW_RECORD_FN __attribute__((noinline, flatten))
#endif
#define ETW_INLINE inline __attribute__((always_inline)) /* a body instantiated per payload kind */
#define ETW_UNUSED __attribute__((unused)) /* a helper some switch settings leave unused */
#else
#define ETW_COLD
#define ETW_NOINLINE
#define ETW_RECORD_FN
#define ETW_INLINE inline
#define ETW_UNUSED
#endif

#define HDR_BUF_MAX (ETW_BUFFER_HEADER_SIZE + ETW_SYSTEM_HEADER_SIZE + ETW_LOGFILE_HEADER_SIZE64 + 2u * 2u * (EVT_ETW_MAX_NAME + 1u) + 8u)

static void zero(uint8_t *p, uint32_t n) { for (uint32_t i = 0; i < n; i++) p[i] = 0; }
/* Byte copy (struct assignment would call memcpy, which a freestanding image may not have). */
static void copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *q = (const uint8_t *)src;
    for (uint32_t i = 0; i < n; i++) d[i] = q[i];
}
static void fill_ff(uint8_t *p, uint32_t n) { for (uint32_t i = 0; i < n; i++) p[i] = 0xFF; }

/* pt_flags (THREAD_OWNED): any bit set sends a record to the slow path under the lock. */
#define ETW_PT_CLOSED 1u /* stopped or the file is full: records are dropped */
#define ETW_PT_LOSS   2u /* a loss is pending: the next record writes a loss record first */
/* Rare read-modify-writes of pt_flags, the drop count and the slot claim. The drop side (count,
 * then raise ETW_PT_LOSS) and the loss-record side (clear ETW_PT_LOSS, then read the count with an
 * RMW) are all sequentially consistent: a drop the reader misses raises the bit after it was
 * cleared. Single-core fallback as in recorder.h. */
#if defined(__GNUC__) || defined(__clang__)
#define PT_OR(p, v)  ((void)__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST))
#define PT_AND(p, v) ((void)__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST))
#define PT_ADD(p, v) ((void)__atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST))
#define PT_RMW_LOAD(p) __atomic_fetch_add((p), 0, __ATOMIC_SEQ_CST)
#define PT_CAS(p, expect, v) __atomic_compare_exchange_n((p), (expect), (v), 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)
#define SESSION_CAS(p, expect, v) __atomic_compare_exchange_n((p), (expect), (v), 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)
#else
#define PT_OR(p, v)  ((void)(*(volatile uint32_t *)(p) |= (v)))
#define PT_AND(p, v) ((void)(*(volatile uint32_t *)(p) &= (v)))
#define PT_ADD(p, v) ((void)(*(volatile evt_rec_count *)(p) += (v)))
#define PT_RMW_LOAD(p) (*(volatile evt_rec_count *)(p))
static int pt_cas(uint32_t *p, uint32_t *expect, uint32_t v)
{
    if (*(volatile uint32_t *)p != *expect) { *expect = *p; return 0; }
    *(volatile uint32_t *)p = v;
    return 1;
}
#define PT_CAS(p, expect, v) pt_cas((p), (expect), (v))
#define SESSION_CAS(p, expect, v) (*(p) == *(expect) ? (*(p) = (v), 1) : (*(expect) = *(p), 0)) /* one core */
#endif
/* s->path: the record path of the call-site words (evt_etw_commit_x_). The leaf (POSIX port)
 * reads the thread id inline: the port's context id (cfg.thread_id NULL) or the per-thread cache
 * of evt_etw_posix_thread_id. */
#define ETW_TID_CALL  0 /* s->tid_src: cfg.thread_id, else evt_port_context_id() */
#define ETW_TID_PORT  1 /* POSIX, cfg.thread_id NULL: evt_posix_self (0: not set yet, the call) */
#define ETW_TID_POSIX 2 /* POSIX, cfg.thread_id == evt_etw_posix_thread_id: its cache (0: the call) */
#define ETW_PATH_LOCKED     0
#define ETW_PATH_OWNED      1
#define ETW_PATH_LEAF_PORT  2
#define ETW_PATH_LEAF_POSIX 3
#define ETW_PATH_LEAF_CPU   2 /* + a leaf: the CPU-time hook is set (the slot's cached word) */
typedef char etw_slot_is_256[UINTPTR_MAX <= 0xFFFFFFFFu || sizeof(evt_etw_slot) == 256u ? 1 : -1]; /* (index: a shift) */
#if EVT_ETW_CALLSITE_GATHER /* the records of call-site words, one per path (s->rec_w) */
static uint32_t record_locked_w(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0, uint64_t a1,
                                uint64_t a2);
#if EVT_ETW_OWNED_SLOTS
static uint32_t record_owned_w(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0, uint64_t a1,
                               uint64_t a2);
#ifdef EVT_PORT_POSIX
static uint32_t record_owned_fast_posix(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0,
                                        uint64_t a1, uint64_t a2);
static uint32_t record_owned_fast_port(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0,
                                       uint64_t a1, uint64_t a2);
#if EVT_ETW_CPU_TIMES
static uint32_t record_owned_fast_posix_cpu(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0,
                                            uint64_t a1, uint64_t a2);
static uint32_t record_owned_fast_port_cpu(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t a0,
                                           uint64_t a1, uint64_t a2);
#endif
#endif
#endif
#endif
/* A context found a record of its own thread open (a nesting guard refused it). */
static ETW_COLD void note_nested(void)
{
#ifdef EVT_PORT_POSIX
    evt_posix_note_nested();
#endif
}

static int owned_mode(const evt_etw_session *s) { return EVT_ETW_OWNED_SLOTS && s->cfg.per_thread == EVT_ETW_SLOTS_THREAD_OWNED; }
#if EVT_ETW_OWNED_SLOTS
/* A THREAD_OWNED slot's nesting guard is its `active` flag: set while a record (or a detach) of the
 * slot is open, so a context nested in it (a signal handler of the owner, a callback) finds it set
 * and is dropped, and stop, which waits for it, reads the same word (one store on entry, one on exit). */
static inline int slot_enter(evt_etw_slot *sl)
{
    if (EVT_LOAD_RLX(&sl->active)) return 0;
    EVT_STORE_RLX(&sl->active, 1u);
    EVT_SIGNAL_FENCE(); /* stop's half of the handshake is its barrier on every thread */
    return 1;
}
static inline void slot_exit(evt_etw_slot *sl)
{
    EVT_SIGNAL_FENCE();
    EVT_STORE_REL(&sl->active, 0u);
}
#endif
static uint32_t align8(uint32_t v) { return (v + (ETW_RECORD_ALIGN - 1u)) & ~(ETW_RECORD_ALIGN - 1u); }

/* Hot-path stores of the record (little-endian fields): on a little-endian GCC/clang target one
 * native store each (the same bytes), else the byte-wise helpers of bytes.h. __builtin_memcpy with
 * a constant size compiles to moves, never to a libc call. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
#define ETW_LE_STORES 1
static inline void st16(uint8_t *p, uint16_t v) { __builtin_memcpy(p, &v, 2); }
static inline void st32(uint8_t *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
static inline void st64(uint8_t *p, uint64_t v) { __builtin_memcpy(p, &v, 8); }
/* Two little-endian words as one 16-byte store (the record's per-event stores are what its lock
 * waits for: fewer, wider ones make it cheaper). */
#if UINTPTR_MAX > 0xFFFFFFFFu
typedef uint64_t etw_u64x2 __attribute__((vector_size(16), aligned(8), may_alias));
static inline void st64x2(uint8_t *p, uint64_t lo, uint64_t hi)
{
    etw_u64x2 v = {lo, hi};
    __builtin_memcpy(p, &v, 16);
}
#else /* 32-bit targets: no 16-byte vector stores to compose (word stores, less code) */
static inline void st64x2(uint8_t *p, uint64_t lo, uint64_t hi)
{
    st64(p, lo);
    st64(p + 8, hi);
}
#endif
#else
static inline void st64x2(uint8_t *p, uint64_t lo, uint64_t hi) { evt_put_u64le(p, lo); evt_put_u64le(p + 8, hi); }
static inline void st16(uint8_t *p, uint16_t v) { evt_put_u16le(p, v); }
static inline void st32(uint8_t *p, uint32_t v) { evt_put_u32le(p, v); }
static inline void st64(uint8_t *p, uint64_t v) { evt_put_u64le(p, v); }
#endif

/* Payload copy: 8-byte words, then 4, 2, 1 (no loop a compiler could turn into a memcpy call). */
static inline void copy_payload(uint8_t *d, const uint8_t *q, uint32_t n)
{
#if UINTPTR_MAX <= 0xFFFFFFFFu
    for (uint32_t i = 0; i < n; i++) d[i] = q[i]; /* small targets: the smallest code */
    return;
#endif
    for (; n >= 8u; n -= 8u, d += 8, q += 8) {
        uint64_t w;
        __builtin_memcpy(&w, q, 8);
        __builtin_memcpy(d, &w, 8);
    }
    if (n & 4u) { uint32_t w; __builtin_memcpy(&w, q, 4); __builtin_memcpy(d, &w, 4); d += 4; q += 4; }
    if (n & 2u) { d[0] = q[0]; d[1] = q[1]; d += 2; q += 2; }
    if (n & 1u) d[0] = q[0];
}

static void put_guid(uint8_t *p, const evt_etw_guid *g)
{
#ifdef ETW_LE_STORES
    typedef char guid_is_16_bytes[sizeof(evt_etw_guid) == 16 ? 1 : -1]; /* Data1 Data2 Data3 Data4: no padding */
    (void)sizeof(guid_is_16_bytes);
    __builtin_memcpy(p, g, 16); /* the on-disk layout is the in-memory one on little-endian */
    return;
#endif
    st32(p, g->data1);
    st16(p + 4, g->data2);
    st16(p + 6, g->data3);
    for (int i = 0; i < 8; i++) p[8 + i] = g->data4[i];
}

static const evt_etw_guid k_loss_guid = {0x65767472u, 0x6f6c, 0x7373, {0x80, 0x00, 0x65, 0x76, 0x74, 0x72, 0x61, 0x63}};
static int is_loss_class(const evt_etw_guid *g)
{
    const uint8_t *a = (const uint8_t *)g, *b = (const uint8_t *)&k_loss_guid;
    for (unsigned i = 0; i < (unsigned)sizeof *g; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* Raw session clock outside a record (start, flush times): the configured one; for the
 * system-time clock the FILETIME hook; else the port's counter (QPC-like, or the cycle counter
 * for ETW_CLOCK_CPU_CYCLES). Records read it through the session's evt_clock (clamped). */
static uint64_t now(const evt_etw_session *s)
{
    if (!EVT_ETW_CLOCK_HOOKS) return evt_port_timestamp();
    if (s->cfg.clock) return s->cfg.clock();
    if (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME && s->cfg.filetime) return s->cfg.filetime();
    return evt_port_timestamp();
}
static uint64_t clock_cb(void *user) { return now((const evt_etw_session *)user); }
static uint32_t tid_of(const evt_etw_session *s) { return s->cfg.thread_id ? s->cfg.thread_id() : (uint32_t)evt_port_context_id(); }
/* The record's thread id: tid_of, with the POSIX cases read inline once cached (s->tid_src). */
static inline uint32_t rec_tid(const evt_etw_session *s)
{
#ifdef EVT_PORT_POSIX
    uint32_t t = evt_etw_posix_tid_ & s->tid_mask; /* the port's id (ETW_TID_PORT) is inline in tid_of */
    if (EVT_LIKELY(t != 0u)) return t;
#endif
    return tid_of(s);
}
static uint32_t pid_of(const evt_etw_session *s) { return s->cfg.process_id ? s->cfg.process_id() : 0u; }
static int ptr64(const evt_etw_session *s) { return EVT_ETW_POINTER_SIZE ? EVT_ETW_POINTER_SIZE == 8 : s->cfg.pointer_size == 8; }

/* Kernel/User time of the calling thread in TimerResolution units (0 without the hook). */
static void cpu_ticks(const evt_etw_session *s, uint32_t *kt, uint32_t *ut)
{
    uint64_t k = 0, u = 0;
    *kt = *ut = 0;
    if (!EVT_ETW_CPU_TIMES || !s->cfg.cpu_times) return;
    s->cfg.cpu_times(&k, &u);
    *kt = (uint32_t)(k / s->cfg.timer_resolution);
    *ut = (uint32_t)(u / s->cfg.timer_resolution);
}

/* KernelTime | UserTime << 32 of the calling thread (the CPU-time hook is set). */
static ETW_COLD ETW_UNUSED uint64_t cpu_word(const evt_etw_session *s)
{
    uint32_t kt, ut;
    cpu_ticks(s, &kt, &ut);
    return (uint64_t)kt | (uint64_t)ut << 32;
}

#if EVT_ETW_OWNED_SLOTS && EVT_ETW_CPU_TIMES
/* timer_resolution (100 ns units) in record timestamp ticks, at the rate a reader gives them (the
 * clock type's: FILETIME 10 MHz, CpuSpeedInMHz, else PerfFreq). Floored; 0 (a resolution finer
 * than a tick): the CPU-time hook runs on every record. No overflow below 2^40 Hz. */
static uint64_t cpu_res_ticks(const evt_etw_session *s)
{
    uint64_t hz = s->cfg.clock_hz, res = s->cfg.timer_resolution;
    if (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME) hz = 10000000u;
    else if (s->cfg.clock_type == ETW_CLOCK_CPU_CYCLES && s->cfg.cpu_mhz) hz = (uint64_t)s->cfg.cpu_mhz * 1000000u;
    return res / 10000000u * hz + res % 10000000u * hz / 10000000u;
}

/* THREAD_OWNED, the CPU-time hook set: read it again into the slot's cache (the slot's first
 * record, or ts moved cpu_res or more past the last read, or back). Inside the slot's guard: a
 * same-thread handler recording meanwhile is dropped before it reaches the cache (no tearing). */
static ETW_COLD uint64_t owned_cpu_refresh(const evt_etw_session *s, evt_etw_slot *sl, uint64_t ts)
{
    sl->cpu_word = cpu_word(s);
    sl->cpu_at = ts;
    sl->cpu_res = s->cpu_res;
    return sl->cpu_word;
}
/* KernelTime | UserTime << 32 for a record at ts in the owner's slot sl: the cached word, at most
 * one timer_resolution of record time old (see cfg.cpu_times in etw.h). */
static inline uint64_t owned_cpu(const evt_etw_session *s, evt_etw_slot *sl, uint64_t ts)
{
    if (EVT_UNLIKELY(ts - sl->cpu_at >= sl->cpu_res)) return owned_cpu_refresh(s, sl, ts);
    return sl->cpu_word;
}
#endif

/* Enter the session (lock, then nesting guard). 0: a nested context cannot (nothing counted). */
static inline int enter_session(evt_etw_session *s, evt_port_crit_t *st)
{
    if (!evt_rec_lock_enter(&s->lock, st)) {
        note_nested();
        return 0;
    }
    if (!evt_nest_enter(&s->nest)) {
        evt_rec_lock_exit(&s->lock, *st);
        note_nested();
        return 0;
    }
    return 1;
}
static void leave(evt_etw_session *s, evt_port_crit_t st)
{
    evt_nest_exit(&s->nest);
    evt_rec_lock_exit(&s->lock, st);
}

/* WMI_BUFFER_HEADER of a buffer about to be written. */
static void put_buffer_header(uint8_t *b, const evt_etw_session *s, uint32_t filled, uint64_t ts, uint64_t seq,
                              uint16_t proc, uint16_t flags, uint16_t type)
{
    zero(b, ETW_BUFFER_HEADER_SIZE);
    st32(b + ETW_BH_BUFFER_SIZE, s->cfg.buffer_size);
    st32(b + ETW_BH_SAVED_OFFSET, filled);
    st32(b + ETW_BH_CURRENT_OFFSET, filled);
    st64(b + ETW_BH_TIMESTAMP, ts);
    st64(b + ETW_BH_SEQUENCE, seq);
    st16(b + ETW_BH_PROCESSOR, proc);
    st16(b + ETW_BH_LOGGER_ID, s->cfg.logger_id);
    st32(b + ETW_BH_STATE, ETW_BUFFER_STATE_FLUSH);
    st32(b + ETW_BH_OFFSET, filled);
    st16(b + ETW_BH_BUFFER_FLAG, (uint16_t)(flags | ETW_BUFFER_FLAG_PROC_INDEX));
    st16(b + ETW_BH_BUFFER_TYPE, type);
}

/* UTF-8 (or ASCII) to NUL-terminated UTF-16LE, at most EVT_ETW_MAX_NAME units; returns bytes. */
static uint32_t put_name(uint8_t *p, const char *s)
{
    uint32_t n = 0;
    const uint8_t *u = (const uint8_t *)s;
    while (u && *u && n < EVT_ETW_MAX_NAME) {
        uint32_t cp = *u++;
        if (!EVT_ETW_UTF8_NAMES) cp = cp < 0x80 ? cp : 0xFFFDu; /* ASCII only (compiled that way) */
        else if (cp >= 0xC0 && cp < 0xE0 && (*u & 0xC0) == 0x80) cp = ((cp & 0x1Fu) << 6) | (*u++ & 0x3Fu);
        else if (cp >= 0xE0 && cp < 0xF0 && (u[0] & 0xC0) == 0x80 && (u[1] & 0xC0) == 0x80) {
            cp = ((cp & 0x0Fu) << 12) | ((u[0] & 0x3Fu) << 6) | (u[1] & 0x3Fu);
            u += 2;
        } else if (cp >= 0x80) cp = 0xFFFD; /* 4-byte sequences and stray bytes */
        st16(p + 2 * n, (uint16_t)cp);
        n++;
    }
    st16(p + 2 * n, 0);
    return 2 * (n + 1);
}

#if EVT_ETW_OWNED_SLOTS
/* The unused tail of a buffer not written whole, written in pieces of this (ETW fills it with
 * 0xFF): 1 KiB on 64-bit hosts, 128 bytes on small targets (text size); without THREAD_OWNED
 * slots (only buffer 0 is written in pieces then) 64 bytes on the stack. */
#define FF8 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF
#define FF64 FF8, FF8, FF8, FF8, FF8, FF8, FF8, FF8
#if UINTPTR_MAX > 0xFFFFFFFFu
static const uint8_t k_ff[1024] = {FF64, FF64, FF64, FF64, FF64, FF64, FF64, FF64,
                                   FF64, FF64, FF64, FF64, FF64, FF64, FF64, FF64};
#else
static const uint8_t k_ff[128] = {FF64, FF64};
#endif
#endif

/* On the POSIX port, the thread's signals held (evt_posix_hold_signals; holds nest, and only the
 * outermost costs system calls: two). Every cfg.write runs inside one once a handler of the
 * process has recorded inside a record of its own thread (evt_posix_nested_seen, set by the
 * nesting guards that refused it and by the user layer's stash): a write may take long (a system
 * call, page faults), and handlers that land meanwhile inside this record of their thread could
 * only be stashed (user_nest_enc.c) until the stash is full, or dropped; held, they run once it is
 * done (at most one of each signal pends). A buffer written in pieces holds them once around all
 * its pieces. Before any handler recorded, nothing needs keeping out, and the hold's two system
 * calls per buffer (0.2x of a 64-byte record's cost on the Zen 5 VM: docs/recorder.md) are not
 * paid. Returns whether it held; hold_end(that) releases. */
static int hold_begin(void)
{
#ifdef EVT_PORT_POSIX
    if (!__atomic_load_n(&evt_posix_nested_seen, __ATOMIC_RELAXED)) return 0;
    evt_posix_hold_signals(1);
    return 1;
#else
    return 0;
#endif
}
static void hold_end(int held)
{
#ifdef EVT_PORT_POSIX
    if (held) evt_posix_hold_signals(0);
#else
    (void)held;
#endif
}
/* One write through cfg.write, signals held (hold_begin). */
static int write_at(evt_etw_session *s, uint64_t off, const uint8_t *p, uint32_t n)
{
    int h = hold_begin();
    int ok = s->cfg.write(s->cfg.write_user, off, p, n) == 0;
    hold_end(h);
    return ok;
}

/* Bytes [at, end) of the buffer at file offset off: 0xFF (signals held by the caller). */
static int write_ff(evt_etw_session *s, uint64_t off, uint32_t at, uint32_t end)
{
#if EVT_ETW_OWNED_SLOTS
    const uint8_t *ff = k_ff;
    const uint32_t piece = (uint32_t)sizeof k_ff;
#else
    uint8_t ff[64];
    const uint32_t piece = (uint32_t)sizeof ff;
    fill_ff(ff, piece);
#endif
    int ok = 1;
    for (; ok && at < end; at += piece) ok = write_at(s, off + at, ff, end - at < piece ? end - at : piece);
    return ok;
}

/* Buffer 0: the SYSTEM logfile-header record carrying TRACE_LOGFILE_HEADER and the two names,
 * the rest of the buffer 0xFF. */
static int write_header_buffer(evt_etw_session *s, uint64_t end_time)
{
    uint8_t b[HDR_BUF_MAX];
    int is64 = ptr64(s);
    uint32_t fixed = is64 ? ETW_LOGFILE_HEADER_SIZE64 : ETW_LOGFILE_HEADER_SIZE32;
    uint8_t *rec = b + ETW_BUFFER_HEADER_SIZE;
    uint8_t *h = rec + ETW_SYSTEM_HEADER_SIZE;
    zero(rec, HDR_BUF_MAX - ETW_BUFFER_HEADER_SIZE);
    uint32_t names = put_name(h + fixed, s->cfg.logger_name ? s->cfg.logger_name : "evtrace");
    names += put_name(h + fixed + names, s->cfg.log_file_name ? s->cfg.log_file_name : "");
    uint32_t size = ETW_SYSTEM_HEADER_SIZE + fixed + names;
    uint32_t filled = ETW_BUFFER_HEADER_SIZE + align8(size);
    uint32_t kt = 0, ut = 0;
    cpu_ticks(s, &kt, &ut);
    st16(rec + ETW_SH_VERSION, ETW_LOGFILE_HDR_VERSION);
    rec[ETW_SH_HEADER_TYPE] = is64 ? ETW_HT_SYSTEM64 : ETW_HT_SYSTEM32;
    rec[ETW_SH_FLAGS] = ETW_MARKER_FLAGS;
    st16(rec + ETW_SH_SIZE, (uint16_t)size);
    st16(rec + ETW_SH_HOOK_ID, ETW_HOOK_LOGFILE_HEADER);
    st32(rec + ETW_SH_THREAD_ID, tid_of(s));
    st32(rec + ETW_SH_PROCESS_ID, pid_of(s));
    st64(rec + ETW_SH_SYSTEM_TIME, s->start_ts);
    st32(rec + ETW_SH_KERNEL_TIME, kt);
    st32(rec + ETW_SH_USER_TIME, ut);
    uint64_t mb = s->cfg.max_file_buffers ? ((uint64_t)s->cfg.max_file_buffers * s->cfg.buffer_size + 0xFFFFFu) >> 20 : 0;
#define LF(n) (is64 ? (uint32_t)ETW_LF64_##n : (uint32_t)ETW_LF32_##n)
    st32(h + LF(BUFFER_SIZE), s->cfg.buffer_size);
    st32(h + LF(VERSION), 10u);           /* Major 10, Minor 0 */
    st32(h + LF(NUMBER_OF_CPUS), s->cfg.ncpus);
    st64(h + LF(END_TIME), end_time);
    st32(h + LF(TIMER_RESOLUTION), s->cfg.timer_resolution);
    st32(h + LF(MAXIMUM_FILE_SIZE), (uint32_t)mb);
    st32(h + LF(LOG_FILE_MODE), s->cfg.log_file_mode);
    st32(h + LF(BUFFERS_WRITTEN), evt_loss_u32(1u + (uint64_t)s->data_written));
    st32(h + LF(START_BUFFERS), 1u);
    st32(h + LF(POINTER_SIZE), s->cfg.pointer_size);
    st32(h + LF(EVENTS_LOST), evt_loss_u32(evt_loss_pending(&s->loss))); /* not in loss records; ULONGs saturate */
    st32(h + LF(LOGGER_NAME_PTR), ETW_EVT_LOSS_MARK);
    st32(h + LF(CPU_SPEED_MHZ), s->cfg.cpu_mhz);
    st64(h + LF(PERF_FREQ), s->cfg.clock_hz);
    st64(h + LF(START_TIME), s->start_time);
    st32(h + LF(RESERVED_FLAGS), s->cfg.clock_type);
    st32(h + LF(BUFFERS_LOST), evt_loss_u32(s->buffers_lost));
#undef LF
    put_buffer_header(b, s, filled, 0, 0, 0, ETW_BUFFER_FLAG_FLUSH_MARKER, ETW_BUFFER_TYPE_HEADER);
    fill_ff(b + ETW_BUFFER_HEADER_SIZE + size, filled - ETW_BUFFER_HEADER_SIZE - size);
    int held = hold_begin(); /* once for the buffer's pieces */
    int ok = write_at(s, 0, b, filled) && write_ff(s, 0, filled, s->cfg.buffer_size);
    hold_end(held);
    return ok;
}

/* The file offset of the next data buffer (session entered). Returns 0 when it cannot go into the
 * file (sequential file full: logging stops). In a circular file the buffer it overwrites leaves
 * the file once the write succeeded (buffer_done). */
static int place_buffer(evt_etw_session *s, uint64_t *off)
{
    if (EVT_ETW_CIRCULAR && (s->cfg.log_file_mode & ETW_FILE_MODE_CIRCULAR)) {
        *off = (uint64_t)s->cfg.buffer_size * (1u + s->data_written % (s->cfg.max_file_buffers - 1u));
        return 1;
    }
    *off = (uint64_t)s->cfg.buffer_size * (1u + s->data_written);
    if (s->cfg.max_file_buffers && 1u + s->data_written >= s->cfg.max_file_buffers) {
        s->file_full = 1; /* sequential file full: this buffer is lost and logging stops */
        s->open = 0;
        return 0;
    }
    return 1;
}

/* After a placed buffer's write (ok) or its loss (not placed, or the write failed), for a buffer of
 * `events` data events and loss records carrying `loss_in`: a lost buffer counts its events as
 * lost and re-pends its loss counts. In a circular file a written buffer takes its position's
 * place in ring[]: the buffer it overwrote leaves the file there (its events lost, its loss counts
 * re-pended). A failed write leaves the position's old buffer and its counts as they were (the
 * next buffer tries the position again): before 3 Dec 2026 the old buffer was counted as gone
 * before the write, so a write that failed and wrote nothing left it in the file, read and
 * counted lost. (A write that fails after changing part of the old buffer leaves a buffer part
 * new, part old, whose count is not exact: etw.h, evt_etw_write_fn.) */
static void buffer_done(evt_etw_session *s, int ok, evt_rec_count events, evt_rec_count loss_in)
{
    if (ok) {
        if (EVT_ETW_CIRCULAR && (s->cfg.log_file_mode & ETW_FILE_MODE_CIRCULAR)) {
            uint64_t ring = s->cfg.max_file_buffers - 1u;
            uint64_t pos = s->data_written % ring;
            if (s->data_written >= ring) { /* the buffer there left the file: its events, its loss counts */
                EVT_STORE64_RLX(&s->overwritten, s->overwritten + 1u); /* read by the stats, any context */
                evt_loss_overwritten(&s->loss, s->ring[2u * pos]);
                evt_loss_repend(&s->loss, s->ring[2u * pos + 1u]);
            }
            s->ring[2u * pos] = events;
            s->ring[2u * pos + 1u] = loss_in;
        }
        s->seq++;
        EVT_STORE64_RLX(&s->data_written, s->data_written + 1u); /* read by the stats, any context */
        return;
    }
    EVT_STORE64_RLX(&s->buffers_lost, s->buffers_lost + 1u);
    evt_loss_overwritten(&s->loss, events);
    evt_loss_repend(&s->loss, loss_in);
}

/* A slot's buffer, records at [72, filled), as one data buffer of stream proc, written whole (one
 * cfg.write): its header into the first 72 bytes (kept free for it), the 0xFF tail into the bytes
 * after `filled`, both the writer's (session entered; THREAD_OWNED: the slot's owner, whose
 * records these are). Accounted as `events` data events and loss records carrying `loss_in`; a
 * buffer that leaves the file (overwritten, not written) re-pends them. */
static void write_whole(evt_etw_session *s, uint8_t *buf, uint32_t filled, uint16_t proc, int lost,
                        evt_rec_count events, evt_rec_count loss_in)
{
    uint64_t off;
    int ok = place_buffer(s, &off);
    if (ok) {
        put_buffer_header(buf, s, filled, now(s), s->seq + 1u, proc, lost ? ETW_BUFFER_FLAG_EVENTS_LOST : 0u,
                          ETW_BUFFER_TYPE_GENERIC);
        fill_ff(buf + filled, s->cfg.buffer_size - filled);
        ok = write_at(s, off, buf, s->cfg.buffer_size);
    }
    buffer_done(s, ok, events, loss_in);
}

/* Write a slot's buffer to the file (session entered) and reset it. */
static ETW_COLD void flush_slot(evt_etw_session *s, evt_etw_slot *sl, uint16_t proc)
{
    uint32_t filled = sl->used;
    if (filled <= ETW_BUFFER_HEADER_SIZE) return;
    write_whole(s, sl->buf, filled, proc, sl->lost_since_flush, sl->events, sl->loss_in);
    sl->used = ETW_BUFFER_HEADER_SIZE;
    sl->events = 0;
    sl->loss_in = 0;
    sl->lost_since_flush = 0;
}

/* `running` of a started session: a 32-bit marker rather than 1, so that a second start on a running
 * session is refused while uninitialised memory (an automatic session) is all but never taken for
 * one. Tested as a truth value everywhere else. */
#define ETW_RUNNING 0x52554E21

/* Whether byte i of a session belongs to a member the stats calls read (etw_ctl_enc.c): start resets
 * those with atomic stores. Only where another thread's handler can read them during a start
 * (EVT_PORT_LOCK_MAY_FAIL: POSIX); elsewhere the byte loop clears everything, as before (size). */
#if EVT_PORT_LOCK_MAY_FAIL
#define ETW_STATS_BYTE(i) stats_byte(i)
static int stats_byte(uint32_t i)
{
#define ETW_IN_(m) (i - (uint32_t)offsetof(evt_etw_session, m) < (uint32_t)sizeof(((evt_etw_session *)0)->m))
    uint32_t k = i - (uint32_t)offsetof(evt_etw_session, slots);
    if (k < (uint32_t)sizeof(((evt_etw_session *)0)->slots))
        return (k % (uint32_t)sizeof(evt_etw_slot)) - (uint32_t)offsetof(evt_etw_slot, written) < (uint32_t)sizeof(evt_rec_count);
    return ETW_IN_(loss) || ETW_IN_(data_written) || ETW_IN_(buffers_lost) || ETW_IN_(overwritten);
#undef ETW_IN_
}
#else
#define ETW_STATS_BYTE(i) 0
#endif

uint32_t evt_etw_session_start(evt_etw_session *s, const evt_etw_session_config *cfg, void *mem, uint32_t mem_size)
{
    if (!s || !cfg || !cfg->write || !mem) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (cfg->per_thread < EVT_ETW_SLOTS_DEFAULT || cfg->per_thread > EVT_ETW_SLOTS_PER_CPU ||
        (!EVT_ETW_THREAD_SLOTS && cfg->per_thread == EVT_ETW_SLOTS_PER_THREAD) ||
        (!EVT_ETW_OWNED_SLOTS && cfg->per_thread == EVT_ETW_SLOTS_THREAD_OWNED))
        return EVT_ETW_ERROR_INVALID_PARAMETER; /* (or compiled out) */
    if (EVT_LOAD_ACQ(&s->running) == ETW_RUNNING) return EVT_ETW_ERROR_ALREADY_EXISTS; /* stop it first */
    int circular = (cfg->log_file_mode & ETW_FILE_MODE_CIRCULAR) != 0;
    if (!EVT_ETW_CIRCULAR && circular) return EVT_ETW_ERROR_INVALID_PARAMETER; /* compiled out */
    uint64_t slots_size = (uint64_t)cfg->buffers * cfg->buffer_size;
    uint64_t ring_size = circular ? (uint64_t)(cfg->max_file_buffers - 1u) * 2u * sizeof(evt_rec_count) : 0u;
    if (cfg->buffer_size < ETW_MIN_BUFFER_KB * 1024u || cfg->buffer_size > ETW_MAX_BUFFER_KB * 1024u ||
        (cfg->buffer_size & 7u) || cfg->buffers == 0 || cfg->buffers > EVT_ETW_MAX_SLOTS)
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (circular && cfg->max_file_buffers < 2u) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (slots_size + ring_size > mem_size || (((uintptr_t)mem) & (sizeof(evt_rec_count) - 1u)))
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (cfg->pointer_size != 0 && cfg->pointer_size != 4 && cfg->pointer_size != 8) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (EVT_ETW_POINTER_SIZE && cfg->pointer_size && cfg->pointer_size != EVT_ETW_POINTER_SIZE)
        return EVT_ETW_ERROR_INVALID_PARAMETER; /* the other layout is compiled out */
    /* Every member zeroed but `running`, which a flush or detach racing this start reads (atomic):
     * it is written atomically, 0 now, ETW_RUNNING last. The counters the stats calls read from any
     * context (C7: a signal handler on another thread while the object starts again) are reset with
     * atomic stores instead of byte stores (before: TSan data races, test_etw_stats_mt). */
    uint8_t *z = (uint8_t *)s;
    for (uint32_t i = 0; i < sizeof *s; i++)
        if (i - (uint32_t)offsetof(evt_etw_session, running) >= (uint32_t)sizeof s->running && !ETW_STATS_BYTE(i)) z[i] = 0;
    EVT_STORE_RLX(&s->running, 0);
#if EVT_PORT_LOCK_MAY_FAIL
    evt_loss_reset(&s->loss);
    EVT_STORE64_RLX(&s->data_written, 0u);
    EVT_STORE64_RLX(&s->buffers_lost, 0u);
    EVT_STORE64_RLX(&s->overwritten, 0u);
    for (uint32_t i = 0; i < EVT_ETW_MAX_SLOTS; i++) EVT_STORE_RLX(&s->slots[i].written, 0u);
#endif
    copy(&s->cfg, cfg, (uint32_t)sizeof *cfg);
    if (!s->cfg.pointer_size) s->cfg.pointer_size = EVT_ETW_POINTER_SIZE ? EVT_ETW_POINTER_SIZE : (uint32_t)sizeof(void *);
    if (!s->cfg.clock_type) s->cfg.clock_type = ETW_CLOCK_QPC;
    if (!s->cfg.clock_hz) s->cfg.clock_hz = evt_port_timestamp_hz();
    if (!s->cfg.timer_resolution) s->cfg.timer_resolution = 156250u;
    if (!s->cfg.ncpus) s->cfg.ncpus = cfg->buffers;
    s->nslots = s->nown = cfg->buffers;
    /* EVT_ETW_SLOTS_DEFAULT: THREAD_OWNED where safe (etw.h), else per-CPU (0 then stays, read as
     * per-CPU: owned_mode and slot_for test for the other modes by name) */
#if EVT_ETW_OWNED_SLOTS && defined(EVT_PORT_POSIX)
    if (cfg->per_thread == EVT_ETW_SLOTS_DEFAULT && cfg->buffers >= 2u &&
        (!cfg->thread_id || cfg->thread_id == evt_etw_posix_thread_id)) {
        s->cfg.per_thread = EVT_ETW_SLOTS_THREAD_OWNED;
        s->nown = cfg->buffers - 1u; /* the last slot is the shared one */
        if (!s->cfg.sync_writers) s->cfg.sync_writers = evt_etw_posix_sync_writers;
    }
#endif
    for (uint32_t i = 0; i < s->nslots; i++) {
        s->slots[i].buf = (uint8_t *)mem + (uint64_t)i * cfg->buffer_size;
        s->slots[i].used = s->slots[i].committed = s->slots[i].base = ETW_BUFFER_HEADER_SIZE;
    }
    if (EVT_ETW_CIRCULAR && circular) {
        s->ring = (evt_rec_count *)(void *)((uint8_t *)mem + slots_size);
        for (uint32_t i = 0; i + 1u < cfg->max_file_buffers; i++) s->ring[2u * i] = s->ring[2u * i + 1u] = 0;
    }
    s->pid = pid_of(s);
    s->hdr_bits = (uint32_t)(ptr64(s) ? ETW_HT_FULL_HEADER64 : ETW_HT_FULL_HEADER32) << 16 | (uint32_t)ETW_MARKER_FLAGS << 24;
    s->size_limit = s->cfg.buffer_size - ETW_BUFFER_HEADER_SIZE - 1u; /* a record must leave the buffer room */
    if (s->size_limit > ETW_MAX_EVENT_SIZE) s->size_limit = ETW_MAX_EVENT_SIZE;
    /* The session clock: the port counter inline, or the configured source through a callback. */
    if (EVT_ETW_CLOCK_HOOKS && (s->cfg.clock || (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME && s->cfg.filetime)))
        evt_clock_init(&s->clk, clock_cb, s, 64);
    else evt_clock_init(&s->clk, 0, 0, 0);
    for (uint32_t i = 0; i < s->nslots; i++) copy(&s->slots[i].clk, &s->clk, (uint32_t)sizeof s->clk);
    s->owned_early = owned_mode(s) && !s->clk.fn && evt_port_timestamp_bits() == 64u;
    s->clk_port64 = !s->clk.fn && evt_port_timestamp_bits() == 64u;
    s->tid_src = ETW_TID_CALL;
#ifdef EVT_PORT_POSIX
    s->tid_src = !s->cfg.thread_id ? ETW_TID_PORT : s->cfg.thread_id == evt_etw_posix_thread_id ? ETW_TID_POSIX : ETW_TID_CALL;
    s->tid_mask = s->tid_src == ETW_TID_POSIX ? 0xFFFFFFFFu : 0u;
#endif
    s->path = owned_mode(s) ? ETW_PATH_OWNED : ETW_PATH_LOCKED;
#if EVT_ETW_OWNED_SLOTS && EVT_ETW_CALLSITE_GATHER && defined(EVT_PORT_POSIX)
    if (s->owned_early && s->tid_src != ETW_TID_CALL)
        s->path = (s->tid_src == ETW_TID_POSIX ? ETW_PATH_LEAF_POSIX : ETW_PATH_LEAF_PORT) +
                  (EVT_ETW_CPU_TIMES && s->cfg.cpu_times ? ETW_PATH_LEAF_CPU : 0);
#endif
#if EVT_ETW_OWNED_SLOTS && EVT_ETW_CPU_TIMES
    if (owned_mode(s) && s->cfg.cpu_times) s->cpu_res = cpu_res_ticks(s);
#endif
#if EVT_ETW_CALLSITE_GATHER
    s->rec_w = record_locked_w;
#if EVT_ETW_OWNED_SLOTS
    if (s->path == ETW_PATH_OWNED) s->rec_w = record_owned_w;
#ifdef EVT_PORT_POSIX
    if (s->path == ETW_PATH_LEAF_POSIX) s->rec_w = record_owned_fast_posix;
    if (s->path == ETW_PATH_LEAF_PORT) s->rec_w = record_owned_fast_port;
#if EVT_ETW_CPU_TIMES
    if (s->path == ETW_PATH_LEAF_POSIX + ETW_PATH_LEAF_CPU) s->rec_w = record_owned_fast_posix_cpu;
    if (s->path == ETW_PATH_LEAF_PORT + ETW_PATH_LEAF_CPU) s->rec_w = record_owned_fast_port_cpu;
#endif
#endif
#endif
#endif
#if EVT_ETW_CALLSITE_GATHER && EVT_ETW_OWNED_SLOTS
    s->hw0 = ETW_TRACE_HEADER_SIZE | s->hdr_bits;
    s->pid_hi = (uint64_t)s->pid << 32;
#endif
    s->start_time = s->cfg.filetime ? s->cfg.filetime() : 0u;
    s->start_ts = now(s);
    if (!write_header_buffer(s, s->start_time)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    s->open = 1;
    EVT_STORE_REL(&s->running, ETW_RUNNING);
    return EVT_ETW_SUCCESS;
}

static uint16_t slot_proc(const evt_etw_session *s, uint32_t i)
{
    (void)s;
    return (uint16_t)i;
}

/* The bytes of a loss record (ETW_LOSS_SIZE) carrying n at r. */
#define ETW_LOSS_SIZE (ETW_TRACE_HEADER_SIZE + ETW_EVT_LOSS_PAYLOAD)
static void put_loss_record(const evt_etw_session *s, uint8_t *r, uint32_t tid, uint64_t ts, evt_rec_count n)
{
    zero(r, ETW_LOSS_SIZE);
    st16(r + ETW_TH_SIZE, (uint16_t)ETW_LOSS_SIZE);
    r[ETW_TH_HEADER_TYPE] = ptr64(s) ? ETW_HT_FULL_HEADER64 : ETW_HT_FULL_HEADER32;
    r[ETW_TH_MARKER_FLAGS] = ETW_MARKER_FLAGS;
    r[ETW_TH_CLASS_TYPE] = ETW_EVT_LOSS_TYPE;
    st32(r + ETW_TH_THREAD_ID, tid);
    st32(r + ETW_TH_PROCESS_ID, s->pid);
    st64(r + ETW_TH_TIMESTAMP, ts);
    put_guid(r + ETW_TH_GUID, &k_loss_guid);
    st64(r + ETW_TRACE_HEADER_SIZE, (uint64_t)n);
}

/* The loss record: an EVTRACE_LOSS class event carrying the pending count, written into sl
 * (session entered; flushes sl first when it has no room). Returns 0 if it could not be written
 * (the file is full): the count stays pending. */
static ETW_COLD int write_loss_record(evt_etw_session *s, evt_etw_slot *sl, uint16_t proc, uint32_t tid, uint64_t ts)
{
    const uint32_t size = ETW_TRACE_HEADER_SIZE + ETW_EVT_LOSS_PAYLOAD;
    if (s->file_full) return 0;
    if (sl->used + size > s->cfg.buffer_size) {
        flush_slot(s, sl, proc);
        if (s->file_full) return 0;
    }
    evt_rec_count n = evt_loss_take(&s->loss);
    put_loss_record(s, sl->buf + sl->used, tid, ts, n);
    sl->used += size; /* 56: already 8-aligned */
    sl->loss_in += n;
    sl->lost_since_flush = 1; /* BufferFlag EVENTS_LOST: this buffer says losses happened */
    return 1;
}

static void flush_all(evt_etw_session *s)
{
    for (uint32_t i = 0; i < s->nslots; i++) flush_slot(s, &s->slots[i], slot_proc(s, i));
}

#if EVT_ETW_OWNED_SLOTS
/* ---- THREAD_OWNED: the per-buffer side (session entered) ----------------------------------- */

/* Data events and the loss counts of the records [r, r + len) (whole records, each Size bytes
 * rounded up to 8); returns 1 if a loss record is among them. */
static int count_records(const evt_etw_session *s, const uint8_t *r, uint32_t len, evt_rec_count *events,
                         evt_rec_count *loss_in)
{
    uint8_t g[16];
    int lost = 0;
    put_guid(g, &k_loss_guid);
    *events = *loss_in = 0;
    for (uint32_t at = 0; at < len;) {
        const uint8_t *q = r + at;
        uint32_t size = evt_ld_u16le(q + ETW_TH_SIZE), i = 0;
        if (size == ETW_LOSS_SIZE && q[ETW_TH_CLASS_TYPE] == ETW_EVT_LOSS_TYPE)
            while (i < 16u && q[ETW_TH_GUID + i] == g[i]) i++;
        if (i == 16u) {
            *loss_in += (evt_rec_count)evt_ld_u64le(q + ETW_TRACE_HEADER_SIZE);
            lost = 1;
        } else {
            (*events)++;
        }
        at += align8(size);
    }
    (void)s;
    return lost;
}

/* Write the records [recs, recs + len) as one data buffer of stream proc: the 72-byte header and
 * the 0xFF tail from the stack, the records from where they are (an owner may be appending after
 * them). They are `events` data events and loss records carrying `loss_in`. Accounted like
 * flush_slot. */
static ETW_COLD void write_records(evt_etw_session *s, uint16_t proc, const uint8_t *recs, uint32_t len,
                                   evt_rec_count events, evt_rec_count loss_in)
{
    if (!len) return;
    int lost = loss_in != 0; /* a loss record carries at least 1 */
    uint64_t off;
    int ok = place_buffer(s, &off);
    if (ok) {
        uint8_t h[ETW_BUFFER_HEADER_SIZE];
        uint32_t filled = ETW_BUFFER_HEADER_SIZE + len;
        put_buffer_header(h, s, filled, now(s), s->seq + 1u, proc, lost ? ETW_BUFFER_FLAG_EVENTS_LOST : 0u,
                          ETW_BUFFER_TYPE_GENERIC);
        int held = hold_begin(); /* once for the buffer's pieces */
        ok = write_at(s, off, h, ETW_BUFFER_HEADER_SIZE) && write_at(s, off + ETW_BUFFER_HEADER_SIZE, recs, len) &&
             write_ff(s, off, filled, s->cfg.buffer_size);
        hold_end(held);
    }
    buffer_done(s, ok, events, loss_in);
}

/* The owner's records not yet in the file go out; the slot starts empty (owner, session entered).
 * Their counts without reading them: the owner's data records since `wbase`, the loss counts its
 * loss records in the slot carry (`loss_in`; collect_owned subtracts what it takes). */
static ETW_COLD void owned_flush(evt_etw_session *s, evt_etw_slot *sl)
{
    evt_rec_count w = sl->written;
    uint16_t proc = (uint16_t)(sl - s->slots);
    if (sl->base == ETW_BUFFER_HEADER_SIZE && sl->used > sl->base) /* none of it written yet: whole */
        write_whole(s, sl->buf, sl->used, proc, sl->loss_in != 0, w - sl->wbase, sl->loss_in);
    else
        write_records(s, proc, sl->buf + sl->base, sl->used - sl->base, w - sl->wbase, sl->loss_in);
    sl->wbase = w;
    sl->loss_in = 0;
    sl->used = sl->base = ETW_BUFFER_HEADER_SIZE;
    EVT_STORE_REL(&sl->committed, ETW_BUFFER_HEADER_SIZE);
}

/* Before leaving the session: raise the pt_flags bits that now hold (a flush may have overwritten
 * buffers, i.e. pended losses, or filled the file). Bits are cleared only under the lock. */
static void pt_sync(evt_etw_session *s)
{
    if (s->file_full || !EVT_LOAD_RLX(&s->running)) PT_OR(&s->pt_flags, ETW_PT_CLOSED);
    if (evt_loss_pending(&s->loss)) PT_OR(&s->pt_flags, ETW_PT_LOSS);
}

/* evt_loss_pending with the drop count read by a sequentially consistent RMW (after clearing
 * ETW_PT_LOSS: see PT_OR). */
static evt_rec_count pending_rmw(evt_etw_session *s)
{
    return (evt_rec_count)(PT_RMW_LOAD(&s->loss.dropped) + s->loss.owed);
}

/* Losses no slot carries (flush, stop): a one-record buffer of the session's own stream. */
static ETW_COLD void write_session_loss(evt_etw_session *s)
{
    uint8_t rec[ETW_LOSS_SIZE];
    if (s->file_full) return;
    PT_AND(&s->pt_flags, ~ETW_PT_LOSS); /* before the count is read: a later drop raises it */
    if (!pending_rmw(s)) return;
    evt_rec_count n = evt_loss_take(&s->loss);
    put_loss_record(s, rec, tid_of(s), evt_clock_read(&s->clk), n);
    write_records(s, (uint16_t)s->nslots, rec, ETW_LOSS_SIZE, 0u, n);
}

/* Every slot's published records go out (owners keep appending after them), then pending losses. */
static void collect_owned(evt_etw_session *s)
{
    for (uint32_t i = 0; i < s->nslots; i++) {
        evt_etw_slot *sl = &s->slots[i];
        uint32_t c = EVT_LOAD_ACQ(&sl->committed);
        if (c > sl->base) { /* published records: counted here (the owner may be appending) */
            evt_rec_count events, loss_in;
            (void)count_records(s, sl->buf + sl->base, c - sl->base, &events, &loss_in);
            write_records(s, (uint16_t)i, sl->buf + sl->base, c - sl->base, events, loss_in);
            sl->base = c;
            sl->wbase += events;
            sl->loss_in -= loss_in;
        }
    }
    write_session_loss(s);
    pt_sync(s);
}

/* The owner's slow path (slot guard held, active): under the session lock, drop if closed; write a
 * loss record first if one is pending; make room for `need` bytes by writing the slot's records
 * out. Returns 1 if the record may be written at sl->buf + sl->used, 0 if it is dropped (the
 * caller counts it while still active, so stop's wait covers the count), -1 if the session has
 * stopped (not issued: see drop_unless_stopped). */
static int owned_room(evt_etw_session *s, evt_etw_slot *sl, uint32_t tid, uint32_t need);
static int owned_slow_(evt_etw_session *s, evt_etw_slot *sl, uint32_t tid, uint32_t need)
{
    evt_port_crit_t c;
    if (!enter_session(s, &c)) return EVT_LOAD_ACQ(&s->running) ? 0 : -1;
    if (!EVT_LOAD_RLX(&s->running)) {
        leave(s, c);
        return -1;
    }
    int ok = owned_room(s, sl, tid, need);
    leave(s, c);
    return ok;
}
/* owned_slow_'s work once the session is entered and running (also the shared slot's, whose
 * owner is the lock holder): 1 if the record may be written at sl->buf + sl->used, 0 if not. */
static int owned_room(evt_etw_session *s, evt_etw_slot *sl, uint32_t tid, uint32_t need)
{
    int ok = !(EVT_LOAD_RLX(&s->pt_flags) & ETW_PT_CLOSED) && !s->file_full;
    if (ok) {
        PT_AND(&s->pt_flags, ~ETW_PT_LOSS); /* before the pending count is read: a later drop raises it */
        if (pending_rmw(s)) {
            if (sl->used + ETW_LOSS_SIZE > s->cfg.buffer_size) owned_flush(s, sl);
            if (!s->file_full) {
                evt_rec_count n = evt_loss_take(&s->loss);
                put_loss_record(s, sl->buf + sl->used, tid, evt_clock_read(&sl->clk), n);
                sl->loss_in += n;
                sl->used += ETW_LOSS_SIZE;
                EVT_STORE_REL(&sl->committed, sl->used);
            }
        }
        if (sl->used + need > s->cfg.buffer_size) owned_flush(s, sl);
        ok = !s->file_full;
    }
    pt_sync(s);
    return ok;
}

/* On the POSIX port with the thread's signals held (hold_begin): the slot's record is open
 * meanwhile (its guard held) and the session lock may be long to come (its holder descheduled), so
 * handlers that landed would only pile up in the user layer's stash (user_nest_enc.c); held, they
 * run after it. */
static ETW_COLD int owned_slow(evt_etw_session *s, evt_etw_slot *sl, uint32_t tid, uint32_t need)
{
    int h = hold_begin();
    int ok = owned_slow_(s, sl, tid, need);
    hold_end(h);
    return ok;
}

/* A drop on the THREAD_OWNED path: counted, and the next record's pt_flags test sees it. */
static ETW_COLD void owned_drop(evt_etw_session *s)
{
    PT_ADD(&s->loss.dropped, 1u); /* evt_loss_drop, sequentially consistent (see PT_OR) */
    PT_OR(&s->pt_flags, ETW_PT_LOSS);
}

#endif /* EVT_ETW_OWNED_SLOTS */

/* A refused record, inside the session's section (or nested in one of its own thread): counted
 * as dropped while the session runs, else not issued (INVALID_HANDLE, as a call after stop): a
 * drop counted once stop has returned could never reach the file. */
static ETW_COLD uint32_t drop_if_running(evt_etw_session *s, uint32_t err)
{
    if (!EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
#if EVT_ETW_OWNED_SLOTS
    if (owned_mode(s)) owned_drop(s);
    else
#endif
        evt_loss_drop(&s->loss);
    return err;
}
/* The same for a record refused outside a section stop waits for (too big, nested in the slot's
 * own record before it is active, no slot, the session not entered): decided under the session
 * lock, which orders it before or after stop's section that clears `running`. A context that
 * cannot enter is nested in a section of its own thread (the guard), or is a nested context that
 * may not wait for the lock another thread holds (P3), which may be stop's: its test and count
 * then race stop's last count, and take the core's race protocol (stop's evt_loss_close_wait
 * waits for the count, or the test sees `running` 0: not issued). */
static ETW_COLD uint32_t drop_unless_stopped(evt_etw_session *s, uint32_t err)
{
    evt_port_crit_t c;
    if (enter_session(s, &c)) {
        uint32_t rc = drop_if_running(s, err);
        leave(s, c);
        return rc;
    }
    evt_loss_race_enter(&s->loss);
    uint32_t rc = drop_if_running(s, err);
    evt_loss_race_exit(&s->loss);
    return rc;
}

#if EVT_ETW_OWNED_SLOTS
/* Home slot of a thread key (multiplicative hash into [0, nown)). */
static uint32_t home_slot(const evt_etw_session *s, uint32_t key)
{
    return (uint32_t)(((uint64_t)(uint32_t)(key * 0x9E3779B9u) * s->nown) >> 32);
}

/* The calling thread's slot away from home: found by scanning, else claimed (a free slot, probing
 * from home, by CAS). NULL if all are taken or key is 0 (thread id 0xFFFFFFFF). */
static ETW_COLD evt_etw_slot *claim_slot(evt_etw_session *s, uint32_t key)
{
    if (!key) return 0;
    for (uint32_t i = 0; i < s->nown; i++)
        if (EVT_LOAD_ACQ(&s->slots[i].tkey) == key) return &s->slots[i];
    for (uint32_t k = 0, i = home_slot(s, key); k < s->nown; k++, i = i + 1u == s->nown ? 0u : i + 1u) {
        uint32_t expect = 0;
        if (EVT_LOAD_RLX(&s->slots[i].tkey) == 0u && PT_CAS(&s->slots[i].tkey, &expect, key)) {
            s->slots[i].cpu_res = 0u; /* the new owner's CPU times are read at its first record */
            return &s->slots[i];
        }
    }
    return 0;
}

evt_rec_count evt_etw_owned_written_(const evt_etw_session *s)
{
    evt_rec_count n = 0; /* every slot (0 past nslots): nslots changes at a start the stats may race */
    for (uint32_t i = 0; i < EVT_ETW_MAX_SLOTS; i++) n += EVT_LOAD_RLX(&s->slots[i].written);
    return n;
}

/* THREAD_OWNED: the calling thread's slot, or NULL if it has none. */
static evt_etw_slot *own_slot(evt_etw_session *s)
{
    uint32_t key = tid_of(s) + 1u;
    for (uint32_t i = 0; key && i < s->nslots; i++)
        if (EVT_LOAD_RLX(&s->slots[i].tkey) == key) return &s->slots[i];
    return 0;
}

/* THREAD_OWNED: is the caller nested in a record of its own thread's slot (a signal handler or a
 * callback that interrupted it)? That record holds the slot's guard until it ends. */
static int own_record_open(evt_etw_session *s)
{
    evt_etw_slot *sl = own_slot(s);
    if (!sl) return 0;
    if (!slot_enter(sl)) return 1;
    slot_exit(sl);
    return 0;
}

/* Stop's wait for a slot's record in flight, in a fork child (evt_port_wait_bounded): a slot whose
 * owner was inside a record at the fork keeps `active` set forever there; after this many spins
 * (a few milliseconds) its published records are written without it. */
#define ETW_DEAD_SPINS (1u << 22)

/* Bracketed as the record entry points (a detach racing a stop and a start of the same object);
 * `running` first: a start in progress writes the rest before it publishes `running`. */
static uint32_t thread_detach(evt_etw_session *s);
uint32_t evt_etw_thread_detach(evt_etw_session *s)
{
    int linked = call_enter();
    uint32_t rc = thread_detach(s);
    call_exit(linked);
    return rc;
}

static uint32_t thread_detach(evt_etw_session *s)
{
    if (!s || !EVT_LOAD_ACQ(&s->running) || !owned_mode(s)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_etw_slot *sl = own_slot(s);
    if (!sl) return EVT_ETW_SUCCESS;
    if (!slot_enter(sl)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    evt_port_crit_t c;
    if (!enter_session(s, &c)) {
        slot_exit(sl);
        return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    }
    owned_flush(s, sl);
    pt_sync(s);
    slot_exit(sl);
    EVT_STORE_REL(&sl->tkey, 0u); /* a claimer sees the empty slot (its CAS acquires) */
    leave(s, c);
    return EVT_ETW_SUCCESS;
}

#else
evt_rec_count evt_etw_owned_written_(const evt_etw_session *s)
{
    (void)s;
    return 0;
}
uint32_t evt_etw_thread_detach(evt_etw_session *s)
{
    (void)s;
    return EVT_ETW_ERROR_INVALID_HANDLE; /* THREAD_OWNED compiled out: no session is in that mode */
}
#endif /* EVT_ETW_OWNED_SLOTS */

int evt_etw_own_record_open_(evt_etw_session *s)
{
#if EVT_ETW_OWNED_SLOTS
    return owned_mode(s) && own_record_open(s);
#else
    (void)s;
    return 0;
#endif
}

/* A flush racing a stop and a start of the same object: bracketed as the record entry points. */
static uint32_t session_flush(evt_etw_session *s);
uint32_t evt_etw_session_flush(evt_etw_session *s)
{
    int linked = call_enter();
    uint32_t rc = session_flush(s);
    call_exit(linked);
    return rc;
}

static uint32_t session_flush(evt_etw_session *s)
{
    if (!s || !EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_port_crit_t c;
    if (!evt_rec_lock_enter(&s->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    if (!evt_nest_enter(&s->nest)) { evt_rec_lock_exit(&s->lock, c); return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; }
    if (!EVT_LOAD_RLX(&s->running)) { /* a stop took the section first: its header is final */
        leave(s, c);
        return EVT_ETW_ERROR_INVALID_HANDLE;
    }
#if EVT_ETW_OWNED_SLOTS
    if (owned_mode(s)) {
        collect_owned(s);
    } else
#endif
    {
        if (evt_loss_pending(&s->loss)) (void)write_loss_record(s, &s->slots[0], slot_proc(s, 0), tid_of(s), evt_clock_read(&s->clk));
        flush_all(s);
    }
    leave(s, c);
    return EVT_ETW_SUCCESS;
}

uint32_t evt_etw_session_stop(evt_etw_session *s)
{
    if (!s || !EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_port_crit_t c;
    if (!evt_rec_lock_enter(&s->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    if (!evt_nest_enter(&s->nest)) { evt_rec_lock_exit(&s->lock, c); return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; }
    if (!EVT_LOAD_RLX(&s->running)) { /* another stop took the section first */
        leave(s, c);
        return EVT_ETW_ERROR_INVALID_HANDLE;
    }
#if EVT_ETW_OWNED_SLOTS
    if (owned_mode(s) && own_record_open(s)) { /* the wait below would wait for this very context */
        leave(s, c);
        return EVT_ETW_ERROR_BUSY;
    }
#endif
    /* Close the gates first: from here on a TraceEvent returns INVALID_HANDLE (not issued). The
     * providers are disabled (ETW: a stopped session's providers are), the list emptied. */
    for (evt_etw_provider *p = s->providers, *next; p; p = next) {
        next = p->next_enabled;
        evt_gate_publish(&p->gate, 0u, 0u);
        p->next_enabled = 0;
        EVT_STORE_REL(&p->session, (evt_etw_session *)0); /* last: another session may take it now */
    }
    s->providers = 0;
    s->open = 0;
    EVT_STORE_REL(&s->running, 0);
    evt_loss_close_wait(&s->loss); /* drops decided outside the lock while it was running */
#if EVT_ETW_OWNED_SLOTS
    if (owned_mode(s)) {
        /* Records in flight: each either saw the session open (its `active` is seen here, after
         * the writers' barrier) and completes, or sees ETW_PT_CLOSED and is not issued
         * (INVALID_HANDLE: `running` is 0). The lock is left meanwhile: a record on its slow path
         * takes it (and then returns). */
        PT_OR(&s->pt_flags, ETW_PT_CLOSED);
        leave(s, c);
        if (s->cfg.sync_writers) s->cfg.sync_writers();
        for (uint32_t i = 0; i < s->nslots; i++)
            for (uint32_t spins = 0; EVT_LOAD_ACQ(&s->slots[i].active);)
                if (evt_port_wait_bounded() && ++spins >= ETW_DEAD_SPINS) break; /* its owner is gone */
        while (!enter_session(s, &c)) {
        }
        collect_owned(s);
    } else
#endif
    {
        if (evt_loss_pending(&s->loss)) (void)write_loss_record(s, &s->slots[0], slot_proc(s, 0), tid_of(s), evt_clock_read(&s->clk));
        flush_all(s);
    }
    uint64_t end = s->cfg.filetime ? s->cfg.filetime() : 0u;
    int ok = write_header_buffer(s, end); /* EventsLost = what stays pending (file full) */
    leave(s, c);
    /* A call that loaded this session before the gates closed may still be reading it (refused:
     * not issued): wait for it, so a start of this object may re-initialise it (port.h Q2). */
    evt_port_calls_quiesce();
    return ok ? EVT_ETW_SUCCESS : EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
}

void evt_etw_register(evt_etw_provider *p, const evt_etw_guid *guid,
                      void (*control)(evt_etw_provider *, uint32_t, void *), void *ctx)
{
    if (!p) return;
    if (guid) copy(&p->guid, guid, (uint32_t)sizeof *guid);
    else zero((uint8_t *)&p->guid, (uint32_t)sizeof p->guid);
    p->session = 0;
    p->level = 0;
    p->match_any = p->match_all = 0;
    p->control = control;
    p->control_ctx = ctx;
    p->gate.bits = p->gate.on = p->gate.gen = 0;
    p->next_enabled = 0;
}

/* Unlink p from its session's list of enabled providers (session entered). */
static void unlink_provider(evt_etw_session *s, evt_etw_provider *p)
{
    for (evt_etw_provider **q = &s->providers; *q; q = &(*q)->next_enabled)
        if (*q == p) { *q = p->next_enabled; break; }
    p->next_enabled = 0;
}

/* A provider's session changes only inside a session's section: S -> 0 inside S (disable, stop),
 * 0 -> S inside S by CAS (the sections of two sessions do not exclude each other), so p is linked
 * in S's list exactly while p->session == S, and its gate is written only inside that session.
 * The section includes the nesting guard: a handler that interrupted an enable or a record of the
 * same session gets NOT_ENOUGH_MEMORY instead of editing the list under it. */
/* Bracketed as the record entry points (Q1): a stop waits for an enable or disable that may have
 * loaded its session, so a start that follows cannot re-initialise the session's lock under it
 * (before 3 Dec 2026 it could: an enable racing a stop and a start left the session's lock held,
 * and the next stop failed). The provider's callback runs after the bracket (it may stop a
 * session). */
#define ETW_ENABLE_MOVE_ 0xFFFFFFFFu /* provider_enable: p is another session's (disable it there first) */
static uint32_t provider_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                                uint64_t match_any, uint64_t match_all);
uint32_t evt_etw_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                        uint64_t match_any, uint64_t match_all)
{
    if (!p || (code != ETW_CONTROL_DISABLE_PROVIDER && !s)) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (code != ETW_CONTROL_ENABLE_PROVIDER && code != ETW_CONTROL_DISABLE_PROVIDER && code != ETW_CONTROL_CAPTURE_STATE)
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    for (;;) {
        int linked = call_enter();
        uint32_t rc = provider_enable(s, p, code, level, match_any, match_all);
        call_exit(linked);
        if (rc != ETW_ENABLE_MOVE_) {
            if (rc == EVT_ETW_SUCCESS && p->control) p->control(p, code, p->control_ctx);
            return rc;
        }
        /* enabled by another session: disabled there first (its callback too), then again */
        rc = evt_etw_enable(0, p, ETW_CONTROL_DISABLE_PROVIDER, 0, 0, 0);
        if (rc != EVT_ETW_SUCCESS) return rc;
    }
}

static uint32_t provider_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                                uint64_t match_any, uint64_t match_all)
{
    evt_port_crit_t c;
    if (code == ETW_CONTROL_DISABLE_PROVIDER) {
        evt_etw_session *o;
        while ((o = (evt_etw_session *)EVT_LOAD_ACQ(&p->session)) != 0) {
            if (!enter_session(o, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; /* nested context */
            int here = EVT_LOAD_RLX(&p->session) == o; /* else it moved meanwhile: try again */
            if (here) {
                evt_gate_publish(&p->gate, 0u, 0u);
                unlink_provider(o, p);
                EVT_STORE_RLX(&p->level, (uint8_t)0); /* read without the lock (enable_level, the inline filter) */
                EVT_STORE64_RLX(&p->match_any, (uint64_t)0);
                EVT_STORE64_RLX(&p->match_all, (uint64_t)0);
                EVT_STORE_REL(&p->session, (evt_etw_session *)0); /* last: another session may take it now */
            }
            leave(o, c);
            if (here) break;
        }
    } else if (code == ETW_CONTROL_ENABLE_PROVIDER) {
        for (;;) {
            /* not running: stopped, or a start of it in progress (its lock not ready) */
            if (!EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
            if (!enter_session(s, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; /* nested context */
            if (!EVT_LOAD_RLX(&s->running)) { leave(s, c); return EVT_ETW_ERROR_INVALID_HANDLE; }
            evt_etw_session *old = (evt_etw_session *)EVT_LOAD_RLX(&p->session), *none = 0;
            if (old == s || (!old && SESSION_CAS(&p->session, &none, s))) {
                EVT_STORE_RLX(&p->level, level);
                EVT_STORE64_RLX(&p->match_any, match_any);
                EVT_STORE64_RLX(&p->match_all, match_all);
                if (!old) {
                    p->next_enabled = s->providers;
                    s->providers = p;
                }
                evt_gate_publish(&p->gate, ETW_GATE_ON | level, 1u);
                leave(s, c);
                break;
            }
            leave(s, c);
            if (old) return ETW_ENABLE_MOVE_; /* moving between sessions (evt_etw_enable) */
            /* else another session took it since the load: again */
        }
    }
    return EVT_ETW_SUCCESS;
}

/* The slot of the calling context (crit section held); NULL if none is free (per-thread). */
static evt_etw_slot *slot_for(evt_etw_session *s, uint32_t tid, uint16_t *proc)
{
    if (!EVT_ETW_THREAD_SLOTS || s->cfg.per_thread != EVT_ETW_SLOTS_PER_THREAD) {
        uint32_t i = evt_port_cpu();
        if (i >= s->nslots) i %= s->nslots; /* no division on the common path */
        *proc = (uint16_t)i;
        return &s->slots[i];
    }
    uint64_t key = (uint64_t)tid + 1u;
    uint32_t free_i = s->nslots;
    for (uint32_t i = 0; i < s->nslots; i++) {
        if (s->slots[i].owner == key) { *proc = (uint16_t)i; return &s->slots[i]; }
        if (s->slots[i].owner == 0 && free_i == s->nslots) free_i = i;
    }
    if (free_i == s->nslots) return 0;
    s->slots[free_i].owner = key;
    *proc = (uint16_t)free_i;
    return &s->slots[free_i];
}

/* Payload of one MOF field: the common 4- and 8-byte scalars as one move each. */
static inline void copy_field(uint8_t *d, const uint8_t *q, uint32_t n)
{
    if (n == 8u) { uint64_t w; __builtin_memcpy(&w, q, 8); __builtin_memcpy(d, &w, 8); }
    else if (n == 4u) { uint32_t w; __builtin_memcpy(&w, q, 4); __builtin_memcpy(d, &w, 4); }
    else copy_payload(d, q, n);
}

/* The rare cases before a record (session entered): no slot (stopped, file full, per-thread slots
 * exhausted), a pending loss record to write first, or a full buffer to flush. Returns the slot
 * to write into, or NULL (the caller drops and counts). */
static ETW_COLD evt_etw_slot *prepare_slow(evt_etw_session *s, evt_etw_slot *sl, uint16_t proc, uint32_t tid, uint32_t need)
{
    if (!sl) return 0;
    if (evt_loss_pending(&s->loss) != 0) (void)write_loss_record(s, sl, proc, tid, evt_clock_read(&s->clk));
    if (sl->used + need > s->cfg.buffer_size) {
        flush_slot(s, sl, proc);
        if (s->file_full) return 0;
    }
    return sl;
}

/* The record payload as the fast paths pass it (`words`, a constant per instantiation): flat bytes
 * or MOF fields at a0 (hdr->flags says which), or up to 3 little-endian words a0..a2 composed at
 * the call site (evt_etw_commit_x_; zero-padded, so they include the alignment padding). Such a
 * record (<= EVT_ETW_GATHER_MAX payload bytes) fits every session's size_limit: not tested. */
typedef char etw_words_always_fit[ETW_TRACE_HEADER_SIZE + EVT_ETW_GATHER_MAX + ETW_BUFFER_HEADER_SIZE <
                                          ETW_MIN_BUFFER_KB * 1024u &&
                                      ETW_TRACE_HEADER_SIZE + EVT_ETW_GATHER_MAX <= ETW_MAX_EVENT_SIZE
                                  ? 1
                                  : -1];

/* Type, Level, Version of hdr in bits 32..63 (the Class field of the record's first 8 bytes).
 * Loaded one by one: a caller has usually just stored them that way, and a wider load spanning
 * those stores would wait for them. */
static inline uint64_t etw_cls(const evt_etw_trace_header *hdr)
{
    return (uint64_t)hdr->type << 32 | (uint64_t)hdr->level << 40 | (uint64_t)hdr->version << 48;
}

/* The record bytes at r (need = size rounded up to 8 bytes). The 48-byte header goes out as
 * three 16-byte stores composed from the session's precomputed header bits (little-endian bytes
 * on any host; native stores on a little-endian one). */
static inline void put_record(const evt_etw_session *s, uint8_t *r, uint32_t size, uint32_t need,
                              const evt_etw_trace_header *hdr, uint64_t cls, int words, uint64_t a0, uint64_t a1,
                              uint64_t a2, uint32_t tid, uint64_t times, uint64_t ts)
{
    const evt_etw_guid *guid = &hdr->guid;
    uint64_t g0, g1;
    __builtin_memcpy(&g0, guid, 8);
    __builtin_memcpy(&g1, (const uint8_t *)guid + 8, 8);
#ifndef ETW_LE_STORES
    g0 = (uint64_t)guid->data1 | (uint64_t)guid->data2 << 32 | (uint64_t)guid->data3 << 48;
    g1 = 0;
    for (int i = 7; i >= 0; i--) g1 = g1 << 8 | guid->data4[i];
#endif
    /* Three 16-byte stores: [Size..Version, ThreadId ProcessId] [TimeStamp, Guid lo] [Guid hi, times].
     * cls: Type, Level, Version in bits 32..63 (etw_cls, or composed at the call site). */
    st64x2(r + ETW_TH_SIZE, (uint64_t)(size | s->hdr_bits) | (cls & ~(uint64_t)0xFFFFFFFFu),
           (uint64_t)tid | (uint64_t)s->pid << 32);
    st64x2(r + ETW_TH_TIMESTAMP, ts, g0);
    st64x2(r + ETW_TH_GUID + 8, g1, times);
    uint8_t *d = r + ETW_TRACE_HEADER_SIZE;
    if (EVT_ETW_CALLSITE_GATHER && words) { /* composed at the call site (<= 3 words) */
        if (need > ETW_TRACE_HEADER_SIZE) st64(d, a0);
        if (need > ETW_TRACE_HEADER_SIZE + 8u) st64(d + 8, a1);
        if (need > ETW_TRACE_HEADER_SIZE + 16u) st64(d + 16, a2);
        return;
    }
    const void *payload = (const void *)(uintptr_t)a0;
    uint32_t payload_len = size - ETW_TRACE_HEADER_SIZE;
    if (size & 7u) st64(r + need - 8u, 0); /* the alignment padding (need >= 48: inside the record) */
    if (EVT_ETW_MOF && (hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR)) {
        const evt_etw_mof_field *mof = (const evt_etw_mof_field *)payload;
        uint32_t nmof = ((uint32_t)hdr->size - ETW_TRACE_HEADER_SIZE) / ETW_MOF_FIELD_SIZE;
        for (uint32_t i = 0; i < nmof; i++) {
            copy_field(d, (const uint8_t *)mof[i].data, mof[i].length);
            d += mof[i].length;
        }
    } else {
        copy_payload(d, (const uint8_t *)payload, payload_len);
    }
}

#if EVT_ETW_OWNED_SLOTS
/* After a THREAD_OWNED record, its slot's guard free: what a signal handler that landed inside it
 * left for its end (POSIX port: evt_posix_after_record; other ports' records mask what could land
 * inside). */
static ETW_INLINE void owned_after_record(void)
{
#ifdef EVT_PORT_POSIX
    evt_posix_after_record();
#endif
}

/* The end of a THREAD_OWNED record whose bytes lie in its slot up to `end`: committed (release:
 * a drain reads the bytes only up to it), counted, the slot and its guard free, then what a
 * handler left for the record's end. */
static ETW_INLINE void owned_commit_(evt_etw_slot *sl, uint32_t end, int leave_call)
{
    sl->used = end;
    EVT_STORE_REL(&sl->committed, end);
    EVT_STORE_RLX(&sl->written, sl->written + 1u);
    slot_exit(sl);
    if (leave_call) evt_port_call_exit(); /* done with the session (Q1), before what a handler left */
    owned_after_record();
}
static ETW_INLINE void owned_commit(evt_etw_slot *sl, uint32_t end) { owned_commit_(sl, end, 0); }

/* EVT_ETW_SLOTS_DEFAULT: a thread that found no slot of its own (all claimed) writes into the shared
 * slot s->slots[s->nown] under the session lock and guard; the lock holder is that slot's owner
 * (owned_room's loss record and room, committed, written), so flush, stop and the counts treat it
 * as any slot (its `active` stays 0: the lock orders its records before or after stop's section). */
static ETW_COLD uint32_t record_shared(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t size, uint32_t need,
                                       uint64_t cls, uint64_t a0, uint64_t a1, uint64_t a2, int words, uint32_t tid)
{
    uint64_t times = EVT_ETW_CPU_TIMES && s->cfg.cpu_times ? cpu_word(s) : 0u;
    evt_port_crit_t c;
    if (!enter_session(s, &c)) return drop_unless_stopped(s, EVT_ETW_ERROR_NOT_ENOUGH_MEMORY); /* nested */
    if (!EVT_LOAD_RLX(&s->running)) { /* stop's section came first: not issued */
        leave(s, c);
        return EVT_ETW_ERROR_INVALID_HANDLE;
    }
    evt_etw_slot *sl = &s->slots[s->nown];
    if (!owned_room(s, sl, tid, need)) { /* file full: dropped, counted */
        owned_drop(s);
        leave(s, c);
        return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    }
    uint64_t ts = (hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) ? hdr->timestamp : evt_clock_read(&sl->clk);
    put_record(s, sl->buf + sl->used, size, need, hdr, cls, words, a0, a1, a2, tid, times, ts);
    sl->used += need;
    EVT_STORE_REL(&sl->committed, sl->used);
    EVT_STORE_RLX(&sl->written, sl->written + 1u);
    leave(s, c);
    return EVT_ETW_SUCCESS;
}

/* THREAD_OWNED record (see the invariants at the top): no lock, plain stores into the calling
 * thread's own slot; the session only when pt_flags is set or the buffer is full. One straight
 * function per payload kind (its own: the locked path's registers and stack frame stay out of
 * it); the rare cases (too big, no slot yet, nested, slow path) leave it through cold calls.
 * words (a constant): the payload is len <= EVT_ETW_GATHER_MAX bytes as words (never too big). */
static ETW_INLINE uint32_t record_owned_(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t len,
                                        uint64_t cls, uint64_t a0, uint64_t a1, uint64_t a2, int words)
{
    /* The thread id first (a call: only the arguments live across it). Then, with the port's
     * 64-bit counter, the time (its latency overlaps the rest), clamped in record order below;
     * otherwise the session clock is read inside the guard. */
    uint32_t tid = s->cfg.thread_id ? s->cfg.thread_id() : (uint32_t)evt_port_context_id();
    int early = s->owned_early && !(hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP);
    uint64_t t0 = early ? evt_port_timestamp() : 0u;
    uint32_t size = ETW_TRACE_HEADER_SIZE + len;
    if (!words && EVT_UNLIKELY(size > s->size_limit)) /* too big: dropped, counted, carried by the next loss record */
        return drop_unless_stopped(s, EVT_ETW_ERROR_MORE_DATA);
    uint32_t need = align8(size);
    uint32_t key = tid + 1u;
    evt_etw_slot *sl = &s->slots[home_slot(s, key)];
    if (EVT_UNLIKELY(EVT_LOAD_RLX(&sl->tkey) != key) && !(sl = claim_slot(s, key))) {
        if (s->nown < s->nslots) return record_shared(s, hdr, size, need, cls, a0, a1, a2, words, tid);
        return drop_unless_stopped(s, EVT_ETW_ERROR_NOT_ENOUGH_MEMORY); /* no slot left for this thread */
    }
    if (EVT_UNLIKELY(!slot_enter(sl))) { /* nested in a record of this slot */
        note_nested();
        return drop_unless_stopped(s, EVT_ETW_ERROR_NOT_ENOUGH_MEMORY);
    }
    if (EVT_UNLIKELY((EVT_LOAD_RLX(&s->pt_flags) != 0u) | (sl->used + need > s->cfg.buffer_size))) {
        int ok = owned_slow(s, sl, tid, need);
        if (ok <= 0) {
            if (ok == 0) owned_drop(s); /* while active: stop's wait orders the count before its collection */
            slot_exit(sl);
            return ok == 0 ? EVT_ETW_ERROR_NOT_ENOUGH_MEMORY : EVT_ETW_ERROR_INVALID_HANDLE;
        }
    }
    uint32_t used = sl->used;
    uint64_t ts;
    if (EVT_LIKELY(early)) { /* never behind the slot's last record (a handler's may have come in between) */
        uint64_t last = sl->clk.last;
        ts = (int64_t)(t0 - last) < 0 ? last : t0;
        sl->clk.last = ts;
    } else {
        ts = (hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) ? hdr->timestamp : evt_clock_read(&sl->clk);
    }
#if EVT_ETW_CPU_TIMES
    uint64_t times = EVT_UNLIKELY(s->cfg.cpu_times != 0) ? owned_cpu(s, sl, ts) : 0u; /* KernelTime | UserTime << 32 */
#else
    uint64_t times = 0u;
#endif
    put_record(s, sl->buf + used, size, need, hdr, cls, words, a0, a1, a2, tid, times, ts);
    owned_commit(sl, used + need);
    return EVT_ETW_SUCCESS;
}
static ETW_RECORD_FN uint32_t record_owned_p(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t len,
                                             uint64_t a0)
{
    return record_owned_(s, hdr, len, etw_cls(hdr), a0, 0u, 0u, 0);
}
#if EVT_ETW_CALLSITE_GATHER
/* The rec_w records (evt_etw_commit_x_ calls them inside its Q1 call): each leaves the call when
 * it is done with the session. */
static ETW_RECORD_FN uint32_t record_owned_w(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                             uint64_t a0, uint64_t a1, uint64_t a2)
{
    uint32_t rc = record_owned_(s, hdr, (uint32_t)cls, cls, a0, a1, a2, 1);
    evt_port_call_exit();
    return rc;
}
#ifdef EVT_PORT_POSIX
/* The words record of a THREAD_OWNED session on a leaf path (s->path >= ETW_PATH_LEAF_PORT): the thread id read inline, the
 * port's 64-bit counter, with the CPU-time hook (path + ETW_PATH_LEAF_CPU) the slot's cached word;
 * every other case (id not cached yet, USE_TIMESTAMP, slot not claimed, nested, pt_flags set,
 * buffer full, CPU times to read again) goes to record_owned_w by a tail call before this
 * record has changed anything (the guard and `active` taken for the pt_flags/room test are given
 * back first: to stop and to handlers that is a record that did not start). No call on the way,
 * so no registers to save. Same bytes and accounting as record_owned_. */
static ETW_INLINE uint32_t record_owned_fast_(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                              uint64_t a0, uint64_t a1, uint64_t a2, int path)
{
    const int cpu = path >= ETW_PATH_LEAF_PORT + ETW_PATH_LEAF_CPU;
    uint32_t tid = path - (cpu ? ETW_PATH_LEAF_CPU : 0) == ETW_PATH_LEAF_POSIX ? evt_etw_posix_tid_ : (uint32_t)evt_posix_self;
    uint32_t key = tid + 1u;
    /* key 1: no id cached yet; key 0: id 0xFFFFFFFF (claim_slot refuses it) */
    if (EVT_UNLIKELY((key <= 1u) | ((hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) != 0u)))
        return record_owned_w(s, hdr, cls, a0, a1, a2);
    uint64_t t0 = evt_port_timestamp(); /* early, as owned_early: clamped below */
    evt_etw_slot *sl = &s->slots[home_slot(s, key)];
    if (EVT_UNLIKELY(EVT_LOAD_RLX(&sl->tkey) != key) || EVT_UNLIKELY(!slot_enter(sl)))
        return record_owned_w(s, hdr, cls, a0, a1, a2);
    uint32_t used = sl->used;
    /* Room for the whole 72 bytes the stores below write (the record is at most that: its bytes
     * past `need` lie beyond it, in the owner's part of the slot, and are never written out); a
     * record that fits only exactly takes record_owned_w, which writes it the same. */
    if (EVT_UNLIKELY((EVT_LOAD_RLX(&s->pt_flags) != 0u) |
                     (used + ETW_TRACE_HEADER_SIZE + EVT_ETW_GATHER_MAX > s->cfg.buffer_size))) {
        slot_exit(sl);
        return record_owned_w(s, hdr, cls, a0, a1, a2);
    }
    uint64_t last = sl->clk.last;
    uint64_t ts = (int64_t)(t0 - last) < 0 ? last : t0;
    uint64_t times = 0u;
#if EVT_ETW_CPU_TIMES
    if (cpu) {
        if (EVT_UNLIKELY(ts - sl->cpu_at >= sl->cpu_res)) { /* read them again: record_owned_w (owned_cpu) */
            slot_exit(sl);
            return record_owned_w(s, hdr, cls, a0, a1, a2);
        }
        times = sl->cpu_word;
    }
#endif
    sl->clk.last = ts;
    /* The record as five stores: [Size..Version (cls + the session's constant bits), ThreadId
     * ProcessId] [TimeStamp, Guid lo] [Guid hi, KernelTime UserTime] [payload words]. */
    uint8_t *r = sl->buf + used;
    uint64_t g0, g1;
    __builtin_memcpy(&g0, &hdr->guid, 8);
    __builtin_memcpy(&g1, (const uint8_t *)&hdr->guid + 8, 8);
    st64x2(r + ETW_TH_SIZE, cls + s->hw0, (uint64_t)tid | s->pid_hi);
    st64x2(r + ETW_TH_TIMESTAMP, ts, g0);
    st64x2(r + ETW_TH_GUID + 8, g1, times);
    st64x2(r + ETW_TRACE_HEADER_SIZE, a0, a1);
    st64(r + ETW_TRACE_HEADER_SIZE + 16u, a2);
    owned_commit_(sl, used + align8(ETW_TRACE_HEADER_SIZE + (uint32_t)cls), 1); /* and leaves the call (the other
                                                                               ways out: record_owned_w) */
    return EVT_ETW_SUCCESS;
}
/* The leaf per thread-id source (the dispatch in evt_etw_commit_x_ picks it: no test inside). */
static ETW_NOINLINE uint32_t record_owned_fast_posix(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                                     uint64_t a0, uint64_t a1, uint64_t a2)
{
    return record_owned_fast_(s, hdr, cls, a0, a1, a2, ETW_PATH_LEAF_POSIX);
}
static ETW_NOINLINE uint32_t record_owned_fast_port(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                                    uint64_t a0, uint64_t a1, uint64_t a2)
{
    return record_owned_fast_(s, hdr, cls, a0, a1, a2, ETW_PATH_LEAF_PORT);
}
#if EVT_ETW_CPU_TIMES
static ETW_NOINLINE uint32_t record_owned_fast_posix_cpu(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                                         uint64_t a0, uint64_t a1, uint64_t a2)
{
    return record_owned_fast_(s, hdr, cls, a0, a1, a2, ETW_PATH_LEAF_POSIX + ETW_PATH_LEAF_CPU);
}
static ETW_NOINLINE uint32_t record_owned_fast_port_cpu(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                                        uint64_t a0, uint64_t a1, uint64_t a2)
{
    return record_owned_fast_(s, hdr, cls, a0, a1, a2, ETW_PATH_LEAF_PORT + ETW_PATH_LEAF_CPU);
}
#endif
#endif
#endif

#endif /* EVT_ETW_OWNED_SLOTS */

/* Write one validated record (not THREAD_OWNED): hdr (its guid; USE_GUID_PTR was resolved by the
 * caller) and the payload (put_record; words as in record_owned_). Under the session's lock and
 * guard, one branch decides "slot ready, no loss pending, room left", then put_record. */
static ETW_INLINE uint32_t record_locked_(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t len, uint64_t cls,
                                         uint64_t a0, uint64_t a1, uint64_t a2, int words)
{
    uint32_t size = ETW_TRACE_HEADER_SIZE + len;
    if (!words && EVT_UNLIKELY(size > s->size_limit)) /* too big: dropped, counted, carried by the next loss record */
        return drop_unless_stopped(s, EVT_ETW_ERROR_MORE_DATA);
    uint32_t tid = rec_tid(s);
    uint64_t times = EVT_ETW_CPU_TIMES && EVT_UNLIKELY(s->cfg.cpu_times != 0) ? cpu_word(s) : 0u; /* KernelTime | UserTime << 32 */
    uint32_t need = align8(size);
    uint16_t proc = 0;
    evt_port_crit_t c;
    if (!enter_session(s, &c)) /* nested in a record of this session */
        return drop_unless_stopped(s, EVT_ETW_ERROR_NOT_ENOUGH_MEMORY);
    evt_etw_slot *sl = EVT_UNLIKELY(!s->open) ? 0 : slot_for(s, tid, &proc); /* stopped or file full: none */
    if (EVT_UNLIKELY(!sl || evt_loss_pending(&s->loss) != 0 || sl->used + need > s->cfg.buffer_size)) {
        sl = prepare_slow(s, sl, proc, tid, need);
        if (!sl) { /* stopped (after stop's section: not issued), file full or no slot (dropped) */
            uint32_t rc = drop_if_running(s, EVT_ETW_ERROR_NOT_ENOUGH_MEMORY);
            leave(s, c);
            return rc;
        }
    }
    uint8_t *r = sl->buf + sl->used;
    uint64_t ts;
    if (hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) {
        ts = hdr->timestamp;
    } else if (evt_port_timestamp_bits() == 64u && EVT_LIKELY(s->clk_port64)) { /* (folded away on 32-bit counters) */ /* evt_clock_read with the 64-bit counter (mask all ones) */
        uint64_t t = evt_port_timestamp(), last = s->clk.last;
        ts = EVT_UNLIKELY((last - t) - 1u < (uint64_t)EVT_CLOCK_CLAMP_TICKS - 1u) ? last : t;
        s->clk.last = ts;
    } else {
        ts = evt_clock_read(&s->clk);
    }
    put_record(s, r, size, need, hdr, cls, words, a0, a1, a2, tid, times, ts);
    sl->used += need;
    sl->events++;
    evt_loss_written(&s->loss, 1u);
    leave(s, c);
    return EVT_ETW_SUCCESS;
}
static ETW_RECORD_FN uint32_t record_locked_p(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t len,
                                              uint64_t a0)
{
    return record_locked_(s, hdr, len, etw_cls(hdr), a0, 0u, 0u, 0);
}
#if EVT_ETW_CALLSITE_GATHER
static ETW_RECORD_FN uint32_t record_locked_w(evt_etw_session *s, const evt_etw_trace_header *hdr, uint64_t cls,
                                              uint64_t a0, uint64_t a1, uint64_t a2)
{
    uint32_t rc = record_locked_(s, hdr, (uint32_t)cls, cls, a0, a1, a2, 1);
    evt_port_call_exit(); /* (a rec_w record: it leaves evt_etw_commit_x_'s call) */
    return rc;
}
#endif

/* A validated record with its payload at `payload` (flat or MOF fields, as hdr->flags says). */
static uint32_t record(evt_etw_session *s, const evt_etw_trace_header *hdr, uint32_t len, uintptr_t payload)
{
#if EVT_ETW_OWNED_SLOTS
    if (owned_mode(s)) return record_owned_p(s, hdr, len, payload);
#endif
    return record_locked_p(s, hdr, len, payload);
}

/* The entry points below reach a session through p->session, which a stop unpublishes and a start
 * of the same object re-initialises: each brackets its call with evt_port_call_enter/exit, so the
 * stop's evt_port_calls_quiesce waits for a call that loaded the session before (port.h; POSIX
 * Q1-Q3). */
uint32_t evt_etw_commit_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload, uint32_t payload_len)
{
    int linked = call_enter();
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&p->session);
    uint32_t rc = EVT_LIKELY(s) ? record(s, hdr, payload_len, (uintptr_t)payload) : EVT_ETW_ERROR_INVALID_HANDLE;
    call_exit(linked);
    return rc;
}

#if EVT_ETW_CALLSITE_GATHER
/* evt_etw_commit_x_ on a thread's first call: register it (Q3), then the call; a thread the port
 * cannot register (POSIX Q4) makes the call the port counted instead, and ends it. */
static ETW_COLD uint32_t commit_x_link_(evt_etw_provider *p, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t w0,
                                        uint64_t w1, uint64_t w2)
{
    if (evt_port_call_link()) return evt_etw_commit_x_(p, hdr, cls, w0, w1, w2);
    uint32_t rc = evt_etw_commit_x_(p, hdr, cls, w0, w1, w2);
    evt_port_call_unlinked_done();
    return rc;
}

uint32_t evt_etw_commit_x_(evt_etw_provider *p, const evt_etw_trace_header *hdr, uint64_t cls, uint64_t w0, uint64_t w1,
                           uint64_t w2)
{
    if (EVT_UNLIKELY(!evt_port_call_enter())) return commit_x_link_(p, hdr, cls, w0, w1, w2);
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&p->session);
    if (EVT_UNLIKELY(!s)) {
        evt_port_call_exit();
        return EVT_ETW_ERROR_INVALID_HANDLE;
    }
    return s->rec_w(s, hdr, cls, w0, w1, w2); /* by the session's path (set at start); it leaves the call */
}
#endif

static uint32_t trace_event(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&p->session);
    if (!s) return EVT_ETW_ERROR_INVALID_HANDLE;
    if (!hdr || hdr->size < ETW_TRACE_HEADER_SIZE) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (!(hdr->flags & ETW_WNODE_FLAG_TRACED_GUID)) return EVT_ETW_ERROR_INVALID_FLAGS;
    const evt_etw_guid *guid = &hdr->guid;
    if (hdr->flags & ETW_WNODE_FLAG_USE_GUID_PTR) {
        guid = (const evt_etw_guid *)(uintptr_t)hdr->guid_ptr;
        if (!guid) return EVT_ETW_ERROR_INVALID_PARAMETER;
    }
    /* evtrace's loss class is the recorder's own: an application's event of it would read back
     * as a loss record (its count taken from its payload). Refused, not issued. */
    if (is_loss_class(guid)) return EVT_ETW_ERROR_INVALID_PARAMETER;
    uint32_t extra = hdr->size - ETW_TRACE_HEADER_SIZE, payload_len = 0;
    if (hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR) {
        if (!EVT_ETW_MOF) return EVT_ETW_ERROR_INVALID_PARAMETER; /* compiled out */
        uint32_t nmof = extra / ETW_MOF_FIELD_SIZE;
        if (extra % ETW_MOF_FIELD_SIZE || nmof > ETW_MAX_MOF_FIELDS || (nmof && !payload))
            return EVT_ETW_ERROR_INVALID_PARAMETER;
        const evt_etw_mof_field *mof = (const evt_etw_mof_field *)payload;
        for (uint32_t i = 0; i < nmof; i++) {
            if (!mof[i].data && mof[i].length) return EVT_ETW_ERROR_INVALID_PARAMETER;
            payload_len += mof[i].length;
            if (payload_len > ETW_MAX_EVENT_SIZE) break;
        }
    } else {
        if (extra && !payload) return EVT_ETW_ERROR_INVALID_PARAMETER;
        payload_len = extra;
    }
    if (payload_len > ETW_MAX_EVENT_SIZE) payload_len = ETW_MAX_EVENT_SIZE; /* too big either way */
    if (guid != &hdr->guid) { /* USE_GUID_PTR: the record takes the guid from a copy of the header */
        evt_etw_trace_header h;
        copy(&h, hdr, (uint32_t)sizeof h);
        copy(&h.guid, guid, (uint32_t)sizeof h.guid);
        return record(s, &h, payload_len, (uintptr_t)payload);
    }
    return record(s, hdr, payload_len, (uintptr_t)payload);
}

uint32_t (evt_etw_trace_event)(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    if (!p || !evt_gate_bits(&p->gate)) return EVT_ETW_ERROR_INVALID_HANDLE;
    int linked = call_enter();
    uint32_t rc = trace_event(p, hdr, payload);
    call_exit(linked);
    return rc;
}
