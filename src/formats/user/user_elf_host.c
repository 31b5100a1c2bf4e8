/* User events, host side: the sites of an ELF file's section .evt_user (evtrace/user.h, ELF mode),
 * read field by field through the bounded cursor: ELF header, section headers, the section name
 * table, then the section itself, walked site by site (evt_user_site_hdr, channel, text, 4-byte
 * aligned). The anchor site ("EVTUANCHOR") gives the file address the ANCHOR record relocates.
 * Only those parts are read (a firmware ELF with its debug information may be large), from a
 * regular file, each part capped. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "evtrace/alloc.h"
#include "evtrace/user_defs.h"
#include "formats/common/cursor.h"
#include "formats/user/user_dec.h"
#include "formats/user/user_dec_impl.h"

#define ELF_TABLE_MAX (16u << 20) /* section header table, section name table: larger is damage */
#define ELF_SITES_MAX (64u << 20) /* section .evt_user */

/* Fields at a position in the file's byte order (0 and a sticky error when outside). */
static uint16_t u16at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u16(c) : (c->err = 1, 0); }
static uint32_t u32at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u32(c) : (c->err = 1, 0); }
static uint64_t u64at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u64(c) : (c->err = 1, 0); }

static int err_(char *err, size_t cap, const char *path, const char *msg, uint64_t off)
{
    snprintf(err, cap, "%s: %s (byte %llu)", path, msg, (unsigned long long)off);
    return -1;
}

/* Bytes [off, off + n) of f in a new buffer (the caller frees), NULL on a short read or no memory. */
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

/* Walk the section's bytes b[0..n) at file address addr: every 4-aligned site with the magic. */
static int add_sites(evt_user_dec *d, const uint8_t *b, size_t n, uint64_t addr, int big)
{
    evt_cur c;
    evt_cur_init(&c, b, n, 0, big);
    size_t at = 0;
    int found = 0;
    while (at + EVT_USER_SITE_HDR_SIZE <= n) {
        if (u32at(&c, at) != EVT_USER_SITE_MAGIC) {
            at += 4;
            continue;
        }
        uint32_t sig = u32at(&c, at + 4);
        uint16_t chl = u16at(&c, at + 8), txl = u16at(&c, at + 10);
        uint8_t kind = b[at + 12];
        size_t end = at + EVT_USER_SITE_HDR_SIZE + (size_t)chl + txl;
        if (end > n || chl == 0 || txl == 0) {
            at += 4;
            continue;
        }
        const char *ch = (const char *)b + at + EVT_USER_SITE_HDR_SIZE;
        if (kind == 0 && chl == 11 && memcmp(ch, "EVTUANCHOR", 11) == 0) {
            d->elf_anchor = addr + at;
            d->have_elf_anchor = 1;
        } else if (evt_user_dec_add_site(d, addr + at, kind, sig, ch, chl, ch + chl, txl, 1) != 0) {
            return -1;
        }
        found++;
        at = (end + 3u) & ~(size_t)3u;
    }
    if (d->have_elf_anchor && d->have_run_anchor) d->reloc = d->run_anchor - d->elf_anchor;
    return found;
}

