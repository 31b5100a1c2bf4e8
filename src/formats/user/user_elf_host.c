/* User events, host side: the sites of an ELF file's section .evt_user (evtrace/user.h, ELF mode),
 * read field by field through the bounded cursor: ELF header, section headers, the section name
 * table, then the section itself, walked site by site (evt_user_site_hdr, channel, text, 4-byte
 * aligned). The anchor site ("EVTUANCHOR") gives the file address the ANCHOR record relocates. */
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/user_defs.h"
#include "formats/common/cursor.h"
#include "formats/user/user_dec.h"
#include "formats/user/user_dec_impl.h"

#define ELF_MAX_BYTES (256u << 20) /* larger files are refused */

/* Fields at a position in the file's byte order (0 and a sticky error when outside). */
static uint16_t u16at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u16(c) : (c->err = 1, 0); }
static uint32_t u32at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u32(c) : (c->err = 1, 0); }
static uint64_t u64at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u64(c) : (c->err = 1, 0); }

static int err_(char *err, size_t cap, const char *msg, uint64_t off)
{
    snprintf(err, cap, "%s (byte %llu)", msg, (unsigned long long)off);
    return -1;
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

int evt_user_dec_load_elf(evt_user_dec *d, const char *path, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return err_(err, errcap, "cannot open the file", 0);
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t nc = cap ? cap * 2 : 1u << 16;
            if (nc > ELF_MAX_BYTES) { fclose(f); evt_free(buf); return err_(err, errcap, "file too large", len); }
            uint8_t *p = evt_realloc(buf, nc);
            if (!p) { fclose(f); evt_free(buf); return err_(err, errcap, "out of memory", len); }
            buf = p;
            cap = nc;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    fclose(f);
    int rc = -1;
    if (len < 52 || memcmp(buf, "\177ELF", 4) != 0) { err_(err, errcap, "not an ELF file", 0); goto out; }
    int is64 = buf[4] == 2, big = buf[5] == 2;
    evt_cur c;
    evt_cur_init(&c, buf, len, 0, big);
    uint64_t shoff = is64 ? u64at(&c, 0x28) : u32at(&c, 0x20);
    uint16_t shentsize = u16at(&c, is64 ? 0x3A : 0x2E);
    uint16_t shnum = u16at(&c, is64 ? 0x3C : 0x30);
    uint16_t shstrndx = u16at(&c, is64 ? 0x3E : 0x32);
    if (!evt_cur_ok(&c)) { err_(err, errcap, "ELF header cut short", (uint64_t)0); goto out; }
    if (shstrndx >= shnum || shentsize < (is64 ? 64 : 40)) { err_(err, errcap, "no section name table", 0); goto out; }
    uint64_t str_off = 0, str_size = 0;
    {
        uint64_t h = shoff + (uint64_t)shstrndx * shentsize;
        str_off = is64 ? u64at(&c, h + 0x18) : u32at(&c, h + 0x10);
        str_size = is64 ? u64at(&c, h + 0x20) : u32at(&c, h + 0x14);
    }
    if (!evt_cur_ok(&c) || str_off > len || str_size > len - str_off) {
        err_(err, errcap, "section name table outside the file", shoff);
        goto out;
    }
    int found = 0, sections = 0;
    for (uint16_t i = 0; i < shnum; i++) {
        uint64_t h = shoff + (uint64_t)i * shentsize;
        uint32_t name = u32at(&c, h), type = u32at(&c, h + 4);
        uint64_t addr = is64 ? u64at(&c, h + 0x10) : u32at(&c, h + 0x0C);
        uint64_t off = is64 ? u64at(&c, h + 0x18) : u32at(&c, h + 0x10);
        uint64_t size = is64 ? u64at(&c, h + 0x20) : u32at(&c, h + 0x14);
        if (!evt_cur_ok(&c)) { err_(err, errcap, "section headers cut short", h); goto out; }
        if (name >= str_size || type == 8 /* NOBITS: no contents in the file */) continue;
        const char *nm = (const char *)buf + str_off + name;
        if (strnlen(nm, str_size - name) != 9 || memcmp(nm, ".evt_user", 9) != 0) continue;
        if (off > len || size > len - off) { err_(err, errcap, "section .evt_user outside the file", h); goto out; }
        sections++;
        int k = add_sites(d, buf + off, (size_t)size, addr, big);
        if (k < 0) { err_(err, errcap, "out of memory", off); goto out; }
        found += k;
    }
    if (!sections) { err_(err, errcap, "no section .evt_user with contents (built with EVT_CFG_USER_ELF 1?)", 0); goto out; }
    (void)found;
    rc = 0;
out:
    evt_free(buf);
    return rc;
}
