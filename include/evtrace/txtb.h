/* TXTB recorder: a ThreadX-compatible event-trace API (names evt_tx_*) that writes the byte-exact
 * ThreadX trace buffer (TraceX .trx) into memory the caller owns. Freestanding C99: no malloc, no
 * libc. Facts: shared/formats/threadx.md; layouts and ids: src/formats/threadx/txtb_defs.h; the
 * full description (LOST record, deliberate differences from ThreadX): docs/threadx-recorder.md.
 *
 * One recorder per program (like ThreadX), on the recorder core (evtrace/recorder.h): its own lock,
 * a nesting guard, the loss account. Every function may be called from any thread, interrupt or
 * signal handler; a record is written whole inside the recorder's critical section, and an insert
 * that interrupts another insert of the same context is dropped, counted and reported in the trace
 * by an EVTRACE_LOST record (POSIX: stashed and written after it, txtb_enc.c I9). Built with
 * EVT_REC_NESTING 0 (the MCU profile: no nesting guard, evtrace/recorder.h) nothing may interrupt
 * an insert and record: only threads, and interrupts the section masks, may call it (a signal
 * handler that records there is spliced into the record it interrupted, and the counts are no
 * longer exact; docs/firmware.md).
 *
 * Addresses in the buffer are 32-bit target addresses. On a 64-bit host every pointer (buffer,
 * objects, contexts) is written as its low 32 bits, exactly as ThreadX's own Linux port does;
 * offsets stay consistent modulo 2^32, and two objects whose addresses differ only above bit 31
 * would share a registry pointer. */
#ifndef EVTRACE_TXTB_H
#define EVTRACE_TXTB_H

#include <stdint.h>
#include "evtrace/recorder.h"

/* GCC/Clang with C99 inline semantics: the three hot inserts are inline functions (fast paths at
 * the end of this file); elsewhere, or with -DEVT_TX_NO_INLINE, plain functions. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__GNUC_GNU_INLINE__) && \
    !defined(__cplusplus) && !defined(EVT_TX_NO_INLINE)
#define EVT_TX_INLINE_FAST 1
#define EVT_TX_FAST_ inline
#else
#define EVT_TX_FAST_
#endif

/* 1 (default): user_event_insert refuses a record that would read back as evtrace's LOST record
 * (id 190 with info3 "evtr": dropped and counted, NOT_DONE); 0 (the MCU profiles of
 * docs/firmware.md): such an insert is written and misread. Give the recorder's value to every
 * file that includes this header. */
#ifndef EVT_TX_LOST_GUARD
#define EVT_TX_LOST_GUARD 1
#endif
/* evtrace's LOST record as a reader tells it: id 190, info3 "evtr" (the format's own facts are
 * TXTB_EVTRACE_LOST_ID and _MAGIC in src/formats/threadx/txtb_defs.h; txtb_enc.c fails to compile
 * if these differ). */
#define EVT_TX_LOST_ID    190u
#define EVT_TX_LOST_MAGIC 0x65767472u

/* ThreadX return codes used by the trace API. */
#define EVT_TX_SUCCESS        0x00u
#define EVT_TX_PTR_ERROR      0x03u
#define EVT_TX_SIZE_ERROR     0x05u
#define EVT_TX_NOT_DONE       0x20u

/* Filter masks (ThreadX values). */
#define EVT_TX_TRACE_ALL_EVENTS              0x000007FFu /* does NOT contain USER_EVENTS */
#define EVT_TX_TRACE_INTERNAL_EVENTS         0x00000001u
#define EVT_TX_TRACE_BLOCK_POOL_EVENTS       0x00000002u
#define EVT_TX_TRACE_BYTE_POOL_EVENTS        0x00000004u
#define EVT_TX_TRACE_EVENT_FLAGS_EVENTS      0x00000008u
#define EVT_TX_TRACE_INTERRUPT_CONTROL_EVENT 0x00000010u
#define EVT_TX_TRACE_MUTEX_EVENTS            0x00000020u
#define EVT_TX_TRACE_QUEUE_EVENTS            0x00000040u
#define EVT_TX_TRACE_SEMAPHORE_EVENTS        0x00000080u
#define EVT_TX_TRACE_THREAD_EVENTS           0x00000100u
#define EVT_TX_TRACE_TIME_EVENTS             0x00000200u
#define EVT_TX_TRACE_TIMER_EVENTS            0x00000400u
#define EVT_TX_TRACE_USER_EVENTS             0x80000000u

/* What the recorder needs to know about "who is running", supplied by the kernel through
 * evt_tx_options.context, or the port's default: ISR if evt_port_in_isr() (priority word 0,
 * system state 1), else thread = low 32 bits of evt_port_context_id(), priority word 0x80000000.
 * Before the callback runs, the recorder sets every member to 0 except `stack` (the address of a
 * local of the recording function). After it, a system_state left at 0 becomes 1 for an ISR
 * context and 0xF0F0F0F0 for the initialisation context. */
