/* Memory-dump support shared by the Intel HEX and S-record decoders: container detection, text
 * lines, hex pairs, and the builder that lays data records out as one memory image (gaps filled
 * with 0x00 and counted, overlaps allowed only when the bytes agree). */
#include "memdump_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "evtrace/alloc.h"

const char *evt_dump_kind_name(evt_dump_kind k)
{
    switch (k) {
#define EVT_DUMP_KIND_NAME_(n, s) case EVT_DUMP_##n: return s;
        EVT_DUMP_KIND_TABLE(EVT_DUMP_KIND_NAME_)
#undef EVT_DUMP_KIND_NAME_
    }
    return "?";
}

static int hex_val(uint8_t c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

evt_dump_kind evt_dump_detect(const uint8_t *head, size_t len)
{
    size_t i = 0;
    while (i < len && (head[i] == '\n' || head[i] == '\r' || head[i] == ' ' || head[i] == '\t')) i++;
    if (i >= len) return EVT_DUMP_BINARY;
    size_t from;
    if (head[i] == ':') from = i + 1;
    else if (head[i] == 'S' && i + 1 < len && head[i + 1] >= '0' && head[i + 1] <= '9') from = i + 2;
    else return EVT_DUMP_BINARY;
    /* The rest of the first line (or of the head) must be hex digits: at least a count byte,
     * a 16-bit address and a checksum. */
    size_t digits = 0;
    for (size_t k = from; k < len && head[k] != '\n' && head[k] != '\r'; k++) {
        if (hex_val(head[k]) < 0) return EVT_DUMP_BINARY;
        digits++;
    }
    if (digits < 8) return EVT_DUMP_BINARY;
    return head[i] == ':' ? EVT_DUMP_IHEX : EVT_DUMP_SREC;
}

evt_status md_fail(char *err, size_t errlen, uint64_t off, unsigned line, const char *fmt, ...)
{
    if (err && errlen) {
        int k = snprintf(err, errlen, "offset %llu (0x%llx): line %u: ", (unsigned long long)off,
                         (unsigned long long)off, line);
        if (k > 0 && (size_t)k < errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return EVT_ERR_CORRUPT;
}

int md_next_line(const uint8_t *text, size_t len, size_t *pos, unsigned *lineno, md_line *out)
{
    while (*pos < len) {
        size_t s = *pos;
        size_t e = s;
        while (e < len && text[e] != '\n') e++;
        *pos = (e < len) ? e + 1 : e;
        ++*lineno;
        size_t end = e;
        while (end > s && (text[end - 1] == '\r' || text[end - 1] == ' ' || text[end - 1] == '\t')) end--;
        if (end == s) continue;
        out->p = text + s;
        out->len = end - s;
        out->off = s;
        out->no = *lineno;
        return 1;
    }
    return 0;
}

evt_status md_line_bytes(const md_line *l, size_t from, uint8_t *out, size_t cap, size_t *n, char *err,
                         size_t errlen)
{
    size_t digits = l->len - from;
    for (size_t k = from; k < l->len; k++)
        if (hex_val(l->p[k]) < 0)
            return md_fail(err, errlen, l->off + k, l->no, "'%c' (0x%02x) is not a hex digit",
                           (l->p[k] >= 0x20 && l->p[k] < 0x7f) ? l->p[k] : '?', l->p[k]);
    if (digits % 2)
        return md_fail(err, errlen, l->off, l->no, "odd number of hex digits (%zu) in the record", digits);
    if (digits / 2 > cap)
        return md_fail(err, errlen, l->off, l->no, "record of %zu bytes is longer than any valid record",
                       digits / 2);
    for (size_t k = 0; k < digits / 2; k++)
        out[k] = (uint8_t)(hex_val(l->p[from + 2 * k]) << 4 | hex_val(l->p[from + 2 * k + 1]));
    *n = digits / 2;
    return EVT_OK;
}

evt_status md_checksum(const md_line *l, size_t from, const uint8_t *rec, size_t n, int ones_complement, char *err,
                       size_t errlen)
{
    uint8_t sum = 0;
    for (size_t k = 0; k + 1 < n; k++) sum = (uint8_t)(sum + rec[k]);
    uint8_t want = ones_complement ? (uint8_t)~sum : (uint8_t)(0x100u - sum);
    if (want == rec[n - 1]) return EVT_OK;
    return md_fail(err, errlen, l->off + from + 2 * (n - 1), l->no, "checksum 0x%02x, computed 0x%02x", rec[n - 1],
                   want);
}

void md_builder_init(md_builder *b) { memset(b, 0, sizeof *b); }

void md_builder_free(md_builder *b)
{
    evt_free(b->seg);
    evt_free(b->store);
    memset(b, 0, sizeof *b);
}

evt_status md_builder_add(md_builder *b, uint64_t addr, const uint8_t *p, size_t n, uint64_t text_off,
                          unsigned line)
{
    b->records++;
    if (n == 0) return EVT_OK;
    if (b->nstore + n > b->capstore) {
        size_t cap = b->capstore ? b->capstore * 2 : 4096;
        while (cap < b->nstore + n) cap *= 2;
        uint8_t *s = evt_realloc(b->store, cap);
        if (!s) return EVT_ERR_NOMEM;
        b->store = s;
        b->capstore = cap;
    }
    memcpy(b->store + b->nstore, p, n);
    md_seg *last = b->nseg ? &b->seg[b->nseg - 1] : NULL;
    if (last && last->addr + last->len == addr && last->store_off + last->len == b->nstore) {
        last->len += n;
    } else {
        if (b->nseg == b->capseg) {
            size_t cap = b->capseg ? b->capseg * 2 : 16;
            md_seg *s = evt_realloc(b->seg, cap * sizeof *s);
            if (!s) return EVT_ERR_NOMEM;
            b->seg = s;
            b->capseg = cap;
        }
        b->seg[b->nseg++] = (md_seg){addr, n, b->nstore, text_off, line};
    }
    b->nstore += n;
    return EVT_OK;
}

static int seg_cmp(const void *a, const void *b)
{
    const md_seg *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->text_off < y->text_off ? -1 : (x->text_off > y->text_off);
}

evt_status md_builder_finish(md_builder *b, uint64_t start_addr, evt_mem_image *img, char *err,
                             size_t errlen)
{
    memset(img, 0, sizeof *img);
    evt_status st = EVT_OK;
    if (b->nseg == 0) {
        st = md_fail(err, errlen, 0, 1, "the dump holds no data records");
        goto out;
    }
    qsort(b->seg, b->nseg, sizeof *b->seg, seg_cmp);
    uint64_t lo = (start_addr == UINT64_MAX) ? b->seg[0].addr : start_addr;
    uint64_t hi = lo; /* end of the image: one past the highest byte at or above lo */
    int covers_lo = 0;
    for (size_t i = 0; i < b->nseg; i++) {
        const md_seg *s = &b->seg[i];
        if (s->addr + s->len <= lo) continue;
        if (s->addr <= lo) covers_lo = 1;
        if (s->addr + s->len > hi) hi = s->addr + s->len;
        if (hi - lo > EVT_MEM_IMAGE_MAX) {
            st = md_fail(err, errlen, s->text_off, s->line,
                         "record at address 0x%llx is %llu bytes past the image start 0x%llx (limit %llu MiB: "
                         "give --base-address or dump one region)", (unsigned long long)s->addr,
                         (unsigned long long)(s->addr - lo), (unsigned long long)lo,
                         (unsigned long long)(EVT_MEM_IMAGE_MAX >> 20));
            goto out;
        }
    }
    if (!covers_lo) {
        st = md_fail(err, errlen, 0, 1, "no data record covers the start address 0x%llx", (unsigned long long)lo);
        goto out;
    }
    img->size = hi - lo;
    img->base_addr = lo;
    img->data = evt_calloc(1, (size_t)img->size);
    uint8_t *have = evt_calloc(1, (size_t)(img->size + 7) / 8); /* bit set = byte given by a record */
    if (!img->data || !have) {
        evt_free(have);
        evt_mem_image_free(img);
        st = EVT_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < b->nseg; i++) {
        const md_seg *s = &b->seg[i];
        if (s->addr + s->len <= lo) continue;
        uint64_t skip = s->addr < lo ? lo - s->addr : 0;
        for (uint64_t k = skip; k < s->len; k++) {
            uint64_t at = s->addr + k - lo;
            uint8_t v = b->store[s->store_off + k];
            uint8_t bit = (uint8_t)(1u << (at & 7u));
            int given = (have[at >> 3] & bit) != 0;
            if (given && img->data[at] != v) {
                st = md_fail(err, errlen, s->text_off, s->line,
                             "records overlap with different data at address 0x%llx",
                             (unsigned long long)(s->addr + k));
                evt_free(have);
                evt_mem_image_free(img);
                goto out;
            }
            if (!given) img->covered++;
            have[at >> 3] |= bit;
            img->data[at] = v;
        }
    }
    evt_free(have);
    img->gap_bytes = img->size - img->covered;
    /* the gaps: between the end of what the sorted records cover so far and the next record */
    uint64_t end = lo;
    for (size_t i = 0; i < b->nseg && img->gap_bytes; i++) {
        const md_seg *s = &b->seg[i];
        if (s->addr + s->len <= lo) continue;
        if (s->addr > end) {
            if (!img->gaps++) {
                img->gap_first = end - lo;
                img->gap_first_len = s->addr - end;
            }
        }
        if (s->addr + s->len > end) end = s->addr + s->len;
    }
    img->records = b->records;
out:
    md_builder_free(b);
    return st;
}

evt_status md_builder_end(md_builder *b, int seen_end, const char *missing, size_t len, unsigned lineno,
                          uint64_t start_addr, evt_mem_image *img, char *err, size_t errlen)
{
    if (seen_end) return md_builder_finish(b, start_addr, img, err, errlen);
    md_builder_free(b);
    return md_fail(err, errlen, len, lineno ? lineno : 1, "missing %s: the dump is incomplete", missing);
}

void evt_mem_image_free(evt_mem_image *img)
{
    evt_free(img->data);
    memset(img, 0, sizeof *img);
}