/* The sites of f (len bytes); 0, or -1 with err set. */
static int load(evt_user_dec *d, FILE *f, uint64_t len, const char *path, char *err, size_t errcap)
{
    uint8_t h[64];
    size_t hn = fread(h, 1, sizeof h, f);
    if (hn < 52 || memcmp(h, "\177ELF", 4) != 0) return err_(err, errcap, path, "not an ELF file", 0);
    int is64 = h[4] == 2, big = h[5] == 2;
    evt_cur c;
    evt_cur_init(&c, h, hn, 0, big);
    uint64_t shoff = is64 ? u64at(&c, 0x28) : u32at(&c, 0x20);
    uint16_t shentsize = u16at(&c, is64 ? 0x3A : 0x2E);
    uint16_t shnum = u16at(&c, is64 ? 0x3C : 0x30);
    uint16_t shstrndx = u16at(&c, is64 ? 0x3E : 0x32);
    if (!evt_cur_ok(&c)) return err_(err, errcap, path, "ELF header cut short", hn);
    if (shstrndx >= shnum || shentsize < (is64 ? 64 : 40)) return err_(err, errcap, path, "no section name table", 0);
    uint64_t tbytes = (uint64_t)shnum * shentsize;
    if (shoff > len || tbytes > len - shoff) return err_(err, errcap, path, "section headers outside the file", shoff);
    if (tbytes > ELF_TABLE_MAX) return err_(err, errcap, path, "section header table larger than 16 MiB", shoff);
    uint8_t *sh = read_part(f, shoff, tbytes), *names = NULL, *sec = NULL;
    if (!sh) return err_(err, errcap, path, "cannot read the section headers", shoff);
    int rc = -1;
    evt_cur_init(&c, sh, (size_t)tbytes, 0, big);
    uint64_t sh_str = (uint64_t)shstrndx * shentsize;
    uint64_t str_off = is64 ? u64at(&c, sh_str + 0x18) : u32at(&c, sh_str + 0x10);
    uint64_t str_size = is64 ? u64at(&c, sh_str + 0x20) : u32at(&c, sh_str + 0x14);
    if (!evt_cur_ok(&c) || str_off > len || str_size > len - str_off) {
        err_(err, errcap, path, "section name table outside the file", shoff + sh_str);
        goto out;
    }
    if (str_size > ELF_TABLE_MAX) { err_(err, errcap, path, "section name table larger than 16 MiB", shoff + sh_str); goto out; }
    if (!(names = read_part(f, str_off, str_size))) { err_(err, errcap, path, "cannot read the section name table", str_off); goto out; }
    int sections = 0;
    for (uint16_t i = 0; i < shnum; i++) {
        uint64_t at = (uint64_t)i * shentsize, hoff = shoff + at;
        uint32_t name = u32at(&c, at), type = u32at(&c, at + 4);
        uint64_t addr = is64 ? u64at(&c, at + 0x10) : u32at(&c, at + 0x0C);
        uint64_t off = is64 ? u64at(&c, at + 0x18) : u32at(&c, at + 0x10);
        uint64_t size = is64 ? u64at(&c, at + 0x20) : u32at(&c, at + 0x14);
        if (!evt_cur_ok(&c)) { err_(err, errcap, path, "section headers cut short", hoff); goto out; }
        if (name >= str_size || type == 8 /* NOBITS: no contents in the file */) continue;
        const char *nm = (const char *)names + name;
        if (strnlen(nm, (size_t)(str_size - name)) != 9 || memcmp(nm, ".evt_user", 9) != 0) continue;
        if (off > len || size > len - off) { err_(err, errcap, path, "section .evt_user outside the file", hoff); goto out; }
        if (size > ELF_SITES_MAX) { err_(err, errcap, path, "section .evt_user larger than 64 MiB", hoff); goto out; }
        if (!(sec = read_part(f, off, size))) { err_(err, errcap, path, "cannot read section .evt_user", off); goto out; }
        sections++;
        int k = add_sites(d, sec, (size_t)size, addr, big);
        evt_free(sec);
        sec = NULL;
        if (k < 0) { err_(err, errcap, path, "out of memory", off); goto out; }
    }
    if (!sections) { err_(err, errcap, path, "no section .evt_user with contents (built with EVT_CFG_USER_ELF 1?)", 0); goto out; }
    rc = 0;
out:
    evt_free(sh);
    evt_free(names);
    return rc;
}

int evt_user_dec_load_elf(evt_user_dec *d, const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errcap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc;
    if (fstat(fileno(f), &st) != 0) rc = err_(err, errcap, path, "cannot read it", 0);
    else if (S_ISDIR(st.st_mode)) rc = err_(err, errcap, path, "is a directory, not an ELF file", 0);
    else if (!S_ISREG(st.st_mode)) rc = err_(err, errcap, path, "not a regular file (an ELF file is read in parts)", 0);
    else rc = load(d, f, (uint64_t)st.st_size, path, err, errcap);
    fclose(f);
    return rc;
}
