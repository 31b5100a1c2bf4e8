/* .etl reader helpers: header-type facts and names from etw_defs.h, GUID text, UTF-16 names,
 * provider counting and the raw-clock to nanoseconds conversion. */
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"
#include "formats/etw/etw_dec.h"

const etw_ht_desc etw_ht_descs[256] = {
#define ETW_HT_NEED_(fx, fam) (ETW_HT_SKIPPED_(fam) ? 8 : (fx))
#define ETW_HT_SKIPPED_(fam) ((fam) == ETW_HT_FAM_INSTANCE || (fam) == ETW_HT_FAM_MESSAGE)
#define ETW_HT_WALK_(fam) ((fam) == ETW_HT_FAM_UNKNOWN ? ETW_WALK_NONE : (fam) == ETW_HT_FAM_PERFINFO ? ETW_WALK_PERFINFO \
                           : ETW_HT_SKIPPED_(fam) ? ETW_WALK_SKIPPED : ETW_WALK_FIXED)
#define ETW_HT_DESC_(v, n, fx, szo, tso, fam) [v] = {fx, szo, tso, fam, ETW_HT_NEED_(fx, fam), ETW_HT_WALK_(fam), #n},
    ETW_HEADER_TYPE_TABLE(ETW_HT_DESC_)
#undef ETW_HT_DESC_
};
/* ETW_WALK_FIXED: a record of at least `need` bytes holds its size and timestamp (the walk reads
 * them from the `need` bytes it took); a classic record's `need` is its whole EVENT_TRACE_HEADER */
#define ETW_HT_TS_CHECK_(v, n, fx, szo, tso, fam) \
    _Static_assert(ETW_HT_WALK_(fam) != ETW_WALK_FIXED || (tso) + 8 <= ETW_HT_NEED_(fx, fam), #n ": timestamp outside the fixed header"); \
    _Static_assert(ETW_HT_WALK_(fam) != ETW_WALK_FIXED || (szo) + 2 <= ETW_HT_NEED_(fx, fam), #n ": size outside the fixed header"); \
    _Static_assert((fam) != ETW_HT_FAM_FULL || (fx) == ETW_TRACE_HEADER_SIZE, #n ": a classic record's fixed header is an EVENT_TRACE_HEADER");
ETW_HEADER_TYPE_TABLE(ETW_HT_TS_CHECK_)
#undef ETW_HT_TS_CHECK_
#undef ETW_HT_WALK_
#undef ETW_HT_NEED_
#undef ETW_HT_SKIPPED_

const char *etw_clock_name(uint32_t c)
{
    switch (c) {
#define ETW_CLK_NAME_(v, n, str) case v: return str;
        ETW_CLOCK_TABLE(ETW_CLK_NAME_)
#undef ETW_CLK_NAME_
    default: return "unknown";
    }
}

void etw_guid_str(const uint8_t g[16], char out[37])
{
    static const char hex[] = "0123456789abcdef";
    /* Data1..Data3 are little-endian numbers, Data4 is bytes in order. */
    static const uint8_t order[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        uint8_t b = g[order[i]];
        out[o++] = hex[b >> 4];
        out[o++] = hex[b & 15];
    }
    out[o] = 0;
}

void etw_known_guid(int which, uint8_t out[16])
{
    static const struct { uint32_t d1; uint16_t d2, d3; uint8_t d4[8]; } k[] = {
#define ETW_GUID_ROW_(n, str, a, b, c, e0, e1, e2, e3, e4, e5, e6, e7) {a, b, c, {e0, e1, e2, e3, e4, e5, e6, e7}},
        ETW_GUID_TABLE(ETW_GUID_ROW_)
#undef ETW_GUID_ROW_
    };
    evt_put_u32le(out, k[which].d1);
    evt_put_u16le(out + 4, k[which].d2);
    evt_put_u16le(out + 6, k[which].d3);
    memcpy(out + 8, k[which].d4, 8);
}

static void put_utf8(char *out, size_t cap, size_t *o, uint32_t cp)
{
    uint8_t b[4];
    size_t n;
    if (cp < 0x80) { b[0] = (uint8_t)cp; n = 1; }
    else if (cp < 0x800) { b[0] = (uint8_t)(0xC0 | (cp >> 6)); b[1] = (uint8_t)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12)); b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18)); b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (uint8_t)(0x80 | (cp & 0x3F)); n = 4;
    }
    if (*o + n >= cap) return;
    memcpy(out + *o, b, n);
    *o += n;
}

