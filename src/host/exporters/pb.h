/* A minimal protobuf wire-format writer for the Perfetto exporter (hand-written on purpose: the
 * few fields we emit need only varints, fixed64/double and length-delimited fields, and writing them directly
 * keeps the exporter dependency-free, streaming and allocation-stable; see docs/exports.md).
 *
 * Messages are built bottom-up: encode a child message into its own evt_pb, then append it to the
 * parent with evt_pb_msg(). Buffers are reused (evt_pb_clear) so memory stays constant. */
#ifndef EVT_EXPORTERS_PB_H
#define EVT_EXPORTERS_PB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct evt_pb {
    uint8_t *p;     /* bytes */
    size_t n;       /* used */
    size_t cap;     /* allocated */
    int oom;        /* sticky: an allocation failed */
} evt_pb;

static inline void evt_pb_clear(evt_pb *b) { b->n = 0; }
void evt_pb_free(evt_pb *b);
/* Field encoders (wire types: 0 varint, 1 64-bit little-endian, 2 length-delimited). */
void evt_pb_key_slow_(evt_pb *b, uint64_t key, uint64_t v); /* evt_pb_key_ when it must grow */
/* Two varints: a field key (field << 3 | wire type) and a value; inline while 20 bytes (two
 * maximal varints) are free. */
static inline void evt_pb_key_(evt_pb *b, uint64_t key, uint64_t v)
{
    if (b->cap - b->n < 20) { evt_pb_key_slow_(b, key, v); return; }
    uint8_t *p = b->p + b->n;
    uint64_t k = key;
    while (k >= 0x80) { *p++ = (uint8_t)(k | 0x80); k >>= 7; }
    *p++ = (uint8_t)k;
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    b->n = (size_t)(p - b->p);
}
/* uint32/uint64/enum/bool */
static inline void evt_pb_uint(evt_pb *b, uint32_t field, uint64_t v) { evt_pb_key_(b, (uint64_t)field << 3, v); }
/* int32/int64 (two's complement varint) */
static inline void evt_pb_int(evt_pb *b, uint32_t field, int64_t v) { evt_pb_uint(b, field, (uint64_t)v); }
void evt_pb_fixed64(evt_pb *b, uint32_t field, uint64_t v); /* fixed64 */
void evt_pb_double(evt_pb *b, uint32_t field, double v);    /* double (IEEE 754 binary64) */
void evt_pb_bytes_slow_(evt_pb *b, uint32_t field, const void *s, size_t n); /* evt_pb_bytes when it must grow */
/* string/bytes: inline while the key, the length and the bytes fit. */
static inline void evt_pb_bytes(evt_pb *b, uint32_t field, const void *s, size_t n)
{
    if (b->cap - b->n < 20 + n) { evt_pb_bytes_slow_(b, field, s, n); return; }
    evt_pb_key_(b, ((uint64_t)field << 3) | 2, n);
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
}
void evt_pb_str(evt_pb *b, uint32_t field, const char *s); /* NUL-terminated string */
/* embedded message */
static inline void evt_pb_msg(evt_pb *b, uint32_t field, const evt_pb *child)
{
    if (child->oom) b->oom = 1;
    evt_pb_bytes(b, field, child->p, child->n);
}
/* An embedded message written in place (no child buffer, no copy): evt_pb_open writes the tag
 * and a one-byte length and returns where the message starts; the fields follow; evt_pb_close
 * sets the length (moving the fields when it needs more than one varint byte). The bytes equal
 * those of evt_pb_msg with the same fields in a child. Opens may nest (closed innermost first). */
static inline size_t evt_pb_open(evt_pb *b, uint32_t field)
{
    evt_pb_key_(b, ((uint64_t)field << 3) | 2, 0); /* tag, length-delimited, and a 1-byte length 0 */
    return b->oom ? 0 : b->n;
}
void evt_pb_close_slow_(evt_pb *b, size_t at); /* evt_pb_close for a length over 127 */
static inline void evt_pb_close(evt_pb *b, size_t at)
{
    if (b->oom || !at) { b->oom = 1; return; }
    size_t len = b->n - at;
    if (len < 0x80) { b->p[at - 1] = (uint8_t)len; return; }
    evt_pb_close_slow_(b, at);
}
/* Room for `more` bytes past b->n (growing the buffer when it must); 0 when out of memory (sticky
 * b->oom). Callers then write up to `more` bytes at b->p + b->n themselves and advance b->n. */
int evt_pb_grow_(evt_pb *b, size_t more);
static inline int evt_pb_reserve(evt_pb *b, size_t more) { return b->cap - b->n >= more ? 1 : evt_pb_grow_(b, more); }
/* Append already-encoded fields (concatenated fields are a valid message; repeated fields add up). */
void evt_pb_append(evt_pb *b, const evt_pb *fields);

#endif
