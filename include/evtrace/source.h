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
    uint64_t size;        /* total size in bytes (0 for a stream: unknown) */
    const char *path;     /* for messages ("<memory>" for memory sources) */
    int is_stream;        /* sequential source: pipe, socket, or a file followed as it grows */
    int fd;               /* the stream's descriptor */
    int follow;           /* at the end of the data, wait for more (a growing file) */
    unsigned idle_ms;     /* follow: end after this long without new data (0 = never) */
    uint8_t *head;        /* the stream's first bytes, kept so probes can look at them */
    size_t head_len;
    uint64_t pos;         /* bytes read from fd so far */
} evt_source;

/* Open a file. Returns EVT_ERR_IO (with errno set) when it cannot be opened or sized. */
evt_status evt_source_open_file(evt_source *src, const char *path);
/* Wrap a memory block (not copied; it must outlive the source). */
void evt_source_from_mem(evt_source *src, const void *data, size_t len);
/* A sequential stream on fd (pipe, socket, or a file to follow as it grows). Reads the first bytes
 * for probing (up to 4096, or what arrives within a moment). Streams are read in order only: a read
 * at an offset behind the data already consumed (past the kept head) returns 0. */
evt_status evt_source_open_stream(evt_source *src, int fd, const char *name, int follow, unsigned idle_ms);
/* Read up to n bytes at off into dst; returns the number read (less than n only at the end). */
size_t evt_source_read_at(evt_source *src, uint64_t off, void *dst, size_t n);
void evt_source_close(evt_source *src);

#endif
