/* Append-only table b-trees in SQLite's file format (see sqlite_pages.h for what is written).
 *
 * Invariants
 *  S1 Page numbers are given out in increasing order from SQLite's last page + 1 (new_page_),
 *     never the lock-byte page, and each page is written before any page given out after it
 *     (an overflow page takes its successor's number before it is written, and the successor is
 *     written after it): the file grows by appending, page by page in order (write_page_ checks).
 *  S2 A table's cells are in rowid order: leaves in the order they filled, cells in a leaf in the
 *     order added; each flushed leaf's largest rowid is kept for the interior pages. After a
 *     flush the leaf being filled gets the row that did not fit, so it is never empty then: a
 *     table of several leaves gives its interior pages at least two children.
 *  S3 Of what SQLite wrote, only the roots of the tables given to sq_pages_table (empty leaves)
 *     and the header's page count change. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "evtrace/out.h"
#include "formats/common/bytes.h"
#include "sqlite_pages.h"
#include "sqlite_sort.h"

/* Database header (page 1, offset 0): the fields read or written here. */
enum {
    HDR_PAGE_SIZE = 16,     /* u16 BE; 1 means 65536 */
    HDR_RESERVED = 20,      /* u8: bytes reserved at the end of each page */
    HDR_CHANGE = 24,        /* u32 file change counter */
    HDR_NPAGES = 28,        /* u32 database size in pages, valid when HDR_VALID_FOR == HDR_CHANGE */
    HDR_FORMAT = 44,        /* u32 schema format number (4: serial types 8 and 9 exist) */
    HDR_AUTOVACUUM = 52,    /* u32 largest root page in autovacuum mode, else 0 */
    HDR_ENCODING = 56,      /* u32 text encoding: 1 UTF-8 */
    HDR_VALID_FOR = 92,     /* u32 version-valid-for */
    HDR_SIZE = 100
};
/* B-tree page header: leaf pages have 8 bytes, interior pages 12 (the right-most child). */
enum {
    BT_TYPE = 0,            /* u8: 13 table leaf, 5 table interior */
    BT_FREEBLOCK = 1,       /* u16: first free block, 0 none */
    BT_NCELLS = 3,          /* u16 */
    BT_CONTENT = 5,         /* u16: start of the cell content area, 0 means 65536 */
    BT_FRAG = 7,            /* u8: fragmented free bytes */
    BT_RIGHT = 8,           /* u32, interior pages only */
    BT_LEAF_HDR = 8,
    BT_INTERIOR_HDR = 12,
    BT_TABLE_LEAF = 13,
    BT_TABLE_INTERIOR = 5,
    BT_INDEX_LEAF = 10,
    BT_INDEX_INTERIOR = 2
};
#define MAX_PAYLOAD 1000000000u /* SQLITE_MAX_LENGTH's default: longer rows are refused as SQLite does */

typedef struct kid { uint32_t page; int64_t max_rowid; } kid; /* a child of an interior page */

enum { K_I64, K_F64, K_TEXT, K_BLOB, K_IPK }; /* how a column is encoded */

typedef struct tree {
    uint32_t root;
    const evt_tl_column *cols;
    uint32_t ncols;
    int ipk;
    uint8_t kind[SQ_PAGES_MAX_COLS];
    uint8_t notnull[SQ_PAGES_MAX_COLS];
    uint8_t *leaf;          /* the leaf being filled, with 8 bytes of slack (put_int_) */
    uint32_t ncell, top;    /* cells fill [top, usable) from the end; pointers follow the header */
    uint64_t nrows;
    int64_t last_rowid;
    kid *kids;              /* the leaves written, in rowid order */
    size_t nkids, capkids;
    struct sq_index *idx;   /* its indexes */
    size_t nidx;
} tree;

/* An index of a table on integer columns: its entries sorted (sqlite_sort.h), its b-tree built at
 * finish. */
typedef struct sq_index {
    uint32_t root;
    uint32_t ncols;
    uint32_t cols[SQ_SORT_MAX_COLS]; /* the table's columns, in key order */
    uint64_t mag[SQ_SORT_MAX_COLS + 1]; /* OR of every value's magnitude (v ^ v >> 63), per key
                                         * column and the rowid: how wide the widest is */
    sq_sort *sort;
} sq_index;

/* The row buffer: a record whose body is larger spills anyway. Integers may take it past its
 * end by 8 bytes per column (TEXT and BLOB values are checked against it), and put_int_ stores 8. */
#define ROW_BODY 65536
#define ROW_BODY_ALLOC (ROW_BODY + 8 * SQ_PAGES_MAX_COLS + 8)

