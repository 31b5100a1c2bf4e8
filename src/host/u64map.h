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
/* Value of key in *val; returns 1 if present. */
int evt_u64map_get(const evt_u64map *m, uint64_t key, uint32_t *val);
/* Insert or replace; returns 0 when out of memory. */
int evt_u64map_put(evt_u64map *m, uint64_t key, uint32_t val);

#endif
