/* MS-XCA plain LZ77 decompressor (see xpress.h). Every read is checked against in_len and every
 * write against out_cap; a match is copied byte by byte because source and target may overlap
 * (offset < length repeats the last `offset` bytes). */
#include "formats/etw/xpress.h"

#include "formats/common/cursor.h"

const char *etw_xpress_message(etw_xpress_status st)
{
    switch (st) {
    case ETW_XPRESS_OK: return "ok";
    case ETW_XPRESS_TRUNCATED: return "compressed data truncated inside a flag word or match";
    case ETW_XPRESS_BAD_OFFSET: return "match offset reaches before the start of the output";
    case ETW_XPRESS_BAD_LENGTH: return "extended match length below its minimum";
    case ETW_XPRESS_OVERFLOW: return "decompressed data larger than the expected size";
    }
    return "unknown error";
}

etw_xpress_status etw_xpress_decompress(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
                                        size_t *out_len, size_t *err_pos)
{
    evt_cur c;               /* the input; c.pos is the input position */
    evt_cur_init(&c, in, in_len, 0, 0);
    size_t op = 0;
    uint32_t flags = 0;
    unsigned nflags = 0;
    uint8_t half_byte = 0;   /* the shared length byte whose high half is still pending */
    int have_half = 0;
    etw_xpress_status st = ETW_XPRESS_OK;
    size_t where = in_len;

    for (;;) {
        if (nflags == 0) {
            if (evt_cur_left(&c) == 0) break;             /* clean end after a full flag word */
            if (evt_cur_left(&c) < 4) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
            flags = evt_cur_u32le(&c);
            nflags = 32;
        }
        nflags--;
        if (((flags >> nflags) & 1u) == 0) {
            if (evt_cur_left(&c) == 0) break;             /* end of data on a literal flag */
            if (op == out_cap) { st = ETW_XPRESS_OVERFLOW; where = c.pos; break; }
            out[op++] = evt_cur_u8(&c);
            continue;
        }
        if (evt_cur_left(&c) == 0) break;                 /* the end marker */
        size_t tok_pos = c.pos;
        if (evt_cur_left(&c) < 2) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
        uint32_t token = evt_cur_u16le(&c);
        size_t offset = (size_t)(token >> 3) + 1;
        uint64_t len = token & 7u;
        if (len == 7) {
            if (!have_half) {
                if (evt_cur_left(&c) == 0) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
                half_byte = evt_cur_u8(&c);
                len = half_byte & 0x0Fu;
                have_half = 1;
            } else {
                len = half_byte >> 4;
                have_half = 0;
            }
            if (len == 15) {
                if (evt_cur_left(&c) == 0) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
                len = evt_cur_u8(&c);
                if (len == 255) {
                    if (evt_cur_left(&c) < 2) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
                    len = evt_cur_u16le(&c);
                    if (len == 0) {
                        if (evt_cur_left(&c) < 4) { st = ETW_XPRESS_TRUNCATED; where = c.pos; break; }
                        len = evt_cur_u32le(&c);
                    }
                    if (len < 15 + 7) { st = ETW_XPRESS_BAD_LENGTH; where = tok_pos; break; }
                    len -= 15 + 7;
                }
                len += 15;
            }
            len += 7;
        }
        len += 3;
        if (offset > op) { st = ETW_XPRESS_BAD_OFFSET; where = tok_pos; break; }
        if (len > (uint64_t)(out_cap - op)) { st = ETW_XPRESS_OVERFLOW; where = tok_pos; break; }
        const uint8_t *src = out + op - offset;
        for (size_t i = 0; i < (size_t)len; i++) out[op + i] = src[i];
        op += (size_t)len;
    }
    *out_len = op;
    if (err_pos) *err_pos = where;
    return st;
}
