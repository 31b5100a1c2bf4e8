/* ClickHouse RowBinary encoding (clickhouse_rowbinary.h). Bytes are written one by one from the
 * value, so the output is little-endian whatever the host. */
#include "clickhouse_rowbinary.h"

#include <string.h>
#include "evtrace/alloc.h"

/* Room for n more bytes; 0 (and oom set) when memory ran out. */
static int room_(evt_rb_buf *b, size_t n)
{
    if (b->oom) return 0;
    if (b->cap - b->n >= n) return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->n < n) cap *= 2;
    unsigned char *p = evt_realloc(b->p, cap);
    if (!p) { b->oom = 1; return 0; }
    b->p = p;
    b->cap = cap;
    return 1;
}

void evt_rb_varint(evt_rb_buf *b, uint64_t v)
{
    if (!room_(b, 10)) return;
    do {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7;
        b->p[b->n++] = (unsigned char)(c | (v ? 0x80 : 0));
    } while (v);
}

static void le64_(evt_rb_buf *b, uint64_t v)
{
    if (!room_(b, 8)) return;
    for (int i = 0; i < 8; i++) b->p[b->n++] = (unsigned char)(v >> (8 * i));
}

void evt_rb_i64(evt_rb_buf *b, int64_t v) { le64_(b, (uint64_t)v); }

void evt_rb_f64(evt_rb_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u); /* IEEE 754 binary64 bits */
    le64_(b, u);
}

void evt_rb_string(evt_rb_buf *b, const char *s, size_t n)
{
    evt_rb_varint(b, n);
    evt_rb_bytes(b, s, n);
}

void evt_rb_bytes(evt_rb_buf *b, const void *p, size_t n)
{
    if (!room_(b, n)) return;
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

int evt_rb_null_flag(evt_rb_buf *b, int is_null)
{
    if (room_(b, 1)) b->p[b->n++] = is_null ? 1 : 0;
    return !is_null;
}

void evt_rb_string_array(evt_rb_buf *b, const char *const *s, size_t n)
{
    evt_rb_varint(b, n);
    for (size_t i = 0; i < n; i++) evt_rb_string(b, s[i], strlen(s[i]));
}

void evt_rb_reset(evt_rb_buf *b) { b->n = 0; }

void evt_rb_free(evt_rb_buf *b)
{
    evt_free(b->p);
    memset(b, 0, sizeof *b);
}
