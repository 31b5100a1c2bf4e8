/* XRay instrumentation map loader: llvm-xray's YAML (one flow mapping per sled line) and ELF64
 * little-endian binaries (xray_instr_map section, ids assigned as the runtime does, names from
 * .symtab/.dynsym). Facts: shared/formats/xray.md §9. */
#include "formats/xray/xray_map.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"
#include "formats/xray/xray_defs.h"

/* Add (or complete) the entry for id. Returns 0, or -1 when out of memory. */
static int map_put(xray_map *m, uint32_t id, uint64_t addr, const char *name, size_t nlen)
{
    if (m->n && m->fn[m->n - 1].id == id) { /* sleds of one function are adjacent */
        xray_map_fn *f = &m->fn[m->n - 1];
        if (!f->name && name && nlen) {
            f->name = evt_malloc(nlen + 1);
            if (!f->name) return -1;
            memcpy(f->name, name, nlen);
            f->name[nlen] = 0;
        }
        return 0;
    }
    if (m->n == m->cap) {
        uint32_t nc = m->cap ? m->cap * 2 : 64;
        xray_map_fn *v = evt_realloc(m->fn, (size_t)nc * sizeof *v);
        if (!v) return -1;
        m->fn = v;
        m->cap = nc;
    }
    xray_map_fn *f = &m->fn[m->n];
    f->id = id;
    f->addr = addr;
    f->name = NULL;
    if (name && nlen) {
        f->name = evt_malloc(nlen + 1);
        if (!f->name) return -1;
        memcpy(f->name, name, nlen);
        f->name[nlen] = 0;
    }
    m->n++;
    return 0;
}

static int cmp_fn(const void *a, const void *b)
{
    const xray_map_fn *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Sort by id and merge duplicates (keeping the first name). */
static void map_finish(xray_map *m)
{
    qsort(m->fn, m->n, sizeof *m->fn, cmp_fn);
    uint32_t w = 0;
    for (uint32_t i = 0; i < m->n; i++) {
        if (w && m->fn[w - 1].id == m->fn[i].id) {
            if (!m->fn[w - 1].name) { m->fn[w - 1].name = m->fn[i].name; m->fn[i].name = NULL; }
            evt_free(m->fn[i].name);
            continue;
        }
        m->fn[w++] = m->fn[i];
    }
    m->n = w;
}

const char *xray_map_name(const xray_map *m, uint32_t id)
{
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->fn[mid].id < id) lo = mid + 1; else hi = mid;
    }
    return (lo < m->n && m->fn[lo].id == id) ? m->fn[lo].name : NULL;
}

void xray_map_free(xray_map *m)
{
    for (uint32_t i = 0; i < m->n; i++) evt_free(m->fn[i].name);
    evt_free(m->fn);
    memset(m, 0, sizeof *m);
}

/* ---- YAML ------------------------------------------------------------------------------------- */

/* Parse one "- { key: value, ... }" line of len bytes through the bounded cursor (a NUL in the
 * line ends it). Returns 1 with id, addr and name set, 0 if the line is not an entry, -1 if it is a
 * malformed entry. A quoted name is unquoted into unq (unqlen >= len + 1); an unquoted one points
 * into the line. */
static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }
static int at_end(int ch) { return ch < 0 || ch == 0 || ch == '\n' || ch == '\r'; }
static void skip_blanks(evt_cur *c)
{
    while (is_blank(evt_cur_peek(c))) evt_cur_skip(c, 1);
}

/* Copy a quoted value (the opening quote consumed) into unq, undoing '' or \x; 0 if unterminated. */
static int unquote(evt_cur *c, int q, char *unq, size_t unqlen, size_t *vlen)
{
    size_t o = 0;
    for (;;) {
        int ch = evt_cur_peek(c);
        if (at_end(ch)) return 0;
        evt_cur_skip(c, 1);
        if (ch == q) {
            if (q == '\'' && evt_cur_peek(c) == '\'') { /* '' is one quote */
                evt_cur_skip(c, 1);
            } else {
                break;
            }
        } else if (q == '"' && ch == '\\' && !at_end(evt_cur_peek(c))) {
            ch = evt_cur_u8(c);
        }
        if (o + 1 < unqlen) unq[o++] = (char)ch;
    }
    unq[o] = 0;
    *vlen = o;
    return 1;
}

