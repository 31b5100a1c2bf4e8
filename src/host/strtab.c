/* String interning: dense ids over an open-addressing hash table (FNV-1a, linear probing). */
#include "host/strtab.h"

#include <stdint.h>
#include <string.h>
#include "evtrace/alloc.h"

static uint32_t hash_(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) { h ^= (uint8_t)s[i]; h *= 16777619u; }
    return h;
}

void evt_strtab_init(evt_strtab *t) { memset(t, 0, sizeof *t); }

void evt_strtab_free(evt_strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++) evt_free(t->strs[i]);
    evt_free(t->strs);
    evt_free(t->slots);
    memset(t, 0, sizeof *t);
}

static int eq_(const char *a, const char *s, size_t n) { return strncmp(a, s, n) == 0 && a[n] == '\0'; }

uint32_t evt_strtab_find(const evt_strtab *t, const char *s, size_t n)
{
    if (!t->nslots) return 0;
    uint32_t m = t->nslots - 1;
    for (uint32_t i = hash_(s, n) & m;; i = (i + 1) & m) {
        uint32_t id = t->slots[i];
        if (!id) return 0;
        if (eq_(t->strs[id - 1], s, n)) return id;
    }
}

static int grow_(evt_strtab *t)
{
    uint32_t ns = t->nslots ? t->nslots * 2 : 256;
    uint32_t *sl = evt_calloc(ns, sizeof *sl);
    if (!sl) return 0;
    for (uint32_t id = 1; id <= t->n; id++) {
        const char *s = t->strs[id - 1];
        uint32_t i = hash_(s, strlen(s)) & (ns - 1);
        while (sl[i]) i = (i + 1) & (ns - 1);
        sl[i] = id;
    }
    evt_free(t->slots);
    t->slots = sl;
    t->nslots = ns;
    return 1;
}

uint32_t evt_strtab_intern(evt_strtab *t, const char *s, size_t n, int *added)
{
    if (added) *added = 0;
    /* Callers pass the same few strings again and again, mostly at the same addresses: a string
     * at an address met lately is compared with that entry's string (no hash over its bytes). */
    uint32_t h = (uint32_t)(((uintptr_t)s >> 3) ^ ((uintptr_t)s >> 11)) & 63u;
    if (t->recent[h].s == s && t->recent[h].n == n) {
        const char *c = t->strs[t->recent[h].id - 1];
        if (memcmp(c, s, n) == 0 && c[n] == '\0') return t->recent[h].id;
    }
    uint32_t id = evt_strtab_find(t, s, n);
    if (id) {
        t->recent[h].s = s;
        t->recent[h].n = n;
        t->recent[h].id = id;
        return id;
    }
    if ((t->n + 1) * 2 > t->nslots && !grow_(t)) return 0;
    if (t->n == t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 64;
        char **ns = evt_realloc(t->strs, nc * sizeof *ns);
        if (!ns) return 0;
        t->strs = ns;
        t->cap = nc;
    }
    char *c = evt_malloc(n + 1);
    if (!c) return 0;
    memcpy(c, s, n);
    c[n] = '\0';
    t->strs[t->n++] = c;
    id = t->n;
    uint32_t m = t->nslots - 1;
    uint32_t i = hash_(s, n) & m;
    while (t->slots[i]) i = (i + 1) & m;
    t->slots[i] = id;
    t->recent[h].s = s;
    t->recent[h].n = n;
    t->recent[h].id = id;
    if (added) *added = 1;
    return id;
}

const char *evt_strtab_str(const evt_strtab *t, uint32_t id)
{
    return (id >= 1 && id <= t->n) ? t->strs[id - 1] : NULL;
}
