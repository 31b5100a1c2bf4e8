/* A symbol's value from an ELF file (--elf FILE: where `_SEGGER_RTT` is): the symbol tables
 * (.symtab, else .dynsym) and their string tables, read in parts (host/elf_file.h: only those
 * sections, each capped) and field by field with the bounded cursor in the file's own class
 * (32/64-bit) and byte order. Facts: the System V ABI's symbol layout. */
#include "evtrace/source_remote.h"

#include <stdio.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"
#include "host/elf_file.h"

#define SYMTAB_MAX (256u << 20) /* a symbol table or its strings: larger is refused */

/* Search one symbol table (sym: its bytes, str: its string table's); 1 and *value when found. */
static int find_in(const evt_elf *e, const evt_elf_sec *ss, const uint8_t *sym, const evt_elf_sec *ts,
                   const uint8_t *str, const char *name, uint64_t *value)
{
    size_t esz = e->is64 ? 24u : 16u, nl = strlen(name);
    if (ss->entsize && ss->entsize < esz) return 0;
    size_t step = ss->entsize ? (size_t)ss->entsize : esz;
    for (uint64_t at = 0; at + esz <= ss->size; at += step) {
        evt_cur c;
        evt_cur_init(&c, sym + at, esz, ss->off + at, e->big);
        uint32_t nm = evt_cur_u32(&c);
        uint64_t v;
        if (e->is64) { evt_cur_skip(&c, 4); v = evt_cur_u64(&c); }
        else v = evt_cur_u32(&c);
        if (nm >= ts->size || ts->size - nm <= nl) continue;
        const char *s = (const char *)str + nm;
        if (memcmp(s, name, nl) == 0 && s[nl] == '\0') { *value = v; return 1; }
    }
    return 0;
}

/* The symbol in section i when it is a table of type want: 1 found, 0 not, -1 error (err). */
static int search_sec(evt_elf *e, unsigned i, uint32_t want, const char *name, uint64_t *value, int *tables, char *err,
                      size_t errlen)
{
    evt_elf_sec ss, ts;
    evt_elf_sec_at(e, i, &ss);
    if (ss.type != want || ss.link >= e->shnum) return 0;
    evt_elf_sec_at(e, ss.link, &ts);
    uint8_t *sym = evt_elf_read_sec(e, &ss, SYMTAB_MAX, "symbol table", err, errlen), *str = NULL;
    if (sym) str = evt_elf_read_sec(e, &ts, SYMTAB_MAX, "symbol string table", err, errlen);
    int rc = -1;
    if (str) {
        ++*tables;
        rc = find_in(e, &ss, sym, &ts, str, name, value);
    }
    evt_free(sym);
    evt_free(str);
    return rc;
}

int evt_elf_symbol(const char *path, const char *name, uint64_t *value, char *err, size_t errlen)
{
    evt_elf e;
    if (evt_elf_open(&e, path, err, errlen) != 0) return 0;
    int found = 0, tables = 0;
    for (uint32_t want = EVT_ELF_SHT_SYMTAB; !found; want = EVT_ELF_SHT_DYNSYM) {
        for (unsigned i = 0; i < e.shnum && !found; i++) {
            found = search_sec(&e, i, want, name, value, &tables, err, errlen);
            if (found < 0) { evt_elf_close(&e); return 0; }
        }
        if (want == EVT_ELF_SHT_DYNSYM) break;
    }
    evt_elf_close(&e);
    if (!found) snprintf(err, errlen, tables ? "no symbol '%s'" : "no symbol table (stripped?): cannot find '%s'", name);
    return found;
}