size_t etw_utf16_to_utf8(const uint8_t *p, size_t n, char *out, size_t cap)
{
    evt_cur c;
    evt_cur_init(&c, p, n, 0, 0);
    size_t o = 0;
    while (evt_cur_left(&c) >= 2) {
        uint32_t u = evt_cur_u16le(&c);
        if (u == 0) { out[o] = 0; return c.pos; }
        if (u >= 0xD800 && u < 0xDC00 && evt_cur_left(&c) >= 2) {
            size_t at = c.pos;
            uint32_t lo = evt_cur_u16le(&c);
            if (lo >= 0xDC00 && lo < 0xE000) u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            else { u = 0xFFFD; evt_cur_at(&c, at); } /* an unpaired high surrogate: lo is read next */
        } else if (u >= 0xD800 && u < 0xE000) {
            u = 0xFFFD;
        }
        put_utf8(out, cap, &o, u);
    }
    out[o] = 0;
    return n;
}

static uint32_t prov_slot(const etw_state *s, const uint8_t g[16])
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (int i = 0; i < 16; i++) h = (h ^ g[i]) * 16777619u;
    return h & (s->prov_hcap - 1);
}

/* Rebuild the provider hash at twice the size; 0 when memory is short. */
static int prov_rehash(etw_state *s)
{
    uint32_t nc = s->prov_hcap ? s->prov_hcap * 2 : 64;
    uint32_t *slots = evt_calloc(nc, sizeof *slots);
    if (!slots) return 0;
    evt_free(s->prov_hash);
    s->prov_hash = slots;
    s->prov_hcap = nc;
    for (uint32_t i = 0; i < s->nprov; i++) {
        uint32_t k = prov_slot(s, s->prov[i].guid);
        while (slots[k]) k = (k + 1) & (nc - 1);
        slots[k] = i + 1;
    }
    return 1;
}

/* The ETW_PK_* bits of a GUID. */
static uint8_t known_bits(const uint8_t g[16])
{
    enum {
#define ETW_KIDX_(n, str, ...) ETW_KIDX_##n,
        ETW_GUID_TABLE(ETW_KIDX_)
#undef ETW_KIDX_
    };
    static const struct { int idx; uint8_t bit; } k[] = {
        {ETW_KIDX_EVENT_TRACE, ETW_PK_EVENT_TRACE}, {ETW_KIDX_EVTRACE_LOSS, ETW_PK_LOSS}, {ETW_KIDX_EVTRACE_USER, ETW_PK_USER},
    };
    uint8_t bits = 0, want[16];
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        etw_known_guid(k[i].idx, want);
        if (memcmp(g, want, 16) == 0) bits |= k[i].bit;
    }
    return bits;
}

static void prov_fill(etw_provider *p, const uint8_t g[16], uint64_t count)
{
    memcpy(p->guid, g, 16);
    p->count = count;
    etw_guid_str(g, p->text);
    p->known = known_bits(g);
}

/* A provider not counted: its entry is rebuilt unless it is the one kept there already. */
static const etw_provider *prov_other(etw_state *s, const uint8_t g[16])
{
    if (s->prov_other.text[0] == 0 || memcmp(s->prov_other.guid, g, 16) != 0) prov_fill(&s->prov_other, g, 0);
    return &s->prov_other;
}

