/* An ELF file read in parts: header, section header table, then sections on demand (elf_file.h). */
#include "host/elf_file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"

int evt_elf_err(const evt_elf *e, char *err, size_t cap, const char *msg, uint64_t off)
{
    snprintf(err, cap, "%s: %s (byte %llu)", e->path, msg, (unsigned long long)off);
    return -1;
}

/* Bytes [off, off + n) of the file in a new buffer, NULL on a short read or no memory. */
static uint8_t *read_part(FILE *f, uint64_t off, uint64_t n)
{
    uint8_t *b = evt_malloc(n ? (size_t)n : 1u);
    if (!b) return NULL;
    if (fseeko(f, (off_t)off, SEEK_SET) != 0 || fread(b, 1, (size_t)n, f) != (size_t)n) {
        evt_free(b);
        return NULL;
    }
    return b;
}

/* The header's fields: 0, or -1 with err. */
static int read_header(evt_elf *e, char *err, size_t cap)
{
    uint8_t h[64];
    size_t hn = fread(h, 1, sizeof h, e->f);
    if (hn < 52 || memcmp(h, "\177ELF", 4) != 0) return evt_elf_err(e, err, cap, "not an ELF file", 0);
    if ((h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2))
        return evt_elf_err(e, err, cap, "unknown ELF class or byte order", 4);
    e->is64 = h[4] == 2;
    e->big = h[5] == 2;
    evt_cur c;
    evt_cur_init(&c, h, hn, 0, e->big);
    evt_cur_at(&c, e->is64 ? 0x28u : 0x20u);
    e->shoff = e->is64 ? evt_cur_u64(&c) : evt_cur_u32(&c);
    evt_cur_at(&c, e->is64 ? 0x3Au : 0x2Eu);
    e->shentsize = evt_cur_u16(&c);
    e->shnum = evt_cur_u16(&c);
    e->shstrndx = evt_cur_u16(&c);
    if (!evt_cur_ok(&c)) return evt_elf_err(e, err, cap, "ELF header cut short", hn);
    if (e->shentsize < (e->is64 ? 64u : 40u))
        return evt_elf_err(e, err, cap, "section headers too small for the class", e->is64 ? 0x3Au : 0x2Eu);
    uint64_t tbytes = (uint64_t)e->shnum * e->shentsize;
    if (e->shoff > e->len || tbytes > e->len - e->shoff)
        return evt_elf_err(e, err, cap, "section header table outside the file", e->is64 ? 0x28u : 0x20u);
    if (tbytes > EVT_ELF_TABLE_MAX) return evt_elf_err(e, err, cap, "section header table larger than 16 MiB", e->shoff);
    if (!(e->sh = read_part(e->f, e->shoff, tbytes)))
        return evt_elf_err(e, err, cap, "cannot read the section headers", e->shoff);
    return 0;
}

int evt_elf_open(evt_elf *e, const char *path, char *err, size_t cap)
{
    memset(e, 0, sizeof *e);
    e->path = path;
    if (!(e->f = fopen(path, "rb"))) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc;
    if (fstat(fileno(e->f), &st) != 0) rc = evt_elf_err(e, err, cap, "cannot read it", 0);
    else if (S_ISDIR(st.st_mode)) rc = evt_elf_err(e, err, cap, "is a directory, not an ELF file", 0);
    else if (!S_ISREG(st.st_mode)) rc = evt_elf_err(e, err, cap, "not a regular file (an ELF file is read in parts)", 0);
    else {
        e->len = (uint64_t)st.st_size;
        rc = read_header(e, err, cap);
    }
    if (rc != 0) evt_elf_close(e);
    return rc;
}

void evt_elf_sec_at(const evt_elf *e, unsigned i, evt_elf_sec *s)
{
    evt_cur c; /* i < shnum: the whole header is inside the table (shentsize >= the class's size) */
    uint64_t at = (uint64_t)i * e->shentsize;
    evt_cur_init(&c, e->sh + at, e->shentsize, e->shoff + at, e->big);
    s->hoff = e->shoff + at;
    s->name = evt_cur_u32(&c);
    s->type = evt_cur_u32(&c);
    if (e->is64) {
        evt_cur_skip(&c, 8); /* flags */
        s->addr = evt_cur_u64(&c);
        s->off = evt_cur_u64(&c);
        s->size = evt_cur_u64(&c);
        s->link = evt_cur_u32(&c);
        evt_cur_skip(&c, 12); /* info, addralign */
        s->entsize = evt_cur_u64(&c);
    } else {
        evt_cur_skip(&c, 4);
        s->addr = evt_cur_u32(&c);
        s->off = evt_cur_u32(&c);
        s->size = evt_cur_u32(&c);
        s->link = evt_cur_u32(&c);
        evt_cur_skip(&c, 8);
        s->entsize = evt_cur_u32(&c);
    }
}

uint8_t *evt_elf_read_sec(evt_elf *e, const evt_elf_sec *s, uint64_t max, const char *what, char *err, size_t cap)
{
    char msg[96];
    if (s->off > e->len || s->size > e->len - s->off) {
        snprintf(msg, sizeof msg, "%s outside the file", what);
        evt_elf_err(e, err, cap, msg, s->hoff);
        return NULL;
    }
    if (s->size > max) {
        snprintf(msg, sizeof msg, "%s larger than %llu MiB", what, (unsigned long long)(max >> 20));
        evt_elf_err(e, err, cap, msg, s->hoff);
        return NULL;
    }
    uint8_t *b = read_part(e->f, s->off, s->size);
    if (!b) {
        snprintf(msg, sizeof msg, "cannot read %s", what);
        evt_elf_err(e, err, cap, msg, s->off);
    }
    return b;
}

void evt_elf_close(evt_elf *e)
{
    if (e->f) fclose(e->f);
    evt_free(e->sh);
    e->f = NULL;
    e->sh = NULL;
}