/* A number value of at most 31 characters; 0 if it is not one. */
static int number_value(const char *v, size_t vlen, unsigned long long *out)
{
    char tmp[32], *e;
    if (vlen == 0 || vlen >= sizeof tmp) return 0;
    memcpy(tmp, v, vlen);
    tmp[vlen] = 0;
    errno = 0;
    *out = strtoull(tmp, &e, 0);
    return *e == 0 && errno == 0;
}

static int yaml_entry(const char *line, size_t len, uint32_t *id, uint64_t *addr, const char **name,
                      size_t *nlen, char *unq, size_t unqlen)
{
    evt_cur c;
    evt_cur_init(&c, line, len, 0, 0);
    skip_blanks(&c);
    if (evt_cur_peek(&c) != '-' || !is_blank(evt_cur_peek_at(&c, 1))) return 0;
    evt_cur_skip(&c, 1);
    skip_blanks(&c);
    if (evt_cur_peek(&c) != '{') return 0;
    evt_cur_skip(&c, 1);
    int have_id = 0;
    *addr = 0;
    *name = NULL;
    *nlen = 0;
    for (;;) {
        while (is_blank(evt_cur_peek(&c)) || evt_cur_peek(&c) == ',') evt_cur_skip(&c, 1);
        int ch = evt_cur_peek(&c);
        if (ch == '}' || at_end(ch)) break;
        size_t k0 = c.pos;
        while (!at_end(ch = evt_cur_peek(&c)) && ch != ':' && ch != '}') evt_cur_skip(&c, 1);
        if (ch != ':') return -1;
        const char *k = line + k0;
        size_t klen = c.pos - k0;
        evt_cur_skip(&c, 1);
        skip_blanks(&c);
        const char *v;
        size_t vlen;
        int quoted = 0;
        ch = evt_cur_peek(&c);
        if (ch == '\'' || ch == '"') {
            evt_cur_skip(&c, 1);
            if (!unquote(&c, ch, unq, unqlen, &vlen)) return -1;
            v = unq;
            quoted = 1;
        } else {
            size_t v0 = c.pos;
            while (!at_end(ch = evt_cur_peek(&c)) && ch != ',' && ch != '}') evt_cur_skip(&c, 1);
            v = line + v0;
            vlen = c.pos - v0;
            while (vlen && is_blank((unsigned char)v[vlen - 1])) vlen--;
        }
        unsigned long long x;
        if (klen == 2 && memcmp(k, "id", 2) == 0) {
            if (!number_value(v, vlen, &x) || x > 0xFFFFFFFFull) return -1;
            *id = (uint32_t)x;
            have_id = 1;
        } else if (klen == 8 && memcmp(k, "function", 8) == 0) {
            if (!quoted && number_value(v, vlen, &x)) *addr = x;
        } else if (klen == 13 && memcmp(k, "function-name", 13) == 0) {
            *name = v;
            *nlen = vlen;
        }
    }
    return have_id ? 1 : -1;
}

#define XRAY_MAP_LINE_MAX (1u << 20) /* bytes of one YAML line at most (a sled entry is < 1 KiB) */

/* The next line of f (with its newline) into *buf (grown, at most XRAY_MAP_LINE_MAX bytes), its
 * length in *len: 1, 0 at the end of the file, -1 a line longer than the limit (/dev/zero, a binary
 * file: getline grew its buffer without end), -2 out of memory. */
static int map_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
    size_t n = 0;
    int ch = EOF;
    while ((ch = getc(f)) != EOF) {
        if (n + 1 >= *cap) {
            if (*cap >= XRAY_MAP_LINE_MAX) return -1;
            size_t nc = *cap ? 2 * *cap : 256;
            if (nc > XRAY_MAP_LINE_MAX) nc = XRAY_MAP_LINE_MAX;
            char *q = evt_realloc(*buf, nc);
            if (!q) return -2;
            *buf = q;
            *cap = nc;
        }
        (*buf)[n++] = (char)ch;
        if (ch == '\n') break;
    }
    if (n == 0 && ch == EOF) return 0;
    (*buf)[n] = 0;
    *len = n;
    return 1;
}

