/* String interning for exporters and analysis: each distinct string gets a small dense id
 * (1, 2, 3, ...) and one owned copy. Memory grows with the number of DISTINCT strings only
 * (event names, context names, labels), never with the number of events. */
#ifndef EVT_ANALYSIS_STRTAB_H
#define EVT_ANALYSIS_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct evt_strtab_slot {
    uint32_t id;        /* 0 = empty */
    uint32_t hash;      /* hash of the string with that id */
} evt_strtab_slot;

typedef struct evt_strtab {
    char **strs;        /* strs[id - 1] = owned copy of the string with that id */
    uint32_t *lens;     /* lens[id - 1] = its length in bytes */
    uint32_t n;         /* strings stored (ids 1..n) */
    uint32_t cap;       /* capacity of strs */
    evt_strtab_slot *slots; /* open-addressing hash table of ids */
    uint32_t nslots;    /* power of two */
    /* strings interned lately, by address (intern and find look here first); ro: s is a C string
     * of length n in the program's read-only image (host/ro_image.h), whose text never changes, so
     * the address alone names it (no compare) */
    struct { const char *s; size_t n; uint32_t id, ro; } recent[64];
} evt_strtab;

/* Slot of the recent-strings cache for address s (inline for evt_strtab_recent_cstr). */
static inline uint32_t evt_strtab_recent_slot_(const char *s)
{
    return (uint32_t)(((uintptr_t)s >> 3) ^ ((uintptr_t)s >> 11)) & 63u;
}
/* Id of the NUL-terminated s when it was interned lately at this very address, still holds the
 * same text and is shorter than limit bytes; else 0 (then ask evt_strtab_intern/find, which give
 * the same id when the string is stored). Needs no strlen: one compare with the stored copy, none
 * for a read-only string.
 * Inline: the timeline asks it for every span label. */
static inline uint32_t evt_strtab_recent_cstr(const evt_strtab *t, const char *s, size_t limit)
{
    uint32_t r = evt_strtab_recent_slot_(s);
    uint32_t id = t->recent[r].id;
    if (t->recent[r].s != s || !id || t->lens[id - 1] >= limit) return 0;
    if (t->recent[r].ro) return id;
    return strcmp(t->strs[id - 1], s) == 0 ? id : 0;
}

/* Zero-initialise before use (a static or calloc'ed evt_strtab is ready). */
void evt_strtab_init(evt_strtab *t);
void evt_strtab_free(evt_strtab *t);
/* Id of s (n bytes), adding it if new. *added (may be NULL) is set to 1 when it was new.
 * Returns 0 when out of memory. */
uint32_t evt_strtab_intern(evt_strtab *t, const char *s, size_t n, int *added);
/* Id of s if present, else 0. */
uint32_t evt_strtab_find(const evt_strtab *t, const char *s, size_t n);
/* The string of an id (1..n); NULL for an invalid id. */
const char *evt_strtab_str(const evt_strtab *t, uint32_t id);
/* The length in bytes of an id's string; 0 for an invalid id. */
size_t evt_strtab_len(const evt_strtab *t, uint32_t id);

#endif
