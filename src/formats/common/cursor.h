/* Bounded byte cursor for readers: field-by-field reads with explicit endianness and a sticky
 * error. A read past the end sets the error (with the absolute offset of the failed read), returns
 * 0, and makes every later read a no-op; check evt_cur_ok() once per record. */
#ifndef EVT_CURSOR_H
#define EVT_CURSOR_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "formats/common/bytes.h"
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h> /* evt_cur_span_not2_sum8 */
#endif

typedef struct evt_cur {
    const uint8_t *p;   /* bytes */
    size_t len;         /* number of bytes at p */
    size_t pos;         /* next byte to read, relative to p */
    uint64_t base;      /* absolute source offset of p[0] (for messages) */
    int big;            /* default byte order for evt_cur_u16/u32/u64 */
    int err;            /* sticky: set once a read went past the end */
    uint64_t err_off;   /* absolute offset of the first failed read */
} evt_cur;

static inline void evt_cur_init(evt_cur *c, const void *p, size_t len, uint64_t base, int big)
{
    c->p = (const uint8_t *)p; c->len = len; c->pos = 0; c->base = base; c->big = big;
    c->err = 0; c->err_off = 0;
}
static inline int evt_cur_ok(const evt_cur *c) { return !c->err; }
static inline size_t evt_cur_left(const evt_cur *c) { return c->err ? 0 : c->len - c->pos; }
static inline uint64_t evt_cur_offset(const evt_cur *c) { return c->base + c->pos; }
/* The bytes left (evt_cur_left of them) in place, without moving: for a scanner that reads within
 * them and then takes what it used. */
static inline const uint8_t *evt_cur_here(const evt_cur *c) { return c->p + c->pos; }

/* Returns a pointer to n readable bytes and advances, or NULL (and sets the error). */
static inline const uint8_t *evt_cur_take(evt_cur *c, size_t n)
{
    if (c->err) return NULL;
    if (n > c->len - c->pos) { c->err = 1; c->err_off = c->base + c->pos; return NULL; }
    const uint8_t *q = c->p + c->pos;
    c->pos += n;
    return q;
}
static inline int evt_cur_skip(evt_cur *c, size_t n) { return evt_cur_take(c, n) != NULL; }
/* Text scanning: the byte k ahead of the position without consuming it, or -1 past the end (no
 * error: running out of a line is how a text scanner finds its end). */
static inline int evt_cur_peek_at(const evt_cur *c, size_t k)
{
    return (!c->err && k < c->len - c->pos) ? c->p[c->pos + k] : -1;
}
static inline int evt_cur_peek(const evt_cur *c) { return evt_cur_peek_at(c, 0); }
/* Move to position pos (relative to p); a position past the end sets the error. */
static inline int evt_cur_at(evt_cur *c, size_t pos)
{
    if (c->err) return 0;
    if (pos > c->len) { c->err = 1; c->err_off = c->base + c->len; return 0; }
    c->pos = pos;
    return 1;
}
static inline uint8_t evt_cur_u8(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 1); return q ? q[0] : 0; }
static inline uint16_t evt_cur_u16le(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 2); return q ? evt_ld_u16le(q) : 0; }
static inline uint16_t evt_cur_u16be(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 2); return q ? evt_ld_u16be(q) : 0; }
static inline uint32_t evt_cur_u32le(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 4); return q ? evt_ld_u32le(q) : 0; }
static inline uint32_t evt_cur_u32be(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 4); return q ? evt_ld_u32be(q) : 0; }
static inline uint64_t evt_cur_u64le(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 8); return q ? evt_ld_u64le(q) : 0; }
static inline uint64_t evt_cur_u64be(evt_cur *c) { const uint8_t *q = evt_cur_take(c, 8); return q ? evt_ld_u64be(q) : 0; }
/* A field at position pos (relative to p): seek, then read. For records parsed by a table of field
 * offsets; the same sticky error past the end. */
static inline uint8_t evt_cur_u8_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u8(c) : 0; }
static inline uint16_t evt_cur_u16le_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u16le(c) : 0; }
static inline uint32_t evt_cur_u32le_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u32le(c) : 0; }
static inline uint64_t evt_cur_u64le_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u64le(c) : 0; }
static inline uint16_t evt_cur_u16be_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u16be(c) : 0; }
static inline uint32_t evt_cur_u32be_at(evt_cur *c, size_t pos) { return evt_cur_at(c, pos) ? evt_cur_u32be(c) : 0; }
/* n bytes at position pos, or NULL (sets the error). */
static inline const uint8_t *evt_cur_take_at(evt_cur *c, size_t pos, size_t n) { return evt_cur_at(c, pos) ? evt_cur_take(c, n) : NULL; }
/* A cursor over the next n bytes of c (its base = their offset), advancing c. On a short read c's
 * error is set and sub is empty with its error set too. */
