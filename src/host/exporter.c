/* Exporter registry and lookup by name or file extension. */
#include "evtrace/exporter.h"

#include <string.h>

#define EVT_EXPORTER(n) extern const evt_exporter_desc evt_exporter_##n;
#include "exporters/exporters.def"
#undef EVT_EXPORTER

static const evt_exporter_desc *const k_exporters[] = {
#define EVT_EXPORTER(n) &evt_exporter_##n,
#include "exporters/exporters.def"
#undef EVT_EXPORTER
};

size_t evt_exporter_count(void) { return sizeof k_exporters / sizeof k_exporters[0]; }
const evt_exporter_desc *evt_exporter_at(size_t i) { return i < evt_exporter_count() ? k_exporters[i] : NULL; }

const evt_exporter_desc *evt_exporter_find(const char *name)
{
    for (size_t i = 0; i < evt_exporter_count(); i++)
        if (strcmp(k_exporters[i]->name, name) == 0) return k_exporters[i];
    return NULL;
}

const evt_exporter_desc *evt_exporter_for_path(const char *path)
{
    size_t pl = strlen(path);
    for (size_t i = 0; i < evt_exporter_count(); i++) {
        const char *e = k_exporters[i]->ext;
        if (!e) continue;
        size_t el = strlen(e);
        if (pl >= el && strcmp(path + pl - el, e) == 0) return k_exporters[i];
    }
    return NULL;
}