struct sq_pages {
    int fd;                 /* the database, for the root pages and the header */
    FILE *app;              /* the same file appended to, pages after SQLite's (evt_out_fopen: written
                             * by the output's writer thread, beside the encoding) */
    uint32_t file_pages;    /* pages in the file, appended ones included */
    uint32_t psize, usable, format, pending_page;
    uint32_t max_local, min_local; /* table leaf payload split (fileformat2 "Cell Payload Overflow") */
    uint32_t k0;            /* SQLite's page count */
    uint32_t next_page;     /* the next page number to give out */
    tree *t;
    size_t nt;
    uint8_t *ovf;           /* the overflow page being filled */
    uint8_t *zero;          /* a page of zeros (the lock-byte page) */
    uint8_t hdr[9 * SQ_PAGES_MAX_COLS];
    uint8_t *body;          /* ROW_BODY_ALLOC bytes */
    char path[4096];        /* the database's (scratch files of the index sorts go beside it) */
    size_t sort_run;        /* entries per sort run (0: SQ_SORT_RUN) */
    char err[256];
};

/* SQLite varint: big-endian groups of 7 bits, high bit set on all but the last; a 9th byte
 * carries 8 bits. */
static inline unsigned varint_len_(uint64_t v)
{
    if (v < 0x80) return 1;
    unsigned n = 2;
    while (n < 9 && v >> (7 * n)) n++;
    return n;
}
static inline unsigned put_varint_(uint8_t *p, uint64_t v)
{
    if (v < 0x80) { p[0] = (uint8_t)v; return 1; }
    if (v < 0x4000) { p[0] = (uint8_t)(v >> 7) | 0x80; p[1] = (uint8_t)(v & 0x7F); return 2; } /* a text of 58..8185 bytes */
    if (v >> 56) { /* nine bytes: 8 groups of 7, then 8 bits */
        p[8] = (uint8_t)v;
        v >>= 8;
        for (int i = 7; i >= 0; i--, v >>= 7) p[i] = (uint8_t)(v & 0x7F) | 0x80;
        return 9;
    }
    unsigned n = varint_len_(v);
    for (int i = (int)n - 1; i >= 0; i--, v >>= 7) p[i] = (uint8_t)((v & 0x7F) | (i == (int)n - 1 ? 0 : 0x80));
    return n;
}

/* Serial type of an integer (fileformat2 "Serial Type Codes"): the fewest big-endian bytes that
 * hold it as two's complement (1, 2, 3, 4, 6 or 8: types 1 to 6), or type 8 / 9 for 0 / 1 in
 * schema format 4. bytes = (significant bits + a sign bit + 7) / 8. */
static const uint8_t k_type_of_bytes[9] = {0, 1, 2, 3, 4, 5, 5, 6, 6};
static const uint8_t k_int_size[10] = {0, 1, 2, 3, 4, 6, 8, 8, 0, 0}; /* body bytes by serial type */
static inline uint32_t int_type_(int64_t v, uint32_t format)
{
    if ((uint64_t)v <= 1 && format >= 4) return 8 + (uint32_t)v;
    uint64_t u = (uint64_t)v ^ (uint64_t)(v >> 63); /* ~v for a negative v */
    unsigned bits = 64 - (unsigned)__builtin_clzll(u | 1);
    return k_type_of_bytes[(bits + 8) >> 3];
}
/* The low n bytes of u, big-endian, at w, by one 8-byte store: w needs 8 bytes of room. */
static inline uint8_t *put_int_(uint8_t *w, uint64_t u, unsigned n)
{
    u <<= (64 - 8 * n) & 63; /* the n bytes at the top (n = 0: nothing counts) */
    /* as one array copied whole: the compiler makes it a bswap and one store, where
     * evt_put_u64be's two 32-bit halves stay eight byte stores (+840 instructions per event) */
    uint8_t be[8] = {(uint8_t)(u >> 56), (uint8_t)(u >> 48), (uint8_t)(u >> 40), (uint8_t)(u >> 32),
                     (uint8_t)(u >> 24), (uint8_t)(u >> 16), (uint8_t)(u >> 8),  (uint8_t)u};
    memcpy(w, be, 8);
    return w + n;
}
/* A REAL column's value that SQLite stores as an integer (OP_MakeRecord with REAL affinity: a
 * double that is exactly an integer within 48 bits signed goes out as that integer, and reads
 * back as REAL). Sets *ix and returns 1 then. NaN is never one. */
static inline int real_as_int_(double f, int64_t *ix)
{
    if (!(f >= -140737488355328.0 && f <= 140737488355327.0)) return 0;
    *ix = (int64_t)f;
    return (double)*ix == f;
}
static inline uint64_t f64_bits_(double f)
{
    uint64_t u;
    memcpy(&u, &f, 8);
    return u;
}

static int fail_(sq_pages *p, const char *what)
{
    int e = errno;
    if (!p->err[0]) snprintf(p->err, sizeof p->err, "%s%s%s", what, e ? ": " : "", e ? strerror(e) : "");
    errno = e;
    return 0;
}
static int refuse_(sq_pages *p, const char *what, const evt_tl_column *c)
{
    errno = 0;
    snprintf(p->err, sizeof p->err, "%s%s%s", what, c ? " " : "", c ? c->name : "");
    return 0;
}

