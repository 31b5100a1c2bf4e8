/* Motorola S-record decoder: text records -> memory image (memdump.h).
 *
 * Record layout (one per line, fields hex pairs, multi-byte fields big-endian):
 *   'S' type-digit | count u8 | address (2, 3 or 4 bytes) | data | checksum u8
 * count = bytes after it (address + data + checksum); checksum = ones' complement of the low byte
 * of the sum of count, address and data bytes.
 * Types: S0 header (ignored), S1/S2/S3 data with a 16/24/32-bit address, S5/S6 record count
 * (checked against the data records seen), S7/S8/S9 termination (32/24/16-bit start address). */
#include "memdump_build.h"

#include <string.h>

/* Address bytes of each record type, 0 = no such type. */
static const uint8_t k_addr_bytes[10] = {2, 2, 3, 4, 0, 2, 3, 4, 3, 2};

evt_status evt_srec_decode(const uint8_t *text, size_t len, uint64_t start_addr, evt_mem_image *img,
                           char *err, size_t errlen)
{
    md_builder b;
    md_builder_init(&b);
    memset(img, 0, sizeof *img);
    size_t pos = 0;
    unsigned lineno = 0;
    int seen_end = 0;
    unsigned data_records = 0;
    md_line l;
    uint8_t rec[MD_RECORD_MAX + 1];
    evt_status st = EVT_OK;
    while (md_next_line(text, len, &pos, &lineno, &l)) {
        if (seen_end) {
            st = md_fail(err, errlen, l.off, l.no, "data after the termination record (S7/S8/S9)");
            goto fail;
        }
        if (l.len < 2 || l.p[0] != 'S' || l.p[1] < '0' || l.p[1] > '9' || k_addr_bytes[l.p[1] - '0'] == 0) {
            st = md_fail(err, errlen, l.off, l.no, "not an S-record (a record starts with S0..S3 or S5..S9)");
            goto fail;
        }
        unsigned type = (unsigned)(l.p[1] - '0');
        size_t n;
        if ((st = md_line_bytes(&l, 2, rec, sizeof rec, &n, err, errlen)) != EVT_OK) goto fail;
        unsigned ab = k_addr_bytes[type];
        if (n < 2u + ab) {
            st = md_fail(err, errlen, l.off, l.no, "S%u record of %zu bytes is too short for its %u-byte address",
                         type, n, ab);
            goto fail;
        }
        if (rec[0] != n - 1) {
            st = md_fail(err, errlen, l.off + 2, l.no, "count byte says %u bytes follow, the record holds %zu",
                         rec[0], n - 1);
            goto fail;
        }
        if ((st = md_checksum(&l, 2, rec, n, 1, err, errlen)) != EVT_OK) goto fail;
        uint64_t addr = 0;
        for (unsigned k = 0; k < ab; k++) addr = addr << 8 | rec[1 + k];
        const uint8_t *data = rec + 1 + ab;
        size_t ndata = n - 2 - ab;
        switch (type) {
        case 1: case 2: case 3:
            data_records++;
            if ((st = md_builder_add(&b, addr, data, ndata, l.off, l.no)) != EVT_OK) goto fail;
            break;
        case 5: case 6:
            if (addr != (data_records & (type == 5 ? 0xFFFFu : 0xFFFFFFu))) {
                st = md_fail(err, errlen, l.off, l.no, "record count S%u says %llu data records, the file has %u",
                             type, (unsigned long long)addr, data_records);
                goto fail;
            }
            break;
        case 7: case 8: case 9: seen_end = 1; break;
        default: break; /* S0 header */
        }
    }
    return md_builder_end(&b, seen_end, "termination record (S7, S8 or S9)", len, lineno, start_addr, img, err,
                          errlen);
fail:
    md_builder_free(&b);
    return st;
}
