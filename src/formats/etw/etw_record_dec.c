/* .etl reader: one record (already bounded by the buffer walk) to a canonical event, by header
 * type: SYSTEM/COMPACT/PERFINFO (kernel HookId), FULL_HEADER (classic EVENT_TRACE_HEADER) and
 * EVENT_HEADER (manifest / TraceLogging, with extended items). INSTANCE, ERROR and WPP MESSAGE
 * records are counted and skipped.
 *
 * id:   classic FULL_HEADER: Class.Type; SYSTEM family: HookId = Group << 8 | Type;
 *       EVENT_HEADER: EVENT_DESCRIPTOR.Id. The text form is in name and fields. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "formats/common/cursor.h"
#include "formats/common/text_ok.h"
#include "formats/etw/etw_dec.h"

static const uint8_t k_no_guid[16];

static const char *group_name(unsigned g)
{
    switch (g) {
#define ETW_GRP_CASE_(v, str) case v: return str;
        ETW_GROUP_TABLE(ETW_GRP_CASE_)
#undef ETW_GRP_CASE_
    default: return NULL;
    }
}

static const char *group0_opcode_name(unsigned op)
{
    switch (op) {
#define ETW_G0_CASE_(v, str) case v: return str;
        ETW_GROUP0_OPCODE_TABLE(ETW_G0_CASE_)
#undef ETW_G0_CASE_
    default: return NULL;
    }
}

static const char *trace_type_name(unsigned t)
{
    switch (t) {
#define ETW_TT_CASE_(v, n, str) case v: return str;
        ETW_TRACE_TYPE_TABLE(ETW_TT_CASE_)
#undef ETW_TT_CASE_
    default: return NULL;
    }
}

static void type_text(char *out, size_t cap, unsigned t)
{
    const char *n = trace_type_name(t);
    if (n) snprintf(out, cap, "%s", n); else snprintf(out, cap, "Type%u", t);
}

/* Keys of s->names (kind in bits 32..39). */
#define ETW_NAME_SYSTEM (1ull << 32)  /* "<group>/<opcode>" of a system record: its hook id */
#define ETW_NAME_CLASSIC (2ull << 32) /* "EventTrace/<type>" or "Classic/<type>": is_et << 8 | type */
#define ETW_NAME_EVENT (3ull << 32)   /* "Event<id>" */

/* The name s->name holds (formatted by the caller) under key, kept so that later records with the
 * same key find it without formatting; returns the stable copy (s->name when out of memory). */
static const char *keep_name(etw_state *s, uint64_t key)
{
    const char *k = evt_name_cache_put(&s->names, key, s->name, strlen(s->name));
    return k ? k : s->name;
}

/* The eight common fields appended (those the limit leaves room for), the thread context. */
ETW_NOINLINE_ void common_fields(evt_event *ev, const etw_provider *p, unsigned level, unsigned version,
                                 uint32_t pid, uint32_t tid, uint32_t ktime, uint32_t utime, unsigned ht)
{
    const char *hn = etw_header_type_name(ht);
    if (!hn) hn = "UNKNOWN";
    if (ev->nfields + 8u <= EVT_MAX_FIELDS) {
        etw_common_at(&ev->fields[ev->nfields], p, level, version, pid, tid, ktime, utime, hn);
        ev->fields_ok |= 0xFFu << ev->nfields;
        ev->nfields += 8u;
    } else { /* fields the limit leaves room for, as evt_event_add_field_* would */
        evt_put_s(ev, "guid", p->text);
        evt_put_u(ev, "level", level);
        evt_put_u(ev, "version", version);
        evt_put_u(ev, "pid", pid);
        evt_put_u(ev, "tid", tid);
        evt_put_u(ev, "kernel_time", ktime);
        evt_put_u(ev, "user_time", utime);
        evt_put_s(ev, "header_type", hn);
    }
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = tid;
    ev->ctx_class = EVT_CTX_THREAD;
}

