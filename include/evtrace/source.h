/* Byte sources for readers: a file (read at offsets, never loaded whole) or a memory block. */
#ifndef EVTRACE_SOURCE_H
#define EVTRACE_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/status.h"

typedef struct evt_source {
    FILE *fp;             /* file source, or NULL */
    const uint8_t *mem;   /* memory source, or NULL */
    uint64_t size;        /* total size in bytes */
    const char *path;     /* for messages ("<memory>" for memory sources) */
} evt_source;

/* Open a file. Returns EVT_ERR_IO (with errno set) when it cannot be opened or sized. */
evt_status evt_source_open_file(evt_source *src, const char *path);
/* Wrap a memory block (not copied; it must outlive the source). */
void evt_source_from_mem(evt_source *src, const void *data, size_t len);
/* Read up to n bytes at off into dst; returns the number read (less than n only at the end). */
size_t evt_source_read_at(const evt_source *src, uint64_t off, void *dst, size_t n);
void evt_source_close(evt_source *src);

#endif
