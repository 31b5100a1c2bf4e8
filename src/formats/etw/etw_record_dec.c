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

/* The text of a GUID, formatted once while it stays in a small direct-mapped cache (a trace has
 * few providers); valid until the next event. */
static const char *guid_text(etw_state *s, const uint8_t g[16])
{
    unsigned h = (g[0] ^ g[3] ^ g[9] ^ g[15]) & 15u;
    if (!s->gtext[h].used || memcmp(s->gtext[h].g, g, 16) != 0) {
        memcpy(s->gtext[h].g, g, 16);
        etw_guid_str(g, s->gtext[h].str);
        s->gtext[h].used = 1;
    }
    return s->gtext[h].str;
}

static void common_fields(etw_state *s, evt_event *ev, const uint8_t guid[16], unsigned level, unsigned version,
                          uint32_t pid, uint32_t tid, uint32_t ktime, uint32_t utime, unsigned ht)
{
    /* Text built here or from the format's tables: vouched for (text_ok.h). The eight fields are
     * copied from one template, then given their values. */
    static const evt_field k_common[8] = {
        {"guid", 1, 0, 0, NULL}, {"level", 0, 0, 0, NULL}, {"version", 0, 0, 0, NULL},
        {"pid", 0, 0, 0, NULL}, {"tid", 0, 0, 0, NULL}, {"kernel_time", 0, 0, 0, NULL},
        {"user_time", 0, 0, 0, NULL}, {"header_type", 1, 0, 0, NULL},
    };
    const char *hn = etw_header_type_name(ht);
    uint64_t v[8] = {0, level, version, pid, tid, ktime, utime, 0};
    if (ev->nfields + 8u <= EVT_MAX_FIELDS) {
        evt_field *f = &ev->fields[ev->nfields];
        memcpy(f, k_common, sizeof k_common);
        for (unsigned i = 1; i < 7; i++) f[i].num = v[i];
        f[0].str = guid_text(s, guid);
        f[7].str = hn ? hn : "UNKNOWN";
        ev->fields_ok |= 0xFFu << ev->nfields;
        ev->nfields += 8u;
    } else { /* fields the limit leaves room for, as evt_event_add_field_* would */
        for (unsigned i = 0; i < 8; i++) {
            if (k_common[i].is_str) evt_put_s(ev, k_common[i].key, i == 0 ? guid_text(s, guid) : hn ? hn : "UNKNOWN");
            else evt_put_u(ev, k_common[i].key, v[i]);
        }
    }
    ev->flags |= EVT_HAS_CTX;
    ev->ctx = tid;
    ev->ctx_class = EVT_CTX_THREAD;
}

static void decode_system(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, int family, evt_event *ev)
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
    etw_count_provider(s, guid);
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
    common_fields(s, ev, guid, 0, version, pid, tid, kt, ut, ht);
    if (family == ETW_HT_FAM_PERFINFO) { ev->flags &= ~(unsigned)EVT_HAS_CTX; ev->ctx_class = EVT_CTX_NONE; }
    evt_put_u(ev, "group", group);
    evt_put_u(ev, "type", type);
    ev->data = evt_cur_take_at(c, hdr, n - hdr);
    ev->data_len = ev->data ? n - hdr : 0;
}

/* The GUID of evtrace's loss records (ETW_GUID_TABLE row EVTRACE_LOSS, on-disk bytes). */
static int is_loss_guid(const uint8_t *g)
{
    enum {
#define ETW_GIDX_(n, str, ...) ETW_GIDX_##n,
        ETW_GUID_TABLE(ETW_GIDX_)
#undef ETW_GIDX_
    };
    uint8_t want[16];
    etw_known_guid(ETW_GIDX_EVTRACE_LOSS, want);
    return memcmp(g, want, 16) == 0;
}

