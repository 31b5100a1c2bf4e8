/* libFuzzer target of the .etl reader (public reader API over memory: open, pull every event,
 * write the info JSON) and of the MS-XCA plain LZ77 decompressor on the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "formats/etw/xpress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(data, size, "etw", NULL, NULL, NULL, &r, err, sizeof err) == EVT_OK) {
        evt_event ev;
        unsigned long n = 0;
        while (evt_reader_next(r, &ev) == EVT_OK && n < 1000000) n++;
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) {
            evt_json j;
            evt_json_init(&j, devnull, 0);
            evt_json_obj_begin(&j);
            r->desc->info(r->state, &j);
            evt_json_obj_end(&j);
            r->desc->info_text(r->state, devnull);
            fclose(devnull);
        }
        evt_reader_close(r);
    }
    /* The decompressor alone: the first two bytes choose the output room (exact-size heap block,
     * so a write past it is an ASan report). */
    if (size >= 2) {
        size_t cap = (size_t)data[0] | ((size_t)data[1] << 8);
        uint8_t *out = malloc(cap ? cap : 1);
        if (out) {
            size_t n, ep;
            etw_xpress_decompress(data + 2, size - 2, out, cap, &n, &ep);
            free(out);
        }
    }
    return 0;
}
