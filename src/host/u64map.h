/* A small u64 -> u32 hash map (open addressing) for context ids and composite keys. Memory grows
 * with the number of distinct keys only. */
#ifndef EVT_ANALYSIS_U64MAP_H
#define EVT_ANALYSIS_U64MAP_H

#include <stdint.h>

typedef struct evt_u64map {
    uint64_t *keys;   /* slot keys */
    uint32_t *vals;   /* slot values + 1 (0 = empty slot) */
    uint32_t nslots;  /* power of two, or 0 before the first put */
    uint32_t n;       /* keys stored */
} evt_u64map;

/* Zero-initialised is empty and ready. */
void evt_u64map_free(evt_u64map *m);
/* Slot hash of a key (the map's placement; inline for evt_u64map_get). */
static inline uint32_t evt_u64map_mix_(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k;
}
/* Value of key in *val; returns 1 if present. Inline: every event of the timeline looks its
 * context up here. */
static inline int evt_u64map_get(const evt_u64map *m, uint64_t key, uint32_t *val)
{
    if (!m->nslots) return 0;
    uint32_t mask = m->nslots - 1;
    for (uint32_t i = evt_u64map_mix_(key) & mask;; i = (i + 1) & mask) {
        if (!m->vals[i]) return 0;
        if (m->keys[i] == key) { *val = m->vals[i] - 1; return 1; }
    }
}
/* Insert or replace; returns 0 when out of memory. */
int evt_u64map_put(evt_u64map *m, uint64_t key, uint32_t val);

#endif