static void decode_full(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, evt_event *ev)
{
    const uint8_t *guid = evt_cur_take_at(c, ETW_TH_GUID, 16);
    if (!guid) guid = k_no_guid; /* the walk checked the size: cannot happen */
    unsigned type = evt_cur_u8_at(c, ETW_TH_CLASS_TYPE);
    etw_count_provider(s, guid);
    etw_set_time(s, ev, evt_cur_u64le_at(c, ETW_TH_TIMESTAMP));
    ev->id = type;
    uint8_t et[16];
    etw_known_guid(ETW_GUID_IDX_EVENT_TRACE, et);
    int is_et = memcmp(guid, et, 16) == 0;
    if (!is_et && type == ETW_EVT_LOSS_TYPE && n >= ETW_TRACE_HEADER_SIZE + ETW_EVT_LOSS_PAYLOAD && is_loss_guid(guid)) {
        /* evtrace's loss record: events lost before this point (added to the reader's lost). */
        ev->name = s->ok_name = "EvtraceLost";
        ev->kind = EVT_KIND_LOST;
        ev->flags |= EVT_HAS_COUNT;
        ev->count = evt_cur_u64le_at(c, ETW_TRACE_HEADER_SIZE);
        common_fields(s, ev, guid, evt_cur_u8_at(c, ETW_TH_CLASS_LEVEL), evt_cur_u16le_at(c, ETW_TH_CLASS_VERSION),
                      evt_cur_u32le_at(c, ETW_TH_PROCESS_ID), evt_cur_u32le_at(c, ETW_TH_THREAD_ID),
                      evt_cur_u32le_at(c, ETW_TH_KERNEL_TIME), evt_cur_u32le_at(c, ETW_TH_USER_TIME), ht);
        return;
    }
    uint64_t key = ETW_NAME_CLASSIC | (uint64_t)is_et << 8 | type;
    ev->name = evt_name_cache_get(&s->names, key);
    if (!ev->name) {
        char tb[16];
        type_text(tb, sizeof tb, type);
        snprintf(s->name, sizeof s->name, "%s/%s", is_et ? "EventTrace" : "Classic", tb);
        ev->name = keep_name(s, key);
    }
    s->ok_name = ev->name;
    ev->kind = is_et ? EVT_KIND_MARKER : EVT_KIND_USER;
    common_fields(s, ev, guid, evt_cur_u8_at(c, ETW_TH_CLASS_LEVEL), evt_cur_u16le_at(c, ETW_TH_CLASS_VERSION),
                  evt_cur_u32le_at(c, ETW_TH_PROCESS_ID), evt_cur_u32le_at(c, ETW_TH_THREAD_ID),
                  evt_cur_u32le_at(c, ETW_TH_KERNEL_TIME), evt_cur_u32le_at(c, ETW_TH_USER_TIME), ht);
    evt_put_u(ev, "type", type);
    ev->data = evt_cur_take_at(c, ETW_TRACE_HEADER_SIZE, n - ETW_TRACE_HEADER_SIZE);
    ev->data_len = ev->data ? n - ETW_TRACE_HEADER_SIZE : 0;
    if (!is_et) (void)etw_user_record(s, guid, type, c, n, ev); /* evtrace/user.h: the text, value... */
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

static void decode_event(etw_state *s, evt_cur *c, uint32_t n, unsigned ht, uint64_t off, evt_event *ev)
{
    const uint8_t *guid = evt_cur_take_at(c, ETW_EH_PROVIDER_ID, 16);
    if (!guid) guid = k_no_guid; /* the walk checked the size: cannot happen */
    unsigned flags = evt_cur_u16le_at(c, ETW_EH_FLAGS);
    unsigned id = evt_cur_u16le_at(c, ETW_EH_ID);
    etw_count_provider(s, guid);
    etw_set_time(s, ev, evt_cur_u64le_at(c, ETW_EH_TIMESTAMP));
    ev->id = id;
    ev->kind = EVT_KIND_USER;
    common_fields(s, ev, guid, evt_cur_u8_at(c, ETW_EH_LEVEL), evt_cur_u8_at(c, ETW_EH_VERSION), evt_cur_u32le_at(c, ETW_EH_PROCESS_ID),
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
    const etw_buf *b = &s->bufs[st->cur_buf];
    uint32_t n = it->size;
    unsigned fixed, size_at, ts_at;
    int family;
    uint64_t off = st->compressed ? b->off : b->off + ETW_BUFFER_HEADER_SIZE + it->pos;
    if (!etw_header_type_info(it->htype, &fixed, &size_at, &ts_at, &family)) return 0;
    if (family == ETW_HT_FAM_INSTANCE || family == ETW_HT_FAM_MESSAGE || family == ETW_HT_FAM_UNKNOWN) {
        s->skipped++;
        return 0;
    }
    evt_cur bc, c; /* the buffer's decoded records (base 0); the record (the walk checked it lies inside) */
    evt_cur_init(&bc, st->data, st->len, 0, 0);
    evt_cur_at(&bc, it->pos);
    evt_cur_sub(&bc, n, &c);
    ev->offset = off;
    ev->flags |= EVT_HAS_CPU;
    ev->cpu = b->proc;
    s->ok_name = NULL;
    switch (family) {
    case ETW_HT_FAM_SYSTEM:
    case ETW_HT_FAM_PERFINFO: decode_system(s, &c, n, it->htype, family, ev); break;
    case ETW_HT_FAM_FULL: decode_full(s, &c, n, it->htype, ev); break;
    default: decode_event(s, &c, n, it->htype, off, ev); break;
    }
    evt_put_u(ev, "size", n);
    if (st->compressed) evt_put_u(ev, "buffer_pos", ETW_BUFFER_HEADER_SIZE + it->pos);
    evt_vouch(ev, EVT_TEXT_OK_NAME, ev->name, s->ok_name); /* the cache's names are built here */
    return 1;
}
