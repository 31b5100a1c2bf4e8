/* XRay instrumentation maps (host side): function id -> name, loaded from llvm-xray's YAML
 * (`llvm-xray extract`, also evtrace's own map written by the -finstrument-functions front end) or
 * from an ELF binary's xray_instr_map section + its symbol table. */
#ifndef EVT_XRAY_MAP_H
#define EVT_XRAY_MAP_H

#include <stddef.h>
#include <stdint.h>

/* One function of the map. */
typedef struct xray_map_fn {
    uint32_t id;      /* XRay function id (1-based) */
    uint64_t addr;    /* function address as the map gives it (0 if unknown) */
    char *name;       /* NUL-terminated name (owned), or NULL when the map has none */
} xray_map_fn;

/* A loaded map, sorted by id. */
typedef struct xray_map {
    xray_map_fn *fn;  /* n entries */
    uint32_t n, cap;
    const char *source; /* "yaml" or "elf" */
} xray_map;

/* Load path (YAML or ELF, detected by content) into m (zeroed by the caller). Returns 0 on success;
 * otherwise -1 and a message (with the offending line or offset) in err. */
int xray_map_load(xray_map *m, const char *path, char *err, size_t errlen);
/* Name of function id, or NULL when the map does not name it. */
const char *xray_map_name(const xray_map *m, uint32_t id);
/* Release everything m owns. */
void xray_map_free(xray_map *m);

#endif