typedef struct evt_tx_context {
    uint32_t context;        /* thread address, 0xFFFFFFFF (ISR) or 0xF0F0F0F0 (initialisation) */
    uint32_t priority_word;  /* thread: 0x80000000 | threshold << 16 | priority; ISR: interrupted
                                thread's address (0 if idle); init: 0 */
    uint32_t system_state;   /* ThreadX _tx_thread_system_state (ISR nesting): ISR_ENTER/EXIT info3,
                                TIME_SLICE info2 */
    uint32_t preempt_disable;/* ThreadX _tx_thread_preempt_disable: ISR_ENTER/EXIT info4 */
    uint32_t stack;          /* stack-pointer sample ("stk" info fields) */
} evt_tx_context;
typedef void (*evt_tx_context_fn)(evt_tx_context *out);

/* Options of evt_tx_trace_enable_ex(); zero-initialised = ThreadX defaults on this host. */
typedef struct evt_tx_options {
    int big_endian;               /* 1: write big-endian, 0: little-endian, -1: host order */
    uint16_t name_size;           /* registry name field size (TX_TRACE_OBJECT_REGISTRY_NAME);
                                     0 = 32. Names keep at most name_size - 1 characters. */
    uint32_t (*time_source)(void);/* timestamp source (TX_TRACE_TIME_SOURCE), read once per record
                                     inside the critical section; NULL = the port's counter (low
                                     32 bits) */
    uint32_t time_mask;           /* timer valid mask written to the header; 0 = 0xFFFFFFFF, or
                                     the port counter's width if narrower (no time_source) */
    evt_tx_context_fn context;    /* NULL = the port default (see evt_tx_context) */
    uint32_t base_address;        /* address written as "trace base"; 0 = the buffer's own address.
                                     Every header address is base + offset in the buffer. */
} evt_tx_options;

/* tx_trace_enable. buffer NULL -> EVT_TX_PTR_ERROR; size < 48 + (16+name_size)*R + 32 ->
 * EVT_TX_SIZE_ERROR (checked first);
 * already enabled (or being enabled) -> EVT_TX_NOT_DONE. Otherwise: filter reset to all-on;
 * registry slots get available=1, type=0, reserved=0, pointer=0 (names and params are left);
 * word 0 of every event slot zeroed; header written; two RUNNING events recorded; EVT_TX_SUCCESS.
 * The buffer must stay valid until evt_tx_trace_disable(). No alignment requirement. */
unsigned evt_tx_trace_enable(void *buffer, uint32_t size, uint32_t registry_entries);
unsigned evt_tx_trace_enable_ex(void *buffer, uint32_t size, uint32_t registry_entries,
                                const evt_tx_options *opt);
/* tx_trace_disable: EVT_TX_NOT_DONE if already off; leaves the buffer decodable. Allowed from the
 * buffer-full callback ("stop when full") and from a handler that interrupted a record of its
 * thread: that record, as it ends, writes the LOST record disable could not write inside it (the
 * buffer must stay valid until then). Inserts nested in disable find the trace off. */
unsigned evt_tx_trace_disable(void);
/* tx_trace_event_filter / unfilter: enable_bits &= ~bits / |= bits. EVT_TX_SUCCESS, on or off;
 * the next enable resets the filter to all-on. Called from a signal handler or ISR that
 * interrupted its thread while that thread was taking the recorder's lock held elsewhere (port
 * rule P3: a nested context never waits for another thread), it changes nothing and returns
 * EVT_TX_NOT_DONE, as enable and disable do then; retry from thread context. */
unsigned evt_tx_trace_event_filter(uint32_t bits);
unsigned evt_tx_trace_event_unfilter(uint32_t bits);
/* tx_trace_buffer_full_notify: fn(header address) is called on every wrap, inside the insert that
 * wrapped, in the recording context with the critical section held. Records it inserts are nested
 * in that insert: where the recorder stashes nested records (EVT_TX_NEST_STASH_WORDS > 0, the
 * POSIX default: txtb_enc.c I9) they are written right after it and return EVT_TX_SUCCESS, else
 * (a full stash, other ports) dropped and counted
 * (EVT_TX_NOT_DONE). NULL removes it. Survives disable/enable. Always EVT_TX_SUCCESS (no lock:
 * also from a handler). */
unsigned evt_tx_trace_buffer_full_notify(void (*fn)(void *buffer)); /* not defined when built with EVT_TX_FULL_NOTIFY 0 */
/* tx_trace_user_event_insert: EVT_TX_NOT_DONE when off (or when the record had to be dropped, see
 * evt_tx_stats), else EVT_TX_SUCCESS (also when filtered). id unchecked (32 bits), USER bit. A
 * record of id 190 is read as evtrace's LOST record only with info3 = 0x65767472 ("evtr"): such an
 * insert is refused, dropped and counted (NOT_DONE), unless built with EVT_TX_LOST_GUARD 0. */