const etw_provider *etw_count_provider_slow(etw_state *s, const uint8_t g[16])
{
    if (s->prov_hcap <= 2 * s->nprov + 2 && !prov_rehash(s)) {
        evt_reader_error(s->r, 0, "out of memory counting providers");
        return prov_other(s, g);
    }
    uint32_t k = prov_slot(s, g);
    for (; s->prov_hash[k]; k = (k + 1) & (s->prov_hcap - 1)) {
        uint32_t i = s->prov_hash[k] - 1;
        if (memcmp(s->prov[i].guid, g, 16) == 0) { s->prov[i].count++; return s->prov_last = &s->prov[i]; }
    }
    if (s->nprov >= ETW_MAX_PROVIDERS) { s->prov_untracked++; return prov_other(s, g); }
    if (s->nprov == s->capprov) {
        uint32_t nc = s->capprov ? s->capprov * 2 : 16;
        etw_provider *n = evt_realloc(s->prov, nc * sizeof *n);
        if (!n) { evt_reader_error(s->r, 0, "out of memory counting providers"); return prov_other(s, g); }
        s->prov = n; /* prov_last is set below */
        s->capprov = nc;
    }
    prov_fill(&s->prov[s->nprov], g, 1);
    s->prov_hash[k] = s->nprov + 1;
    return s->prov_last = &s->prov[s->nprov++];
}

uint64_t etw_ticks_to_ns_div(uint64_t delta, uint64_t hz)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 v = (unsigned __int128)delta * 1000000000u / hz;
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
#else
    uint64_t q = delta / hz, rem = delta % hz;
    return q * 1000000000u + (uint64_t)((long double)rem * 1e9L / (long double)hz);
#endif
}

void etw_time_init(etw_state *s)
{
    s->time_ok = s->hz && s->start_time >= ETW_FILETIME_UNIX_EPOCH;
    if (!s->time_ok) return;
    s->start_ns = (s->start_time - ETW_FILETIME_UNIX_EPOCH) * 100u;
#ifdef __SIZEOF_INT128__
    unsigned __int128 f = ((unsigned __int128)1000000000u << 64) / s->hz;
    unsigned __int128 m = ((unsigned __int128)1 << 63) * s->hz / 1000000000u;
    s->ns_hi = (uint64_t)(f >> 64);
    s->ns_lo = (uint64_t)f;
    s->ns_fast_max = m > UINT64_MAX ? UINT64_MAX : (uint64_t)m;
    if (s->hz > (1ull << 63)) { /* the fast case's remainder (below 2 * hz) would not fit 64 bits */
        s->ns_fast_max = 0;
        s->ns_fast_lim = 0;
        return;
    }
    /* the fast case of etw_set_time: a result of at most min(2^63, UINT64_MAX - start_ns) */
    uint64_t room = UINT64_MAX - s->start_ns, cap = room < (1ull << 63) ? room : (1ull << 63);
    unsigned __int128 lim = (unsigned __int128)cap * s->hz / 1000000000u + 1u;
    unsigned __int128 after = ((unsigned __int128)1 << 64) - s->t0; /* ts - t0 of any ts >= t0 is below */
    if (lim > after) lim = after;
    s->ns_fast_lim = lim > UINT64_MAX ? UINT64_MAX : (uint64_t)lim;
#else
    s->ns_fast_max = 0; /* every delta takes the division */
#endif
}

void etw_set_time_slow(const etw_state *s, evt_event *ev, uint64_t ts)
{
    ev->ts = ts;
    if (!s->time_ok) return;
    uint64_t ns;
    if (ts >= s->t0) {
        uint64_t d = etw_ticks_to_ns(s, ts - s->t0);
        if (d > UINT64_MAX - s->start_ns) return;
        ns = s->start_ns + d;
    } else {
        uint64_t d = etw_ticks_to_ns(s, s->t0 - ts);
        if (d > s->start_ns) return;
        ns = s->start_ns - d;
    }
    ev->t_ns = ns;
    ev->flags |= EVT_HAS_TNS;
}
