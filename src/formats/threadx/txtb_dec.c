/* TXTB reader: decodes a ThreadX trace buffer dump (either byte order) into canonical events,
 * oldest first, reading one 32-byte slot at a time (constant memory apart from the registry).
 *
 * Order: if the slot at the current pointer was written, the buffer wrapped and the oldest entry
 * is there; otherwise the entries are slots 0..current-1. Timestamps are masked with the header's
 * timer mask and unwrapped to 64 bits; a first pass decides whether the timer counts up or down
 * (as TraceX does), so `ts` only grows in both cases. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "formats/common/cursor.h"
#include "formats/threadx/txtb_defs.h"
#include "formats/threadx/txtb_hooks_dec.h"
#include "formats/threadx/txtb_names.h"

typedef struct txtb_obj {
    uint32_t index;      /* registry slot */
    uint8_t available, type, res1, res2;
    uint32_t addr, param1, param2;
    char *name;          /* bytes up to the NUL (or the whole field), NUL-terminated */
} txtb_obj;

typedef struct id_count { uint32_t id; uint64_t count; } id_count;

typedef struct txtb_state {
    evt_reader *r;
    int big;                     /* byte order of the buffer */
    uint32_t hdr[12];            /* the 12 header words (name size/reserved1 split below) */
    uint16_t name_size, reserved1;
    uint32_t mask;               /* timer valid mask */
    uint64_t ts_mod;             /* modulus of the masked counter (ts_modulus) */
    uint64_t reg_off, ev_off;    /* file offsets of registry and event area */
    uint32_t reg_entries, reg_entry_size;
    uint32_t capacity;           /* event slots */
    uint32_t current;            /* index of the current-pointer slot */
    int wrapped;
    txtb_obj *objs;              /* all registry slots, in index order */
    txtb_obj **by_addr;          /* used slots sorted by address (lookup) */
    uint32_t nby_addr;
    int timer_down;              /* 1: timer counts down */
    uint64_t decreases, increases;
    /* iteration */
    uint32_t pos;                /* events visited in chronological order (0..span) */
    uint32_t span;               /* slots in chronological order to visit */
    int have_prev;
    uint32_t prev_masked;
    uint64_t ts;
    uint32_t first_masked, last_masked;
    uint64_t valid;
    uint64_t ctx_thread, ctx_isr, ctx_init;
    id_count *counts;
    uint32_t ncounts, capcounts;
    char namebuf[48];
    char ctxbuf[48];
    int beyond_checked;
    txtb_hooks_dec hooks;        /* records of the generic kernel hooks (txtb_hooks_dec.c) */
} txtb_state;

static const evt_reader_option k_opts[] = {{NULL, NULL, NULL}};

static int probe(const uint8_t *head, size_t len, uint64_t file_size)
{
    (void)file_size;
    if (len < 4) return 0;
    if (evt_ld_u32be(head) == TXTB_ID || evt_ld_u32le(head) == TXTB_ID) return 100;
    return 0;
}

static uint32_t slot_index_of(const txtb_state *s, uint32_t k)
{
    /* k-th slot in chronological order */
    uint32_t start = s->wrapped ? s->current : 0;
    uint32_t i = start + k;
    return i >= s->capacity ? i - s->capacity : i;
}

static int read_slot(txtb_state *s, uint32_t idx, uint32_t w[8])
{
    uint8_t b[TXTB_EVENT_SIZE];
    uint64_t off = s->ev_off + (uint64_t)idx * TXTB_EVENT_SIZE;
    if (evt_source_read_at(&s->r->src, off, b, sizeof b) != sizeof b) return 0;
    for (int i = 0; i < 8; i++) w[i] = evt_ld_u32(b + 4 * i, s->big);
    return 1;
}

static int cmp_obj_addr(const void *a, const void *b)
{
    const txtb_obj *x = *(txtb_obj *const *)a, *y = *(txtb_obj *const *)b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    /* Same address: a live object sorts before a deleted one, then by index. */
    if (x->available != y->available) return x->available < y->available ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

static const txtb_obj *find_obj(const txtb_state *s, uint32_t addr)
{
    uint32_t lo = 0, hi = s->nby_addr;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->by_addr[mid]->addr < addr) lo = mid + 1; else hi = mid;
    }
    return (lo < s->nby_addr && s->by_addr[lo]->addr == addr) ? s->by_addr[lo] : NULL;
}

