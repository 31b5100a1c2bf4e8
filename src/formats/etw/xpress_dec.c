/* MS-XCA plain LZ77 decompressor (see xpress.h). Every read is checked against in_len and every
 * write against out_cap; a match is copied byte by byte because source and target may overlap
 * (offset < length repeats the last `offset` bytes). */
#include "formats/etw/xpress.h"

#include "formats/common/bytes.h"

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
    size_t ip = 0, op = 0;
    uint32_t flags = 0;
    unsigned nflags = 0;
    size_t half_pos = 0;     /* input position of the shared length half-byte, 0 = none pending */
    int have_half = 0;
    etw_xpress_status st = ETW_XPRESS_OK;
    size_t where = in_len;

    for (;;) {
        if (nflags == 0) {
            if (ip == in_len) break;                       /* clean end after a full flag word */
            if (in_len - ip < 4) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
            flags = evt_ld_u32le(in + ip);
            ip += 4;
            nflags = 32;
        }
        nflags--;
        if (((flags >> nflags) & 1u) == 0) {
            if (ip == in_len) break;                       /* end of data on a literal flag */
            if (op == out_cap) { st = ETW_XPRESS_OVERFLOW; where = ip; break; }
            out[op++] = in[ip++];
            continue;
        }
        if (ip == in_len) break;                           /* the end marker */
        size_t tok_pos = ip;
        if (in_len - ip < 2) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
        uint32_t token = evt_ld_u16le(in + ip);
        ip += 2;
        size_t offset = (size_t)(token >> 3) + 1;
        uint64_t len = token & 7u;
        if (len == 7) {
            if (!have_half) {
                if (ip == in_len) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
                len = in[ip] & 0x0Fu;
                half_pos = ip++;
                have_half = 1;
            } else {
                len = in[half_pos] >> 4;
                have_half = 0;
            }
            if (len == 15) {
                if (ip == in_len) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
                len = in[ip++];
                if (len == 255) {
                    if (in_len - ip < 2) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
                    len = evt_ld_u16le(in + ip);
                    ip += 2;
                    if (len == 0) {
                        if (in_len - ip < 4) { st = ETW_XPRESS_TRUNCATED; where = ip; break; }
                        len = evt_ld_u32le(in + ip);
                        ip += 4;
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
