/* TXTB recorder: a ThreadX-compatible event-trace API (names evt_tx_*) that writes the byte-exact
 * ThreadX trace buffer (TraceX .trx) into memory the caller owns. Freestanding: no malloc, no libc.
 * Facts: shared/formats/threadx.md; layouts and ids: src/formats/threadx/txtb_defs.h.
 *
 * Addresses in the buffer are 32-bit target addresses. On a 64-bit host every pointer (buffer,
 * objects, contexts) is written as its low 32 bits, exactly as ThreadX's own Linux port does;
 * offsets stay consistent modulo 2^32, and two objects whose addresses differ only above bit 31
 * would share a registry pointer (documented in docs/threadx.md). */
#ifndef EVTRACE_TXTB_H
#define EVTRACE_TXTB_H

#include <stdint.h>

/* ThreadX return codes used by the trace API. */
#define EVT_TX_SUCCESS        0x00u
#define EVT_TX_SIZE_ERROR     0x05u
#define EVT_TX_NOT_DONE       0x20u

/* Filter masks (ThreadX values). */
#define EVT_TX_TRACE_ALL_EVENTS              0x000007FFu
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

/* What the recorder needs to know about "who is running", supplied by the kernel (or the port's
 * default: ISR if evt_port_in_isr(), else the port's context id with priority word 0x80000000). */
typedef struct evt_tx_context {
    uint32_t context;        /* thread address, 0xFFFFFFFF (ISR) or 0xF0F0F0F0 (initialisation) */
    uint32_t priority_word;  /* thread: 0x80000000 | threshold << 16 | priority; ISR: interrupted
                                thread's address (0 if idle); init: 0 */
} evt_tx_context;
typedef void (*evt_tx_context_fn)(evt_tx_context *out);

/* Options of evt_tx_trace_enable_ex(); zero-initialised = ThreadX defaults on this host. */
typedef struct evt_tx_options {
    int big_endian;               /* 1: write big-endian, 0: little-endian, -1: host order */
    uint16_t name_size;           /* registry name field size; 0 = 32 */
    uint32_t (*time_source)(void);/* timestamp source; NULL = the port's counter (low 32 bits) */
    uint32_t time_mask;           /* timer valid mask written to the header; 0 = 0xFFFFFFFF */
    evt_tx_context_fn context;    /* NULL = the port default */
    uint32_t base_address;        /* address written as "trace base"; 0 = the buffer's own address */
} evt_tx_options;

/* tx_trace_enable: size < 48 + 48*R + 32 -> EVT_TX_SIZE_ERROR; already enabled -> EVT_TX_NOT_DONE.
 * Resets the filter to all-on, clears the registry and slot context words, writes the header,
 * then records two RUNNING events. Thread-safe with respect to concurrent inserts. */
unsigned evt_tx_trace_enable(void *buffer, uint32_t size, uint32_t registry_entries);
unsigned evt_tx_trace_enable_ex(void *buffer, uint32_t size, uint32_t registry_entries,
                                const evt_tx_options *opt);
/* tx_trace_disable: EVT_TX_NOT_DONE if already off; leaves the buffer decodable. */
unsigned evt_tx_trace_disable(void);
/* tx_trace_event_filter / unfilter: enable_bits &= ~bits / |= bits. Always EVT_TX_SUCCESS. */
unsigned evt_tx_trace_event_filter(uint32_t bits);
unsigned evt_tx_trace_event_unfilter(uint32_t bits);
/* tx_trace_buffer_full_notify: called with the buffer address on every wrap, inside the insert,
 * in the recording context (critical section held). NULL removes it. */
unsigned evt_tx_trace_buffer_full_notify(void (*fn)(void *buffer));
/* tx_trace_user_event_insert: EVT_TX_NOT_DONE when off; id unchecked (32 bits), USER filter bit. */
unsigned evt_tx_trace_user_event_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* tx_trace_isr_enter_insert / exit: events 3/4 (INTERNAL bit). */
void evt_tx_trace_isr_enter_insert(uint32_t isr_id);
void evt_tx_trace_isr_exit_insert(uint32_t isr_id);
/* tx_interrupt_control with trace: records INTERRUPT_CONTROL (40) with the new posture. The caller
 * applies the posture itself (the recorder does not own interrupts). */
void evt_tx_trace_interrupt_control(uint32_t new_posture);
/* Object registry (ThreadX's algorithm, formats/threadx.md §7). Silently dropped when full/off. */
void evt_tx_trace_object_register(uint8_t type, const void *object, const char *name,
                                  uint32_t param1, uint32_t param2);
/* Register a thread with its priority (registry reserved bytes 0x80 | prio >> 8, prio & 0xFF). */
void evt_tx_trace_thread_register(const void *thread, const char *name, uint32_t stack_start,
                                  uint32_t stack_size, uint32_t priority);
void evt_tx_trace_object_unregister(const void *object);
/* Record a kernel event (ThreadX id 1..199 from the table, or FileX/NetX/USBX ids): the filter bit
 * comes from the id's table entry. No clock read when off or filtered. */
void evt_tx_trace_kernel_event(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4);
/* Low-level insert with an explicit filter bit (TX_TRACE_IN_LINE_INSERT). */
void evt_tx_trace_insert(uint32_t id, uint32_t i1, uint32_t i2, uint32_t i3, uint32_t i4, uint32_t filter_bit);

/* Accounting for tests and the lost-record marker: records accepted (written, including ones later
 * overwritten by a wrap), records dropped (could not be written), records filtered. */
typedef struct evt_tx_stats {
    uint64_t written;
    uint64_t dropped;
    uint64_t filtered;
    uint64_t wraps;
} evt_tx_stats;
void evt_tx_trace_get_stats(evt_tx_stats *out);

/* Map a host pointer to the 32-bit address written in the buffer. */
static inline uint32_t evt_tx_addr(const void *p) { return (uint32_t)(uintptr_t)p; }

#endif
