/* Exporters: consumers of the canonical event stream that write a file (or directory) people
 * view or query: Chrome JSON, Perfetto, CTF, SQLite, and the writable trace formats. */
#ifndef EVTRACE_EXPORTER_H
#define EVTRACE_EXPORTER_H

#include <stddef.h>
#include "evtrace/model.h"
#include "evtrace/reader.h"
#include "evtrace/status.h"

typedef struct evt_exporter_desc {
    const char *name;        /* --to NAME */
    const char *ext;         /* default file extension picked from -o, e.g. ".json"; NULL if none */
    const char *description; /* one line for --help */
    int is_dir;              /* writes a directory rather than a file */
    /* Start writing to `path` (a temporary name; the caller renames it on success). A directory
     * exporter also accepts an existing empty directory (a name the caller reserved); an exporter
     * with `streams` set takes "-" for standard output. Files are opened through evtrace/out.h.
     * `r` is the open reader (for clock_hz and format name); it stays open until end() or abort(),
     * and exporters read its clock at the first event (the time unit is fixed then: a reader may
     * learn its rate from its first record, e.g. RKH's TCFG). Report problems in err. */
    evt_status (*begin)(const char *path, evt_reader *r, void **state, char *err, size_t errlen);
    evt_status (*event)(void *state, const evt_event *ev);
    /* Finish; after every event. Frees state whatever the result. */
    evt_status (*end)(void *state, evt_reader *r, char *err, size_t errlen);
    /* Abandon after an error: free state, leave nothing behind but the temporary path. */
    void (*abort)(void *state);
    int streams;             /* 1: writes sequentially, so path "-" (standard output) works */
} evt_exporter_desc;

size_t evt_exporter_count(void);
const evt_exporter_desc *evt_exporter_at(size_t i);
const evt_exporter_desc *evt_exporter_find(const char *name);
/* Exporter whose ext matches the end of path, or NULL. */
const evt_exporter_desc *evt_exporter_for_path(const char *path);

#endif
