/* Fast pieces of text for the writers that assemble it themselves (the JSON writer, json.c; the
 * query tables' args and fields text, tl_rows.c; Chrome's numbers; dump's text lines and the
 * report's details): a string's bytes checked 8 at a time while they are copied, decimal digits
 * in groups of 8 written two at a time, hex without printf. Header-only (static inline): these
 * run for every field of every event. */
#ifndef EVT_JSON_FAST_H
#define EVT_JSON_FAST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EVT_JF_ONES_ 0x0101010101010101ull
#define EVT_JF_HIGH_ 0x8080808080808080ull

/* Nonzero when a byte of w needs escaping in a JSON string: '"', '\\', a control byte (< 0x20)
 * or DEL, and, when high is EVT_JF_HIGH_ (0: copied as they are), a byte >= 0x80. Exact as a
 * yes/no: a borrow's false bits only follow a true one. */
static inline uint64_t evt_jf_unsafe8_(uint64_t w, uint64_t high)
{
    uint64_t q = w ^ (EVT_JF_ONES_ * '"'), b = w ^ (EVT_JF_ONES_ * '\\'), d = w ^ (EVT_JF_ONES_ * 0x7F);
    uint64_t ctl = (w - EVT_JF_ONES_ * 0x20) & ~w;
    return ((ctl | ((q - EVT_JF_ONES_) & ~q) | ((b - EVT_JF_ONES_) & ~b) | ((d - EVT_JF_ONES_) & ~d)) & EVT_JF_HIGH_) |
           (w & high);
}

/* p[0..n) quoted at o (room: n + 2 bytes) when none of its bytes needs escaping (evt_jf_unsafe8_
 * with high): copied while checked, 8 bytes per step and the last 8 again when n is not a
 * multiple; under 8 bytes two overlapping 4-byte words, under 4 bytes 0, n/2 and n-1 (overlapping
 * bytes are written twice, the same). Returns n + 2, or 0 when a byte needs escaping (the bytes
 * at o are then garbage, not to be committed). */
static inline size_t evt_jf_put_plain_(char *o, const char *p, size_t n, uint64_t high)
{
    char *q = o + 1;
    uint64_t bad;
    if (n >= 8) {
        uint64_t w;
        size_t i = 0;
        bad = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&w, p + i, 8);
            bad |= evt_jf_unsafe8_(w, high);
            memcpy(q + i, &w, 8);
        }
        if (i < n) {
            memcpy(&w, p + n - 8, 8);
            bad |= evt_jf_unsafe8_(w, high);
            memcpy(q + n - 8, &w, 8);
        }
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        bad = evt_jf_unsafe8_((uint64_t)a | (uint64_t)b << 32, high);
        memcpy(q, &a, 4);
        memcpy(q + n - 4, &b, 4);
    } else if (n) {
        unsigned char a = (unsigned char)p[0], b = (unsigned char)p[n / 2], c = (unsigned char)p[n - 1];
        /* the three bytes in a word of 'a's (a byte that needs nothing) */
        bad = evt_jf_unsafe8_((EVT_JF_ONES_ * 'a' & ~0xFFFFFFull) | a | (uint64_t)b << 8 | (uint64_t)c << 16, high);
        q[0] = (char)a;
        q[n / 2] = (char)b;
        q[n - 1] = (char)c;
    } else {
        bad = 0;
    }
    if (bad) return 0;
    o[0] = '"';
    q[n] = '"';
    return n + 2;
}

/* "00".."99": two decimal digits per step. */
static const char evt_jf_d2_[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Exactly 4 (put4) or 8 (put8) decimal digits of x, leading zeros included, at o. */
static inline void evt_jf_put4_(char *o, uint32_t x)
{
    memcpy(o, evt_jf_d2_ + 2 * (x / 100), 2);
    memcpy(o + 2, evt_jf_d2_ + 2 * (x % 100), 2);
}
static inline void evt_jf_put8_(char *o, uint32_t x)
{
    evt_jf_put4_(o, x / 10000);
    evt_jf_put4_(o + 4, x % 10000);
}
/* Decimal v (below 10^4, evt_jf_u4_; below 10^8, evt_jf_u8_) without leading zeros at o;
 * returns its length. */
static inline size_t evt_jf_u4_(char *o, uint32_t v)
{
    if (v < 10) { o[0] = (char)('0' + v); return 1; }
    if (v < 100) { memcpy(o, evt_jf_d2_ + 2 * v, 2); return 2; }
    if (v >= 1000) { evt_jf_put4_(o, v); return 4; }
    o[0] = (char)('0' + v / 100);
    memcpy(o + 1, evt_jf_d2_ + 2 * (v % 100), 2);
    return 3;
}
static inline size_t evt_jf_u8_(char *o, uint32_t v)
{
    if (v < 10000) return evt_jf_u4_(o, v);
    size_t k = evt_jf_u4_(o, v / 10000);
    evt_jf_put4_(o + k, v % 10000);
    return k + 4;
}

/* Decimal v at o (room: 20 bytes); returns its length. Groups of 8 digits (divisions by
 * constants: multiplications), the first without leading zeros. */
static inline size_t evt_jf_u64_(char *o, uint64_t v)
{
    if (v < 100000000) return evt_jf_u8_(o, (uint32_t)v);
    uint64_t hi = v / 100000000;
    uint32_t lo = (uint32_t)(v % 100000000);
    size_t k;
    if (hi < 100000000) {
        k = evt_jf_u8_(o, (uint32_t)hi);
    } else { /* 17..20 digits: hi / 10^8 <= 1844 */
        k = evt_jf_u4_(o, (uint32_t)(hi / 100000000));
        evt_jf_put8_(o + k, (uint32_t)(hi % 100000000));
        k += 8;
    }
    evt_jf_put8_(o + k, lo);
    return k + 8;
}
/* v in lowercase hex without leading zeros (printf's "%" PRIx64) at o (room: 16 bytes); returns
 * its length. */
static inline size_t evt_jf_hex_(char *o, uint64_t v)
{
    static const char hexd[] = "0123456789abcdef";
    char t[16];
    size_t k = sizeof t;
    do {
        t[--k] = hexd[v & 15u];
        v >>= 4;
    } while (v);
    memcpy(o, t + k, sizeof t - k);
    return sizeof t - k;
}

#endif
