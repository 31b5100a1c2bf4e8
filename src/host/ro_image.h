/* The program's read-only image: its PT_LOAD segments without write permission (literals and
 * const data, whose bytes never change while the program runs). A string pointer inside them
 * names its text for good, so a pointer-keyed cache may trust it without comparing the text; any
 * other pointer (a reader's heap buffer, reused for other text) must be checked. Found once per
 * user (evt_ro_image_init) from dl_iterate_phdr on ELF platforms; elsewhere nothing is trusted. */
#ifndef EVT_HOST_RO_IMAGE_H
#define EVT_HOST_RO_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define EVT_RO_IMAGE_MAX 8 /* segments kept; one past them is left out (its strings are compared) */

typedef struct evt_ro_image {
    uintptr_t seg[EVT_RO_IMAGE_MAX][2]; /* [start, end) */
    uint32_t n;
} evt_ro_image;

/* Fills im with the program's read-only segments (none where they cannot be found). */
void evt_ro_image_init(evt_ro_image *im);
/* 1 when p points into one of them: its bytes never change. */
int evt_ro_image_has(const evt_ro_image *im, const void *p);
/* 1 when p[0..n] (n bytes and the byte after them) lies in one of them and p[n] is NUL: p is a
 * C string of length n whose text never changes (only then is p[n] read). */
int evt_ro_image_has_cstr(const evt_ro_image *im, const char *p, size_t n);
/* The process's own image, found at the first call (thread-safe), for users that keep no copy
 * (the string table's recent cache, the statistics' name caches). */
const evt_ro_image *evt_ro_image_self(void);

#endif
