/* XRay instrumentation map loader: llvm-xray's YAML (one flow mapping per sled line) and ELF64
 * little-endian binaries (xray_instr_map section, ids assigned as the runtime does, names from
 * .symtab/.dynsym; the ELF read in parts, each capped: host/elf_file.h). Facts:
 * shared/formats/xray.md §9. */
#include "formats/xray/xray_map.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"
#include "formats/common/cursor.h"
#include "formats/xray/xray_defs.h"
#include "host/elf_file.h"

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

typedef struct elf_sym { uint64_t value; uint32_t name; } elf_sym;

#define XRAY_SYMS_MAX (256u << 20) /* a symbol table, or its string table: larger ones give no names */
#define XRAY_MAP_MAX (256u << 20)  /* the instrumentation map (32 bytes a sled) */

static int cmp_sym(const void *a, const void *b)
{
    const elf_sym *x = a, *y = b;
    return (x->value > y->value) - (x->value < y->value);
}

/* The FUNC symbols of the first symbol table of this type (and its string table), sorted by value:
 * 0, 1 when there is none, -1 when it cannot be read (outside the file, too large, no memory). */
static int load_syms(evt_elf *e, uint32_t type, elf_sym **syms, uint32_t *nsyms, char **strtab, uint64_t *strsize)
{
    char err[256]; /* a table that cannot be read gives no names: the map loads without them */
    for (unsigned i = 0; i < e->shnum; i++) {
        evt_elf_sec ss, ts;
        evt_elf_sec_at(e, i, &ss);
        if (ss.type != type || ss.link >= e->shnum || ss.size / 24 == 0) continue;
        evt_elf_sec_at(e, ss.link, &ts);
        uint64_t n = ss.size / 24;
        uint8_t *raw = evt_elf_read_sec(e, &ss, XRAY_SYMS_MAX, "symbol table", err, sizeof err);
        uint8_t *str = raw ? evt_elf_read_sec(e, &ts, XRAY_SYMS_MAX, "symbol string table", err, sizeof err) : NULL;
        *syms = str ? evt_calloc((size_t)n, sizeof **syms) : NULL;
        *strtab = str ? evt_malloc((size_t)ts.size + 1) : NULL;
        if (!*syms || !*strtab) {
            evt_free(raw);
            evt_free(str);
            return -1;
        }
        memcpy(*strtab, str, (size_t)ts.size);
        evt_free(str);
        (*strtab)[ts.size] = 0;
        *strsize = ts.size;
        uint32_t k = 0;
        evt_cur c; /* Elf64_Sym[n]: name u32, info u8, other u8, shndx u16, value u64, size u64 */
        evt_cur_init(&c, raw, (size_t)n * 24, ss.off, 0);
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

/* The section named XRAY_MAP_SECTION into *ms: 0, or -1 with err. */
static int find_map(evt_elf *e, evt_elf_sec *ms, char *err, size_t errlen)
{
    evt_elf_sec ns;
    if (e->shstrndx >= e->shnum) return evt_elf_err(e, err, errlen, "no section name table", 0x3E);
    evt_elf_sec_at(e, e->shstrndx, &ns);
    uint8_t *names = evt_elf_read_sec(e, &ns, EVT_ELF_TABLE_MAX, "section name table", err, errlen);
    if (!names) return -1;
    int found = 0;
    for (unsigned i = 0; i < e->shnum && !found; i++) {
        evt_elf_sec_at(e, i, ms);
        found = ms->name < ns.size && strnlen((const char *)names + ms->name, (size_t)(ns.size - ms->name)) ==
                                          sizeof XRAY_MAP_SECTION - 1 &&
                memcmp(names + ms->name, XRAY_MAP_SECTION, sizeof XRAY_MAP_SECTION - 1) == 0;
    }
    evt_free(names);
    if (!found) snprintf(err, errlen, "%s: no %s section (not built with -fxray-instrument?)", e->path, XRAY_MAP_SECTION);
    return found ? 0 : -1;
}

/* The map of an ELF64 little-endian binary: its sleds (ids by function, as the runtime assigns them)
 * named from .symtab, else .dynsym (read in parts: host/elf_file.h). 0, or -1 with err. */
static int load_elf(xray_map *m, const char *path, char *err, size_t errlen)
{
    m->source = "elf";
    evt_elf e;
    if (evt_elf_open(&e, path, err, errlen) != 0) return -1;
    evt_elf_sec ms;
    char *strtab = NULL;
    elf_sym *syms = NULL;
    uint8_t *map = NULL;
    uint32_t nsyms = 0;
    uint64_t strsize = 0;
    int rc = -1;
    if (!e.is64 || e.big) {
        snprintf(err, errlen, "%s: only 64-bit little-endian ELF binaries are supported (this one is %s %s-endian)", path,
                 e.is64 ? "64-bit" : "32-bit", e.big ? "big" : "little");
        goto out;
    }
    if (find_map(&e, &ms, err, errlen) != 0) goto out;
    if (ms.size % XRAY_MAP_ENTRY_SIZE) {
        snprintf(err, errlen, "%s: %s section at offset %llu has size %llu, not a multiple of %u", path, XRAY_MAP_SECTION,
                 (unsigned long long)ms.off, (unsigned long long)ms.size, XRAY_MAP_ENTRY_SIZE);
        goto out;
    }
    if (!(map = evt_elf_read_sec(&e, &ms, XRAY_MAP_MAX, "section " XRAY_MAP_SECTION, err, errlen))) goto out;
    if (load_syms(&e, EVT_ELF_SHT_SYMTAB, &syms, &nsyms, &strtab, &strsize) != 0) {
        evt_free(syms); evt_free(strtab); syms = NULL; strtab = NULL; nsyms = 0;
        if (load_syms(&e, EVT_ELF_SHT_DYNSYM, &syms, &nsyms, &strtab, &strsize) != 0) {
            evt_free(syms); evt_free(strtab); syms = NULL; strtab = NULL; nsyms = 0;
        }
    }
    uint32_t id = 0;
    uint64_t prev_fn = 0;
    evt_cur mc; /* xray_instr_map entries */
    evt_cur_init(&mc, map, (size_t)ms.size, ms.off, 0);
    for (uint64_t i = 0; i < ms.size / XRAY_MAP_ENTRY_SIZE; i++) {
        evt_cur c;
        evt_cur_sub(&mc, XRAY_MAP_ENTRY_SIZE, &c);
        uint64_t entry_addr = ms.addr + i * XRAY_MAP_ENTRY_SIZE;
        uint64_t fn = evt_cur_u64le_at(&c, XRAY_MAP_FUNCTION);
        if (evt_cur_u8_at(&c, XRAY_MAP_VERSION) >= 2) fn = entry_addr + XRAY_MAP_FUNCTION + fn; /* PC-relative */
        if (i == 0 || fn != prev_fn) id++;
        prev_fn = fn;
        const char *nm = sym_name(syms, nsyms, strtab, strsize, fn);
        if (map_put(m, id, fn, nm, nm ? strlen(nm) : 0) < 0) { snprintf(err, errlen, "%s: out of memory", path); goto out; }
    }
    if (m->n == 0) { snprintf(err, errlen, "%s: %s section is empty", path, XRAY_MAP_SECTION); goto out; }
    rc = 0;
out:
    evt_elf_close(&e);
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
    int rc;
    if (n == 4 && memcmp(magic, "\177ELF", 4) == 0) {
        fclose(f);
        rc = load_elf(m, path, err, errlen);
    } else {
        rc = load_yaml(m, f, path, err, errlen);
        fclose(f);
    }
    if (rc == 0) map_finish(m);
    else xray_map_free(m);
    return rc;
}
