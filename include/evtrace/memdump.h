/* Memory dumps as reader input: Intel HEX and Motorola S-record text files (what debuggers,
 * probes and `gdb dump ihex|srec memory` write) are turned into the memory image they describe,
 * so a trace buffer dumped from a target reads like the raw buffer. Host library. */
#ifndef EVTRACE_MEMDUMP_H
#define EVTRACE_MEMDUMP_H

#include <stddef.h>
#include <stdint.h>
#include "evtrace/status.h"

/* Container of an input file. X(NAME, text) */
#define EVT_DUMP_KIND_TABLE(X)                 \
    X(BINARY, "binary")   /* raw bytes */       \
    X(IHEX,   "ihex")     /* Intel HEX */       \
    X(SREC,   "srec")     /* Motorola S-record */

typedef enum evt_dump_kind {
#define EVT_DUMP_KIND_ENUM_(n, s) EVT_DUMP_##n,
    EVT_DUMP_KIND_TABLE(EVT_DUMP_KIND_ENUM_)
#undef EVT_DUMP_KIND_ENUM_
} evt_dump_kind;

const char *evt_dump_kind_name(evt_dump_kind k);

/* The bytes a dump describes. Addresses not covered by any record (gaps between records) read
 * as 0x00 and are counted in gap_bytes. Invariant: data holds size bytes for the target
 * addresses base_addr .. base_addr + size - 1. */
typedef struct evt_mem_image {
    uint8_t *data;        /* evt_malloc'd; NULL when size is 0 */
    uint64_t size;
    uint64_t base_addr;   /* target address of data[0] */
    uint64_t covered;     /* bytes given by data records */
    uint64_t gap_bytes;   /* bytes filled with 0x00 between records */
    uint64_t gap_first;   /* offset in data of the first such byte (when gap_bytes) */
    uint64_t gap_first_len; /* and the length of that gap */
    uint64_t gaps;        /* number of gaps */
    unsigned records;     /* data records read */
} evt_mem_image;

/* Largest image decoded (address span from the start address to the end of the last record):
 * more than any MCU's RAM; a dump spanning more (flash and RAM together) needs --base-address. */
#define EVT_MEM_IMAGE_MAX ((uint64_t)64u << 20)

/* What the first bytes of a file look like: IHEX when the first non-blank line is ':' + hex
 * digits, SREC when it is 'S', a record-type digit and hex digits, else BINARY. */
evt_dump_kind evt_dump_detect(const uint8_t *head, size_t len);

/* Decode a whole text dump. start_addr: where the image begins (UINT64_MAX = at the lowest record
 * address); records below it are skipped. Errors (bad checksum, odd digit count, length
 * mismatch, a character that is not a hex digit, unknown record type, missing end record,
 * conflicting overlap, span over EVT_MEM_IMAGE_MAX, nothing at start_addr) fill err with the byte
 * offset in the text, e.g. "offset 42 (0x2a): line 3: checksum 0x1f, computed 0x20", and return
 * EVT_ERR_CORRUPT (EVT_ERR_NOMEM when out of memory). On success img owns its data. */
evt_status evt_ihex_decode(const uint8_t *text, size_t len, uint64_t start_addr, evt_mem_image *img,
                           char *err, size_t errlen);
evt_status evt_srec_decode(const uint8_t *text, size_t len, uint64_t start_addr, evt_mem_image *img,
                           char *err, size_t errlen);
void evt_mem_image_free(evt_mem_image *img);

#endif
