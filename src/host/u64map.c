/* u64 -> u32 hash map: open addressing, linear probing, load factor <= 1/2. */
#include "host/u64map.h"

#include <string.h>
#include "evtrace/alloc.h"

static uint32_t mix_(uint64_t k) { return evt_u64map_mix_(k); }

void evt_u64map_free(evt_u64map *m)
{
    evt_free(m->keys);
    evt_free(m->vals);
    memset(m, 0, sizeof *m);
}

static int grow_(evt_u64map *m)
{
    uint32_t ns = m->nslots ? m->nslots * 2 : 64;
    uint64_t *k = evt_calloc(ns, sizeof *k);
    uint32_t *v = evt_calloc(ns, sizeof *v);
    if (!k || !v) { evt_free(k); evt_free(v); return 0; }
    for (uint32_t i = 0; i < m->nslots; i++) {
        if (!m->vals[i]) continue;
        uint32_t j = mix_(m->keys[i]) & (ns - 1);
        while (v[j]) j = (j + 1) & (ns - 1);
        k[j] = m->keys[i];
        v[j] = m->vals[i];
    }
    evt_free(m->keys);
    evt_free(m->vals);
    m->keys = k;
    m->vals = v;
    m->nslots = ns;
    return 1;
}

int evt_u64map_put(evt_u64map *m, uint64_t key, uint32_t val)
{
    if ((m->n + 1) * 2 > m->nslots && !grow_(m)) return 0;
    uint32_t mask = m->nslots - 1;
    uint32_t i = mix_(key) & mask;
    while (m->vals[i] && m->keys[i] != key) i = (i + 1) & mask;
    if (!m->vals[i]) m->n++;
    m->keys[i] = key;
    m->vals[i] = val + 1;
    return 1;
}
