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
 *    guard busy: its record is dropped and counted, never spliced into the interrupted one.
 *  - Providers' gates: bits = ETW_GATE_ON | enable level while the provider is enabled by a
 *    running session, 0 otherwise; evt_etw_write tests it inline (no clock read when filtered).
 *  - Loss account (evt_loss): every TraceEvent that passed the gate is written or dropped
 *    (nested, lock unavailable to a nested context, no slot, too big, file full, racing a stop).
 *    Buffers that leave the file add their data events to `overwritten` and the counts of their
 *    loss records to `repended`: circular overwrite (ring[] keeps both counts of the buffer at
 *    each file position), a full sequential file, a failed write. A loss record (EVTRACE_LOSS
 *    class event carrying the pending count) is written before the next event that gets through and at stop;
 *    what stays pending at stop (file full) goes into the logfile header's EventsLost, and the
 *    header's LoggerName pointer field holds ETW_EVT_LOSS_MARK. So a reader's events plus the
 *    counts of loss records plus EventsLost equal the events issued, exactly.
 *  - A full buffer is flushed (written through cfg.write) inline by the context that filled it. */
#include "evtrace/etw.h"

#include "evtrace/port.h"
#include "evtrace/recorder.h"
#include "formats/common/bytes.h"

/* Slow paths kept out of TraceEvent's body (fewer registers to save on every event). */
#if defined(__GNUC__) || defined(__clang__)
#define ETW_COLD __attribute__((noinline, cold))
#else
#define ETW_COLD
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
static uint32_t align8(uint32_t v) { return (v + (ETW_RECORD_ALIGN - 1u)) & ~(ETW_RECORD_ALIGN - 1u); }

/* Hot-path stores of the record (little-endian fields): on a little-endian GCC/clang target one
 * native store each (the same bytes), else the byte-wise helpers of bytes.h. __builtin_memcpy with
 * a constant size compiles to moves, never to a libc call. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
#define ETW_LE_STORES 1
/* st16/st32 may go unused: clang's -Wunused-function (-Werror) counts static inline in a .c */
__attribute__((unused)) static inline void st16(uint8_t *p, uint16_t v) { __builtin_memcpy(p, &v, 2); }
__attribute__((unused)) static inline void st32(uint8_t *p, uint32_t v) { __builtin_memcpy(p, &v, 4); }
static inline void st64(uint8_t *p, uint64_t v) { __builtin_memcpy(p, &v, 8); }
/* Two little-endian words as one 16-byte store (the record's per-event stores are what its lock
 * waits for: fewer, wider ones make it cheaper). */
typedef uint64_t etw_u64x2 __attribute__((vector_size(16), aligned(8), may_alias));
static inline void st64x2(uint8_t *p, uint64_t lo, uint64_t hi)
{
    etw_u64x2 v = {lo, hi};
    __builtin_memcpy(p, &v, 16);
}
#else
static inline void st64x2(uint8_t *p, uint64_t lo, uint64_t hi) { evt_put_u64le(p, lo); evt_put_u64le(p + 8, hi); }
static inline void st16(uint8_t *p, uint16_t v) { evt_put_u16le(p, v); }
static inline void st32(uint8_t *p, uint32_t v) { evt_put_u32le(p, v); }
static inline void st64(uint8_t *p, uint64_t v) { evt_put_u64le(p, v); }
#endif

/* Payload copy: 8-byte words, then 4, 2, 1 (no loop a compiler could turn into a memcpy call). */
static inline void copy_payload(uint8_t *d, const uint8_t *q, uint32_t n)
{
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
    evt_put_u32le(p, g->data1);
    evt_put_u16le(p + 4, g->data2);
    evt_put_u16le(p + 6, g->data3);
    for (int i = 0; i < 8; i++) p[8 + i] = g->data4[i];
}

static const evt_etw_guid k_loss_guid = {0x65767472u, 0x6f6c, 0x7373, {0x80, 0x00, 0x65, 0x76, 0x74, 0x72, 0x61, 0x63}};