static int load_yaml(xray_map *m, FILE *f, const char *path, char *err, size_t errlen)
{
    char *line = NULL, *unq = NULL;
    size_t cap = 0, got = 0;
    int more;
    unsigned long lineno = 0;
    int rc = 0;
    m->source = "yaml";
    while ((more = map_line(f, &line, &cap, &got)) > 0) {
        lineno++;
        if (m->n == 0 && lineno > 1000) { /* llvm-xray's map starts with its entries (after "---") */
            snprintf(err, errlen, "%s: no instrumentation map entry ('- { id: N, ... }') in the first 1000 lines", path);
            rc = -1;
            break;
        }
        uint32_t id = 0;
        uint64_t addr;
        const char *name;
        size_t nlen;
        evt_free(unq);
        unq = evt_malloc((size_t)got + 1);
        if (!unq) { snprintf(err, errlen, "%s: out of memory", path); rc = -1; break; }
        int e = yaml_entry(line, (size_t)got, &id, &addr, &name, &nlen, unq, (size_t)got + 1);
        if (e < 0) {
            snprintf(err, errlen, "%s: line %lu: not an instrumentation map entry ('- { id: N, ... }')", path, lineno);
            rc = -1;
            break;
        }
        if (e == 0) continue;
        if (map_put(m, id, addr, name, nlen) < 0) { snprintf(err, errlen, "%s: out of memory", path); rc = -1; break; }
    }
    evt_free(line);
    evt_free(unq);
    if (rc == 0 && more == -1) {
        snprintf(err, errlen, "%s: line %lu is longer than %u bytes: not an instrumentation map", path, lineno + 1,
                 (unsigned)XRAY_MAP_LINE_MAX);
        rc = -1;
    } else if (rc == 0 && more == -2) {
        snprintf(err, errlen, "%s: out of memory", path);
        rc = -1;
    } else if (rc == 0 && ferror(f)) { /* a read error is not the end of the map */
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && m->n == 0) {
        snprintf(err, errlen, "%s: no instrumentation map entries found (expected llvm-xray extract YAML or an ELF binary)", path);
        rc = -1;
    }
    return rc;
}

/* ---- ELF -------------------------------------------------------------------------------------- */

typedef struct elf_sec { uint32_t name, type; uint64_t addr, off, size; uint32_t link; uint64_t entsize; } elf_sec;
typedef struct elf_sym { uint64_t value; uint32_t name; } elf_sym;

/* Whether [off, off + size) lies inside a file of fsize bytes: checked before any allocation
 * sized from a header field, so a small file cannot ask for a large block. */
static int in_file(uint64_t off, uint64_t size, uint64_t fsize) { return off <= fsize && size <= fsize - off; }

static int read_at(FILE *f, uint64_t off, void *dst, size_t n)
{
    if (fseeko(f, (off_t)off, SEEK_SET) != 0) return -1;
    return fread(dst, 1, n, f) == n ? 0 : -1;
}

static int cmp_sym(const void *a, const void *b)
{
    const elf_sym *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

/* Load FUNC symbols of one symbol table (plus its string table). */
static int load_syms(FILE *f, uint64_t fsize, const elf_sec *secs, uint16_t nsec, uint32_t type, elf_sym **syms,
                     uint32_t *nsyms, char **strtab, uint64_t *strsize)
{
    for (uint16_t i = 0; i < nsec; i++) {
        const elf_sec *s = &secs[i];
        if (s->type != type || s->link >= nsec || s->size / 24 == 0) continue;
        const elf_sec *st = &secs[s->link];
        uint64_t n = s->size / 24;
        if (n > 0x4000000u || st->size > 0x40000000u || !in_file(s->off, s->size, fsize) ||
            !in_file(st->off, st->size, fsize))
            return -1;
        uint8_t *raw = evt_malloc((size_t)s->size);
        *strtab = evt_malloc((size_t)st->size + 1);
        *syms = evt_calloc((size_t)n, sizeof **syms);
        if (!raw || !*strtab || !*syms || read_at(f, s->off, raw, (size_t)s->size) ||
            read_at(f, st->off, *strtab, (size_t)st->size)) {
            evt_free(raw);
            return -1;
        }
        (*strtab)[st->size] = 0;
        *strsize = st->size;
        uint32_t k = 0;
        evt_cur c; /* Elf64_Sym[n]: name u32, info u8, other u8, shndx u16, value u64, size u64 */
        evt_cur_init(&c, raw, (size_t)n * 24, s->off, 0);
        for (uint64_t j = 0; j < n; j++) {
            uint32_t name = evt_cur_u32le(&c);
            uint8_t info = evt_cur_u8(&c);
            evt_cur_skip(&c, 3);
            uint64_t value = evt_cur_u64le(&c);
            evt_cur_skip(&c, 8);
            if ((info & 0xF) != 2 /* STT_FUNC */) continue;
            (*syms)[k].name = name;
            (*syms)[k].value = value;
            k++;
        }
        evt_free(raw);
        *nsyms = k;
        qsort(*syms, k, sizeof **syms, cmp_sym);
        return 0;
    }
    return 1; /* no such table */
}

static const char *sym_name(const elf_sym *syms, uint32_t n, const char *strtab, uint64_t strsize, uint64_t addr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (syms[mid].value < addr) lo = mid + 1; else hi = mid;
    }
    if (lo < n && syms[lo].value == addr && syms[lo].name < strsize) return strtab + syms[lo].name;
    return NULL;
}