/* Registry name of an object address, for txtb_hooks_dec_event(). */
static const char *hooks_obj_name(void *ctx, uint32_t addr)
{
    const txtb_obj *o = find_obj(ctx, addr);
    return o ? o->name : NULL;
}

static evt_status read_registry(txtb_state *s)
{
    evt_reader *r = s->r;
    if (s->reg_entries == 0) return EVT_OK;
    size_t bytes = (size_t)s->reg_entries * s->reg_entry_size;
    uint8_t *buf = evt_malloc(bytes);
    s->objs = evt_calloc(s->reg_entries, sizeof *s->objs);
    s->by_addr = evt_calloc(s->reg_entries, sizeof *s->by_addr);
    if (!buf || !s->objs || !s->by_addr) { evt_free(buf); return evt_reader_fail(r, EVT_ERR_NOMEM, s->reg_off, "out of memory for %u registry entries", s->reg_entries); }
    if (evt_source_read_at(&r->src, s->reg_off, buf, bytes) != bytes) {
        evt_free(buf);
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, s->reg_off, "registry truncated");
    }
    for (uint32_t i = 0; i < s->reg_entries; i++) {
        const uint8_t *e = buf + (size_t)i * s->reg_entry_size;
        txtb_obj *o = &s->objs[i];
        o->index = i;
        o->available = e[TXTB_REG_AVAILABLE];
        o->type = e[TXTB_REG_TYPE];
        o->res1 = e[TXTB_REG_RESERVED1];
        o->res2 = e[TXTB_REG_RESERVED2];
        o->addr = evt_ld_u32(e + TXTB_REG_POINTER, s->big);
        o->param1 = evt_ld_u32(e + TXTB_REG_PARAM1, s->big);
        o->param2 = evt_ld_u32(e + TXTB_REG_PARAM2, s->big);
        const uint8_t *nm = e + TXTB_REG_NAME;
        size_t n = 0;
        while (n < s->name_size && nm[n]) n++;
        o->name = evt_malloc(n + 1);
        if (!o->name) { evt_free(buf); return evt_reader_fail(r, EVT_ERR_NOMEM, s->reg_off, "out of memory"); }
        memcpy(o->name, nm, n);
        o->name[n] = 0;
        if (o->type != TXTB_OBJ_NONE) {
            s->by_addr[s->nby_addr++] = o;
            txtb_hooks_dec_registry(&s->hooks, o->type, o->addr, o->param1, o->param2);
        }
    }
    evt_free(buf);
    qsort(s->by_addr, s->nby_addr, sizeof *s->by_addr, cmp_obj_addr);
    return EVT_OK;
}

/* Registry priority of a thread slot whose reserved1 has bit 7 set: ThreadX writes
 * 0x80 | (priority >> 8) and priority & 0xFF; priorities are 10 bits (TraceX: (res1 & 3) << 8 | res2). */
static uint32_t reg_priority(const txtb_obj *o)
{
    return ((uint32_t)(o->res1 & 0x3u) << 8) | o->res2;
}

/* Modulus of the masked counter: the power of two above the mask's highest bit (a mask is
 * normally 2^k - 1; a mask with low bits clear, e.g. 0xFFF0, still counts modulo 2^16). */
static uint64_t ts_modulus(uint32_t mask)
{
    uint64_t mod = 1;
    while (mod <= mask) mod <<= 1;
    return mod;
}

/* Masked timestamp difference in the counting direction. */
static uint64_t tdelta(const txtb_state *s, uint32_t prev, uint32_t cur, int down)
{
    uint64_t mod = s->ts_mod;
    uint64_t a = down ? prev : cur, b = down ? cur : prev;
    return (a + mod - b) % mod;
}

/* First pass: direction of the timer (TraceX's rule: whichever way most steps go). */
static void scan_direction(txtb_state *s)
{
    uint32_t w[8], prev = 0;
    int have = 0;
    uint64_t half = s->ts_mod / 2;
    for (uint32_t k = 0; k < s->span; k++) {
        if (!read_slot(s, slot_index_of(s, k), w) || w[0] == TXTB_CTX_NONE) continue;
        uint32_t m = w[3] & s->mask;
        if (have && m != prev) {
            if (tdelta(s, prev, m, 0) < half) s->increases++; else s->decreases++;
        }
        prev = m;
        have = 1;
    }
    s->timer_down = s->decreases > s->increases;
}

