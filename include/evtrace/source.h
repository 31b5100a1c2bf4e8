/* Byte sources for readers: a file (read at offsets, never loaded whole), a memory block, the
 * memory image of an Intel HEX / S-record dump, or a sequential stream (pipe, socket, serial
 * line, a file followed as it grows). */
#ifndef EVTRACE_SOURCE_H
#define EVTRACE_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "evtrace/memdump.h"
#include "evtrace/status.h"

typedef struct evt_source {
    FILE *fp;             /* file source, or NULL */
    const uint8_t *mem;   /* memory source, or NULL */
    uint64_t size;        /* total size in bytes (0 for a stream: unknown) */
    const char *path;     /* for messages ("<memory>" for memory sources) */
    int is_stream;        /* sequential source: pipe, socket, tty, or a file followed as it grows */
    int fd;               /* the stream's descriptor */
    int follow;           /* at the end of the data, wait for more (only ever set for a regular file) */
    unsigned idle_ms;     /* stream: end after this long without new data (0 = never) */
    uint8_t *head;        /* the stream's first bytes, kept so probes can look at them */
    size_t head_len;
    uint64_t pos;         /* bytes read from fd so far */
    uint64_t file_off;    /* file source: offset in the file of the trace's byte 0 (--offset) */
    uint8_t *owned;       /* memory owned by the source (a decoded dump image), freed on close */
    evt_dump_kind dump;   /* the input's container (binary, ihex, srec) */
    uint64_t image_addr;  /* ihex/srec: target address of the trace's byte 0 */
    uint64_t gap_bytes;   /* ihex/srec: bytes of the image no record gave (read as 0x00), in gaps */
    uint64_t gaps;        /* ...how many gaps */
    uint64_t gap_addr, gap_len; /* ...the first: its target address and length */
    int idle_expired;     /* stream: ended because --idle-exit passed without data */
    char failure[200];    /* stream: why it ended abnormally ("" = it did not) */
    int stopped;          /* stream: ended because a stop was requested (evt_source_set_stop_fd) */
    uint64_t skipped;     /* stream: bytes dropped before the trace's byte 0 (evt_source_skip_stream) */
} evt_source;

/* How to find the trace inside an input file. Zero-initialised = the whole file, container
 * auto-detected. */
typedef struct evt_input_opts {
    uint64_t offset;        /* skip this many bytes (of the file, or of a dump's memory image) */
    uint64_t base_address;  /* ihex/srec: the trace starts at this target address... */
    int has_base_address;   /* ...when set; otherwise at the lowest address in the dump */
} evt_input_opts;

/* Open a file. Returns EVT_ERR_IO (with errno set) when it cannot be opened or sized. */
evt_status evt_source_open_file(evt_source *src, const char *path);
/* Open an input file as a reader sees it: an Intel HEX or S-record dump (auto-detected) becomes
 * its memory image, then opts->offset / base_address select where the trace starts (opts may be
 * NULL). On failure err gets a message (without the path), e.g. "offset 120 (0x78): line 4:
 * checksum 0x3c, computed 0x3d"; returns EVT_ERR_IO (errno set), EVT_ERR_CORRUPT, EVT_ERR_USAGE
 * (offset past the end, base address on a binary file) or EVT_ERR_NOMEM. */
evt_status evt_source_open_input(evt_source *src, const char *path, const evt_input_opts *opts, char *err,
                                 size_t errlen);
/* Wrap a memory block (not copied; it must outlive the source). */
void evt_source_from_mem(evt_source *src, const void *data, size_t len);
/* A sequential stream on fd (pipe, socket, tty, or a regular file). follow applies to a regular
 * file only: at its end, wait for it to grow (a file that shrinks ends the stream with a failure).
 * Pipes, sockets and ttys end when the writer closes or hangs up. idle_ms (0 = never) ends any
 * of them after that long without a byte, whether or not the fd would block. Reads the first
 * bytes for probing: up to 4096, until a 50 ms pause, at most 250 ms. Streams are read in order
 * only: a read at an offset behind the data already consumed (past the kept head) returns 0. */
evt_status evt_source_open_stream(evt_source *src, int fd, const char *name, int follow, unsigned idle_ms);
/* A stream source opened by evt_source_open_stream: drop its first n bytes (--offset), so that its
 * byte 0 is the stream's byte n (offsets, pos and messages count from there; src->skipped: n), and
 * read the probes' head again from there. Returns EVT_OK, or EVT_END when the stream ended (or
 * idle_ms passed, or a stop came) before a byte past them: src->skipped is then the bytes it had.
 * Any other source is left as it is. */
evt_status evt_source_skip_stream(evt_source *src, uint64_t n);
/* A serial device (tty) as a stream: opened without becoming the controlling terminal, put in
 * raw mode (8N1, no echo, no flow control, no line editing) at baud (0 = leave the speed).
 * On failure err gets a message; returns EVT_ERR_IO or EVT_ERR_USAGE (unsupported baud). */
evt_status evt_source_open_serial(evt_source *src, const char *dev, unsigned baud, unsigned idle_ms,
                                  char *err, size_t errlen);
/* Listen on [HOST:]PORT (HOST: an IPv4/IPv6 literal or name, [v6]:PORT; default 127.0.0.1), call
 * announce(user, "HOST:PORT") once listening (may be NULL), accept one connection and make it a
 * stream source. idle_ms also bounds the wait for the connection. Returns EVT_ERR_USAGE for a bad
 * spec, EVT_ERR_IO otherwise (err filled); EVT_END when idle_ms passed with no connection. */
evt_status evt_source_listen(evt_source *src, const char *spec, unsigned idle_ms,
                             void (*announce)(void *user, const char *where), void *user, char *err,
                             size_t errlen);
/* Process-wide stop for live inputs: once fd is readable (a signal handler wrote to a pipe), every
 * stream source ends as if its writer had closed (src->stopped set), waits for a connection give
 * up (evt_source_listen returns EVT_END), and follow sleeps wake. -1 (the default) disables it.
 * Sources added later should poll evt_source_stop_requested() or this descriptor too. */
void evt_source_set_stop_fd(int fd);
/* The stop descriptor (-1: none), for a source's own poll() set. */
int evt_source_stop_fd(void);
/* A stop has been requested (the descriptor is readable). */
int evt_source_stop_requested(void);
/* Read up to n bytes at off into dst; returns the number read (less than n only at the end). */
size_t evt_source_read_at(evt_source *src, uint64_t off, void *dst, size_t n);
/* 1 if the len bytes at offsets a and b can both be read and are the same, else 0 (a reader's test
 * for a block written twice: etw_dec.c, xray_dec.c). */
int evt_source_same_bytes(evt_source *src, uint64_t a, uint64_t b, uint64_t len);
/* Read a stream to its end (its writer closes, --idle-exit, a stop), at most max bytes, into an
 * unlinked temporary file in $TMPDIR (else /tmp; into memory when none can be made), and make src
 * a source of those bytes (size known, readable at any offset); the stream's end state (failure,
 * idle_expired, stopped) stays. A non-stream source is left as it is. Returns EVT_OK, or
 * EVT_ERR_NOMEM with err filled (longer than max, or no memory), or EVT_ERR_IO (the temporary
 * file could not be written: err names the offset and the reason). */
evt_status evt_source_buffer_stream(evt_source *src, uint64_t max, char *err, size_t errlen);
/* Why a stream ended abnormally (a followed file shrank, a read error), or NULL. */
const char *evt_source_failure(const evt_source *src);
void evt_source_close(evt_source *src);

#endif