static inline int evt_cur_sub(evt_cur *c, size_t n, evt_cur *sub)
{
    uint64_t off = evt_cur_offset(c);
    const uint8_t *q = evt_cur_take(c, n);
    evt_cur_init(sub, q, q ? n : 0, off, c->big);
    if (!q) { sub->err = 1; sub->err_off = off; }
    return q != NULL;
}
/* In the cursor's own byte order. */
static inline uint16_t evt_cur_u16(evt_cur *c) { return c->big ? evt_cur_u16be(c) : evt_cur_u16le(c); }
static inline uint32_t evt_cur_u32(evt_cur *c) { return c->big ? evt_cur_u32be(c) : evt_cur_u32le(c); }
/* n words in the cursor's byte order into w, one bounds check (on a short read: zeros, error set). */
static inline void evt_cur_u32s(evt_cur *c, uint32_t *w, size_t n)
{
    const uint8_t *q = evt_cur_take(c, 4 * n);
    if (!q) for (size_t i = 0; i < n; i++) w[i] = 0;
    else if (c->big) for (size_t i = 0; i < n; i++) w[i] = evt_ld_u32be(q + 4 * i);
    else for (size_t i = 0; i < n; i++) w[i] = evt_ld_u32le(q + 4 * i);
}
/* Sum of the next n bytes, advancing (a checksum); 0 with the error set on a short read. Eight
 * bytes a step: byte pairs summed in four 16-bit lanes (at most 510 a step, so 64 steps fit). */
static inline unsigned evt_cur_sum8(evt_cur *c, size_t n)
{
    const uint8_t *q = evt_cur_take(c, n);
    unsigned sum = 0;
    size_t i = 0;
    if (!q) return 0;
    while (n - i >= 8) {
        uint64_t lanes = 0;
        for (size_t k = 0; k < 64 && n - i >= 8; k++, i += 8) {
            uint64_t x;
            memcpy(&x, q + i, 8); /* byte order does not matter to a sum */
            lanes += (x & 0x00FF00FF00FF00FFull) + ((x >> 8) & 0x00FF00FF00FF00FFull);
        }
        sum += (unsigned)((lanes & 0xFFFF) + ((lanes >> 16) & 0xFFFF) + ((lanes >> 32) & 0xFFFF) + (lanes >> 48));
    }
    for (; i < n; i++) sum += q[i];
    return sum;
}
/* Bytes from the position (at most max) before the first byte equal to a or b; no move. */
static inline size_t evt_cur_span_not2(const evt_cur *c, uint8_t a, uint8_t b, size_t max)
{
    size_t left = evt_cur_left(c), k = 0, lim = left < max ? left : max;
    const uint8_t *q = c->p + c->pos;
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    for (; lim - k >= 8; k += 8) { /* eight bytes a step: a zero byte of x ^ a or x ^ b stops it */
        uint64_t x, ya, yb, hit;
        memcpy(&x, q + k, 8);
        ya = x ^ (ones * a);
        yb = x ^ (ones * b);
        hit = ((ya - ones) & ~ya & high) | ((yb - ones) & ~yb & high);
        if (hit) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            /* the lowest flagged byte is the first match (only bytes above one can be false) */
            return k + (size_t)__builtin_ctzll(hit) / 8u;
#else
            break;
#endif
        }
    }
    while (k < lim && q[k] != a && q[k] != b) k++;
    return k;
}
static inline uint64_t evt_cur_u64(evt_cur *c) { return c->big ? evt_cur_u64be(c) : evt_cur_u64le(c); }
/* evt_cur_span_not2 that also sums the bytes it passes: their sum mod 256 in *sum (a framer that
 * checks a checksum in the same pass). Sixteen bytes a step where the host has SSE2, else byte by
 * byte. */
static inline size_t evt_cur_span_not2_sum8(const evt_cur *c, uint8_t a, uint8_t b, size_t max, unsigned *sum)
{
    size_t left = evt_cur_left(c), k = 0, lim = left < max ? left : max;
    const uint8_t *q = c->p + c->pos;
    unsigned tot = 0;
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), zero = _mm_setzero_si128();
    __m128i acc = zero; /* psadbw: the byte sums in two 64-bit lanes */
    for (; lim - k >= 16; k += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(q + k));
        unsigned hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)));
        if (hit) {
            unsigned j = (unsigned)__builtin_ctz(hit); /* the first a or b */
            const __m128i idx = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            x = _mm_and_si128(x, _mm_cmplt_epi8(idx, _mm_set1_epi8((char)j))); /* the bytes before it */
            acc = _mm_add_epi64(acc, _mm_sad_epu8(x, zero));
            tot += (unsigned)_mm_cvtsi128_si32(acc) + (unsigned)_mm_cvtsi128_si32(_mm_unpackhi_epi64(acc, acc));
            *sum = tot & 0xFFu;
            return k + j;
        }
        acc = _mm_add_epi64(acc, _mm_sad_epu8(x, zero));
    }
    tot += (unsigned)_mm_cvtsi128_si32(acc) + (unsigned)_mm_cvtsi128_si32(_mm_unpackhi_epi64(acc, acc));