static evt_status open_(evt_reader *r, void **state)
{
    uint8_t h[TXTB_HEADER_SIZE];
    size_t got = evt_source_read_at(&r->src, 0, h, sizeof h);
    if (got < 4) return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "file too short for a TXTB header (%zu bytes)", got);
    int big;
    if (evt_ld_u32be(h) == TXTB_ID) big = 1;
    else if (evt_ld_u32le(h) == TXTB_ID) big = 0;
    else return evt_reader_fail(r, EVT_ERR_FORMAT, 0, "no TXTB trace id (expected 54 58 54 42 or 42 54 58 54)");
    if (got < sizeof h)
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, got, "control header truncated: %zu of %u bytes", got, TXTB_HEADER_SIZE);

    txtb_state *s = evt_calloc(1, sizeof *s);
    if (!s) return evt_reader_fail(r, EVT_ERR_NOMEM, 0, "out of memory");
    *state = s;
    s->r = r;
    s->big = big;
    evt_cur c;
    evt_cur_init(&c, h, sizeof h, 0, big);
    for (int i = 0; i < 12; i++) s->hdr[i] = evt_cur_u32(&c);
    s->reserved1 = evt_ld_u16(h + TXTB_HDR_RESERVED1, big);
    s->name_size = evt_ld_u16(h + TXTB_HDR_NAME_SIZE, big);
    s->mask = s->hdr[TXTB_HDR_TIMER_MASK / 4];
    s->ts_mod = ts_modulus(s->mask);
    uint32_t base = s->hdr[TXTB_HDR_BASE / 4];
    /* Addresses are 32-bit target addresses (64-bit hosts truncate): offsets modulo 2^32. */
    uint32_t reg_start = s->hdr[TXTB_HDR_REG_START / 4] - base;
    uint32_t reg_end = s->hdr[TXTB_HDR_REG_END / 4] - base;
    uint32_t buf_start = s->hdr[TXTB_HDR_BUF_START / 4] - base;
    uint32_t buf_end = s->hdr[TXTB_HDR_BUF_END / 4] - base;
    uint32_t cur = s->hdr[TXTB_HDR_CURRENT / 4] - base;
    uint64_t fsize = r->src.size;
    s->reg_entry_size = TXTB_REG_FIXED_SIZE + s->name_size;

    if (reg_start < TXTB_HEADER_SIZE || reg_start > fsize)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_REG_START, "registry start 0x%08" PRIx32 " is offset %" PRIu32 ", outside the file (%" PRIu64 " bytes)", s->hdr[3], reg_start, fsize);
    if (reg_end < reg_start || (reg_end - reg_start) % s->reg_entry_size != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_REG_END, "registry end 0x%08" PRIx32 " does not close a whole number of %u-byte entries from registry start", s->hdr[5], s->reg_entry_size);
    if (buf_start < reg_end)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_BUF_START, "event buffer start (offset %" PRIu32 ") lies inside the registry (ends at %" PRIu32 ")", buf_start, reg_end);
    if (buf_end <= buf_start || (buf_end - buf_start) % TXTB_EVENT_SIZE != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_BUF_END, "event buffer end (offset %" PRIu32 ") is not start + a positive multiple of %u", buf_end, TXTB_EVENT_SIZE);
    if (buf_end > fsize)
        return evt_reader_fail(r, EVT_ERR_TRUNCATED, fsize, "file truncated: the event buffer ends at offset %" PRIu32 " but the file has %" PRIu64 " bytes", buf_end, fsize);
    if (cur < buf_start || cur >= buf_end || (cur - buf_start) % TXTB_EVENT_SIZE != 0)
        return evt_reader_fail(r, EVT_ERR_CORRUPT, TXTB_HDR_CURRENT, "current pointer 0x%08" PRIx32 " (offset %" PRIu32 ") is not a slot of the event buffer [%" PRIu32 ", %" PRIu32 ")", s->hdr[8], cur, buf_start, buf_end);
    s->reg_off = reg_start;
    s->reg_entries = (reg_end - reg_start) / s->reg_entry_size;
    s->ev_off = buf_start;
    s->capacity = (buf_end - buf_start) / TXTB_EVENT_SIZE;
    s->current = (cur - buf_start) / TXTB_EVENT_SIZE;
    if (s->mask == 0) evt_reader_error(r, TXTB_HDR_TIMER_MASK, "timer valid mask is 0: timestamps carry no information");

    evt_status st = read_registry(s);
    if (st != EVT_OK) return st;
    uint32_t w[8];
    if (!read_slot(s, s->current, w)) return evt_reader_fail(r, EVT_ERR_TRUNCATED, s->ev_off, "event slot unreadable");
    s->wrapped = (w[0] != TXTB_CTX_NONE);
    s->span = s->wrapped ? s->capacity : s->current;
    scan_direction(s);
    return EVT_OK;
}

