/* Index entries sorted in bounded memory (see sqlite_sort.h).
 *
 * Invariants
 *  O1 The scratch file holds the flushed runs back to back, each sorted; runs[i] says where run
 *     i starts and how many entries it has. The entries not flushed are in `buf` (unsorted until
 *     sq_sort_done).
 *  O2 While merging, the heap holds every run that still has entries, by its current entry
 *     (buf[pos]); a run's buffer is refilled from the file when it is used up. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "host/out_async.h"
#include "sqlite_sort.h"

typedef struct run {
    uint64_t off, left;     /* the next entry's index in the scratch file; entries not yet read */
    sq_ent *buf;            /* sq_sort.read entries */
    uint32_t pos, n;        /* the current entry buf[pos] of n read */
} run;

struct sq_sort {
    char path[4096 + 16];
    uint32_t ncols;
    int fd;                 /* the scratch file, -1 until a run is flushed */
    sq_ent *buf;            /* the run being filled */
    size_t nbuf, cap;
    uint64_t count, flushed;
    run *runs;
    size_t nruns, capruns;
    uint32_t read;          /* merge: entries read at a time from each run */
    size_t *heap;           /* merge: run indexes, a min-heap by current entry */
    size_t nheap;
    size_t mem_pos;         /* no run flushed: the next entry of buf to give */
};

/* Every column slot is compared: sq_sort_add clears those past ncols, so they tie. */
static int cmp_(const sq_ent *a, const sq_ent *b)
{
    for (uint32_t c = 0; c < SQ_SORT_MAX_COLS; c++) {
        int na = a->nulls >> c & 1, nb = b->nulls >> c & 1;
        if (na != nb) return na ? -1 : 1; /* NULL first */
        if (!na && a->k[c] != b->k[c]) return a->k[c] < b->k[c] ? -1 : 1;
    }
    return a->rowid < b->rowid ? -1 : a->rowid > b->rowid;
}
static int qcmp_(const void *a, const void *b) { return cmp_(a, b); }

/* Key part `part` of e as an unsigned number ordered as cmp_ orders that part, least significant
 * part first: 0 the rowid; then, from the last key column to the first, its value (part 1 + 2j)
 * and its NULL flag (part 2 + 2j: NULL 0, first). Signed numbers have their sign bit flipped. A
 * NULL's value is 0 (sq_sort_add), so NULLs tie on it as cmp_ has them tie. */
static inline uint64_t key_part_(const sq_ent *e, uint32_t part, uint32_t ncols)
{
    if (!part) return (uint64_t)e->rowid ^ (1ull << 63);
    uint32_t c = ncols - 1 - (part - 1) / 2;
    return part & 1 ? (uint64_t)e->k[c] ^ (1ull << 63) : (~e->nulls >> c & 1u);
}

#define RADIX_MIN 256 /* fewer entries: qsort */

/* Sorts buf in cmp_'s order. An LSD radix sort on bytes: each key part from the least significant,
 * one stable counting pass per byte in which the part's values differ (the others are one bucket:
 * skipped), e.g. 7 passes for a thread_states (ctx, t0) index, where qsort took about 1,000
 * instructions per entry (10 % of a recorded trace's SQLite export). Since the order is total
 * (rowids are unique), any correct sort gives the same sequence. Needs a second buffer of nbuf
 * entries, for this call only; without one (or for few entries), qsort. */
static void sort_buf_(sq_sort *s)
{
    size_t n = s->nbuf;
    sq_ent *tmp = n >= RADIX_MIN ? evt_malloc(n * sizeof *tmp) : NULL;
    if (!tmp) {
        qsort(s->buf, n, sizeof *s->buf, qcmp_);
        return;
    }
    sq_ent *a = s->buf, *b = tmp;
    for (uint32_t part = 0; part < 1 + 2 * s->ncols; part++) {
        uint64_t first = key_part_(&a[0], part, s->ncols), diff = 0;
        for (size_t i = 1; i < n; i++) diff |= key_part_(&a[i], part, s->ncols) ^ first;
        for (unsigned sh = 0; sh < 64 && diff >> sh; sh += 8) {
            if (!(diff >> sh & 0xFF)) continue;
            size_t at[256] = {0};
            for (size_t i = 0; i < n; i++) at[key_part_(&a[i], part, s->ncols) >> sh & 0xFF]++;
            for (size_t d = 0, sum = 0; d < 256; d++) {
                size_t k = at[d];
                at[d] = sum;
                sum += k;
            }
            for (size_t i = 0; i < n; i++) b[at[key_part_(&a[i], part, s->ncols) >> sh & 0xFF]++] = a[i];
            sq_ent *t = a;
            a = b;
            b = t;
        }
    }
    if (a != s->buf) memcpy(s->buf, a, n * sizeof *a);
    evt_free(tmp);
}

