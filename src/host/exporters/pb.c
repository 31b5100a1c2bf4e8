/* Protobuf wire-format writer (varints, 64-bit fixed fields and length-delimited fields only). */
#include "pb.h"

#include <string.h>
#include "evtrace/alloc.h"

void evt_pb_free(evt_pb *b)
{
    evt_free(b->p);
    memset(b, 0, sizeof *b);
}

/* Room for `more` bytes: the common case (room left) is inline, growth is out of line. */
static int grow_(evt_pb *b, size_t more)
{
    if (b->oom) return 0;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + more) nc *= 2;
    uint8_t *np = evt_realloc(b->p, nc);
    if (!np) { b->oom = 1; return 0; }
    b->p = np;
    b->cap = nc;
    return 1;
}

static inline int reserve_(evt_pb *b, size_t more)
{
    return b->n + more <= b->cap ? 1 : grow_(b, more);
}

int evt_pb_grow_(evt_pb *b, size_t more) { return reserve_(b, more); }

static inline void varint_(evt_pb *b, uint64_t v)
{
    if (!reserve_(b, 10)) return;
    uint8_t *p = b->p + b->n;
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p++ = (uint8_t)v;
    b->n = (size_t)(p - b->p);
}

void evt_pb_key_slow_(evt_pb *b, uint64_t key, uint64_t v)
{
    varint_(b, key);
    varint_(b, v);
}

void evt_pb_close_slow_(evt_pb *b, size_t at)
{
    size_t len = b->n - at, extra = 0;
    for (uint64_t v = len; v >= 0x80; v >>= 7) extra++;
    if (!reserve_(b, extra)) return;
    memmove(b->p + at + extra, b->p + at, len);
    uint8_t *p = b->p + at - 1;
    uint64_t v = len;
    while (v >= 0x80) { *p++ = (uint8_t)(v | 0x80); v >>= 7; }
    *p = (uint8_t)v;
    b->n += extra;
}

void evt_pb_fixed64(evt_pb *b, uint32_t field, uint64_t v)
{
    varint_(b, ((uint64_t)field << 3) | 1);
    if (!reserve_(b, 8)) return;
    for (int i = 0; i < 8; i++) b->p[b->n++] = (uint8_t)(v >> (8 * i)); /* little-endian */
}

void evt_pb_double(evt_pb *b, uint32_t field, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits); /* the host's binary64 bits, written little-endian */
    evt_pb_fixed64(b, field, bits);
}

void evt_pb_bytes_slow_(evt_pb *b, uint32_t field, const void *s, size_t n)
{
    varint_(b, ((uint64_t)field << 3) | 2);
    varint_(b, n);
    if (!reserve_(b, n)) return;
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
}

void evt_pb_str(evt_pb *b, uint32_t field, const char *s) { evt_pb_bytes(b, field, s, strlen(s)); }

void evt_pb_append(evt_pb *b, const evt_pb *fields)
{
    if (fields->oom) b->oom = 1;
    if (!fields->n || !reserve_(b, fields->n)) return;
    memcpy(b->p + b->n, fields->p, fields->n);
    b->n += fields->n;
}
