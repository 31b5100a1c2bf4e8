/* ETW-classic recorder and .etl writer (see include/evtrace/etw.h). Freestanding: no libc.
 *
 * Invariants:
 *  - Every slot buffer holds [WMI_BUFFER_HEADER 72][records, each 8-aligned]; slot->used is the
 *    fill level incl. the header; a record is written whole or not at all (never spans buffers).
 *  - File layout: buffer 0 (logfile header) at offset 0, data buffer k (k = 0, 1, ...) at
 *    buffer_size * (1 + k) (sequential) or buffer_size * (1 + k % R) with R = max_file_buffers - 1
 *    (circular: the oldest buffer is overwritten and counted). Buffer 0 is rewritten at stop with
 *    the final counts. SequenceNumber: 0 for buffer 0, then 1, 2, ... in flush order.
 *  - Everything that is dropped is counted: EventsLost (no slot, too big, file full) and
 *    BuffersLost (a buffer the file could not take) go into the logfile header.
 *  - A slot is only touched inside evt_port_crit_enter/exit; a full buffer is flushed (written
 *    through cfg.write) inline by the thread that filled it. */
#include "evtrace/etw.h"

#include "evtrace/port.h"
#include "formats/common/bytes.h"

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

static void put_guid(uint8_t *p, const evt_etw_guid *g)
{
    evt_put_u32le(p, g->data1);
    evt_put_u16le(p + 4, g->data2);
    evt_put_u16le(p + 6, g->data3);
    for (int i = 0; i < 8; i++) p[8 + i] = g->data4[i];
}

/* Raw session clock: the configured one; for the system-time clock the FILETIME hook; else the
 * port's counter (QPC-like, or the cycle counter for ETW_CLOCK_CPU_CYCLES). */
static uint64_t now(const evt_etw_session *s)
{
    if (s->cfg.clock) return s->cfg.clock();
    if (s->cfg.clock_type == ETW_CLOCK_SYSTEM_TIME && s->cfg.filetime) return s->cfg.filetime();
    return evt_port_timestamp();
}
static uint32_t tid_of(const evt_etw_session *s) { return s->cfg.thread_id ? s->cfg.thread_id() : (uint32_t)evt_port_context_id(); }
static uint32_t pid_of(const evt_etw_session *s) { return s->cfg.process_id ? s->cfg.process_id() : 0u; }
static int ptr64(const evt_etw_session *s) { return s->cfg.pointer_size == 8; }