static void count_id(txtb_state *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->ncounts; i++)
        if (s->counts[i].id == id) { s->counts[i].count++; return; }
    if (s->ncounts == s->capcounts) {
        uint32_t nc = s->capcounts ? s->capcounts * 2 : 32;
        id_count *n = evt_realloc(s->counts, nc * sizeof *n);
        if (!n) return; /* counts are informational; events still decode */
        s->counts = n;
        s->capcounts = nc;
    }
    s->counts[s->ncounts].id = id;
    s->counts[s->ncounts++].count = 1;
}

static evt_kind kind_of(int k)
{
    switch (k) {
    case TXTB_K_RUN: return EVT_KIND_THREAD_RUN;
    case TXTB_K_STOP: return EVT_KIND_THREAD_STOP;
    case TXTB_K_ISR_IN: return EVT_KIND_ISR_ENTER;
    case TXTB_K_ISR_OUT: return EVT_KIND_ISR_EXIT;
    case TXTB_K_SVC: return EVT_KIND_SVC;
    case TXTB_K_CREATE: return EVT_KIND_OBJ_CREATE;
    case TXTB_K_DELETE: return EVT_KIND_OBJ_DELETE;
    case TXTB_K_MARKER: return EVT_KIND_MARKER;
    case TXTB_K_LOST: return EVT_KIND_LOST;
    default: return EVT_KIND_OTHER;
    }
}

/* Slots after the current pointer of a buffer that did not wrap must be unwritten. */
static void check_beyond(txtb_state *s)
{
    uint32_t w[8];
    s->beyond_checked = 1;
    if (s->wrapped) return;
    for (uint32_t i = s->current + 1; i < s->capacity; i++) {
        if (read_slot(s, i, w) && w[0] != TXTB_CTX_NONE) {
            evt_reader_error(s->r, s->ev_off + (uint64_t)i * TXTB_EVENT_SIZE,
                             "slot %" PRIu32 " is written but lies after the current pointer (slot %" PRIu32 ") of a buffer that did not wrap",
                             i, s->current);
            return;
        }
    }
}

