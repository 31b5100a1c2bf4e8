/* Names that depend only on a key (an event id, a GUID + type, ...), built once and interned:
 * a reader formats a name the first time it meets the key and afterwards gets the same stable
 * pointer back from a hash look-up, so no text is formatted per event. Memory grows with the
 * number of distinct keys only. Host side. */
#ifndef EVT_FORMATS_NAME_CACHE_H
#define EVT_FORMATS_NAME_CACHE_H

#include <stdint.h>
#include "host/strtab.h"
#include "host/u64map.h"

typedef struct evt_name_cache {
    evt_u64map map; /* key -> strtab id */
    evt_strtab tab; /* the names (each an owned copy: pointers stay valid until free) */
    uint64_t last_key;
    const char *last; /* the last hit: runs of one key cost a compare */
} evt_name_cache;

/* Zero-initialised is empty and ready. */
void evt_name_cache_free(evt_name_cache *c);
/* The name stored for key, or NULL. */
static inline const char *evt_name_cache_get(evt_name_cache *c, uint64_t key)
{
    if (c->last && c->last_key == key) return c->last;
    uint32_t id;
    if (!evt_u64map_get(&c->map, key, &id)) return NULL;
    c->last_key = key;
    c->last = evt_strtab_str(&c->tab, id);
    return c->last;
}
/* Store name (n bytes, copied) for key; returns the stable copy, or NULL when out of memory. */
const char *evt_name_cache_put(evt_name_cache *c, uint64_t key, const char *name, size_t n);

#endif