/* Kernel/User time of the calling thread in TimerResolution units. */
static void cpu_ticks(const evt_etw_session *s, uint32_t *kt, uint32_t *ut)
{
    uint64_t k = 0, u = 0;
    if (s->cfg.cpu_times) s->cfg.cpu_times(&k, &u);
    *kt = (uint32_t)(k / s->cfg.timer_resolution);
    *ut = (uint32_t)(u / s->cfg.timer_resolution);
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
    evt_put_u32le(h + LF(EVENTS_LOST), (uint32_t)s->events_lost);
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

/* Write a slot's buffer to the file (crit section held) and reset it. */
static void flush_slot(evt_etw_session *s, evt_etw_slot *sl, uint16_t proc)
{
    uint32_t filled = sl->used;
    if (filled <= ETW_BUFFER_HEADER_SIZE) return;
    uint64_t off;
    int ok = 1;
    if (s->cfg.log_file_mode & ETW_FILE_MODE_CIRCULAR) {
        uint64_t ring = s->cfg.max_file_buffers - 1u;
        off = (uint64_t)s->cfg.buffer_size * (1u + s->data_written % ring);
        if (s->data_written >= ring) s->overwritten++;
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
    else s->buffers_lost++;
    sl->used = ETW_BUFFER_HEADER_SIZE;
    sl->events = 0;
    sl->lost_since_flush = 0;
}

uint32_t evt_etw_session_start(evt_etw_session *s, const evt_etw_session_config *cfg, void *mem, uint32_t mem_size)
{
    if (!s || !cfg || !cfg->write || !mem) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (cfg->buffer_size < ETW_MIN_BUFFER_KB * 1024u || cfg->buffer_size > ETW_MAX_BUFFER_KB * 1024u ||
        (cfg->buffer_size & 7u) || cfg->buffers == 0 || cfg->buffers > EVT_ETW_MAX_SLOTS ||
        (uint64_t)cfg->buffers * cfg->buffer_size > mem_size)
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    if ((cfg->log_file_mode & ETW_FILE_MODE_CIRCULAR) && cfg->max_file_buffers < 2u) return EVT_ETW_ERROR_INVALID_PARAMETER;
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
    s->start_time = s->cfg.filetime ? s->cfg.filetime() : 0u;
    s->start_ts = now(s);
    if (!write_header_buffer(s, s->start_time)) return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    s->running = 1;
    return EVT_ETW_SUCCESS;
}

static uint16_t slot_proc(const evt_etw_session *s, uint32_t i)
{
    (void)s;
    return (uint16_t)i;
}

uint32_t evt_etw_session_flush(evt_etw_session *s)
{
    if (!s || !s->running) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_port_crit_t c = evt_port_crit_enter();
    for (uint32_t i = 0; i < s->nslots; i++) flush_slot(s, &s->slots[i], slot_proc(s, i));
    evt_port_crit_exit(c);
    return EVT_ETW_SUCCESS;
}

uint32_t evt_etw_session_stop(evt_etw_session *s)
{
    if (!s || !s->running) return EVT_ETW_ERROR_INVALID_HANDLE;
    evt_etw_session_flush(s);
    s->running = 0;
    uint64_t end = s->cfg.filetime ? s->cfg.filetime() : 0u;
    return write_header_buffer(s, end) ? EVT_ETW_SUCCESS : EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
}

void evt_etw_session_stats(const evt_etw_session *s, evt_etw_stats *out)
{
    out->events = s->events;
    out->events_lost = s->events_lost;
    out->buffers_written = 1u + s->data_written;
    out->buffers_lost = s->buffers_lost;
    out->buffers_overwritten = s->overwritten;
}

void evt_etw_register(evt_etw_provider *p, const evt_etw_guid *guid,
                      void (*control)(evt_etw_provider *, uint32_t, void *), void *ctx)
{
    copy(&p->guid, guid, (uint32_t)sizeof *guid);
    p->session = 0;
    p->level = 0;
    p->match_any = p->match_all = 0;
    p->control = control;
    p->control_ctx = ctx;
}

uint32_t evt_etw_enable(evt_etw_session *s, evt_etw_provider *p, uint32_t code, uint8_t level,
                        uint64_t match_any, uint64_t match_all)
{
    if (!p || (code != ETW_CONTROL_DISABLE_PROVIDER && !s)) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (code == ETW_CONTROL_ENABLE_PROVIDER) {
        if (!s->running) return EVT_ETW_ERROR_INVALID_HANDLE;
        p->session = s;
        p->level = level;
        p->match_any = match_any;
        p->match_all = match_all;
    } else if (code == ETW_CONTROL_DISABLE_PROVIDER) {
        p->session = 0;
        p->level = 0;
        p->match_any = p->match_all = 0;
    } else if (code != ETW_CONTROL_CAPTURE_STATE) {
        return EVT_ETW_ERROR_INVALID_PARAMETER;
    }
    if (p->control) p->control(p, code, p->control_ctx);
    return EVT_ETW_SUCCESS;
}

uint8_t evt_etw_enable_level(const evt_etw_provider *p) { return p->session ? p->level : 0; }
uint32_t evt_etw_enable_flags(const evt_etw_provider *p) { return p->session ? (uint32_t)p->match_any : 0; }

int evt_etw_event_enabled(const evt_etw_provider *p, uint8_t level, uint64_t keyword)
{
    if (!p->session || !p->session->running) return 0;
    if (!(level <= p->level || p->level == 0)) return 0;
    return keyword == 0 || ((keyword & p->match_any) != 0 && (keyword & p->match_all) == p->match_all);
}

/* The slot of the calling context (crit section held); NULL if none is free (per-thread). */
static evt_etw_slot *slot_for(evt_etw_session *s, uint32_t tid, uint16_t *proc)
{
    if (!s->cfg.per_thread) {
        uint32_t i = evt_port_cpu() % s->nslots;
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

uint32_t evt_etw_trace_event(evt_etw_provider *p, const evt_etw_trace_header *hdr, const void *payload)
{
    evt_etw_session *s = p ? p->session : 0;
    if (!s || !s->running) return EVT_ETW_ERROR_INVALID_HANDLE;
    if (!hdr || hdr->size < ETW_TRACE_HEADER_SIZE) return EVT_ETW_ERROR_INVALID_PARAMETER;
    if (!(hdr->flags & ETW_WNODE_FLAG_TRACED_GUID)) return EVT_ETW_ERROR_INVALID_FLAGS;
    const evt_etw_guid *guid = &hdr->guid;
    if (hdr->flags & ETW_WNODE_FLAG_USE_GUID_PTR) {
        guid = (const evt_etw_guid *)(uintptr_t)hdr->guid_ptr;
        if (!guid) return EVT_ETW_ERROR_INVALID_PARAMETER;
    }
    uint32_t extra = hdr->size - ETW_TRACE_HEADER_SIZE, payload_len = 0, nmof = 0;
    const evt_etw_mof_field *mof = 0;
    if (hdr->flags & ETW_WNODE_FLAG_USE_MOF_PTR) {
        nmof = extra / ETW_MOF_FIELD_SIZE;
        if (extra % ETW_MOF_FIELD_SIZE || nmof > ETW_MAX_MOF_FIELDS || (nmof && !payload))
            return EVT_ETW_ERROR_INVALID_PARAMETER;
        mof = (const evt_etw_mof_field *)payload;
        for (uint32_t i = 0; i < nmof; i++) {
            if (!mof[i].data && mof[i].length) return EVT_ETW_ERROR_INVALID_PARAMETER;
            payload_len += mof[i].length;
            if (payload_len > ETW_MAX_EVENT_SIZE) break;
        }
    } else {
        if (extra && !payload) return EVT_ETW_ERROR_INVALID_PARAMETER;
        payload_len = extra;
    }
    uint32_t size = ETW_TRACE_HEADER_SIZE + payload_len;
    uint32_t tid = tid_of(s), pid = pid_of(s), kt, ut;
    if (size > ETW_MAX_EVENT_SIZE || size >= s->cfg.buffer_size - ETW_BUFFER_HEADER_SIZE) {
        uint16_t lp;
        evt_port_crit_t c = evt_port_crit_enter();
        s->events_lost++;
        evt_etw_slot *ls = s->file_full ? 0 : slot_for(s, tid, &lp);
        if (ls) ls->lost_since_flush = 1; /* BufferFlag EVENTS_LOST on the caller's next buffer */
        evt_port_crit_exit(c);
        return EVT_ETW_ERROR_MORE_DATA;
    }
    cpu_ticks(s, &kt, &ut);
    uint32_t need = align8(size);
    uint16_t proc = 0;
    evt_port_crit_t c = evt_port_crit_enter();
    evt_etw_slot *sl = s->file_full ? 0 : slot_for(s, tid, &proc);
    if (sl && sl->used + need > s->cfg.buffer_size) {
        flush_slot(s, sl, proc);
        if (s->file_full) sl = 0;
    }
    if (!sl) {
        s->events_lost++;
        evt_port_crit_exit(c);
        return EVT_ETW_ERROR_NOT_ENOUGH_MEMORY;
    }
    uint8_t *r = sl->buf + sl->used;
    uint64_t ts = (hdr->flags & ETW_WNODE_FLAG_USE_TIMESTAMP) ? hdr->timestamp : now(s);
    evt_put_u16le(r + ETW_TH_SIZE, (uint16_t)size);
    r[ETW_TH_HEADER_TYPE] = ptr64(s) ? ETW_HT_FULL_HEADER64 : ETW_HT_FULL_HEADER32;
    r[ETW_TH_MARKER_FLAGS] = ETW_MARKER_FLAGS;
    r[ETW_TH_CLASS_TYPE] = hdr->type;
    r[ETW_TH_CLASS_LEVEL] = hdr->level;
    evt_put_u16le(r + ETW_TH_CLASS_VERSION, hdr->version);
    evt_put_u32le(r + ETW_TH_THREAD_ID, tid);
    evt_put_u32le(r + ETW_TH_PROCESS_ID, pid);
    evt_put_u64le(r + ETW_TH_TIMESTAMP, ts);
    put_guid(r + ETW_TH_GUID, guid);
    evt_put_u32le(r + ETW_TH_KERNEL_TIME, kt);
    evt_put_u32le(r + ETW_TH_USER_TIME, ut);
    uint8_t *d = r + ETW_TRACE_HEADER_SIZE;
    if (mof) {
        for (uint32_t i = 0; i < nmof; i++) {
            const uint8_t *src = (const uint8_t *)mof[i].data;
            for (uint32_t k = 0; k < mof[i].length; k++) *d++ = src[k];
        }
    } else {
        const uint8_t *src = (const uint8_t *)payload;
        for (uint32_t k = 0; k < payload_len; k++) *d++ = src[k];
    }
    zero(r + size, need - size);
    sl->used += need;
    sl->events++;
    s->events++;
    evt_port_crit_exit(c);
    return EVT_ETW_SUCCESS;
}

uint32_t evt_etw_write(evt_etw_provider *p, uint64_t keyword, const evt_etw_trace_header *hdr, const void *payload)
{
    if (!evt_etw_event_enabled(p, hdr->level, keyword)) return EVT_ETW_SUCCESS;
    return evt_etw_trace_event(p, hdr, payload);
}