static evt_status next(void *state, evt_event *ev)
{
    txtb_state *s = state;
    uint32_t w[8];
    for (;;) {
        if (s->pos >= s->span) {
            if (!s->beyond_checked) check_beyond(s);
            return EVT_END;
        }
        uint32_t idx = slot_index_of(s, s->pos++);
        uint64_t off = s->ev_off + (uint64_t)idx * TXTB_EVENT_SIZE;
        if (!read_slot(s, idx, w))
            return evt_reader_fail(s->r, EVT_ERR_TRUNCATED, off, "event slot %" PRIu32 " truncated", idx);
        if (w[0] == TXTB_CTX_NONE) {
            evt_reader_error(s->r, off, "slot %" PRIu32 " was never written but lies inside the recorded range", idx);
            continue;
        }
        uint32_t ctx = w[0], prio = w[1], id = w[2], raw_ts = w[3];
        uint32_t m = raw_ts & s->mask;
        if (!s->have_prev) {
            s->ts = s->timer_down ? (uint64_t)(s->mask - m) : m; /* m <= mask: never negative */
            s->first_masked = m;
            s->have_prev = 1;
        } else {
            s->ts += tdelta(s, s->prev_masked, m, s->timer_down);
        }
        s->prev_masked = m;
        s->last_masked = m;
        s->valid++;

        /* SMP builds put the core in bits 24-31 of a kernel event id. */
        uint32_t cpu = 0;
        int has_cpu = 0;
        if ((id >> 24) != 0 && (id & 0xFFFFFFu) < TXTB_USER_EVENT_START) {
            cpu = id >> 24;
            id &= 0xFFFFFFu;
            has_cpu = 1;
        }
        count_id(s, w[2]);
        const txtb_event_info *info = txtb_event_lookup(id);
        ev->id = id;
        ev->name = txtb_event_name(id, s->namebuf, sizeof s->namebuf);
        if (info) ev->kind = kind_of(info->kind);
        else if (id >= TXTB_USER_EVENT_START && id <= TXTB_USER_EVENT_END) ev->kind = EVT_KIND_USER;
        else ev->kind = (id >= 200 && id < 1100) ? EVT_KIND_SVC : EVT_KIND_OTHER;
        ev->ts = s->ts;
        ev->offset = off;
        ev->flags |= EVT_HAS_CTX | EVT_HAS_PRIO;
        ev->ctx = ctx;
        ev->prio = prio;
        if (has_cpu) { ev->flags |= EVT_HAS_CPU; ev->cpu = cpu; }
        for (int i = 4; i < 8; i++) evt_event_add_arg(ev, w[i]);
        if (ctx == TXTB_CTX_ISR) {
            s->ctx_isr++;
            ev->ctx_class = EVT_CTX_ISR;
            ev->ctx_name = "ISR";
            if (prio != 0) {
                const txtb_obj *o = find_obj(s, prio);
                evt_event_add_field_u(ev, "interrupted", prio);
                if (o) evt_event_add_field_s(ev, "interrupted_name", o->name);
            }
        } else if (ctx == TXTB_CTX_INIT) {
            s->ctx_init++;
            ev->ctx_class = EVT_CTX_INIT;
            ev->ctx_name = "Initialization";
        } else {
            s->ctx_thread++;
            ev->ctx_class = EVT_CTX_THREAD;
            const txtb_obj *o = find_obj(s, ctx);
            ev->ctx_name = o ? o->name : NULL;
            if (prio & TXTB_PRIO_CURRENT_BIT) {
                evt_event_add_field_u(ev, "priority", prio & 0x3FFu);
                evt_event_add_field_u(ev, "preemption_threshold", (prio >> 16) & 0x3FFu);
            } else {
                evt_event_add_field_u(ev, "priority", prio);
            }
        }
        int k = info ? info->kind : TXTB_K_OTHER;
        if (k == TXTB_K_RUN || k == TXTB_K_STOP || k == TXTB_K_CREATE || k == TXTB_K_DELETE ||
            (k == TXTB_K_SVC && id < 200 && id != TXTB_EVENT_INTERRUPT_CONTROL)) {
            const txtb_obj *o = find_obj(s, w[4]);
            if (o || k != TXTB_K_SVC) {
                ev->flags |= EVT_HAS_TARGET;
                ev->target = w[4];
                ev->target_name = o ? o->name : NULL;
            }
        }
        if (k == TXTB_K_RUN || k == TXTB_K_STOP) {
            const char *sn = txtb_thread_state_name(w[5]);
            if (sn) evt_event_add_field_s(ev, "state", sn);
            evt_event_add_field_u(ev, "next_thread", w[7]);
        } else if (k == TXTB_K_ISR_IN || k == TXTB_K_ISR_OUT) {
            evt_event_add_field_u(ev, "isr_id", w[5]);
        } else if (k == TXTB_K_LOST) {
            ev->flags |= EVT_HAS_COUNT;
            ev->count = w[4];
        }
        txtb_hooks_dec_event(&s->hooks, id, w, ev, hooks_obj_name, s);
        return EVT_OK;
    }
}

