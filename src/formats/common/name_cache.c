/* Names built once per key (name_cache.h). */
#include "formats/common/name_cache.h"

#include <string.h>

void evt_name_cache_free(evt_name_cache *c)
{
    evt_u64map_free(&c->map);
    evt_strtab_free(&c->tab);
    memset(c, 0, sizeof *c);
}

const char *evt_name_cache_put(evt_name_cache *c, uint64_t key, const char *name, size_t n)
{
    uint32_t id = evt_strtab_intern(&c->tab, name, n, NULL);
    if (!id || !evt_u64map_put(&c->map, key, id)) return NULL;
    uint32_t h = evt_name_cache_slot_(key);
    c->front[h].key = key;
    c->front[h].name = evt_strtab_str(&c->tab, id);
    return c->front[h].name;
}