static int load_elf(xray_map *m, FILE *f, const char *path, char *err, size_t errlen)
{
    uint8_t eh[64];
    m->source = "elf";
    if (read_at(f, 0, eh, sizeof eh)) { snprintf(err, errlen, "%s: ELF header truncated", path); return -1; }
    evt_cur hc; /* Elf64_Ehdr */
    evt_cur_init(&hc, eh, sizeof eh, 0, 0);
    uint8_t ei_class = evt_cur_u8_at(&hc, 4), ei_data = evt_cur_u8_at(&hc, 5);
    if (ei_class != 2 || ei_data != 1) {
        snprintf(err, errlen, "%s: only 64-bit little-endian ELF binaries are supported (class %u, data %u)", path, ei_class, ei_data);
        return -1;
    }
    if (fseeko(f, 0, SEEK_END) != 0) { snprintf(err, errlen, "%s: cannot size the file", path); return -1; }
    const uint64_t fsize = (uint64_t)ftello(f);
    uint64_t shoff = evt_cur_u64le_at(&hc, 0x28);        /* e_shoff */
    uint16_t shentsize = evt_cur_u16le_at(&hc, 0x3A);    /* e_shentsize, e_shnum, e_shstrndx */
    uint16_t shnum = evt_cur_u16le(&hc), shstrndx = evt_cur_u16le(&hc);
    if (shentsize != 64 || shnum == 0 || shstrndx >= shnum) {
        snprintf(err, errlen, "%s: ELF section header table unusable (offset 0x3a: entsize %u, %u sections)", path, shentsize, shnum);
        return -1;
    }
    if (!in_file(shoff, (uint64_t)shnum * 64, fsize)) {
        snprintf(err, errlen, "%s: ELF section headers at offset %llu lie past the end of the file (%llu bytes)", path,
                 (unsigned long long)shoff, (unsigned long long)fsize);
        return -1;
    }
    elf_sec *secs = evt_calloc(shnum, sizeof *secs);
    uint8_t *tab = evt_malloc((size_t)shnum * 64);
    char *shstr = NULL, *strtab = NULL;
    elf_sym *syms = NULL;
    uint8_t *map = NULL;
    uint32_t nsyms = 0;
    uint64_t strsize = 0;
    int rc = -1;
    if (!secs || !tab) { snprintf(err, errlen, "%s: out of memory", path); goto out; }
    if (read_at(f, shoff, tab, (size_t)shnum * 64)) {
        snprintf(err, errlen, "%s: ELF section headers at offset %llu truncated", path, (unsigned long long)shoff);
        goto out;
    }
    evt_cur tc; /* Elf64_Shdr[shnum] */
    evt_cur_init(&tc, tab, (size_t)shnum * 64, shoff, 0);
    for (uint16_t i = 0; i < shnum; i++) {
        secs[i].name = evt_cur_u32le(&tc);     /* sh_name */
        secs[i].type = evt_cur_u32le(&tc);     /* sh_type */
        evt_cur_skip(&tc, 8);                  /* sh_flags */
        secs[i].addr = evt_cur_u64le(&tc);     /* sh_addr */
        secs[i].off = evt_cur_u64le(&tc);      /* sh_offset */
        secs[i].size = evt_cur_u64le(&tc);     /* sh_size */
        secs[i].link = evt_cur_u32le(&tc);     /* sh_link */
        evt_cur_skip(&tc, 4 + 8);              /* sh_info, sh_addralign */
        secs[i].entsize = evt_cur_u64le(&tc);  /* sh_entsize */
    }
    const elf_sec *ss = &secs[shstrndx];
    if (!in_file(ss->off, ss->size, fsize) || !(shstr = evt_malloc((size_t)ss->size + 1)) || read_at(f, ss->off, shstr, (size_t)ss->size)) {
        snprintf(err, errlen, "%s: ELF section name table unreadable", path);
        goto out;
    }
    shstr[ss->size] = 0;
    const elf_sec *ms = NULL;
    for (uint16_t i = 0; i < shnum; i++)
        if (secs[i].name < ss->size && strcmp(shstr + secs[i].name, XRAY_MAP_SECTION) == 0) ms = &secs[i];
    if (!ms) { snprintf(err, errlen, "%s: no %s section (not built with -fxray-instrument?)", path, XRAY_MAP_SECTION); goto out; }
    if (!in_file(ms->off, ms->size, fsize)) {
        snprintf(err, errlen, "%s: %s section at offset %llu (%llu bytes) lies past the end of the file", path,
                 XRAY_MAP_SECTION, (unsigned long long)ms->off, (unsigned long long)ms->size);
        goto out;
    }
    if (ms->size % XRAY_MAP_ENTRY_SIZE || ms->size > 0x40000000u) {
        snprintf(err, errlen, "%s: %s section at offset %llu has size %llu, not a multiple of %u", path, XRAY_MAP_SECTION,
                 (unsigned long long)ms->off, (unsigned long long)ms->size, XRAY_MAP_ENTRY_SIZE);
        goto out;
    }
    map = evt_malloc((size_t)ms->size ? (size_t)ms->size : 1);
    if (!map || read_at(f, ms->off, map, (size_t)ms->size)) {
        snprintf(err, errlen, "%s: %s section at offset %llu unreadable", path, XRAY_MAP_SECTION, (unsigned long long)ms->off);
        goto out;
    }
    if (load_syms(f, fsize, secs, shnum, 2 /* SHT_SYMTAB */, &syms, &nsyms, &strtab, &strsize) != 0) {
        evt_free(syms); evt_free(strtab); syms = NULL; strtab = NULL; nsyms = 0;
        if (load_syms(f, fsize, secs, shnum, 11 /* SHT_DYNSYM */, &syms, &nsyms, &strtab, &strsize) != 0) {
            evt_free(syms); evt_free(strtab); syms = NULL; strtab = NULL; nsyms = 0;
        }
    }
    uint32_t id = 0;
    uint64_t prev_fn = 0;
    evt_cur mc; /* xray_instr_map entries */
    evt_cur_init(&mc, map, (size_t)ms->size, ms->off, 0);
    for (uint64_t i = 0; i < ms->size / XRAY_MAP_ENTRY_SIZE; i++) {
        evt_cur e;
        evt_cur_sub(&mc, XRAY_MAP_ENTRY_SIZE, &e);
        uint64_t entry_addr = ms->addr + i * XRAY_MAP_ENTRY_SIZE;
        uint64_t fn = evt_cur_u64le_at(&e, XRAY_MAP_FUNCTION);
        if (evt_cur_u8_at(&e, XRAY_MAP_VERSION) >= 2) fn = entry_addr + XRAY_MAP_FUNCTION + fn; /* PC-relative */
        if (i == 0 || fn != prev_fn) id++;
        prev_fn = fn;
        const char *nm = sym_name(syms, nsyms, strtab, strsize, fn);
        if (map_put(m, id, fn, nm, nm ? strlen(nm) : 0) < 0) { snprintf(err, errlen, "%s: out of memory", path); goto out; }
    }
    if (m->n == 0) { snprintf(err, errlen, "%s: %s section is empty", path, XRAY_MAP_SECTION); goto out; }
    rc = 0;
out:
    evt_free(secs);
    evt_free(tab);
    evt_free(shstr);
    evt_free(strtab);
    evt_free(syms);
    evt_free(map);
    return rc;
}

int xray_map_load(xray_map *m, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s: cannot open instrumentation map: %s", path, strerror(errno)); return -1; }
    uint8_t magic[4] = {0};
    size_t n = fread(magic, 1, 4, f);
    rewind(f);
    int rc = (n == 4 && memcmp(magic, "\177ELF", 4) == 0)
                 ? load_elf(m, f, path, err, errlen)
                 : load_yaml(m, f, path, err, errlen);
    fclose(f);
    if (rc == 0) map_finish(m);
    else xray_map_free(m);
    return rc;
}
