/* The program's read-only image: its PT_LOAD segments without write permission (literals and
 * const data, whose bytes never change while the program runs). A string pointer inside them
 * names its text for good, so a pointer-keyed cache may trust it without comparing the text; any
 * other pointer (a reader's heap buffer, reused for other text) must be checked. Found once per
 * user (evt_ro_image_init) from dl_iterate_phdr on ELF platforms; elsewhere nothing is trusted. */
#ifndef EVT_HOST_RO_IMAGE_H
#define EVT_HOST_RO_IMAGE_H

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

#endif