static int cmp_count(const void *a, const void *b)
{
    const id_count *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static void info_json(void *state, evt_json *j)
{
    txtb_state *s = state;
    char tb[48];
    evt_json_kstr(j, "byte_order", s->big ? "big" : "little");
    evt_json_ku64(j, "capacity", s->capacity);
    evt_json_kbool(j, "wrapped", s->wrapped);
    evt_json_ku64(j, "oldest_index", s->wrapped ? s->current : 0);
    evt_json_ku64(j, "current_index", s->current);
    evt_json_ku64(j, "valid_entries", s->valid);
    evt_json_ku64(j, "timer_mask", s->mask);
    evt_json_kstr(j, "timer_direction", s->timer_down ? "down" : "up");
    evt_json_key(j, "first_timestamp");
    if (s->valid) evt_json_u64(j, s->first_masked); else evt_json_null(j);
    evt_json_key(j, "last_timestamp");
    if (s->valid) evt_json_u64(j, s->last_masked); else evt_json_null(j);
    evt_json_ku64(j, "registry_entries", s->reg_entries);
    evt_json_ku64(j, "object_name_size", s->name_size);
    evt_json_ku64(j, "registry_offset", s->reg_off);
    evt_json_ku64(j, "event_area_offset", s->ev_off);
    evt_json_ku64(j, "trace_base_address", s->hdr[TXTB_HDR_BASE / 4]);
    evt_json_key(j, "contexts");
    evt_json_obj_begin(j);
    evt_json_ku64(j, "thread", s->ctx_thread);
    evt_json_ku64(j, "isr", s->ctx_isr);
    evt_json_ku64(j, "init", s->ctx_init);
    evt_json_obj_end(j);
    if (s->ncounts > 1) qsort(s->counts, s->ncounts, sizeof *s->counts, cmp_count);
    evt_json_key(j, "count_by_id");
    evt_json_obj_begin(j);
    for (uint32_t i = 0; i < s->ncounts; i++) {
        char k[16];
        snprintf(k, sizeof k, "%" PRIu32, s->counts[i].id);
        evt_json_ku64(j, k, s->counts[i].count);
    }
    evt_json_obj_end(j);
    evt_json_key(j, "objects");
    evt_json_arr_begin(j);
    for (uint32_t i = 0; i < s->reg_entries; i++) {
        const txtb_obj *o = &s->objs[i];
        if (o->type == TXTB_OBJ_NONE) continue;
        evt_json_obj_begin(j);
        evt_json_ku64(j, "index", o->index);
        evt_json_ku64(j, "type", o->type);
        evt_json_kstr(j, "type_name", txtb_objtype_name(o->type, tb, sizeof tb));
        evt_json_kstr(j, "name", o->name);
        evt_json_ku64(j, "addr", o->addr);
        evt_json_ku64(j, "param1", o->param1);
        evt_json_ku64(j, "param2", o->param2);
        evt_json_ku64(j, "available", o->available);
        if (o->type == TXTB_OBJ_THREAD && (o->res1 & TXTB_REG_PRIO_PRESENT))
            evt_json_ku64(j, "priority", reg_priority(o));
        evt_json_obj_end(j);
    }
    evt_json_arr_end(j);
}

static void info_text(void *state, FILE *out)
{
    txtb_state *s = state;
    char tb[48];
    fprintf(out, "byte order: %s\n", s->big ? "big-endian" : "little-endian");
    fprintf(out, "layout:   header 48 B, registry %" PRIu32 " x %" PRIu32 " B at offset %" PRIu64
                 ", %" PRIu32 " event slots at offset %" PRIu64 "\n",
            s->reg_entries, s->reg_entry_size, s->reg_off, s->capacity, s->ev_off);
    fprintf(out, "buffer:   %s, oldest slot %" PRIu32 ", %" PRIu64 " valid entries\n",
            s->wrapped ? "wrapped" : "not wrapped", s->wrapped ? s->current : 0, s->valid);
    fprintf(out, "timer:    mask 0x%08" PRIx32 ", counts %s\n", s->mask, s->timer_down ? "down" : "up");
    fprintf(out, "objects:\n");
    for (uint32_t i = 0; i < s->reg_entries; i++) {
        const txtb_obj *o = &s->objs[i];
        if (o->type == TXTB_OBJ_NONE) continue;
        fprintf(out, "  [%2" PRIu32 "] %-15s 0x%08" PRIx32 " %-32s p1=%" PRIu32 " p2=%" PRIu32 "%s", o->index,
                txtb_objtype_name(o->type, tb, sizeof tb), o->addr, o->name, o->param1, o->param2,
                o->available ? " (deleted)" : "");
        if (o->type == TXTB_OBJ_THREAD && (o->res1 & TXTB_REG_PRIO_PRESENT))
            fprintf(out, " prio=%" PRIu32, reg_priority(o));
        fputc('\n', out);
    }
}

static void close_(void *state)
{
    txtb_state *s = state;
    if (!s) return;
    for (uint32_t i = 0; s->objs && i < s->reg_entries; i++) evt_free(s->objs[i].name);
    evt_free(s->objs);
    evt_free(s->by_addr);
    evt_free(s->counts);
    evt_free(s);
}

const evt_reader_desc evt_reader_threadx = {
    "threadx", "ThreadX event trace buffer (TXTB, TraceX .trx), either byte order",
    probe, open_, next, info_json, info_text, close_, k_opts,
};