static int flush_run_(sq_sort *s)
{
    if (s->fd < 0) {
        s->fd = mkstemp(s->path);
        if (s->fd < 0) return 0;
        unlink(s->path); /* nothing is left behind, whatever happens next */
    }
    if (s->nruns == s->capruns) {
        size_t nc = s->capruns ? s->capruns * 2 : 16;
        run *r = evt_realloc(s->runs, nc * sizeof *r);
        if (!r) { errno = ENOMEM; return 0; }
        s->runs = r;
        s->capruns = nc;
    }
    sort_buf_(s);
    int err = 0; /* runs go out back to back: the descriptor's offset is the next run's start */
    evt_out_write_full_(s->fd, (const char *)s->buf, s->nbuf * sizeof *s->buf, &err);
    if (err) { errno = err; return 0; }
    s->runs[s->nruns++] = (run){s->flushed, s->nbuf, NULL, 0, 0};
    s->flushed += s->nbuf;
    s->nbuf = 0;
    return 1;
}

sq_sort *sq_sort_new(const char *near_path, uint32_t ncols, size_t runlen)
{
    if (!ncols || ncols > SQ_SORT_MAX_COLS || strlen(near_path) > 4096) { errno = EINVAL; return NULL; }
    sq_sort *s = evt_calloc(1, sizeof *s);
    if (!s) return NULL;
    snprintf(s->path, sizeof s->path, "%s-sortXXXXXX", near_path);
    s->ncols = ncols;
    s->fd = -1;
    s->cap = runlen ? runlen : SQ_SORT_RUN;
    s->buf = evt_malloc(s->cap * sizeof *s->buf);
    if (!s->buf) { evt_free(s); return NULL; }
    return s;
}

int sq_sort_add(sq_sort *s, const sq_ent *e)
{
    if (s->nbuf == s->cap && !flush_run_(s)) return 0;
    sq_ent *d = &s->buf[s->nbuf++];
    *d = *e;
    d->nulls &= (1u << s->ncols) - 1;
    for (uint32_t c = 0; c < SQ_SORT_MAX_COLS; c++)
        if (c >= s->ncols || (d->nulls >> c & 1)) d->k[c] = 0; /* ties, whatever the caller left */
    d->pad_ = 0;
    s->count++;
    return 1;
}

uint64_t sq_sort_count(const sq_sort *s) { return s->count; }

/* Read the next entries of run r into its buffer. */
static int refill_(sq_sort *s, run *r)
{
    uint32_t n = r->left < s->read ? (uint32_t)r->left : s->read;
    size_t len = (size_t)n * sizeof *r->buf;
    ssize_t got = pread(s->fd, r->buf, len, (off_t)(r->off * sizeof *r->buf));
    if (got != (ssize_t)len) {
        if (got >= 0) errno = EIO;
        return 0;
    }
    r->off += n;
    r->left -= n;
    r->pos = 0;
    r->n = n;
    return 1;
}

static int less_(const sq_sort *s, size_t a, size_t b)
{
    const run *ra = &s->runs[a], *rb = &s->runs[b];
    return cmp_(&ra->buf[ra->pos], &rb->buf[rb->pos]) < 0;
}

static void sift_down_(sq_sort *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < s->nheap && less_(s, s->heap[l], s->heap[m])) m = l;
        if (l + 1 < s->nheap && less_(s, s->heap[l + 1], s->heap[m])) m = l + 1;
        if (m == i) return;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

int sq_sort_done(sq_sort *s)
{
    if (!s->nruns) { /* everything fits the buffer: sorted in place */
        s->mem_pos = 0;
        sort_buf_(s);
        return 1;
    }
    if (s->nbuf && !flush_run_(s)) return 0;
    evt_free(s->buf); /* the run buffer's memory goes to the merge's read buffers */
    s->buf = NULL;
    s->heap = evt_malloc(s->nruns * sizeof *s->heap);
    if (!s->heap) { errno = ENOMEM; return 0; }
    size_t per = SQ_SORT_MERGE_BYTES / sizeof(sq_ent) / s->nruns; /* the budget shared by the runs */
    s->read = per > SQ_SORT_READ ? SQ_SORT_READ : per < 64 ? 64 : (uint32_t)per;
    for (size_t i = 0; i < s->nruns; i++) {
        run *r = &s->runs[i];
        r->buf = evt_malloc(s->read * sizeof *r->buf);
        if (!r->buf) { errno = ENOMEM; return 0; }
        if (!refill_(s, r)) return 0;
        s->heap[s->nheap++] = i;
    }
    for (size_t i = s->nheap / 2; i-- > 0;) sift_down_(s, i);
    return 1;
}

int sq_sort_next(sq_sort *s, sq_ent *e)
{
    if (!s->nruns) {
        if (s->mem_pos == s->nbuf) return 0;
        *e = s->buf[s->mem_pos++];
        return 1;
    }
    if (!s->nheap) return 0;
    run *r = &s->runs[s->heap[0]];
    *e = r->buf[r->pos++];
    if (r->pos == r->n) {
        if (r->left) {
            if (!refill_(s, r)) return -1;
        } else {
            s->heap[0] = s->heap[--s->nheap]; /* the run is used up */
        }
    }
    if (s->nheap) sift_down_(s, 0);
    return 1;
}

void sq_sort_free(sq_sort *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nruns; i++) evt_free(s->runs[i].buf);
    evt_free(s->runs);
    evt_free(s->heap);
    evt_free(s->buf);
    if (s->fd >= 0) close(s->fd);
    evt_free(s);
}