/* Raw session clock outside a record (start, flush times): the configured one; for the
 * system-time clock the FILETIME hook; else the port's counter (QPC-like, or the cycle counter
 * for ETW_CLOCK_CPU_CYCLES). Records read it through the session's evt_clock (clamped). */
static uint64_t now(const evt_etw_session *s)
{
    if (s->cfg.clock) return s->cfg.clock();
    if (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME && s->cfg.filetime) return s->cfg.filetime();
    return evt_port_timestamp();
}
static uint64_t clock_cb(void *user) { return now((const evt_etw_session *)user); }
static uint32_t tid_of(const evt_etw_session *s) { return s->cfg.thread_id ? s->cfg.thread_id() : (uint32_t)evt_port_context_id(); }
static uint32_t pid_of(const evt_etw_session *s) { return s->cfg.process_id ? s->cfg.process_id() : 0u; }
static int ptr64(const evt_etw_session *s) { return s->cfg.pointer_size == 8; }

/* Kernel/User time of the calling thread in TimerResolution units (0 without the hook). */
static void cpu_ticks(const evt_etw_session *s, uint32_t *kt, uint32_t *ut)
{
    uint64_t k = 0, u = 0;
    *kt = *ut = 0;
    if (!s->cfg.cpu_times) return;
    s->cfg.cpu_times(&k, &u);
    *kt = (uint32_t)(k / s->cfg.timer_resolution);
    *ut = (uint32_t)(u / s->cfg.timer_resolution);
}

/* KernelTime | UserTime << 32 of the calling thread (the CPU-time hook is set). */
static ETW_COLD uint64_t cpu_word(const evt_etw_session *s)
{
    uint32_t kt, ut;
    cpu_ticks(s, &kt, &ut);
    return (uint64_t)kt | (uint64_t)ut << 32;
}