ETW_NOINLINE_ void decode_system(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, int family, evt_event *ev)
{
    unsigned version = evt_cur_u16le_at(c, ETW_SH_VERSION);
    unsigned hook = evt_cur_u16le_at(c, ETW_SH_HOOK_ID);
    unsigned group = hook >> 8, type = hook & 0xFFu;
    uint32_t tid = 0, pid = 0, kt = 0, ut = 0;
    size_t hdr;
    uint8_t guid[16];
    if (family == ETW_HT_FAM_PERFINFO) {
        etw_set_time(s, ev, evt_cur_u64le_at(c, ETW_PERFINFO_TIME));
        hdr = ETW_PERFINFO_HEADER_SIZE;
        if (version & ETW_PERFINFO_PEBS_BIT) hdr += 8;
        hdr += 8u * ((version >> 8) & 7u);
        if (hdr > n) hdr = n; /* checked by the walk; keep the payload empty if inconsistent */
    } else {
        tid = evt_cur_u32le_at(c, ETW_SH_THREAD_ID);
        pid = evt_cur_u32le_at(c, ETW_SH_PROCESS_ID);
        etw_set_time(s, ev, evt_cur_u64le_at(c, ETW_SH_SYSTEM_TIME));
        if (ht == ETW_HT_SYSTEM32 || ht == ETW_HT_SYSTEM64) {
            kt = evt_cur_u32le_at(c, ETW_SH_KERNEL_TIME);
            ut = evt_cur_u32le_at(c, ETW_SH_USER_TIME);
            hdr = ETW_SYSTEM_HEADER_SIZE;
        } else {
            hdr = ETW_COMPACT_HEADER_SIZE;
        }
    }
    etw_known_guid(group == 0 ? ETW_GUID_IDX_EVENT_TRACE : ETW_GUID_IDX_SYSTEM_TRACE, guid);
    const etw_provider *p = etw_count_provider(s, guid);
    ev->id = hook;
    ev->name = evt_name_cache_get(&s->names, ETW_NAME_SYSTEM | hook); /* names: built here */
    if (!ev->name) {
        const char *gn = group_name(group);
        const char *on = group == 0 ? group0_opcode_name(type) : trace_type_name(type);
        char gb[16], ob[16];
        if (!gn) { snprintf(gb, sizeof gb, "Group0x%02X", group); gn = gb; }
        if (!on) { snprintf(ob, sizeof ob, "Type%u", type); on = ob; }
        snprintf(s->name, sizeof s->name, "%s/%s", gn, on);
        ev->name = keep_name(s, ETW_NAME_SYSTEM | hook);
    }
    s->ok_name = ev->name;
    ev->kind = group == 0 ? EVT_KIND_MARKER : EVT_KIND_OTHER;
    common_fields(ev, p, 0, version, pid, tid, kt, ut, ht);
    if (family == ETW_HT_FAM_PERFINFO) { ev->flags &= ~(unsigned)EVT_HAS_CTX; ev->ctx_class = EVT_CTX_NONE; }
    evt_put_u(ev, "group", group);
    evt_put_u(ev, "type", type);
    ev->data = evt_cur_take_at(c, hdr, n - hdr);
    ev->data_len = ev->data ? n - hdr : 0;
}

/* "EventTrace/<type>" (is_et) or "Classic/<type>", built once per pair. */
static const char *classic_name(etw_state *s, int is_et, unsigned type)
{
    const char *nm = s->classic_names[is_et][type];
    if (nm) return nm;
    uint64_t key = ETW_NAME_CLASSIC | (uint64_t)is_et << 8 | type;
    nm = evt_name_cache_get(&s->names, key);
    if (!nm) {
        char tb[16];
        type_text(tb, sizeof tb, type);
        snprintf(s->name, sizeof s->name, "%s/%s", is_et ? "EventTrace" : "Classic", tb);
        nm = keep_name(s, key);
        if (nm == s->name) return nm; /* out of memory: not kept */
    }
    return s->classic_names[is_et][type] = nm;
}

/* decode_full's answer: bits. */
enum {
    ETW_FULL_SIZE_PUT = 1, /* it put the "size" field as well */
    ETW_FULL_USER = 2      /* the user decoder (etw_user_record) filled the event */
};

