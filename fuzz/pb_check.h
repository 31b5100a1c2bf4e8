/* A protobuf wire-format check for the Perfetto exporter's output: the file is a Trace message,
 * i.e. only field 1 (TracePacket), length-delimited, and each packet's bytes are themselves a
 * well-formed message (varint / 64-bit / length-delimited / 32-bit fields, every length inside
 * its parent). Strings and nested messages inside a packet are checked for bounds only. */
#ifndef EVT_FUZZ_PB_CHECK_H
#define EVT_FUZZ_PB_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Read a varint at *p (< end); 0 when it is truncated or longer than 10 bytes. */
static inline int pb_varint_(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (*p >= end) return 0;
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 0);
        if (!(b & 0x80)) return 1;
    }
    return 0;
}

/* 1 when [p, end) is a sequence of well-formed fields; only_field (if not 0) must be the only
 * field number, length-delimited, and its payload is checked the same way (one level). */
static inline int pb_check_msg(const uint8_t *p, const uint8_t *end, uint64_t only_field)
{
    while (p < end) {
        uint64_t key, v;
        if (!pb_varint_(&p, end, &key)) return 0;
        uint64_t field = key >> 3;
        unsigned wt = (unsigned)(key & 7);
        if (field == 0) return 0;
        if (only_field && (field != only_field || wt != 2)) return 0;
        switch (wt) {
        case 0: if (!pb_varint_(&p, end, &v)) return 0; break;
        case 1: if (end - p < 8) return 0; p += 8; break;
        case 5: if (end - p < 4) return 0; p += 4; break;
        case 2:
            if (!pb_varint_(&p, end, &v) || v > (uint64_t)(end - p)) return 0;
            if (only_field && !pb_check_msg(p, p + v, 0)) return 0;
            p += v;
            break;
        default: return 0; /* groups (3, 4) and 6, 7 are not written */
        }
    }
    return 1;
}

#endif
