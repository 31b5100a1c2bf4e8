/* Names that depend only on a key (an event id, a GUID + type, ...), built once and interned:
 * a reader formats a name the first time it meets the key and afterwards gets the same stable
 * pointer back from a hash look-up, so no text is formatted per event. Memory grows with the
 * number of distinct keys only. Host side. */
#ifndef EVT_FORMATS_NAME_CACHE_H
#define EVT_FORMATS_NAME_CACHE_H

#include <stdint.h>
#include "host/strtab.h"
#include "host/u64map.h"

#define EVT_NAME_CACHE_FRONT 1024u /* direct-mapped entries in front of the hash look-up */

typedef struct evt_name_cache {
    evt_u64map map; /* key -> strtab id */
    evt_strtab tab; /* the names (each an owned copy: pointers stay valid until free) */
    struct { uint64_t key; const char *name; } front[EVT_NAME_CACHE_FRONT]; /* recent hits */
} evt_name_cache;

static inline uint32_t evt_name_cache_slot_(uint64_t key)
{
    return (uint32_t)(key ^ (key >> 10) ^ (key >> 32) ^ (key >> 56)) & (EVT_NAME_CACHE_FRONT - 1u);
}

/* Zero-initialised is empty and ready. */
void evt_name_cache_free(evt_name_cache *c);
/* The name stored for key, or NULL. */
static inline const char *evt_name_cache_get(evt_name_cache *c, uint64_t key)
{
    uint32_t h = evt_name_cache_slot_(key);
    if (c->front[h].name && c->front[h].key == key) return c->front[h].name;
    uint32_t id;
    if (!evt_u64map_get(&c->map, key, &id)) return NULL;
    c->front[h].key = key;
    c->front[h].name = evt_strtab_str(&c->tab, id);
    return c->front[h].name;
}
/* Store name (n bytes, copied) for key; returns the stable copy, or NULL when out of memory. */
const char *evt_name_cache_put(evt_name_cache *c, uint64_t key, const char *name, size_t n);

#endif