/* A classic EVENT_TRACE_HEADER record: c reads its n bytes (n >= the fixed header: the walk checked
 * it). Returns ETW_FULL_* bits. */
static int decode_full(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, evt_event *ev)
{
    static const uint8_t k_zero_header[ETW_TRACE_HEADER_SIZE];
    const uint8_t *fixed = evt_cur_take_at(c, 0, ETW_TRACE_HEADER_SIZE);
    evt_cur h; /* the fixed header, of constant size: its reads at constant offsets need no check */
    evt_cur_init(&h, fixed ? fixed : k_zero_header, ETW_TRACE_HEADER_SIZE, c->base, 0); /* the walk checked n */
    const uint8_t *guid = evt_cur_take_at(&h, ETW_TH_GUID, 16);
    if (!guid) guid = k_no_guid; /* the walk checked the size: cannot happen */
    unsigned type = evt_cur_u8_at(&h, ETW_TH_CLASS_TYPE);
    const etw_provider *p = etw_count_provider(s, guid);
    etw_set_time(s, ev, evt_cur_u64le_at(&h, ETW_TH_TIMESTAMP));
    ev->id = type;
    int is_et = p->known & ETW_PK_EVENT_TRACE;
    unsigned level = evt_cur_u8_at(&h, ETW_TH_CLASS_LEVEL), version = evt_cur_u16le_at(&h, ETW_TH_CLASS_VERSION);
    uint32_t pid = evt_cur_u32le_at(&h, ETW_TH_PROCESS_ID), tid = evt_cur_u32le_at(&h, ETW_TH_THREAD_ID);
    uint32_t kt = evt_cur_u32le_at(&h, ETW_TH_KERNEL_TIME), ut = evt_cur_u32le_at(&h, ETW_TH_USER_TIME);
    const uint8_t *data = evt_cur_take_at(c, ETW_TRACE_HEADER_SIZE, n - ETW_TRACE_HEADER_SIZE);
    uint32_t data_len = data ? n - ETW_TRACE_HEADER_SIZE : 0;
    if (fixed && ev->nfields == 0 && !(p->known & (ETW_PK_LOSS | ETW_PK_USER))) {
        /* the usual classic event: its ten fields in place (also the merge's hot path, etw_dec.c) */
        const char *hn = etw_header_type_name(ht);
        etw_classic_fill(ev, fixed, n, p, s->ok_name = classic_name(s, is_et, type), hn ? hn : "UNKNOWN", 0);
        ev->fields_ok |= 0x3FFu;
        ev->flags |= EVT_HAS_CTX;
        return ETW_FULL_SIZE_PUT;
    }
    if ((p->known & ETW_PK_LOSS) && type == ETW_EVT_LOSS_TYPE && n >= ETW_TRACE_HEADER_SIZE + ETW_EVT_LOSS_PAYLOAD) {
        /* evtrace's loss record: events lost before this point (added to the reader's lost). */
        ev->name = s->ok_name = "EvtraceLost";
        ev->kind = EVT_KIND_LOST;
        ev->flags |= EVT_HAS_COUNT;
        ev->count = evt_cur_u64le_at(c, ETW_TRACE_HEADER_SIZE);
        common_fields(ev, p, level, version, pid, tid, kt, ut, ht);
        return 0;
    }
    ev->name = s->ok_name = classic_name(s, is_et, type);
    ev->kind = is_et ? EVT_KIND_MARKER : EVT_KIND_USER;
    common_fields(ev, p, level, version, pid, tid, kt, ut, ht);
    ev->data = data;
    ev->data_len = data_len;
    evt_put_u(ev, "type", type);
    if (p->known & ETW_PK_USER) { /* evtrace/user.h: the text, value... */
        evt_cur uc = *c; /* a copy: c itself stays in registers on the usual path */
        if (etw_user_record(s, p->guid, type, &uc, n, ev)) return ETW_FULL_USER;
    }
    return 0;
}