/* Enter the session (lock, then nesting guard). 0: a nested context cannot (counted dropped). */
static int enter(evt_etw_session *s, evt_port_crit_t *st)
{
    if (!evt_rec_lock_enter(&s->lock, st)) {
        evt_loss_drop(&s->loss);
        return 0;
    }
    if (!evt_nest_enter(&s->nest)) {
        evt_rec_lock_exit(&s->lock, *st);
        evt_loss_drop(&s->loss);
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
    evt_put_u32le(b + ETW_BH_BUFFER_SIZE, s->cfg.buffer_size);
    evt_put_u32le(b + ETW_BH_SAVED_OFFSET, filled);
    evt_put_u32le(b + ETW_BH_CURRENT_OFFSET, filled);
    evt_put_u64le(b + ETW_BH_TIMESTAMP, ts);
    evt_put_u64le(b + ETW_BH_SEQUENCE, seq);
    evt_put_u16le(b + ETW_BH_PROCESSOR, proc);
    evt_put_u16le(b + ETW_BH_LOGGER_ID, s->cfg.logger_id);
    evt_put_u32le(b + ETW_BH_STATE, ETW_BUFFER_STATE_FLUSH);
    evt_put_u32le(b + ETW_BH_OFFSET, filled);
    evt_put_u16le(b + ETW_BH_BUFFER_FLAG, (uint16_t)(flags | ETW_BUFFER_FLAG_PROC_INDEX));
    evt_put_u16le(b + ETW_BH_BUFFER_TYPE, type);
}

/* UTF-8 (or ASCII) to NUL-terminated UTF-16LE, at most EVT_ETW_MAX_NAME units; returns bytes. */
static uint32_t put_name(uint8_t *p, const char *s)
{
    uint32_t n = 0;
    const uint8_t *u = (const uint8_t *)s;
    while (u && *u && n < EVT_ETW_MAX_NAME) {
        uint32_t cp = *u++;
        if (cp >= 0xC0 && cp < 0xE0 && (*u & 0xC0) == 0x80) cp = ((cp & 0x1Fu) << 6) | (*u++ & 0x3Fu);
        else if (cp >= 0xE0 && cp < 0xF0 && (u[0] & 0xC0) == 0x80 && (u[1] & 0xC0) == 0x80) {
            cp = ((cp & 0x0Fu) << 12) | ((u[0] & 0x3Fu) << 6) | (u[1] & 0x3Fu);
            u += 2;
        } else if (cp >= 0x80) cp = 0xFFFD; /* 4-byte sequences and stray bytes */
        evt_put_u16le(p + 2 * n, (uint16_t)cp);
        n++;
    }
    evt_put_u16le(p + 2 * n, 0);
    return 2 * (n + 1);
}

static int write_at(evt_etw_session *s, uint64_t off, const uint8_t *p, uint32_t n)
{
    return s->cfg.write(s->cfg.write_user, off, p, n) == 0;
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
    evt_put_u16le(rec + ETW_SH_VERSION, ETW_LOGFILE_HDR_VERSION);
    rec[ETW_SH_HEADER_TYPE] = is64 ? ETW_HT_SYSTEM64 : ETW_HT_SYSTEM32;
    rec[ETW_SH_FLAGS] = ETW_MARKER_FLAGS;
    evt_put_u16le(rec + ETW_SH_SIZE, (uint16_t)size);
    evt_put_u16le(rec + ETW_SH_HOOK_ID, ETW_HOOK_LOGFILE_HEADER);
    evt_put_u32le(rec + ETW_SH_THREAD_ID, tid_of(s));
    evt_put_u32le(rec + ETW_SH_PROCESS_ID, pid_of(s));
    evt_put_u64le(rec + ETW_SH_SYSTEM_TIME, s->start_ts);
    evt_put_u32le(rec + ETW_SH_KERNEL_TIME, kt);
    evt_put_u32le(rec + ETW_SH_USER_TIME, ut);
    uint64_t mb = s->cfg.max_file_buffers ? ((uint64_t)s->cfg.max_file_buffers * s->cfg.buffer_size + 0xFFFFFu) >> 20 : 0;
#define LF(n) (is64 ? (uint32_t)ETW_LF64_##n : (uint32_t)ETW_LF32_##n)
    evt_put_u32le(h + LF(BUFFER_SIZE), s->cfg.buffer_size);
    evt_put_u32le(h + LF(VERSION), 10u);           /* Major 10, Minor 0 */
    evt_put_u32le(h + LF(NUMBER_OF_CPUS), s->cfg.ncpus);
    evt_put_u64le(h + LF(END_TIME), end_time);
    evt_put_u32le(h + LF(TIMER_RESOLUTION), s->cfg.timer_resolution);
    evt_put_u32le(h + LF(MAXIMUM_FILE_SIZE), (uint32_t)mb);
    evt_put_u32le(h + LF(LOG_FILE_MODE), s->cfg.log_file_mode);
    evt_put_u32le(h + LF(BUFFERS_WRITTEN), (uint32_t)(1u + s->data_written));
    evt_put_u32le(h + LF(START_BUFFERS), 1u);
    evt_put_u32le(h + LF(POINTER_SIZE), s->cfg.pointer_size);
    evt_put_u32le(h + LF(EVENTS_LOST), (uint32_t)evt_loss_pending(&s->loss)); /* not in loss records */
    evt_put_u32le(h + LF(LOGGER_NAME_PTR), ETW_EVT_LOSS_MARK);
    evt_put_u32le(h + LF(CPU_SPEED_MHZ), s->cfg.cpu_mhz);
    evt_put_u64le(h + LF(PERF_FREQ), s->cfg.clock_hz);
    evt_put_u64le(h + LF(START_TIME), s->start_time);
    evt_put_u32le(h + LF(RESERVED_FLAGS), s->cfg.clock_type);
    evt_put_u32le(h + LF(BUFFERS_LOST), (uint32_t)s->buffers_lost);
#undef LF
    put_buffer_header(b, s, filled, 0, 0, 0, ETW_BUFFER_FLAG_FLUSH_MARKER, ETW_BUFFER_TYPE_HEADER);
    fill_ff(b + ETW_BUFFER_HEADER_SIZE + size, filled - ETW_BUFFER_HEADER_SIZE - size);
    if (!write_at(s, 0, b, filled)) return 0;
    uint8_t ff[64];
    fill_ff(ff, sizeof ff);
    for (uint32_t off = filled; off < s->cfg.buffer_size;) {
        uint32_t n = s->cfg.buffer_size - off < sizeof ff ? s->cfg.buffer_size - off : (uint32_t)sizeof ff;
        if (!write_at(s, off, ff, n)) return 0;
        off += n;
    }
    return 1;
}

/* Write a slot's buffer to the file (session entered) and reset it. A buffer that leaves the
 * file (overwritten, not written) re-pends its events and loss counts. */
static ETW_COLD void flush_slot(evt_etw_session *s, evt_etw_slot *sl, uint16_t proc)
{
    uint32_t filled = sl->used;
    if (filled <= ETW_BUFFER_HEADER_SIZE) return;
    uint64_t off;
    int ok = 1;
    if (s->cfg.log_file_mode & ETW_FILE_MODE_CIRCULAR) {
        uint64_t ring = s->cfg.max_file_buffers - 1u;
        uint64_t pos = s->data_written % ring;
        off = (uint64_t)s->cfg.buffer_size * (1u + pos);
        if (s->data_written >= ring) { /* the buffer there leaves the file: its events, its loss counts */
            s->overwritten++;
            evt_loss_overwritten(&s->loss, s->ring[2u * pos]);
            evt_loss_repend(&s->loss, s->ring[2u * pos + 1u]);
        }
        s->ring[2u * pos] = sl->events;
        s->ring[2u * pos + 1u] = sl->loss_in;
    } else {
        off = (uint64_t)s->cfg.buffer_size * (1u + s->data_written);
        if (s->cfg.max_file_buffers && 1u + s->data_written >= s->cfg.max_file_buffers) {
            s->file_full = 1; /* sequential file full: this buffer is lost and logging stops */
            ok = 0;
        }
    }
    if (ok) {
        put_buffer_header(sl->buf, s, filled, now(s), s->seq + 1u, proc,
                          sl->lost_since_flush ? ETW_BUFFER_FLAG_EVENTS_LOST : 0u, ETW_BUFFER_TYPE_GENERIC);
        fill_ff(sl->buf + filled, s->cfg.buffer_size - filled);
        ok = write_at(s, off, sl->buf, s->cfg.buffer_size);
    }
    if (ok) { s->seq++; s->data_written++; }
    else {
        s->buffers_lost++;
        if (s->cfg.log_file_mode & ETW_FILE_MODE_CIRCULAR) {
            uint64_t pos = s->data_written % (s->cfg.max_file_buffers - 1u);
            s->ring[2u * pos] = s->ring[2u * pos + 1u] = 0;
        }
        evt_loss_overwritten(&s->loss, sl->events);
        evt_loss_repend(&s->loss, sl->loss_in);
    }
    sl->used = ETW_BUFFER_HEADER_SIZE;
    sl->events = 0;
    sl->loss_in = 0;
    sl->lost_since_flush = 0;
}

uint32_t evt_etw_session_start(evt_etw_session *s, const evt_etw_session_config *cfg, void *mem, uint32_t mem_size)
{
    if (!s || !cfg || !cfg->write || !mem) return EVT_ETW_ERROR_INVALID_PARAMETER;
    int circular = (cfg->log_file_mode & ETW_FILE_MODE_CIRCULAR) != 0;
    uint64_t slots_size = (uint64_t)cfg->buffers * cfg->buffer_size;
    uint64_t ring_size = circular ? (uint64_t)(cfg->max_file_buffers - 1u) * 2u * sizeof(evt_rec_count) : 0u;
    if (cfg->buffer_size < ETW_MIN_BUFFER_KB * 1024u || cfg->buffer_size > ETW_MAX_BUFFER_KB * 1024u ||
        (cfg->buffer_size & 7u) || cfg->buffers == 0 || cfg->buffers > EVT_ETW_MAX_SLOTS)
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (circular && cfg->max_file_buffers < 2u) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (slots_size + ring_size > mem_size || (((uintptr_t)mem) & (sizeof(evt_rec_count) - 1u)))
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (cfg->pointer_size != 0 && cfg->pointer_size != 4 && cfg->pointer_size != 8) return EVT_ETW_ERROR_INVALID_PARAMETER;
    uint8_t *z = (uint8_t *)s;
    for (uint32_t i = 0; i < sizeof *s; i++) z[i] = 0;
    copy(&s->cfg, cfg, (uint32_t)sizeof *cfg);
    if (!s->cfg.pointer_size) s->cfg.pointer_size = (uint32_t)sizeof(void *);
    if (!s->cfg.clock_type) s->cfg.clock_type = ETW_CLOCK_QPC;
    if (!s->cfg.clock_hz) s->cfg.clock_hz = evt_port_timestamp_hz();
    if (!s->cfg.timer_resolution) s->cfg.timer_resolution = 156250u;
    if (!s->cfg.ncpus) s->cfg.ncpus = cfg->buffers;
    s->nslots = cfg->buffers;
    for (uint32_t i = 0; i < s->nslots; i++) {
        s->slots[i].buf = (uint8_t *)mem + (uint64_t)i * cfg->buffer_size;
        s->slots[i].used = ETW_BUFFER_HEADER_SIZE;
    }
    if (circular) {
        s->ring = (evt_rec_count *)(void *)((uint8_t *)mem + slots_size);
        for (uint32_t i = 0; i + 1u < cfg->max_file_buffers; i++) s->ring[2u * i] = s->ring[2u * i + 1u] = 0;
    }
    s->pid = pid_of(s);
    s->hdr_bits = (uint32_t)(ptr64(s) ? ETW_HT_FULL_HEADER64 : ETW_HT_FULL_HEADER32) << 16 | (uint32_t)ETW_MARKER_FLAGS << 24;
    s->size_limit = s->cfg.buffer_size - ETW_BUFFER_HEADER_SIZE - 1u; /* a record must leave the buffer room */
    if (s->size_limit > ETW_MAX_EVENT_SIZE) s->size_limit = ETW_MAX_EVENT_SIZE;
    /* The session clock: the port counter inline, or the configured source through a callback. */
    if (s->cfg.clock || (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME && s->cfg.filetime)) evt_clock_init(&s->clk, clock_cb, s, 64);
    else evt_clock_init(&s->clk, 0, 0, 0);
    s->start_time = s->cfg.filetime ? s->cfg.filetime() : 0u;
    s->start_ts = now(s);
    if (!write_header_buffer(s, s->start_time)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    EVT_STORE_REL(&s->running, 1);
    return EVT_ETW_SUCCESS;
}

static uint16_t slot_proc(const evt_etw_session *s, uint32_t i)
{
    (void)s;
    return (uint16_t)i;
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
    uint8_t *r = sl->buf + sl->used;
    zero(r, size);
    evt_put_u16le(r + ETW_TH_SIZE, (uint16_t)size);
    r[ETW_TH_HEADER_TYPE] = ptr64(s) ? ETW_HT_FULL_HEADER64 : ETW_HT_FULL_HEADER32;
    r[ETW_TH_MARKER_FLAGS] = ETW_MARKER_FLAGS;
    r[ETW_TH_CLASS_TYPE] = ETW_EVT_LOSS_TYPE;
    evt_put_u32le(r + ETW_TH_THREAD_ID, tid);
    evt_put_u32le(r + ETW_TH_PROCESS_ID, s->pid);
    evt_put_u64le(r + ETW_TH_TIMESTAMP, ts);
    put_guid(r + ETW_TH_GUID, &k_loss_guid);
    evt_put_u64le(r + ETW_TRACE_HEADER_SIZE, (uint64_t)n);
    sl->used += size; /* 56: already 8-aligned */
    sl->loss_in += n;
    sl->lost_since_flush = 1; /* BufferFlag EVENTS_LOST: this buffer says losses happened */
    return 1;
}

static void flush_all(evt_etw_session *s)
{
    for (uint32_t i = 0; i < s->nslots; i++) flush_slot(s, &s->slots[i], slot_proc(s, i));
}

uint32_t evt_etw_session_flush(evt_etw_session *s)
{
    if (!s || !EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_port_crit_t c;
    if (!evt_rec_lock_enter(&s->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    if (!evt_nest_enter(&s->nest)) { evt_rec_lock_exit(&s->lock, c); return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; }
    if (evt_loss_pending(&s->loss)) (void)write_loss_record(s, &s->slots[0], slot_proc(s, 0), tid_of(s), evt_clock_read(&s->clk));
    flush_all(s);
    leave(s, c);
    return EVT_ETW_SUCCESS;
}

uint32_t evt_etw_session_stop(evt_etw_session *s)
{
    if (!s || !EVT_LOAD_ACQ(&s->running)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_port_crit_t c;
    if (!evt_rec_lock_enter(&s->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    if (!evt_nest_enter(&s->nest)) { evt_rec_lock_exit(&s->lock, c); return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; }
    /* Close the gates first: from here on a TraceEvent returns INVALID_HANDLE (not issued). The
     * providers are disabled (ETW: a stopped session's providers are), the list emptied. */
    for (evt_etw_provider *p = s->providers, *next; p; p = next) {
        next = p->next_enabled;
        evt_gate_publish(&p->gate, 0u, 0u);
        EVT_STORE_REL(&p->session, (evt_etw_session *)0);
        p->next_enabled = 0;
    }
    s->providers = 0;
    EVT_STORE_REL(&s->running, 0);
    if (evt_loss_pending(&s->loss)) (void)write_loss_record(s, &s->slots[0], slot_proc(s, 0), tid_of(s), evt_clock_read(&s->clk));
    flush_all(s);
    uint64_t end = s->cfg.filetime ? s->cfg.filetime() : 0u;
    int ok = write_header_buffer(s, end); /* EventsLost = what stays pending (file full) */
    leave(s, c);
    return ok ? EVT_ETW_SUCCESS : EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
}

void evt_etw_session_stats(const evt_etw_session *s, evt_etw_stats *out)
{
    out->events = EVT_LOAD_RLX(&s->loss.written);
    out->events_lost = EVT_LOAD_RLX(&s->loss.dropped);
    out->buffers_written = 1u + s->data_written;
    out->buffers_lost = s->buffers_lost;
    out->buffers_overwritten = s->overwritten;
}

void evt_etw_get_rec_stats(const evt_etw_session *s, evt_rec_stats *out) { evt_loss_stats(&s->loss, out); }

void evt_etw_register(evt_etw_provider *p, const evt_etw_guid *guid,
                      void (*control)(evt_etw_provider *, uint32_t, void *), void *ctx)
{
    copy(&p->guid, guid, (uint32_t)sizeof *guid);
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

uint32_t evt_etw_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                        uint64_t match_any, uint64_t match_all)
{
    if (!p || (code != ETW_CONTROL_DISABLE_PROVIDER && !s)) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (code != ETW_CONTROL_ENABLE_PROVIDER && code != ETW_CONTROL_DISABLE_PROVIDER && code != ETW_CONTROL_CAPTURE_STATE)
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    evt_etw_session *owner = code == ETW_CONTROL_DISABLE_PROVIDER ? (evt_etw_session *)EVT_LOAD_ACQ(&p->session) : s;
    if (code != ETW_CONTROL_CAPTURE_STATE && owner) {
        evt_port_crit_t c;
        if (!evt_rec_lock_enter(&owner->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; /* nested context */
        if (code == ETW_CONTROL_ENABLE_PROVIDER) {
            if (!EVT_LOAD_RLX(&owner->running)) { evt_rec_lock_exit(&owner->lock, c); return EVT_ETW_ERROR_INVALID_HANDLE; }
            evt_etw_session *old = (evt_etw_session *)EVT_LOAD_RLX(&p->session);
            if (old && old != owner) { /* moving between sessions: disable at the old one first */
                evt_rec_lock_exit(&owner->lock, c);
                evt_etw_enable(0, p, ETW_CONTROL_DISABLE_PROVIDER, 0, 0, 0);
                if (!evt_rec_lock_enter(&owner->lock, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
            }
            p->level = level;
            p->match_any = match_any;
            p->match_all = match_all;
            if (EVT_LOAD_RLX(&p->session) != owner) {
                p->next_enabled = owner->providers;
                owner->providers = p;
            }
            EVT_STORE_REL(&p->session, owner);
            evt_gate_publish(&p->gate, ETW_GATE_ON | level, 1u);
        } else {
            evt_gate_publish(&p->gate, 0u, 0u);
            unlink_provider(owner, p);
            EVT_STORE_REL(&p->session, (evt_etw_session *)0);
            p->level = 0;
            p->match_any = p->match_all = 0;
        }
        evt_rec_lock_exit(&owner->lock, c);
    } else if (code == ETW_CONTROL_DISABLE_PROVIDER) {
        evt_gate_publish(&p->gate, 0u, 0u);
        p->level = 0;
        p->match_any = p->match_all = 0;
    }
    if (p->control) p->control(p, code, p->control_ctx);
    return EVT_ETW_SUCCESS;
}

uint8_t evt_etw_enable_level(const evt_etw_provider *p) { return evt_gate_bits(&p->gate) ? p->level : 0; }
uint32_t evt_etw_enable_flags(const evt_etw_provider *p) { return evt_gate_bits(&p->gate) ? (uint32_t)p->match_any : 0; }

int evt_etw_event_enabled(const evt_etw_provider *p, uint8_t level, uint64_t keyword)
{
    return evt_etw_event_enabled_inline(p, level, keyword);
}

/* The slot of the calling context (crit section held); NULL if none is free (per-thread). */
static evt_etw_slot *slot_for(evt_etw_session *s, uint32_t tid, uint16_t *proc)
{
    if (!s->cfg.per_thread) {
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

/* Write one validated record: hdr's guid (or *guid_ptr), payload_len bytes gathered from payload
 * (MOF fields with USE_MOF_PTR, else flat). The hot path: one branch decides "slot ready, no loss
 * pending, room left"; the 48-byte header goes out as six 8-byte words composed from the
 * session's precomputed header bits (evt_put_u64le writes the fields' little-endian bytes on any
 * host; one native store on a little-endian one). */
static inline uint32_t record(evt_etw_session *s, const evt_etw_trace_header *hdr, const evt_etw_guid *guid,
                              const void *payload, uint32_t payload_len)
{
    uint32_t size = ETW_TRACE_HEADER_SIZE + payload_len;
    if (EVT_UNLIKELY(size > s->size_limit)) {
        evt_loss_drop(&s->loss); /* too big: dropped, counted, carried by the next loss record */
        return EVT_ETW_ERROR_MORE_DATA;
    }
    uint32_t tid = s->cfg.thread_id ? s->cfg.thread_id() : (uint32_t)evt_port_context_id();
    uint64_t times = EVT_UNLIKELY(s->cfg.cpu_times != 0) ? cpu_word(s) : 0u; /* KernelTime | UserTime << 32 */
    uint32_t need = align8(size);
    uint16_t proc = 0;
    evt_port_crit_t c;
    if (!enter(s, &c)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY; /* nested in a record of this session */
    evt_etw_slot *sl = (s->file_full | !EVT_LOAD_RLX(&s->running)) ? 0 : slot_for(s, tid, &proc);
    if (EVT_UNLIKELY(!sl || evt_loss_pending(&s->loss) != 0 || sl->used + need > s->cfg.buffer_size)) {
        sl = prepare_slow(s, sl, proc, tid, need);
        if (!sl) {
            evt_loss_drop(&s->loss);
            leave(s, c);
            return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
        }
    }
    uint8_t *r = sl->buf + sl->used;
    uint64_t ts = (hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) ? hdr->timestamp : evt_clock_read(&s->clk);
    uint64_t g0, g1;
    __builtin_memcpy(&g0, guid, 8);
    __builtin_memcpy(&g1, (const uint8_t *)guid + 8, 8);
#ifndef ETW_LE_STORES
    g0 = (uint64_t)guid->data1 | (uint64_t)guid->data2 << 32 | (uint64_t)guid->data3 << 48;
    g1 = 0;
    for (int i = 7; i >= 0; i--) g1 = g1 << 8 | guid->data4[i];
#endif
    if (size & 7u) st64(r + need - 8u, 0); /* the alignment padding (need >= 48: inside the record) */
    /* Three 16-byte stores: [Size..Version, ThreadId ProcessId] [TimeStamp, Guid lo] [Guid hi, times]. */
    st64x2(r + ETW_TH_SIZE, (uint64_t)(size | s->hdr_bits) | (uint64_t)hdr->type << 32 | (uint64_t)hdr->level << 40 |
                                (uint64_t)hdr->version << 48,
           (uint64_t)tid | (uint64_t)s->pid << 32);
    st64x2(r + ETW_TH_TIMESTAMP, ts, g0);
    st64x2(r + ETW_TH_GUID + 8, g1, times);
    uint8_t *d = r + ETW_TRACE_HEADER_SIZE;
    if (hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR) {
        const evt_etw_mof_field *mof = (const evt_etw_mof_field *)payload;
        uint32_t nmof = ((uint32_t)hdr->size - ETW_TRACE_HEADER_SIZE) / ETW_MOF_FIELD_SIZE;
        for (uint32_t i = 0; i < nmof; i++) {
            copy_field(d, (const uint8_t *)mof[i].data, mof[i].length);
            d += mof[i].length;
        }
    } else {
        copy_payload(d, (const uint8_t *)payload, payload_len);
    }
    sl->used += need;
    sl->events++;
    evt_loss_written(&s->loss, 1u);
    leave(s, c);
    return EVT_ETW_SUCCESS;
}

uint32_t evt_etw_commit_(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload, uint32_t payload_len)
{
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&p->session);
    if (EVT_UNLIKELY(!s)) return EVT_ETW_ERROR_INVALID_HANDLE;
    return record(s, hdr, &hdr->guid, payload, payload_len);
}

uint32_t (evt_etw_trace_event)(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    if (!p || !evt_gate_bits(&p->gate)) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_etw_session *s = (evt_etw_session *)EVT_LOAD_ACQ(&p->session);
    if (!s) return EVT_ETW_ERROR_INVALID_HANDLE;
    if (!hdr || hdr->size < ETW_TRACE_HEADER_SIZE) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (!(hdr->flags & ETW_WNODE_FLAG_TRACED_GUID)) return EVT_ETW_ERROR_INVALID_FLAGS;
    const evt_etw_guid *guid = &hdr->guid;
    if (hdr->flags & ETW_WNODE_FLAG_USE_GUID_PTR) {
        guid = (const evt_etw_guid *)(uintptr_t)hdr->guid_ptr;
        if (!guid) return EVT_ETW_ERROR_INVALID_PARAMETER;
    }
    uint32_t extra = hdr->size - ETW_TRACE_HEADER_SIZE, payload_len = 0;
    if (hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR) {
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
    return record(s, hdr, guid, payload, payload_len);
}

uint32_t (evt_etw_write)(evt_etw_provider *p, uint64_t keyword, const evt_etw_trace_header *hdr, const void *payload)
{
    return evt_etw_write(p, keyword, hdr, payload); /* the inline-gated macro (etw.h) */
}