EVT_TX_FAST_ unsigned evt_tx_trace_user_event_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* tx_trace_isr_enter_insert / exit: ISR_ENTER (3) / ISR_EXIT (4), INTERNAL bit:
 * info1 = stk, info2 = isr_id, info3 = system state, info4 = preempt-disable (from the context). */
void evt_tx_trace_isr_enter_insert(uint32_t isr_id);
void evt_tx_trace_isr_exit_insert(uint32_t isr_id);
/* tx_interrupt_control with trace: records INTERRUPT_CONTROL (40) with info1 = new posture,
 * info2 = stk. The caller applies the posture afterwards (the recorder does not own interrupts). */
void evt_tx_trace_interrupt_control(uint32_t new_posture);
/* Object registry (ThreadX's algorithm, formats/threadx.md §7): a never-used slot or the slot with
 * the same pointer is taken at once, else the last available slot met scanning circularly from
 * the search start. Name: at most name_size-1 chars + NUL, the rest of the old name is left; NULL
 * name = "". Silently dropped when the registry is full or tracing is off. Reserved bytes are 0
 * (use evt_tx_trace_thread_register for a thread's priority). */
void evt_tx_trace_object_register(uint8_t type, const void *object, const char *name,
                                  uint32_t param1, uint32_t param2);
/* Record the rate of the buffer's timestamps in Hz (0 records nothing) as one registry entry, so
 * that evtrace's reader shows real time without --clock-hz (TXTB's header has no field for it).
 * Call once after enabling; a later call with another rate replaces it. */
void evt_tx_trace_clock_register(uint64_t hz);
/* Register a thread (type 1) with its priority (reserved bytes 0x80 | prio >> 8, prio & 0xFF). */
void evt_tx_trace_thread_register(const void *thread, const char *name, uint32_t stack_start,
                                  uint32_t stack_size, uint32_t priority);
/* First slot with this pointer becomes available (type, pointer, params, name kept); the search
 * restarts there. NULL is ignored. */
void evt_tx_trace_object_unregister(const void *object);
/* Record a kernel event with ThreadX's info fields (the caller supplies them, including "stk"
 * samples and the next-thread info4 of resume/suspend: nothing is patched later). Filter bit:
 * ids in TXTB_EVENT_TABLE -> the table's bit; other ids < 200 -> INTERNAL; 200-299 -> any FileX
 * bit; 300-599 -> any NetX bit; 600-1099 -> any USBX bit; 1100-4095 -> INTERNAL; >= 4096 -> USER.
 * No clock read when off or filtered. */
EVT_TX_FAST_ void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* Low-level insert with an explicit filter mask (TX_TRACE_IN_LINE_INSERT): recorded when tracing
 * is on and (enable_bits & filter_bit) != 0. */
EVT_TX_FAST_ void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit);

/* A multi-slot user record (the carrier of evtrace/user.h; ids and layout: evtrace/user_defs.h):
 * the n words over ceil(n / 4) consecutive slots written in one critical section (same context and
 * timestamp): slot 0 id head_id with words 0..3, slot j id cont_id | (j & 0x3FF) with words
 * 4j..4j+3, zero-padded. USER filter bit. Returns 1 if written; 0 when off, filtered, n == 0, or
 * dropped (each slot counted as a dropped record, also when the record would not fit in the
 * buffer beside a LOST record). */
unsigned evt_tx_trace_user_words_insert(uint32_t head_id, uint32_t cont_id, const uint32_t *w, uint32_t n);
/* The one-slot case of evt_tx_trace_user_words_insert (n <= 4, words w0..w3, unused ones 0), for a
 * caller that has tested the USER bit of the gate itself (evtrace/user.h): the plain insert's path,
 * nothing else. Returns 1 if written (or stashed, nested in a record of its own context), 0 if
 * off or dropped (counted). */
unsigned evt_tx_user_slot_insert_(uint32_t head_id, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3);

/* Accounting since program start (never reset: take differences). Every insert that passes the
 * filter ends up in exactly one of `written` or `dropped`. Filtered inserts are not counted (that
 * would put a shared write on the filtered hot path). */