/* TraceLogging metadata (EVENT_SCHEMA_TL): u16 size, tag bytes (bit 7 = another follows), name. */
static void tl_event_name(evt_cur *d, char *out, size_t cap)
{
    uint8_t b;
    evt_cur_skip(d, 2);
    do b = evt_cur_u8(d); while (evt_cur_ok(d) && (b & 0x80)); /* through the last tag byte */
    size_t k = 0;
    while (evt_cur_left(d) && k + 1 < cap && (b = evt_cur_u8(d)) != 0) out[k++] = (char)b;
    out[k] = 0;
}

/* Provider traits (PROV_TRAITS): u16 size, NUL-terminated UTF-8 provider name, traits. */
static void traits_name(evt_cur *d, char *out, size_t cap)
{
    uint8_t b;
    size_t k = 0;
    evt_cur_skip(d, 2);
    while (evt_cur_left(d) && k + 1 < cap && (b = evt_cur_u8(d)) != 0) out[k++] = (char)b;
    out[k] = 0;
}

ETW_NOINLINE_ void decode_event(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, uint64_t off, evt_event *ev)
{
    const uint8_t *guid = evt_cur_take_at(c, ETW_EH_PROVIDER_ID, 16);
    if (!guid) guid = k_no_guid; /* the walk checked the size: cannot happen */
    unsigned flags = evt_cur_u16le_at(c, ETW_EH_FLAGS);
    unsigned id = evt_cur_u16le_at(c, ETW_EH_ID);
    const etw_provider *p = etw_count_provider(s, guid);
    etw_set_time(s, ev, evt_cur_u64le_at(c, ETW_EH_TIMESTAMP));
    ev->id = id;
    ev->kind = EVT_KIND_USER;
    common_fields(ev, p, evt_cur_u8_at(c, ETW_EH_LEVEL), evt_cur_u8_at(c, ETW_EH_VERSION), evt_cur_u32le_at(c, ETW_EH_PROCESS_ID),
                  evt_cur_u32le_at(c, ETW_EH_THREAD_ID), evt_cur_u32le_at(c, ETW_EH_KERNEL_TIME),
                  evt_cur_u32le_at(c, ETW_EH_USER_TIME), ht);
    evt_put_u(ev, "opcode", evt_cur_u8_at(c, ETW_EH_OPCODE));
    evt_put_u(ev, "task", evt_cur_u16le_at(c, ETW_EH_TASK));
    evt_put_u(ev, "channel", evt_cur_u8_at(c, ETW_EH_CHANNEL));
    evt_put_u(ev, "keyword", evt_cur_u64le_at(c, ETW_EH_KEYWORD));
    evt_put_u(ev, "flags", flags);
    evt_put_u(ev, "event_property", evt_cur_u16le_at(c, ETW_EH_EVENT_PROPERTY));
    static const uint8_t zero[16];
    const uint8_t *act = evt_cur_take_at(c, ETW_EH_ACTIVITY_ID, 16);
    if (act && memcmp(act, zero, 16) != 0) {
        etw_guid_str(act, s->actid);
        evt_put_s(ev, "activity_id", s->actid); /* formatted here */
    }
    size_t pos = ETW_EVENT_HEADER_SIZE;
    s->evname[0] = s->provname[0] = 0;
    unsigned nitems = 0;
    if (flags & ETW_EH_FLAG_EXTENDED_INFO) {
        for (;;) {
            if (n - pos < ETW_EXT_ITEM_HEAD_SIZE) {
                evt_reader_error(s->r, off + pos, "EVENT_HEADER extended item head truncated (%zu bytes left of the %u-byte record)", (size_t)(n - pos), n);
                pos = n;
                break;
            }
            evt_cur_at(c, pos);
            unsigned isize = evt_cur_u16le(c), itype = evt_cur_u16le(c); /* EVENT_HEADER_EXTENDED_DATA_ITEM */
            unsigned link = evt_cur_u16le(c), dsize = evt_cur_u16le(c);
            if (isize < ETW_EXT_ITEM_HEAD_SIZE + dsize || isize > n - pos) {
                evt_reader_error(s->r, off + pos, "EVENT_HEADER extended item (type %u) has size %u for %u data bytes; %zu bytes left in the record", itype, isize, dsize, (size_t)(n - pos));
                pos = n;
                break;
            }
            evt_cur d;
            evt_cur_at(c, pos + ETW_EXT_ITEM_HEAD_SIZE);
            evt_cur_sub(c, dsize, &d);
            if (itype == ETW_EXT_EVENT_SCHEMA_TL) tl_event_name(&d, s->evname, sizeof s->evname);
            else if (itype == ETW_EXT_PROV_TRAITS) traits_name(&d, s->provname, sizeof s->provname);
            nitems++;
            pos += isize;
            if (!(link & ETW_EXT_LINKAGE_MORE)) break;
        }
        evt_put_u(ev, "ext_items", nitems);
    }
    if (s->provname[0]) evt_event_add_field_s(ev, "provider_name", s->provname);
    if (s->evname[0]) {
        evt_event_add_field_s(ev, "event_name", s->evname);
        ev->name = s->evname; /* the record's own name (s->name's size: the same text) */
    } else {
        ev->name = evt_name_cache_get(&s->names, ETW_NAME_EVENT | id);
        if (!ev->name) {
            snprintf(s->name, sizeof s->name, "Event%u", id);
            ev->name = keep_name(s, ETW_NAME_EVENT | id);
        }
        s->ok_name = ev->name;
    }
    ev->data = evt_cur_take_at(c, pos, n - pos);
    ev->data_len = ev->data ? n - pos : 0;
}

