/* Intel HEX decoder: text records -> memory image (memdump.h).
 *
 * Record layout (one per line, all fields hex pairs, multi-byte fields big-endian):
 *   ':'  count u8 | address u16be | type u8 | data[count] | checksum u8
 * The checksum makes the sum of every byte from count to checksum 0 (mod 256).
 * Types: 00 data, 01 end of file, 02 extended segment address (data u16be << 4),
 *        03 start segment address (ignored), 04 extended linear address (data u16be << 16),
 *        05 start linear address (ignored). */
#include "memdump_build.h"

#include <string.h>

enum { IHEX_DATA = 0, IHEX_EOF = 1, IHEX_EXT_SEG = 2, IHEX_START_SEG = 3, IHEX_EXT_LIN = 4, IHEX_START_LIN = 5 };

evt_status evt_ihex_decode(const uint8_t *text, size_t len, uint64_t start_addr, evt_mem_image *img,
                           char *err, size_t errlen)
{
    md_builder b;
    md_builder_init(&b);
    memset(img, 0, sizeof *img);
    size_t pos = 0;
    unsigned lineno = 0;
    uint64_t upper = 0; /* from type 02 or 04 records */
    int seen_eof = 0;
    md_line l;
    uint8_t rec[MD_RECORD_MAX + 5];
    evt_status st = EVT_OK;
    while (md_next_line(text, len, &pos, &lineno, &l)) {
        if (seen_eof) {
            st = md_fail(err, errlen, l.off, l.no, "data after the end-of-file record");
            goto fail;
        }
        if (l.p[0] != ':') {
            st = md_fail(err, errlen, l.off, l.no, "a record starts with ':', not '%c'",
                         (l.p[0] >= 0x20 && l.p[0] < 0x7f) ? l.p[0] : '?');
            goto fail;
        }
        size_t n;
        if ((st = md_line_bytes(&l, 1, rec, sizeof rec, &n, err, errlen)) != EVT_OK) goto fail;
        if (n < 5) {
            st = md_fail(err, errlen, l.off, l.no, "record of %zu bytes is shorter than the 5-byte minimum", n);
            goto fail;
        }
        unsigned count = rec[0];
        if (n != count + 5u) {
            st = md_fail(err, errlen, l.off, l.no, "count byte says %u data bytes, the record holds %zu", count,
                         n - 5);
            goto fail;
        }
        if ((st = md_checksum(&l, 1, rec, n, 0, err, errlen)) != EVT_OK) goto fail;
        uint32_t addr16 = (uint32_t)rec[1] << 8 | rec[2];
        const uint8_t *data = rec + 4;
        switch (rec[3]) {
        case IHEX_DATA:
            if ((st = md_builder_add(&b, upper + addr16, data, count, l.off, l.no)) != EVT_OK) goto fail;
            break;
        case IHEX_EOF: seen_eof = 1; break;
        case IHEX_EXT_SEG:
        case IHEX_EXT_LIN:
            if (count != 2) {
                st = md_fail(err, errlen, l.off, l.no, "address record of type %02x has %u data bytes, not 2",
                             rec[3], count);
                goto fail;
            }
            upper = ((uint64_t)data[0] << 8 | data[1]) << (rec[3] == IHEX_EXT_SEG ? 4 : 16);
            break;
        case IHEX_START_SEG:
        case IHEX_START_LIN: break;
        default:
            st = md_fail(err, errlen, l.off + 7, l.no, "unknown record type 0x%02x", rec[3]);
            goto fail;
        }
    }
    return md_builder_end(&b, seen_eof, "end-of-file record (:00000001FF)", len, lineno, start_addr, img, err,
                          errlen);
fail:
    md_builder_free(&b);
    return st;
}