#endif
    for (; k < lim && q[k] != a && q[k] != b; k++) tot += q[k];
    *sum = tot & 0xFFu;
    return k;
}

/* A checked span: n bytes whose length was checked once (evt_cur_take_span), so that reads at
 * fixed offsets inside them need no check of their own. Contract of every evt_span_* read: the
 * field lies inside the span (off + its width <= len: the caller checked the length that makes it
 * so, e.g. a record's length against its layout); asserted in debug builds. An empty span (len 0,
 * p NULL) is what a short take gives. */
typedef struct evt_span {
    const uint8_t *p; /* bytes */
    size_t len;       /* number of bytes at p */
} evt_span;

/* The next n bytes of c as a span, advancing (one bound check); on a short read an empty span and
 * c's error set. */
static inline evt_span evt_cur_take_span(evt_cur *c, size_t n)
{
    const uint8_t *q = evt_cur_take(c, n);
    evt_span sp = {q, q ? n : 0};
    return sp;
}
static inline uint8_t evt_span_u8(evt_span sp, size_t off) { assert(off < sp.len); return sp.p[off]; }
static inline uint16_t evt_span_u16le(evt_span sp, size_t off) { assert(off + 2 <= sp.len); return evt_ld_u16le(sp.p + off); }
static inline uint32_t evt_span_u32le(evt_span sp, size_t off) { assert(off + 4 <= sp.len); return evt_ld_u32le(sp.p + off); }
static inline uint64_t evt_span_u64le(evt_span sp, size_t off) { assert(off + 8 <= sp.len); return evt_ld_u64le(sp.p + off); }
/* The n-byte (1, 2, 4 or 8; else 0) little-endian value at off: fields whose width is configured. */
static inline uint64_t evt_span_le(evt_span sp, size_t off, unsigned n)
{
    switch (n) {
    case 1: return evt_span_u8(sp, off);
    case 2: return evt_span_u16le(sp, off);
    case 4: return evt_span_u32le(sp, off);
    case 8: return evt_span_u64le(sp, off);
    default: return 0;
    }
}
/* A cursor over the n bytes at off of the span (off + n <= len), its base the absolute offset base
 * of the span's first byte plus off: a part read field by field with checks. */
static inline void evt_span_cur(evt_span sp, size_t off, size_t n, uint64_t base, evt_cur *c)
{
    assert(off <= sp.len && n <= sp.len - off);
    evt_cur_init(c, sp.p + off, n, base + off, 0);
}

/* evt_cur_span_not2_sum8 over the whole 16-byte steps of what is left only (SSE2 hosts; none
 * elsewhere): the bytes from the position before the first a or b, their sum mod 256 in *sum; or
 * evt_cur_left (and *sum unset) when no a or b lies in those steps (the caller then scans the rest
 * with evt_cur_span_not2_sum8). No move. The short scan of a framer's usual case. */
static inline size_t evt_cur_span16_not2_sum8(const evt_cur *c, uint8_t a, uint8_t b, unsigned *sum)
{
    size_t left = evt_cur_left(c);
#if defined(__SSE2__) && defined(__GNUC__)
    /* lead + 16 - j: j bytes of 0xFF then zeros, the mask of the bytes before the first match */
    static const uint8_t lead[32] = {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    const uint8_t *q = c->p + c->pos;
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), zero = _mm_setzero_si128();
    __m128i acc = zero; /* psadbw: byte sums in two 64-bit lanes */
    for (size_t k = 0; left - k >= 16; k += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(q + k));
        unsigned hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)));
        if (hit) {
            unsigned j = (unsigned)__builtin_ctz(hit);
            x = _mm_and_si128(x, _mm_loadu_si128((const __m128i *)(const void *)(lead + 16 - j))); /* bytes [0, j) */
            acc = _mm_add_epi64(acc, _mm_sad_epu8(x, zero));
            acc = _mm_add_epi64(acc, _mm_unpackhi_epi64(acc, acc));
            *sum = (unsigned)_mm_cvtsi128_si32(acc) & 0xFFu;
            return k + j;
        }
        acc = _mm_add_epi64(acc, _mm_sad_epu8(x, zero));
    }
#else
    (void)a;
    (void)b;
    (void)sum;
#endif
    return left;
}

#endif
