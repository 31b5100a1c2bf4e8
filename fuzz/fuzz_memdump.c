/* libFuzzer target of the memory-dump decoders (src/host/memdump*.c). Input: byte 0 selects the
 * decoder (bit 0: 0 = Intel HEX, 1 = S-record) and the start (bit 1: the lowest address, or the
 * address in bytes 1..4, u32 LE); the rest is the dump text. Checked: a success gives an image
 * whose byte accounting holds (covered + gaps = size, size within EVT_MEM_IMAGE_MAX, at least one
 * record) and that starts where asked; a failure gives no image and a message with its offset
 * ("offset N (0xN): ...") that lies within the text. */
#include <stdlib.h>
#include "fuzz_common.h"
#include "evtrace/memdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5) return 0;
    int srec = data[0] & 1;
    uint64_t start = UINT64_MAX;
    if (data[0] & 2) start = (uint64_t)data[1] | (uint64_t)data[2] << 8 | (uint64_t)data[3] << 16 | (uint64_t)data[4] << 24;
    const uint8_t *text = data + 5;
    size_t len = size - 5;
    evt_mem_image img;
    char err[256] = "";
    evt_status st = srec ? evt_srec_decode(text, len, start, &img, err, sizeof err)
                         : evt_ihex_decode(text, len, start, &img, err, sizeof err);
    if (st == EVT_OK) {
        if (img.covered + img.gap_bytes != img.size || img.size == 0 || img.size > EVT_MEM_IMAGE_MAX) abort();
        if (!img.data || img.records == 0) abort();
        if (start != UINT64_MAX && img.base_addr != start) abort();
        volatile uint8_t sink = img.data[img.size - 1]; /* the whole image is readable */
        (void)sink;
        evt_mem_image_free(&img);
    } else {
        if (img.data || img.size) abort();
        if (st == EVT_ERR_CORRUPT) {
            unsigned long long off;
            if (sscanf(err, "offset %llu (0x", &off) != 1 || off > len) abort();
        } else if (st != EVT_ERR_NOMEM) {
            abort();
        }
    }
    (void)evt_dump_detect(text, len);
    return 0;
}
