/* String interning: dense ids over an open-addressing hash table (a word-at-a-time multiplicative
 * hash, linear probing; each slot keeps the string's hash so a probe compares bytes only when
 * hash and length both match). */
#include "host/strtab.h"

#include <stdint.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "host/ro_image.h"

/* 64-bit mix of the bytes, 8 at a time (little-endian words, the tail zero-padded), folded to 32
 * bits. Only table placement depends on it: ids are dense in first-use order whatever the hash. */
static uint32_t hash_(const char *s, size_t n)
{
    const uint64_t k = 0x9E3779B97F4A7C15ull;
    uint64_t h = (uint64_t)n * k;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    if (i < n) {
        uint64_t w = 0;
        memcpy(&w, s + i, n - i);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    h *= 0xBF58476D1CE4E5B9ull;
    return (uint32_t)(h ^ (h >> 32));
}

void evt_strtab_init(evt_strtab *t) { memset(t, 0, sizeof *t); }

void evt_strtab_free(evt_strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++) evt_free(t->strs[i]);
    evt_free(t->strs);
    evt_free(t->lens);
    evt_free(t->slots);
    memset(t, 0, sizeof *t);
}

/* Id of s (n bytes, hash h) or 0; *at = the slot where it is or would go. */
static uint32_t lookup_(const evt_strtab *t, const char *s, size_t n, uint32_t h, uint32_t *at)
{
    uint32_t m = t->nslots - 1;
    for (uint32_t i = h & m;; i = (i + 1) & m) {
        uint32_t id = t->slots[i].id;
        if (!id || (t->slots[i].hash == h && t->lens[id - 1] == n && memcmp(t->strs[id - 1], s, n) == 0)) {
            *at = i;
            return id;
        }
    }
}

static uint32_t recent_slot_(const char *s) { return evt_strtab_recent_slot_(s); }

/* Id of s (n bytes) when the recent-strings cache has it at that address, else 0. */
static uint32_t recent_(const evt_strtab *t, const char *s, size_t n, uint32_t r)
{
    if (t->recent[r].s == s && t->recent[r].n == n) {
        if (t->recent[r].ro) return t->recent[r].id; /* its text cannot have changed */
        const char *c = t->strs[t->recent[r].id - 1];
        if (memcmp(c, s, n) == 0) return t->recent[r].id; /* same length as stored: no NUL check needed */
    }
    return 0;
}

uint32_t evt_strtab_find(const evt_strtab *t, const char *s, size_t n)
{
    if (!t->nslots) return 0;
    uint32_t id = recent_(t, s, n, recent_slot_(s)); /* a string interned lately at this address */
    if (id) return id;
    uint32_t at;
    return lookup_(t, s, n, hash_(s, n), &at);
}

static int grow_(evt_strtab *t)
{
    uint32_t ns = t->nslots ? t->nslots * 2 : 256;
    evt_strtab_slot *sl = evt_calloc(ns, sizeof *sl);
    if (!sl) return 0;
    for (uint32_t k = 0; k < t->nslots; k++) {
        if (!t->slots[k].id) continue;
        uint32_t i = t->slots[k].hash & (ns - 1);
        while (sl[i].id) i = (i + 1) & (ns - 1);
        sl[i] = t->slots[k];
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
    uint32_t r = recent_slot_(s);
    uint32_t rid = recent_(t, s, n, r);
    if (rid) return rid;
    if ((t->n + 1) * 2 > t->nslots && !grow_(t)) return 0;
    uint32_t h = hash_(s, n), at;
    uint32_t id = lookup_(t, s, n, h, &at);
    if (!id) {
        if (n > UINT32_MAX) return 0;
        if (t->n == t->cap) {
            uint32_t nc = t->cap ? t->cap * 2 : 64;
            char **ns = evt_realloc(t->strs, nc * sizeof *ns);
            if (!ns) return 0;
            t->strs = ns;
            uint32_t *nl = evt_realloc(t->lens, nc * sizeof *nl);
            if (!nl) return 0;
            t->lens = nl;
            t->cap = nc;
        }
        char *c = evt_malloc(n + 1);
        if (!c) return 0;
        memcpy(c, s, n);
        c[n] = '\0';
        t->strs[t->n] = c;
        t->lens[t->n] = (uint32_t)n;
        id = ++t->n;
        t->slots[at].id = id;
        t->slots[at].hash = h;
        if (added) *added = 1;
    }
    t->recent[r].s = s;
    t->recent[r].n = n;
    t->recent[r].id = id;
    t->recent[r].ro = (uint32_t)evt_ro_image_has_cstr(evt_ro_image_self(), s, n);
    return id;
}

const char *evt_strtab_str(const evt_strtab *t, uint32_t id)
{
    return (id >= 1 && id <= t->n) ? t->strs[id - 1] : NULL;
}

size_t evt_strtab_len(const evt_strtab *t, uint32_t id)
{
    return (id >= 1 && id <= t->n) ? t->lens[id - 1] : 0;
}
