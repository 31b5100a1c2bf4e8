/* libFuzzer target of the XRay reader (FDR v1-v5, basic v1-v3) over the public reader API: open
 * the bytes from memory, pull every event, write the info JSON and text. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/json.h"
#include "evtrace/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(data, size, "xray", NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return 0;
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
    return 0;
}
