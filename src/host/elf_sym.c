/* A symbol's value from an ELF file (--elf FILE: where `_SEGGER_RTT` is): the section headers, the
 * symbol tables (.symtab, else .dynsym) and their string tables, read field by field with the
 * bounded cursor in the file's own class (32/64-bit) and byte order. Facts: the System V ABI's
 * ELF header, section header and symbol layouts. */
#include "evtrace/source_remote.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"

#define ELF_MAX (256u << 20) /* larger files are refused, not loaded */
#define SHT_SYMTAB 2u
#define SHT_DYNSYM 11u

typedef struct elf_sec {
    uint32_t type, link;
    uint64_t off, size, entsize;
} elf_sec;

static int read_sec(const uint8_t *f, size_t n, int is64, int big, uint64_t at, elf_sec *s)
{
    evt_cur c;
    evt_cur_init(&c, f, n, 0, big);
    if (!evt_cur_at(&c, at > n ? n + 1 : (size_t)at)) return 0;
    evt_cur_skip(&c, 4); /* sh_name */
    s->type = evt_cur_u32(&c);
    if (is64) {
        evt_cur_skip(&c, 16); /* flags, addr */
        s->off = evt_cur_u64(&c);
        s->size = evt_cur_u64(&c);
        s->link = evt_cur_u32(&c);
        evt_cur_skip(&c, 12); /* info, addralign */
        s->entsize = evt_cur_u64(&c);
    } else {
        evt_cur_skip(&c, 8);
        s->off = evt_cur_u32(&c);
        s->size = evt_cur_u32(&c);
        s->link = evt_cur_u32(&c);
        evt_cur_skip(&c, 8);
        s->entsize = evt_cur_u32(&c);
    }
    return evt_cur_ok(&c) && s->off <= n && s->size <= n - s->off;
}

/* Search one symbol table; 1 and *value when found. */
static int find_in(const uint8_t *f, int is64, int big, const elf_sec *sym, const elf_sec *str,
                   const char *name, uint64_t *value)
{
    size_t esz = is64 ? 24u : 16u, nl = strlen(name);
    if (sym->entsize && sym->entsize < esz) return 0;
    size_t step = sym->entsize ? (size_t)sym->entsize : esz;
    for (uint64_t at = 0; at + esz <= sym->size; at += step) {
        evt_cur c;
        evt_cur_init(&c, f + sym->off + at, esz, sym->off + at, big);
        uint32_t nm = evt_cur_u32(&c);
        uint64_t v;
        if (is64) { evt_cur_skip(&c, 4); v = evt_cur_u64(&c); }
        else v = evt_cur_u32(&c);
        if (nm >= str->size || str->size - nm <= nl) continue;
        const char *s = (const char *)f + str->off + nm;
        if (memcmp(s, name, nl) == 0 && s[nl] == '\0') { *value = v; return 1; }
    }
    return 0;
}

int evt_elf_symbol(const char *path, const char *name, uint64_t *value, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) { snprintf(err, errlen, "cannot open: %s", strerror(errno)); return 0; }
    uint8_t *f = NULL;
    size_t n = 0;
    int found = 0;
    if (fseeko(fp, 0, SEEK_END) == 0) {
        off_t sz = ftello(fp);
        if (sz >= 0 && (uint64_t)sz <= ELF_MAX && fseeko(fp, 0, SEEK_SET) == 0 && (f = evt_malloc((size_t)sz + 1))) {
            n = fread(f, 1, (size_t)sz, fp);
            if (n != (size_t)sz) n = 0;
        }
    }
    fclose(fp);
    if (!f || n < 52 || memcmp(f, "\x7f" "ELF", 4) != 0 || (f[4] != 1 && f[4] != 2) || (f[5] != 1 && f[5] != 2)) {
        snprintf(err, errlen, "%s", !f ? "cannot read it (or larger than 256 MiB)" : "offset 0 (0x0): not an ELF file");
        evt_free(f);
        return 0;
    }
    int is64 = f[4] == 2, big = f[5] == 2;
    evt_cur c;
    evt_cur_init(&c, f, n, 0, big);
    evt_cur_at(&c, is64 ? 0x28u : 0x20u);
    uint64_t shoff = is64 ? evt_cur_u64(&c) : evt_cur_u32(&c);
    evt_cur_at(&c, is64 ? 0x3Au : 0x2Eu);
    uint16_t shentsize = evt_cur_u16(&c), shnum = evt_cur_u16(&c);
    if (!evt_cur_ok(&c) || shentsize < (is64 ? 64u : 40u) || shoff > n || (uint64_t)shnum * shentsize > n - shoff) {
        snprintf(err, errlen, "offset %u (0x%x): bad section header table (offset %llu, %u entries of %u bytes)",
                 is64 ? 0x28u : 0x20u, is64 ? 0x28u : 0x20u, (unsigned long long)shoff, shnum, shentsize);
        evt_free(f);
        return 0;
    }
    int tables = 0;
    for (uint32_t want = SHT_SYMTAB; !found; want = SHT_DYNSYM) {
        for (uint16_t i = 0; i < shnum && !found; i++) {
            elf_sec s, str;
            if (!read_sec(f, n, is64, big, shoff + (uint64_t)i * shentsize, &s) || s.type != want) continue;
            if (s.link >= shnum || !read_sec(f, n, is64, big, shoff + (uint64_t)s.link * shentsize, &str)) continue;
            tables++;
            found = find_in(f, is64, big, &s, &str, name, value);
        }
        if (want == SHT_DYNSYM) break;
    }
    if (!found) snprintf(err, errlen, tables ? "no symbol '%s'" : "no symbol table (stripped?): cannot find '%s'", name);
    evt_free(f);
    return found;
}
