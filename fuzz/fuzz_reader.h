/* Shared body of the reader fuzz targets: open the bytes from memory with one reader (or with
 * auto-detection when format is NULL), pull every event, write the info JSON and text. */
#ifndef EVT_FUZZ_READER_H
#define EVT_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "fuzz_common.h"

static void fuzz_read_all(const uint8_t *data, size_t size, const char *format)
{
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(data, size, format, NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return;
    evt_event ev;
    unsigned long n = 0;
    while (evt_reader_next(r, &ev) == EVT_OK && n < 1000000) n++;
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        evt_json j;
        evt_json_init(&j, devnull, 0);
        evt_json_obj_begin(&j);
        if (r->desc->info) r->desc->info(r->state, &j);
        evt_json_obj_end(&j);
        if (r->desc->info_text) r->desc->info_text(r->state, devnull);
        fclose(devnull);
    }
    evt_reader_close(r);
}

#endif
