/* Shared body of the reader fuzz targets: open the bytes from memory with one reader (or with
 * auto-detection when format is NULL), pull every event (the first 512 also written as `dump
 * --json` writes them, each line checked to be one well-formed JSON object: json_check.h), write
 * the info JSON and text. */
#ifndef EVT_FUZZ_READER_H
#define EVT_FUZZ_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "evtrace/json.h"
#include "evtrace/reader.h"
#include "fuzz_common.h"
#include "json_check.h"

static void fuzz_read_all(const uint8_t *data, size_t size, const char *format)
{
    evt_reader *r = NULL;
    char err[256];
    if (evt_reader_open_mem(data, size, format, NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) return;
    evt_event ev;
    unsigned long n = 0;
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    while (evt_reader_next(r, &ev) == EVT_OK && n < 1000000) {
        if (m && n < 512) { /* the event's dump --json line, rewritten in place each time */
            evt_json j;
            evt_json_init(&j, m, 0);
            if (fseek(m, 0, SEEK_SET) != 0) abort();
            evt_json_event(&j, &ev);
            if (fflush(m) != 0 || !json_check_doc(line, len)) abort();
        }
        n++;
    }
    if (m) fclose(m);
    free(line);
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
