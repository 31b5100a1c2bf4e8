/* User events, host side: the sites of an ELF file's section .evt_user (evtrace/user.h, ELF mode),
 * read field by field through the bounded cursor: ELF header, section headers, the section name
 * table, then the section itself, walked site by site (evt_user_site_hdr, channel, text, 4-byte
 * aligned). The anchor site ("EVTUANCHOR") gives the file address the ANCHOR record relocates.
 * Only those parts are read (host/elf_file.h: a firmware ELF with its debug information may be
 * large), from a regular file, each part capped. */
#include <string.h>
#include "evtrace/alloc.h"
#include "evtrace/user_defs.h"
#include "formats/common/cursor.h"
#include "formats/user/user_dec.h"
#include "formats/user/user_dec_impl.h"
#include "host/elf_file.h"

#define ELF_SITES_MAX (64u << 20) /* section .evt_user */

/* A field at a position in the file's byte order (0 and a sticky error when outside). */
static uint16_t u16at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u16(c) : (c->err = 1, 0); }
static uint32_t u32at(evt_cur *c, uint64_t pos) { return pos < c->len && evt_cur_at(c, (size_t)pos) ? evt_cur_u32(c) : (c->err = 1, 0); }

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

/* The sites of the sections named .evt_user; 0, or -1 with err set. */
static int load(evt_user_dec *d, evt_elf *e, char *err, size_t errcap)
{
    evt_elf_sec str;
    if (e->shstrndx >= e->shnum) return evt_elf_err(e, err, errcap, "no section name table", e->is64 ? 0x3E : 0x32);
    evt_elf_sec_at(e, e->shstrndx, &str);
    uint8_t *names = evt_elf_read_sec(e, &str, EVT_ELF_TABLE_MAX, "section name table", err, errcap);
    if (!names) return -1;
    int sections = 0, rc = 0;
    for (unsigned i = 0; i < e->shnum && rc == 0; i++) {
        evt_elf_sec sec;
        evt_elf_sec_at(e, i, &sec);
        if (sec.name >= str.size || sec.type == EVT_ELF_SHT_NOBITS /* no contents in the file */) continue;
        const char *nm = (const char *)names + sec.name;
        if (strnlen(nm, (size_t)(str.size - sec.name)) != 9 || memcmp(nm, ".evt_user", 9) != 0) continue;
        uint8_t *b = evt_elf_read_sec(e, &sec, ELF_SITES_MAX, "section .evt_user", err, errcap);
        if (!b) { rc = -1; break; }
        sections++;
        if (add_sites(d, b, (size_t)sec.size, sec.addr, e->big) < 0) rc = evt_elf_err(e, err, errcap, "out of memory", sec.off);
        evt_free(b);
    }
    evt_free(names);
    if (rc == 0 && !sections) rc = evt_elf_err(e, err, errcap, "no section .evt_user with contents (built with EVT_CFG_USER_ELF 1?)", 0);
    return rc;
}

int evt_user_dec_load_elf(evt_user_dec *d, const char *path, char *err, size_t errcap)
{
    evt_elf e;
    if (evt_elf_open(&e, path, err, errcap) != 0) return -1;
    int rc = load(d, &e, err, errcap);
    evt_elf_close(&e);
    return rc;
}
