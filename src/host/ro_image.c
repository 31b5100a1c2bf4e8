/* The program's read-only image (see ro_image.h). */
#if defined(__linux__) && defined(__ELF__)
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#define RO_HAVE_PHDR 1
#endif
#include "ro_image.h"

#include <pthread.h>
#include <string.h>

#ifdef RO_HAVE_PHDR
/* The first object dl_iterate_phdr reports is the program itself, which is never unloaded: its
 * segments only (a shared library's could be unloaded and its addresses reused). */
static int ro_segments_(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    evt_ro_image *im = data;
    for (size_t i = 0; i < info->dlpi_phnum && im->n < EVT_RO_IMAGE_MAX; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || !ph->p_memsz) continue;
        im->seg[im->n][0] = (uintptr_t)(info->dlpi_addr + ph->p_vaddr);
        im->seg[im->n][1] = im->seg[im->n][0] + (uintptr_t)ph->p_memsz;
        im->n++;
    }
    return 1; /* the program only */
}
#endif

void evt_ro_image_init(evt_ro_image *im)
{
    memset(im, 0, sizeof *im);
#ifdef RO_HAVE_PHDR
    dl_iterate_phdr(ro_segments_, im);
#endif
}

int evt_ro_image_has(const evt_ro_image *im, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    for (uint32_t i = 0; i < im->n; i++)
        if (a >= im->seg[i][0] && a < im->seg[i][1]) return 1;
    return 0;
}

int evt_ro_image_has_cstr(const evt_ro_image *im, const char *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (uint32_t i = 0; i < im->n; i++)
        if (a >= im->seg[i][0] && a < im->seg[i][1]) return n < im->seg[i][1] - a && p[n] == '\0';
    return 0;
}

static evt_ro_image g_self_;
static pthread_once_t g_self_once_ = PTHREAD_ONCE_INIT;
static void self_init_(void) { evt_ro_image_init(&g_self_); }

const evt_ro_image *evt_ro_image_self(void)
{
    pthread_once(&g_self_once_, self_init_);
    return &g_self_;
}