typedef struct evt_tx_stats {
    uint64_t written;      /* records written (including ones later overwritten by a wrap),
                              not counting LOST records */
    uint64_t dropped;      /* records that could not be written: a nested insert from the same
                              context (buffer-full callback, signal/interrupt inside the critical
                              section, context callback or time source recursing), or an insert
                              that passed the filter while tracing was being switched off */
    uint64_t wraps;        /* buffer wraps (= buffer-full callback calls, when one is set) */
    uint64_t lost_records; /* EVTRACE_LOST (190) records written */
} evt_tx_stats;
void evt_tx_trace_get_stats(evt_tx_stats *out); /* not defined when built with EVT_TX_STATS 0 */
/* The common recorder stats (evtrace/recorder.h), since the last enable: written + dropped = inserts
 * that passed the gate (the two RUNNING records of enable included); dropped + overwritten =
 * lost_reported + pending. After evt_tx_trace_disable() pending is 0, and a decoder of the buffer
 * sees written - overwritten records plus LOST records whose counts add up to lost_reported. */
void evt_tx_trace_get_rec_stats(evt_rec_stats *out); /* not defined when built with EVT_TX_STATS 0 */

/* Map a host pointer to the 32-bit address written in the buffer. */
static inline uint32_t evt_tx_addr(const void *p) { return (uint32_t)(uintptr_t)p; }

/* ---- inline fast paths ---------------------------------------------------------------------------
 * With GCC/Clang, user_event_insert, kernel_event and insert are C99 inline functions (the external
 * definitions are in txtb_enc.c): a filtered or disabled call is decided here, without a function
 * call, from evt_tx_hot_ alone. Define EVT_TX_NO_INLINE to get plain calls. Internals below: not
 * part of the API. */
typedef struct evt_tx_hot_t {
    evt_gate gate;  /* bits = filter bits while tracing is on, 0 while off (core gate) */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__))
    uint8_t pad[64 - sizeof(evt_gate)]; /* alone in its cache line */
#endif
} evt_tx_hot_t;
extern evt_tx_hot_t evt_tx_hot_;
/* The out-of-line rest of user_event_insert / kernel_event / insert, given the gate word read. */
unsigned evt_tx_user_event_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t gate);
#if EVT_TX_LOST_GUARD
unsigned evt_tx_lost_lookalike_(uint32_t gate); /* a LOST look-alike refused (EVT_TX_LOST_GUARD) */
#endif
void evt_tx_kernel_event_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t gate);
void evt_tx_insert_slow_(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* 64-bit GCC/clang hosts: evt_tx_insert_slow_ with the record's context words given by the caller
 * (ctx_prio = context | priority_word << 32), used when the recorder's context callback is fn
 * (else as evt_tx_insert_slow_): the kernel hooks backend computes its context inline instead of
 * being called back under the lock. fn is never NULL. Info 3 and 4 come as one word
 * (i34 = info3 | info4 << 32), so every argument is in a register (a caller can make it a tail
 * call). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define EVT_TX_INSERT_CTX_ 1
void evt_tx_insert_ctx_(uint32_t id, uint32_t i1, uint32_t i2, uint64_t i34, uint64_t ctx_prio, evt_tx_context_fn fn);
#else
#define EVT_TX_INSERT_CTX_ 0
#endif

#ifdef EVT_TX_INLINE_FAST
inline unsigned evt_tx_trace_user_event_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    uint32_t g = EVT_LOAD_RLX(&evt_tx_hot_.gate.bits);
    if (__builtin_expect(g != 0u && !(g & EVT_TX_TRACE_USER_EVENTS), 0))
        return EVT_TX_SUCCESS; /* filtered while on (gate != 0 only while on) */
    /* Off, or everything filtered while on. `on` read 0 means tracing was off at that instant
     * (enable sets it before the bits, disable clears it with them): NOT_DONE. Everything
     * filtered while on (rare) takes the slow path's consistent snapshot (I1b in txtb_enc.c). */
    if (g == 0u && !EVT_LOAD_ACQ(&evt_tx_hot_.gate.on)) return EVT_TX_NOT_DONE;
#if EVT_TX_LOST_GUARD
    /* folded away for a constant id other than 190 */
    if (__builtin_expect(id == EVT_TX_LOST_ID, 0) && i3 == EVT_TX_LOST_MAGIC) return evt_tx_lost_lookalike_(g);
#endif
    return evt_tx_user_event_slow_(id, i1, i2, i3, i4, g);
}
#if defined(EVT_TX_KERNEL_EVENTS) && !EVT_TX_KERNEL_EVENTS /* user events only: these record nothing */
inline void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    (void)id; (void)i1; (void)i2; (void)i3; (void)i4;
}
inline void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit)
{
    (void)id; (void)i1; (void)i2; (void)i3; (void)i4; (void)filter_bit;
}
#else
inline void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4)
{
    uint32_t g = EVT_LOAD_RLX(&evt_tx_hot_.gate.bits);
    if (g != 0u) evt_tx_kernel_event_slow_(id, i1, i2, i3, i4, g);
}
inline void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit)
{
    if (EVT_LOAD_RLX(&evt_tx_hot_.gate.bits) & filter_bit) evt_tx_insert_slow_(id, i1, i2, i3, i4);
}
#endif
#endif

#endif