/* Write n bytes at off, through the output seam's write counter (disk-full tests). */
static int pwrite_all_(sq_pages *p, const uint8_t *b, size_t n, uint64_t off)
{
    int fail;
    size_t ok = evt_out_write_allowed_(n, &fail);
    if (fail || ok < n) {
        if (!fail && ok) (void)!pwrite(p->fd, b, ok, (off_t)off);
        errno = ENOSPC;
        return fail_(p, "cannot write the database");
    }
    while (n) {
        ssize_t w = pwrite(p->fd, b, n, (off_t)off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            return fail_(p, "cannot write the database");
        }
        b += w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
    return 1;
}
/* A page: one of SQLite's (a root) in place; a new one appended, in page order (new_page_ gives
 * them out in order and each is written when given out or, for a table's last leaf, at finish
 * before any later one), the lock-byte page as zeros. */
static int write_page_(sq_pages *p, const uint8_t *pg, uint32_t pageno)
{
    if (pageno <= p->k0) return pwrite_all_(p, pg, p->psize, (uint64_t)(pageno - 1) * p->psize);
    for (; p->file_pages + 1 < pageno; p->file_pages++) /* only ever the lock-byte page */
        if (fwrite(p->zero, 1, p->psize, p->app) != p->psize) return fail_(p, "cannot write the database");
    if (pageno != p->file_pages + 1 || fwrite(pg, 1, p->psize, p->app) != p->psize) {
        if (pageno != p->file_pages + 1) errno = EINVAL;
        return fail_(p, "cannot write the database");
    }
    p->file_pages = pageno;
    return 1;
}

/* The next free page number (after SQLite's, never the lock-byte page); 0 when none is left. */
static uint32_t new_page_(sq_pages *p)
{
    if (p->next_page == p->pending_page) p->next_page++;
    if (p->next_page >= 0x7FFFFFFEu) { errno = EFBIG; fail_(p, "database too large"); return 0; }
    return p->next_page++;
}

/* Fill in a page header for ncell cells whose content starts at top. */
static void page_header_(uint8_t *pg, uint8_t type, uint32_t ncell, uint32_t top)
{
    pg[BT_TYPE] = type;
    evt_put_u16be(pg + BT_FREEBLOCK, 0);
    evt_put_u16be(pg + BT_NCELLS, ncell);
    evt_put_u16be(pg + BT_CONTENT, top & 0xFFFF); /* 65536 is written as 0 */
    pg[BT_FRAG] = 0;
}

/* Write the leaf being filled at `pageno` and start an empty one. */
static int leaf_out_(sq_pages *p, tree *t, uint32_t pageno)
{
    page_header_(t->leaf, BT_TABLE_LEAF, t->ncell, t->top);
    memset(t->leaf + BT_LEAF_HDR + 2 * t->ncell, 0, t->top - BT_LEAF_HDR - 2 * t->ncell);
    if (!write_page_(p, t->leaf, pageno)) return 0;
    t->ncell = 0;
    t->top = p->usable;
    return 1;
}

/* The full leaf becomes a child of the table's interior pages. */
static int leaf_flush_(sq_pages *p, tree *t)
{
    if (t->nkids == t->capkids) {
        size_t nc = t->capkids ? t->capkids * 2 : 64;
        kid *k = evt_realloc(t->kids, nc * sizeof *k);
        if (!k) { errno = ENOMEM; return fail_(p, "out of memory"); }
        t->kids = k;
        t->capkids = nc;
    }
    uint32_t pg = new_page_(p);
    if (!pg || !leaf_out_(p, t, pg)) return 0;
    t->kids[t->nkids++] = (kid){pg, t->last_rowid};
    return 1;
}

/* A spilling payload's bytes, streamed: the first `left_local` go to dst (the cell), the rest
 * into a chain of overflow pages, each written when full (its first 4 bytes: the next page). */
typedef struct sink {
    sq_pages *p;
    uint8_t *dst;
    uint32_t left_local;
    uint32_t used;          /* bytes in p->ovf after its pointer */
    uint32_t page;          /* the overflow page being filled, 0 none yet */
    uint32_t first;         /* the chain's first page */
    uint64_t remaining;     /* payload bytes not yet emitted */
} sink;

static int emit_(sink *s, const void *src, size_t n)
{
    const uint8_t *b = src;
    sq_pages *p = s->p;
    while (n) {
        size_t k;
        if (s->left_local) {
            k = n < s->left_local ? n : s->left_local;
            memcpy(s->dst, b, k);
            s->dst += k;
            s->left_local -= (uint32_t)k;
        } else {
            if (!s->page && !(s->page = s->first = new_page_(p))) return 0;
            uint32_t room = p->usable - 4 - s->used;
            k = n < room ? n : room;
            memcpy(p->ovf + 4 + s->used, b, k);
            s->used += (uint32_t)k;
        }
        s->remaining -= k;
        b += k;
        n -= k;
        if (s->page && (s->used == p->usable - 4 || !s->remaining)) { /* the page is full or the last */
            uint32_t next = s->remaining ? new_page_(p) : 0;
            if (s->remaining && !next) return 0;
            evt_put_u32be(p->ovf, next);
            memset(p->ovf + 4 + s->used, 0, p->psize - 4 - s->used);
            if (!write_page_(p, p->ovf, s->page)) return 0;
            s->page = next;
            s->used = 0;
        }
    }
    return 1;
}

/* A NULL in column c: its serial type 0, or the row refused. */
static int null_ok_(sq_pages *p, const tree *t, uint32_t c)
{
    return t->notnull[c] ? refuse_(p, "NOT NULL constraint failed:", &t->cols[c]) : 1;
}

/* The generic path, for a row whose payload spills into overflow pages: serial types first,
 * then the cell streamed through a sink. */
static int add_spilling_(sq_pages *p, tree *t, const evt_tl_val *v, int64_t rowid)
{
    uint32_t types[SQ_PAGES_MAX_COLS];
    int64_t ix[SQ_PAGES_MAX_COLS]; /* a REAL stored as an integer */
    uint64_t body = 0, hl = 0;
    for (uint32_t c = 0; c < t->ncols; c++) {
        const evt_tl_val *x = &v[c];
        uint32_t ty = 0;
        switch (t->kind[c]) {
        case K_IPK: break;
        case K_I64: if (x->is_null) { if (!null_ok_(p, t, c)) return 0; } else ty = int_type_(x->i, p->format); break;
        case K_F64:
            if (x->is_null || x->f != x->f) { if (!null_ok_(p, t, c)) return 0; break; }
            ty = real_as_int_(x->f, &ix[c]) ? int_type_(ix[c], p->format) : 7;
            break;
        default:
            if (x->is_null) { if (!null_ok_(p, t, c)) return 0; break; }
            if (x->n > MAX_PAYLOAD) return refuse_(p, "string or blob too big:", &t->cols[c]);
            ty = (uint32_t)(2 * x->n + (t->kind[c] == K_TEXT ? 13 : 12));
            body += x->n;
        }
        if (ty && ty < 12) body += k_int_size[ty];
        types[c] = ty;
        hl += varint_len_(ty);
    }
    uint32_t hn = 1; /* the header's length counts its own varint */
    while (varint_len_(hl + hn) > hn) hn++;
    uint64_t payload = hl + hn + body;
    if (payload > MAX_PAYLOAD) return refuse_(p, "string or blob too big: a row of", NULL);
    /* the local part (fileformat2: X = U-35, M = ((U-12)*32/255)-23, K = M+((P-M)%(U-4))) */
    uint32_t local = (uint32_t)payload;
    if (payload > p->max_local) {
        uint32_t k = p->min_local + (uint32_t)((payload - p->min_local) % (p->usable - 4));
        local = k <= p->max_local ? k : p->min_local;
    }
    uint32_t spill = local < payload ? 4 : 0;
    uint32_t cell = varint_len_(payload) + varint_len_((uint64_t)rowid) + local + spill;
    if (t->ncell && BT_LEAF_HDR + 2 * (t->ncell + 1) + cell > t->top && !leaf_flush_(p, t)) return 0;
    uint8_t *w = t->leaf + t->top - cell;
    w += put_varint_(w, payload);
    w += put_varint_(w, (uint64_t)rowid);
    uint8_t *h = p->hdr, val[8];
    h += put_varint_(h, hl + hn);
    for (uint32_t c = 0; c < t->ncols; c++) h += put_varint_(h, types[c]);
    sink s = {p, w, local, 0, 0, 0, payload};
    if (!emit_(&s, p->hdr, (size_t)(h - p->hdr))) return 0;
    for (uint32_t c = 0; c < t->ncols; c++) {
        const evt_tl_val *x = &v[c];
        uint32_t ty = types[c];
        uint64_t bits = ty == 7 ? f64_bits_(x->f) : t->kind[c] == K_F64 ? (uint64_t)ix[c] : (uint64_t)x->i;
        int ok = ty >= 12 ? emit_(&s, x->s, x->n)
                 : ty ? emit_(&s, val, (size_t)(put_int_(val, bits, k_int_size[ty]) - val))
                      : 1;
        if (!ok) return 0;
    }
    if (spill) evt_put_u32be(s.dst, s.first);
    return cell;
}

int sq_pages_add(sq_pages *p, int ti, const evt_tl_val *v)
{
    tree *t = &p->t[ti];
    int64_t rowid;
    if (t->ipk) {
        if (v[0].is_null) return refuse_(p, "NOT NULL constraint failed:", &t->cols[0]);
        rowid = v[0].i;
        if (t->nrows && rowid <= t->last_rowid) return refuse_(p, "rowid out of order in", &t->cols[0]);
    } else {
        rowid = (int64_t)t->nrows + 1;
    }
    /* One pass: the serial types into p->hdr, the values into p->body (each column's type
     * decides how it is encoded; only NULLs and the value widths depend on the row). The rules
     * are add_spilling_'s, written again here: one helper for both paths cost about 770
     * instructions per event (callgrind, 500 k events); test_sqlite_pages holds rows of both
     * paths to SQLite's. */
    uint8_t *h = p->hdr, *b = p->body, *bend = p->body + ROW_BODY;
    uint32_t cell;
    for (uint32_t c = 0; c < t->ncols; c++) {
        const evt_tl_val *x = &v[c];
        switch (t->kind[c]) {
        case K_IPK: *h++ = 0; continue;
        case K_I64:
            if (x->is_null) break;
            {
                uint32_t ty = int_type_(x->i, p->format);
                *h++ = (uint8_t)ty;
                b = put_int_(b, (uint64_t)x->i, k_int_size[ty]);
            }
            continue;
        case K_F64:
            if (x->is_null || x->f != x->f) break; /* NaN: SQLite stores NULL */
            {
                int64_t ix;
                uint32_t ty = real_as_int_(x->f, &ix) ? int_type_(ix, p->format) : 7;
                *h++ = (uint8_t)ty;
                b = put_int_(b, ty == 7 ? f64_bits_(x->f) : (uint64_t)ix, k_int_size[ty]);
            }
            continue;
        default: /* TEXT, BLOB */
            if (x->is_null) break;
            if (b > bend || x->n > (size_t)(bend - b)) goto spills;
            h += put_varint_(h, 2 * (uint64_t)x->n + (t->kind[c] == K_TEXT ? 13 : 12));
            if (x->n) memcpy(b, x->s, x->n);
            b += x->n;
            continue;
        }
        if (!null_ok_(p, t, c)) return 0;
        *h++ = 0;
    }
    {
        uint32_t hl = (uint32_t)(h - p->hdr), body = (uint32_t)(b - p->body);
        uint32_t hn = hl + 1 < 0x80 ? 1 : 2; /* the header's length counts its own varint; hl <= 576 */
        uint32_t payload = hl + hn + body;
        if (payload > p->max_local) goto spills;
        cell = varint_len_(payload) + varint_len_((uint64_t)rowid) + payload;
        if (t->ncell && BT_LEAF_HDR + 2 * (t->ncell + 1) + cell > t->top && !leaf_flush_(p, t)) return 0;
        uint8_t *w = t->leaf + t->top - cell;
        w += put_varint_(w, payload);
        w += put_varint_(w, (uint64_t)rowid);
        w += put_varint_(w, hl + hn);
        memcpy(w, p->hdr, hl);
        memcpy(w + hl, p->body, body);
    }
    goto placed;
spills:
    if (!(cell = (uint32_t)add_spilling_(p, t, v, rowid))) return 0;
placed:
    t->top -= cell;
    evt_put_u16be(t->leaf + BT_LEAF_HDR + 2 * t->ncell, t->top);
    t->ncell++;
    t->nrows++;
    t->last_rowid = rowid;
    for (size_t i = 0; i < t->nidx; i++) { /* the row's entry in each index */
        sq_index *x = &t->idx[i];
        sq_ent e = {.rowid = rowid};
        for (uint32_t c = 0; c < x->ncols; c++) {
            const evt_tl_val *kv = &v[x->cols[c]];
            if (kv->is_null) e.nulls |= 1u << c;
            else e.k[c] = kv->i;
            x->mag[c] |= (uint64_t)e.k[c] ^ (uint64_t)(e.k[c] >> 63);
        }
        x->mag[x->ncols] |= (uint64_t)rowid ^ (uint64_t)(rowid >> 63);
        if (!sq_sort_add(x->sort, &e)) return fail_(p, "cannot sort an index");
    }
    return 1;
}

/* Interior levels over kids[0..n) (n >= 2), bottom-up; the level of one page is written into
 * the root. */
static int build_interior_(sq_pages *p, tree *t, kid *kids, size_t n, uint8_t *pg)
{
    while (n > 1) {
        size_t out = 0, i = 0;
        while (i < n) {
            /* kids[i..j): this page's cells; kids[j] its right-most child */
            size_t j = i, used = BT_INTERIOR_HDR;
            while (j + 1 < n) {
                size_t cell = 2 + 4 + varint_len_((uint64_t)kids[j].max_rowid);
                if (used + cell > p->usable) break;
                used += cell;
                j++;
            }
            if (j + 2 == n && j - i >= 2) j--; /* never leave a page of one child: the last gets two */
            int root = i == 0 && j + 1 == n;
            uint32_t pageno = root ? t->root : new_page_(p);
            if (!pageno) return 0;
            uint32_t top = p->usable, nc = 0;
            memset(pg, 0, p->psize);
            for (size_t c = i; c < j; c++, nc++) {
                uint8_t cellb[13];
                evt_put_u32be(cellb, kids[c].page);
                unsigned len = 4 + put_varint_(cellb + 4, (uint64_t)kids[c].max_rowid);
                top -= len;
                memcpy(pg + top, cellb, len);
                evt_put_u16be(pg + BT_INTERIOR_HDR + 2 * nc, top);
            }
            page_header_(pg, BT_TABLE_INTERIOR, nc, top);
            evt_put_u32be(pg + BT_RIGHT, kids[j].page);
            if (!write_page_(p, pg, pageno)) return 0;
            kids[out++] = (kid){pageno, kids[j].max_rowid}; /* out <= i: read before overwritten */
            i = j + 1;
        }
        n = out;
    }
    return 1;
}

static int finish_tree_(sq_pages *p, tree *t, uint8_t *pg)
{
    if (!t->nkids) return t->ncell ? leaf_out_(p, t, t->root) : 1; /* one leaf: the root; none: SQLite's empty root */
    if (t->ncell && !leaf_flush_(p, t)) return 0; /* a leaf is never empty after a flush: n >= 2 */
    return build_interior_(p, t, t->kids, t->nkids, pg);
}

/* ---- indexes: a b-tree bulk-loaded from the sorted entries ------------------------------------
 * Every entry is stored once (an index b-tree's interior cells are entries too). The shape is
 * planned from the entry count and the largest cell an entry makes, so no page overflows and
 * none is left with too few: a subtree of height h holds at most cap[h] entries (cap[0] = a
 * leaf's cells, cap[h] = (c1 + 1) * cap[h-1] + c1 with c1 an interior page's cells); a node of
 * height h and n entries has k = ceil((n + 1) / (cap[h-1] + 1)) children (at least 2, since
 * n > cap[h-1]) sharing its n - (k - 1) entries evenly, each child followed by one entry as the
 * divider but the last. Pages are written in post-order, each numbered when written (S1). */

#define IDX_MAX_HEIGHT 16

typedef struct ibuild {
    sq_pages *p;
    sq_index *x;
    uint64_t cap[IDX_MAX_HEIGHT + 1];
    uint8_t *pg[IDX_MAX_HEIGHT + 1]; /* the page being filled at each height */
    uint32_t height;
} ibuild;

/* The record of entry e (key columns then the rowid) at w; returns its length. */
static uint32_t index_record_(const sq_pages *p, uint32_t ncols, const sq_ent *e, uint8_t *w)
{
    uint8_t body[8 * (SQ_SORT_MAX_COLS + 1) + 8], *b = body;
    uint32_t n = ncols + 1;
    w[0] = (uint8_t)(1 + n); /* the header's length: one byte per serial type (each < 10) */
    for (uint32_t c = 0; c < n; c++) {
        int null = c < ncols && (e->nulls >> c & 1);
        int64_t v = c < ncols ? e->k[c] : e->rowid;
        uint32_t ty = null ? 0 : int_type_(v, p->format);
        w[1 + c] = (uint8_t)ty;
        b = put_int_(b, (uint64_t)v, k_int_size[ty]);
    }
    memcpy(w + 1 + n, body, (size_t)(b - body));
    return 1 + n + (uint32_t)(b - body);
}

/* Append a cell to page pg (cells from the end, pointers after a header of hdr bytes). The plan
 * leaves room for it (0 would mean a planning error: said, never a corrupt page). */
static int put_cell_(uint8_t *pg, uint32_t hdr, uint32_t *ncell, uint32_t *top, const uint8_t *cell, uint32_t len)
{
    if (hdr + 2 * (*ncell + 1) + len > *top) return 0;
    *top -= len;
    memcpy(pg + *top, cell, len);
    evt_put_u16be(pg + hdr + 2 * *ncell, *top);
    (*ncell)++;
    return 1;
}

/* The next entry's cell: [child page,] payload size, record. */
static int next_cell_(ibuild *ib, uint32_t child, uint8_t *cell, uint32_t *len)
{
    sq_ent e;
    int r = sq_sort_next(ib->x->sort, &e);
    if (r <= 0) {
        if (!r) errno = EIO; /* fewer entries than counted: cannot happen */
        return fail_(ib->p, "cannot read an index's sorted entries");
    }
    uint32_t at = child ? 4 : 0;
    if (child) evt_put_u32be(cell, child);
    uint32_t n = index_record_(ib->p, ib->x->ncols, &e, cell + at + 1);
    cell[at] = (uint8_t)n; /* the payload's size: under 128 bytes */
    *len = at + 1 + n;
    return 1;
}

/* A subtree of height h holding the next n entries; its page number in *out (the index's root
 * when top). */
static int node_(ibuild *ib, uint32_t h, uint64_t n, int top, uint32_t *out)
{
    sq_pages *p = ib->p;
    uint8_t *pg = ib->pg[h], cell[64];
    uint32_t ncell = 0, ctop = p->usable, len;
    memset(pg, 0, p->psize);
    if (h == 0) {
        for (uint64_t i = 0; i < n; i++) {
            if (!next_cell_(ib, 0, cell, &len)) return 0;
            if (!put_cell_(pg, BT_LEAF_HDR, &ncell, &ctop, cell, len)) return refuse_(p, "index page overflow", NULL);
        }
        page_header_(pg, BT_INDEX_LEAF, ncell, ctop);
    } else {
        uint64_t k = (n + 1 + ib->cap[h - 1]) / (ib->cap[h - 1] + 1), q = n - (k - 1); /* children, their entries */
        uint32_t child = 0;
        for (uint64_t i = 0; i < k; i++) {
            if (!node_(ib, h - 1, q / k + (i < q % k), 0, &child)) return 0;
            if (i + 1 == k) break;
            if (!next_cell_(ib, child, cell, &len)) return 0; /* the divider, its left child */
            if (!put_cell_(pg, BT_INTERIOR_HDR, &ncell, &ctop, cell, len)) return refuse_(p, "index page overflow", NULL);
        }
        page_header_(pg, BT_INDEX_INTERIOR, ncell, ctop);
        evt_put_u32be(pg + BT_RIGHT, child);
    }
    *out = top ? ib->x->root : new_page_(p);
    return *out && write_page_(p, pg, *out);
}

static int build_index_(sq_pages *p, sq_index *x)
{
    uint64_t n = sq_sort_count(x->sort);
    if (!n) return 1; /* the root stays SQLite's empty leaf */
    if (!sq_sort_done(x->sort)) return fail_(p, "cannot sort an index");
    ibuild ib = {p, x, {0}, {NULL}, 0};
    /* the largest cell: payload size, a header of one byte per column and its length, and each
     * value as wide as the widest of its column (from the OR of magnitudes: never less) */
    uint32_t rec = 1 + (x->ncols + 1);
    for (uint32_t c = 0; c <= x->ncols; c++)
        rec += k_int_size[k_type_of_bytes[(64 - (unsigned)__builtin_clzll(x->mag[c] | 1) + 8) >> 3]];
    uint64_t c0 = (p->usable - BT_LEAF_HDR) / (2 + 1 + rec), c1 = (p->usable - BT_INTERIOR_HDR) / (2 + 4 + 1 + rec);
    ib.cap[0] = c0;
    while (ib.cap[ib.height] < n) {
        if (ib.height == IDX_MAX_HEIGHT) { errno = EFBIG; return fail_(p, "an index too large"); }
        ib.cap[ib.height + 1] = (c1 + 1) * ib.cap[ib.height] + c1;
        ib.height++;
    }
    int ok = 1;
    for (uint32_t h = 0; ok && h <= ib.height; h++)
        if (!(ib.pg[h] = evt_malloc(p->psize))) ok = 0, errno = ENOMEM, fail_(p, "out of memory");
    uint32_t root;
    ok = ok && node_(&ib, ib.height, n, 1, &root);
    for (uint32_t h = 0; h <= ib.height; h++) evt_free(ib.pg[h]);
    sq_sort_free(x->sort); /* its memory and scratch file go before the next index's merge */
    x->sort = NULL;
    return ok;
}

int sq_pages_finish(sq_pages *p)
{
    uint8_t *pg = evt_malloc(p->psize);
    int ok = pg != NULL;
    if (!ok) { errno = ENOMEM; fail_(p, "out of memory"); }
    for (size_t i = 0; ok && i < p->nt; i++) ok = finish_tree_(p, &p->t[i], pg);
    evt_free(pg);
    for (size_t i = 0; ok && i < p->nt; i++)
        for (size_t j = 0; ok && j < p->t[i].nidx; j++) ok = build_index_(p, &p->t[i].idx[j]);
    FILE *app = p->app; /* every appended page in the file (the writer thread done) */
    p->app = NULL;
    if (fclose(app) != 0 && ok) ok = fail_(p, "cannot write the database");
    if (ok && p->next_page - 1 > p->k0) { /* the page count: the last page given out */
        uint8_t b[4];
        evt_put_u32be(b, p->next_page - 1);
        ok = pwrite_all_(p, b, 4, HDR_NPAGES);
    }
    int fd = p->fd;
    p->fd = -1;
    if (close(fd) != 0 && ok) ok = fail_(p, "cannot write the database");
    return ok;
}

sq_pages *sq_pages_open(const char *db_path, uint32_t pending_byte, char *err, size_t errlen)
{
    sq_pages *p = evt_calloc(1, sizeof *p);
    if (!p) { snprintf(err, errlen, "out of memory"); return NULL; }
    if (strlen(db_path) >= sizeof p->path) {
        snprintf(err, errlen, "path too long");
        evt_free(p);
        return NULL;
    }
    memcpy(p->path, db_path, strlen(db_path) + 1);
    p->fd = open(db_path, O_RDWR | O_CLOEXEC);
    uint8_t h[HDR_SIZE];
    off_t size = p->fd >= 0 ? lseek(p->fd, 0, SEEK_END) : -1;
    if (size < 0 || pread(p->fd, h, sizeof h, 0) != (ssize_t)sizeof h) {
        snprintf(err, errlen, "cannot read the database %s: %s", db_path, strerror(errno ? errno : EIO));
        sq_pages_free(p);
        return NULL;
    }
    uint32_t ps = evt_ld_u16be(h + HDR_PAGE_SIZE);
    p->psize = ps == 1 ? 65536 : ps;
    p->usable = p->psize - h[HDR_RESERVED];
    p->format = evt_ld_u32be(h + HDR_FORMAT);
    p->k0 = evt_ld_u32be(h + HDR_NPAGES);
    if (memcmp(h, "SQLite format 3", 16) != 0 || p->psize < 512 || p->psize > 65536 || (p->psize & (p->psize - 1)) ||
        p->usable < 480 || evt_ld_u32be(h + HDR_AUTOVACUUM) != 0 || evt_ld_u32be(h + HDR_ENCODING) != 1 ||
        evt_ld_u32be(h + HDR_CHANGE) != evt_ld_u32be(h + HDR_VALID_FOR) || (uint64_t)p->k0 * p->psize != (uint64_t)size) {
        snprintf(err, errlen, "%s: not a database the page writer can extend", db_path);
        sq_pages_free(p);
        return NULL;
    }
    p->pending_page = pending_byte / p->psize + 1;
    p->next_page = p->k0 + 1;
    p->max_local = p->usable - 35;
    p->min_local = (p->usable - 12) * 32 / 255 - 23;
    p->file_pages = p->k0;
    p->ovf = evt_calloc(1, p->psize);
    p->zero = evt_calloc(1, p->psize);
    p->body = evt_malloc(ROW_BODY_ALLOC);
    int mem = p->ovf && p->zero && p->body;
    if (mem) p->app = evt_out_fopen(db_path, "ab");
    if (!p->app) {
        if (mem) snprintf(err, errlen, "cannot open the database %s: %s", db_path, strerror(errno));
        else snprintf(err, errlen, "out of memory");
        sq_pages_free(p);
        return NULL;
    }
    return p;
}

int sq_pages_table(sq_pages *p, uint32_t root, const evt_tl_column *cols, uint32_t ncols, int ipk)
{
    if (ncols > SQ_PAGES_MAX_COLS || (ipk && (!ncols || cols[0].type != EVT_TL_I64))) return -1;
    tree *nt = evt_realloc(p->t, (p->nt + 1) * sizeof *nt);
    if (!nt) return -1;
    p->t = nt;
    tree *t = &p->t[p->nt];
    memset(t, 0, sizeof *t);
    t->root = root;
    t->cols = cols;
    t->ncols = ncols;
    t->ipk = ipk;
    for (uint32_t c = 0; c < ncols; c++) {
        static const uint8_t k_kind[] = {[EVT_TL_I64] = K_I64, [EVT_TL_F64] = K_F64, [EVT_TL_TEXT] = K_TEXT,
                                         [EVT_TL_BLOB] = K_BLOB};
        t->kind[c] = c == 0 && ipk ? K_IPK : k_kind[cols[c].type];
        t->notnull[c] = !cols[c].nullable;
    }
    t->leaf = evt_calloc(1, p->psize + 8); /* the reserved bytes at the end stay 0; 8 bytes of slack */
    if (!t->leaf) return -1;
    t->top = p->usable;
    return (int)p->nt++;
}

int sq_pages_index(sq_pages *p, int table, uint32_t root, const uint32_t *cols, uint32_t ncols)
{
    tree *t = &p->t[table];
    if (!ncols || ncols > SQ_SORT_MAX_COLS) return 0;
    for (uint32_t c = 0; c < ncols; c++)
        if (cols[c] >= t->ncols || t->kind[cols[c]] != K_I64) return 0;
    sq_index *ni = evt_realloc(t->idx, (t->nidx + 1) * sizeof *ni);
    if (!ni) return 0;
    t->idx = ni;
    sq_index *x = &t->idx[t->nidx];
    memset(x, 0, sizeof *x);
    x->root = root;
    x->ncols = ncols;
    memcpy(x->cols, cols, ncols * sizeof *cols);
    if (!(x->sort = sq_sort_new(p->path, ncols, p->sort_run))) return 0;
    t->nidx++;
    return 1;
}

void sq_pages_set_sort_run_(sq_pages *p, size_t entries) { p->sort_run = entries; }

const char *sq_pages_error(const sq_pages *p) { return p->err; }

void sq_pages_free(sq_pages *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->nt; i++) {
        evt_free(p->t[i].leaf);
        evt_free(p->t[i].kids);
        for (size_t j = 0; j < p->t[i].nidx; j++) sq_sort_free(p->t[i].idx[j].sort);
        evt_free(p->t[i].idx);
    }
    evt_free(p->t);
    evt_free(p->ovf);
    evt_free(p->zero);
    evt_free(p->body);
    if (p->app) fclose(p->app);
    if (p->fd >= 0) close(p->fd);
    evt_free(p);
}
