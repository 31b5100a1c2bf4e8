/* Shared pieces of the memory-dump decoders (memdump_ihex.c, memdump_srec.c): text lines with
 * their byte offsets, hex-pair decoding with precise error offsets, and the builder that collects
 * data records (in any order) into one evt_mem_image. Private to the host library. */
#ifndef EVT_MEMDUMP_BUILD_H
#define EVT_MEMDUMP_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/memdump.h"

/* One non-blank text line: trailing CR, spaces and tabs removed. */
typedef struct md_line {
    const uint8_t *p;
    size_t len;
    uint64_t off;     /* byte offset of p[0] in the text */
    unsigned no;      /* 1-based line number */
} md_line;

/* Largest record payload in bytes: a one-byte count (255) plus the count byte itself. */
#define MD_RECORD_MAX 256u

/* Next non-blank line at *pos (advanced past it); 0 at the end of the text. */
int md_next_line(const uint8_t *text, size_t len, size_t *pos, unsigned *lineno, md_line *out);

/* Decode the hex digits of line from index `from` to its end into out (at most cap bytes).
 * Returns EVT_OK, or EVT_ERR_CORRUPT with err naming the offset of the bad character, an odd
 * digit count or a record longer than cap. */
evt_status md_line_bytes(const md_line *l, size_t from, uint8_t *out, size_t cap, size_t *n, char *err,
                         size_t errlen);

/* The last byte of rec[0..n) (decoded from l's digits starting at index `from`) checks the others:
 * the two's complement of their sum (Intel HEX) or its ones' complement (S-record). EVT_OK, or
 * EVT_ERR_CORRUPT with err naming the checksum digits' offset. */
evt_status md_checksum(const md_line *l, size_t from, const uint8_t *rec, size_t n, int ones_complement, char *err,
                       size_t errlen);

/* Format "offset N (0xN): line L: message" into err; returns EVT_ERR_CORRUPT. */
evt_status md_fail(char *err, size_t errlen, uint64_t off, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Data segments collected so far. Invariant: store holds the bytes of every seg back to back;
 * consecutive records at consecutive addresses extend the last segment. */
typedef struct md_seg {
    uint64_t addr;
    uint64_t len;
    uint64_t store_off;   /* where its bytes start in store */
    uint64_t text_off;    /* offset of its first record in the text (for messages) */
    unsigned line;
} md_seg;

typedef struct md_builder {
    md_seg *seg;
    size_t nseg, capseg;
    uint8_t *store;
    size_t nstore, capstore;
    unsigned records;
} md_builder;

void md_builder_init(md_builder *b);
/* Add one data record of n bytes at target address addr. EVT_OK or EVT_ERR_NOMEM. */
evt_status md_builder_add(md_builder *b, uint64_t addr, const uint8_t *p, size_t n, uint64_t text_off,
                   unsigned line);
/* Lay the segments out as one image from start_addr (UINT64_MAX: the lowest address); frees the
 * builder's memory whatever the result. */
evt_status md_builder_finish(md_builder *b, uint64_t start_addr, evt_mem_image *img, char *err,
                      size_t errlen);
void md_builder_free(md_builder *b);
/* End of the text (len bytes, lineno lines): without the end record (seen_end 0) an error naming
 * `missing` at offset len, else md_builder_finish. Frees the builder either way. */
evt_status md_builder_end(md_builder *b, int seen_end, const char *missing, size_t len, unsigned lineno,
                          uint64_t start_addr, evt_mem_image *img, char *err, size_t errlen);

#endif