int etw_decode_record(etw_state *s, const etw_stream *st, const etw_item *it, evt_event *ev)
{
    uint32_t n = it->size;
    int family = etw_ht_descs[it->htype].family;
    if (family != ETW_HT_FAM_FULL) {
        if (family == 0) return 0;
        if (family == ETW_HT_FAM_INSTANCE || family == ETW_HT_FAM_MESSAGE || family == ETW_HT_FAM_UNKNOWN) {
            s->skipped++;
            return 0;
        }
    }
    ev->offset = it->offset;
    ev->flags |= EVT_HAS_CPU;
    ev->cpu = st->proc;
    s->ok_name = NULL;
    evt_cur bc, c; /* the buffer's decoded records (base 0); the record (the walk checked it lies inside) */
    evt_cur_init(&bc, st->data, st->len, 0, 0);
    evt_cur_sub(&bc, 0, &c); /* empty unless the take below succeeds */
    const uint8_t *rec = evt_cur_take_at(&bc, it->pos, n);
    if (rec) evt_cur_init(&c, rec, n, it->pos, 0);
    int full = 0; /* ETW_FULL_* */
    if (family == ETW_HT_FAM_FULL) {
        full = decode_full(s, &c, n, it->htype, ev);
    } else {
        evt_cur rc = c; /* a copy for the out-of-line kinds: c stays in registers */
        if (family == ETW_HT_FAM_EVENT) decode_event(s, &rc, n, it->htype, it->offset, ev);
        else decode_system(s, &rc, n, it->htype, family, ev);
    }
    if (!(full & ETW_FULL_SIZE_PUT)) evt_put_u(ev, "size", n);
    if (st->compressed) evt_put_u(ev, "buffer_pos", ETW_BUFFER_HEADER_SIZE + it->pos);
    /* The name: vouched for when it is one the cache built here (ok_name), not a TraceLogging name
     * from the record. The seven other strings: only the user decoder sets them (ETW_FULL_USER,
     * checked by the reader framework as usual); otherwise they are left NULL, and vouched for
     * (model.h), so the usual event has EVT_TEXT_OK_ALL. */
    if (!(full & ETW_FULL_USER)) ev->text_ok |= EVT_TEXT_OK_ALL & ~(unsigned)EVT_TEXT_OK_NAME;
    evt_vouch(ev, EVT_TEXT_OK_NAME, ev->name, s->ok_name); /* the cache's names are built here */
    return 1;
}
