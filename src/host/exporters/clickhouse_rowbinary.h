/* ClickHouse RowBinary, field by field, into a growable byte buffer: Int64 and Float64 as 8 bytes
 * little-endian, String as a LEB128 varint length then the bytes, Nullable(T) as one flag byte
 * (1 NULL: nothing follows; 0: the T follows), Array(T) as a varint count then the elements. A
 * row is its columns in the order of the INSERT's column list, nothing between rows. */
#ifndef EVT_CLICKHOUSE_ROWBINARY_H
#define EVT_CLICKHOUSE_ROWBINARY_H

#include <stddef.h>
#include <stdint.h>

typedef struct evt_rb_buf {
    unsigned char *p;
    size_t n, cap;
    int oom; /* an append ran out of memory: the buffer is incomplete */
} evt_rb_buf;

void evt_rb_varint(evt_rb_buf *b, uint64_t v);
void evt_rb_i64(evt_rb_buf *b, int64_t v);
void evt_rb_f64(evt_rb_buf *b, double v);
void evt_rb_string(evt_rb_buf *b, const char *s, size_t n);
/* Bytes already encoded (a prefix shared by rows), as they are. */
void evt_rb_bytes(evt_rb_buf *b, const void *p, size_t n);
/* Nullable prefix: writes the flag; returns 1 when the value follows (not NULL). */
int evt_rb_null_flag(evt_rb_buf *b, int is_null);
/* Array(String) of n elements. */
void evt_rb_string_array(evt_rb_buf *b, const char *const *s, size_t n);
void evt_rb_reset(evt_rb_buf *b);
void evt_rb_free(evt_rb_buf *b);

#endif
