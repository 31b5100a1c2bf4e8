/* Shared body of the exporter fuzz targets: a reader decodes the fuzz input (selector byte 0
 * picks the format, 0 = auto-detection; fuzz_common.h) and one exporter writes every event it
 * yields to a tmpfs scratch path, which is removed after the iteration. An
 * exporter error ends the export through abort(), as the CLI does. */
#ifndef EVT_FUZZ_EXPORT_H
#define EVT_FUZZ_EXPORT_H

#include <stdlib.h>
#include "evtrace/exporter.h"
#include "fuzz_common.h"

/* Called after a successful end() with the path written (NULL: no check). */
typedef void (*fuzz_export_check)(const char *path);

/* path NULL: a scratch path named after the exporter's extension. */
static inline void fuzz_export(const uint8_t *data, size_t size, const char *exporter, const char *path,
                               fuzz_export_check check)
{
    const evt_exporter_desc *x = evt_exporter_find(exporter);
    if (!x) abort(); /* the target names a registered exporter */
    evt_reader *r = fuzz_open_selected(data, size);
    if (!r) return;
    if (!path) path = fuzz_scratch_path(x->ext ? x->ext : ".out");
    fuzz_remove(path);
    void *st = NULL;
    char err[256] = "";
    if (x->begin(path, r, &st, err, sizeof err) == EVT_OK) {
        evt_event ev;
        evt_status s = EVT_OK;
        unsigned long n = 0;
        while (s == EVT_OK && n++ < FUZZ_MAX_EVENTS && evt_reader_next(r, &ev) == EVT_OK)
            s = x->event(st, &ev);
        if (s == EVT_OK) {
            if (x->end(st, r, err, sizeof err) == EVT_OK && check) check(path);
        } else {
            x->abort(st);
        }
    }
    evt_reader_close(r);
    fuzz_remove(path);
}

#endif
