/* File, memory and stream byte sources: readers read at offsets, so a file is never loaded whole.
 * Streams (pipes, sockets, ttys, followed files) are read in order with poll(), so an idle limit
 * fires whether or not the descriptor would block; dump inputs: source_input.c; serial lines:
 * source_serial.c; TCP: source_tcp.c (--connect), source_net.c (--listen), source_sock.c. */
#include "evtrace/source.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "evtrace/alloc.h"

#define STREAM_HEAD 4096u
#define FOLLOW_POLL_MS 50u
#define HEAD_PAUSE_MS 50  /* a pause this long ends the head */
#define HEAD_MAX_MS 250u  /* the head is complete this long after its first byte at the latest */

static int g_stop_fd = -1; /* evt_source_set_stop_fd: readable = every stream ends */

void evt_source_set_stop_fd(int fd) { g_stop_fd = fd; }

int evt_source_stop_fd(void) { return g_stop_fd; }

int evt_source_stop_requested(void)
{
    if (g_stop_fd < 0) return 0;
    struct pollfd p = {g_stop_fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP));
}

/* poll() on fd (or on nothing when fd < 0) and the stop descriptor: > 0 when fd is ready,
 * 0 on timeout, -1 with errno; *stop set when a stop was requested. */
static int poll_stop(int fd, int ms, int *stop)
{
    struct pollfd p[2] = {{fd, POLLIN, 0}, {g_stop_fd, POLLIN, 0}};
    *stop = 0;
    int pr = poll(p, 2, ms); /* a negative fd is ignored by poll() */
    if (pr > 0 && g_stop_fd >= 0 && (p[1].revents & (POLLIN | POLLHUP))) { *stop = 1; return 0; }
    if (pr > 0 && !(p[0].revents)) return 0;
    return pr;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Sleep ms, or less when a stop is requested (then returns 1). */
static int sleep_ms(unsigned ms)
{
    int stop;
    poll_stop(-1, (int)ms, &stop);
    return stop;
}

/* Milliseconds left before the idle limit (-1: no limit, 0: passed). */
static int idle_left(const evt_source *src, uint64_t idle_since)
{
    if (!src->idle_ms) return -1;
    uint64_t el = now_ms() - idle_since;
    return el >= src->idle_ms ? 0 : (int)(src->idle_ms - el);
}

/* A followed regular file has no more bytes now: has it shrunk under us? */
static int followed_file_shrank(evt_source *src)
{
    struct stat st;
    if (fstat(src->fd, &st) != 0 || (uint64_t)st.st_size >= src->skipped + src->pos) return 0;
    snprintf(src->failure, sizeof src->failure,
             "offset %llu (0x%llx): the file shrank to %llu bytes while being followed (truncated or "
             "rewritten); %llu bytes had been read", (unsigned long long)src->pos, (unsigned long long)src->pos,
             (unsigned long long)st.st_size, (unsigned long long)(src->skipped + src->pos));
    return 1;
}

/* One read from the stream: returns > 0 bytes, or 0 at its end. Non-regular descriptors are
 * polled first (so idle_ms fires on a blocking tty or socket); a regular file being followed is
 * re-read every FOLLOW_POLL_MS. Pipes, sockets and ttys end at EOF or hang-up. */
static size_t stream_read(evt_source *src, uint8_t *dst, size_t n)
{
    if (src->idle_expired || src->stopped || src->failure[0]) return 0; /* the stream has ended for good */
    uint64_t idle_since = now_ms();
    for (;;) {
        int left = idle_left(src, idle_since);
        if (left == 0) { src->idle_expired = 1; return 0; }
        if (evt_source_stop_requested()) { src->stopped = 1; return 0; }
        if (!src->follow) {
            int stop;
            int pr = poll_stop(src->fd, left, &stop);
            if (stop) { src->stopped = 1; return 0; }
            if (pr == 0) continue; /* idle check above */
            if (pr < 0 && errno == EINTR) continue;
            if (pr < 0) {
                snprintf(src->failure, sizeof src->failure, "poll: %s", strerror(errno));
                return 0;
            }
        }
        ssize_t r = read(src->fd, dst, n);
        if (r > 0) { src->pos += (uint64_t)r; return (size_t)r; }
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) {
            if (src->follow && sleep_ms(FOLLOW_POLL_MS)) { src->stopped = 1; return 0; }
            continue;
        }
        if (r < 0) {
            if (errno == EIO) return 0; /* a tty whose other end hung up */
            snprintf(src->failure, sizeof src->failure, "offset %llu (0x%llx): read: %s",
                     (unsigned long long)src->pos, (unsigned long long)src->pos, strerror(errno));
            return 0;
        }
        if (!src->follow) return 0; /* EOF: the writer closed */
        if (followed_file_shrank(src)) return 0;
        if (sleep_ms(left > 0 && (unsigned)left < FOLLOW_POLL_MS ? (unsigned)left : FOLLOW_POLL_MS)) {
            src->stopped = 1;
            return 0;
        }
    }
}

/* The head, for the format probes: src->head_len bytes already, then what arrives until the
 * stream pauses (HEAD_PAUSE_MS), up to STREAM_HEAD bytes, and never longer than HEAD_MAX_MS after
 * the first byte -- the bound on how long a live stream's first records wait before they are
 * decoded. An empty head waits for its first byte as any read does (idle_ms, a stop). */
static void read_head(evt_source *src)
{
    size_t got = src->head_len;
    if (!got) got = stream_read(src, src->head, STREAM_HEAD);
    uint64_t first = now_ms();
    while (got && got < STREAM_HEAD) {
        uint64_t el = now_ms() - first;
        if (el >= HEAD_MAX_MS) break;
        int wait = (int)(HEAD_MAX_MS - el) < HEAD_PAUSE_MS ? (int)(HEAD_MAX_MS - el) : HEAD_PAUSE_MS;
        int stop;
        if (poll_stop(src->fd, wait, &stop) <= 0) {
            if (stop) src->stopped = 1;
            break;
        }
        ssize_t r = read(src->fd, src->head + got, STREAM_HEAD - got);
        if (r <= 0) break;
        got += (size_t)r;
        src->pos += (uint64_t)r;
    }
    src->head_len = got;
}

evt_status evt_source_open_stream(evt_source *src, int fd, const char *name, int follow, unsigned idle_ms)
{
    memset(src, 0, sizeof *src);
    src->path = name;
    src->is_stream = 1;
    src->fd = fd;
    struct stat st;
    /* Only a regular file grows: a FIFO, socket or tty at EOF has lost its writer. */
    src->follow = follow && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    src->idle_ms = idle_ms;
    src->head = evt_malloc(STREAM_HEAD);
    if (!src->head) return EVT_ERR_NOMEM;
    read_head(src);
    return EVT_OK;
}

evt_status evt_source_skip_stream(evt_source *src, uint64_t n)
{
    if (!src->is_stream || n == 0) return EVT_OK;
    /* S1 pos counts the bytes of the trace read so far (from its byte 0, after the skipped ones):
       what read_at's offsets, the head and the messages count from */
    if (n <= src->head_len) {
        memmove(src->head, src->head + n, src->head_len - (size_t)n);
        src->head_len -= (size_t)n;
    } else {
        uint64_t left = n - src->head_len;
        src->head_len = 0;
        while (left) {
            size_t k = stream_read(src, src->head, left < STREAM_HEAD ? (size_t)left : STREAM_HEAD);
            if (!k) break; /* ended first */
            left -= k;
        }
        if (left) {
            src->skipped = n - left; /* the stream's length */
            src->pos = 0;
            return EVT_END;
        }
    }
    src->skipped = n;
    src->pos = src->head_len;
    read_head(src); /* the probes' head again, from the trace's byte 0 */
    return src->head_len ? EVT_OK : EVT_END;
}

evt_status evt_source_open_file(evt_source *src, const char *path)
{
    memset(src, 0, sizeof *src);
    src->path = path;
    FILE *fp = fopen(path, "rb");
    if (!fp) return EVT_ERR_IO;
    struct stat st;
    if (fstat(fileno(fp), &st) != 0) { int e = errno; fclose(fp); errno = e; return EVT_ERR_IO; }
    if (!S_ISREG(st.st_mode)) { fclose(fp); errno = EISDIR; return EVT_ERR_IO; }
    src->fp = fp;
    src->size = (uint64_t)st.st_size;
    return EVT_OK;
}

void evt_source_from_mem(evt_source *src, const void *data, size_t len)
{
    memset(src, 0, sizeof *src);
    src->mem = data;
    src->size = len;
    src->path = "<memory>";
}

/* What fread() at byte `at` of the file would give: up to n bytes, fewer at its end or on an error.
 * pread() reads straight into dst at the offset: one system call per buffer, where fseeko + fread
 * cost an lseek and up to three reads (stdio's buffer, then the rest, then EOF). An offset past
 * off_t's range fails as fseeko did: 0 bytes. Reading in place from mmap'ed 4 MB windows instead
 * was measured and not kept (6 Dec 2026, the ETW reader on a 641 MB file: 290-293 ms of CPU
 * either way, 20 runs each; its 10,000 page faults cost what the copies did), and it would add
 * SIGBUS when a file shrinks under the reader and 10 MB of mapped pages to the peak RSS. */
static size_t file_read_at(int fd, uint64_t at, void *dst, size_t n)
{
    size_t got = 0;
    while (got < n) {
        uint64_t pos = at + got;
        if (pos < at || pos > (uint64_t)INT64_MAX) break;
        ssize_t r = pread(fd, (uint8_t *)dst + got, n - got, (off_t)pos);
        if (r > 0) { got += (size_t)r; continue; }
        if (r < 0 && errno == EINTR) continue;
        break; /* 0: the end of the file; < 0: an error, as fread's short count */
    }
    return got;
}

size_t evt_source_read_at(evt_source *src, uint64_t off, void *dst, size_t n)
{
    if (n == 0) return 0; /* dst may be NULL for an empty read (memcpy(NULL, ..., 0) is UB) */
    if (src->is_stream) {
        if (off < src->head_len) {
            size_t k = src->head_len - (size_t)off;
            if (k > n) k = n;
            memcpy(dst, src->head + off, k);
            return k;
        }
        if (off != src->pos) return 0;
        return stream_read(src, dst, n);
    }
    if (off >= src->size) return 0;
    if (n > src->size - off) n = (size_t)(src->size - off);
    if (src->mem) {
        memcpy(dst, src->mem + off, n);
        return n;
    }
    return src->fp ? file_read_at(fileno(src->fp), src->file_off + off, dst, n) : 0;
}

int evt_source_same_bytes(evt_source *src, uint64_t a, uint64_t b, uint64_t len)
{
    uint8_t x[4096], y[4096];
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done < sizeof x ? (size_t)(len - done) : sizeof x;
        if (evt_source_read_at(src, a + done, x, n) != n || evt_source_read_at(src, b + done, y, n) != n) return 0;
        if (memcmp(x, y, n) != 0) return 0;
        done += n;
    }
    return 1;
}

/* An unlinked temporary file in $TMPDIR (else /tmp), open for reading and writing, or -1. */
static int spill_fd(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    if (!dir || !*dir) dir = "/tmp";
    if (snprintf(path, sizeof path, "%s/evtrace-stream-XXXXXX", dir) >= (int)sizeof path) return -1;
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    return fd;
}

/* Write all of b[0..n) to fd; 0, or -1 (errno set). */
static int write_all(int fd, const uint8_t *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The stream is done with: src becomes a source of what was read, whose end state stays. */
static void stream_done(evt_source *src, uint64_t len)
{
    if (src->fd > 2) close(src->fd);
    src->fd = -1;
    evt_free(src->head);
    src->head = NULL;
    src->head_len = 0;
    src->is_stream = 0;
    src->follow = 0;
    src->size = len;
}

static evt_status too_long(char *err, size_t errlen, uint64_t len, uint64_t max)
{
    snprintf(err, errlen, "offset %llu (0x%llx): the stream is longer than %llu bytes, the most evtrace "
             "holds for a format that needs the whole trace: save it to a file first",
             (unsigned long long)len, (unsigned long long)len, (unsigned long long)max);
    return EVT_ERR_NOMEM;
}

/* The stream into memory (no temporary file could be made). */
static evt_status buffer_in_memory(evt_source *src, uint64_t max, char *err, size_t errlen)
{
    size_t cap = 1u << 16, len = 0;
    uint8_t *buf = evt_malloc(cap);
    if (!buf) { snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    for (;;) {
        if (len == cap) {
            if ((uint64_t)len >= max) {
                evt_free(buf);
                return too_long(err, errlen, len, max);
            }
            size_t ncap = (uint64_t)cap * 2 > max ? (size_t)max : cap * 2;
            uint8_t *nb = evt_realloc(buf, ncap);
            if (!nb) { evt_free(buf); snprintf(err, errlen, "out of memory after %zu bytes of the stream", len); return EVT_ERR_NOMEM; }
            buf = nb;
            cap = ncap;
        }
        size_t n = evt_source_read_at(src, len, buf + len, cap - len);
        if (n == 0) break;
        len += n;
    }
    stream_done(src, len);
    src->owned = buf;
    src->mem = buf;
    return EVT_OK;
}

evt_status evt_source_buffer_stream(evt_source *src, uint64_t max, char *err, size_t errlen)
{
    if (!src->is_stream) return EVT_OK;
    /* into an unlinked temporary file, read back at offsets like any file: memory stays flat
     * whatever the stream's length (it was held in memory: a 3 GB pipe took 2.9 GB) */
    int fd = spill_fd();
    FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!fp) {
        if (fd >= 0) close(fd);
        return buffer_in_memory(src, max, err, errlen);
    }
    enum { CHUNK = 1u << 16 };
    uint8_t *buf = evt_malloc(CHUNK);
    if (!buf) { fclose(fp); snprintf(err, errlen, "out of memory"); return EVT_ERR_NOMEM; }
    uint64_t len = 0;
    for (;;) {
        size_t n = evt_source_read_at(src, len, buf, CHUNK);
        if (n == 0) break;
        if (len + n > max) { evt_free(buf); fclose(fp); return too_long(err, errlen, len + n, max); }
        if (write_all(fd, buf, n) != 0) {
            snprintf(err, errlen, "offset %llu (0x%llx): cannot keep the stream in a temporary file: %s",
                     (unsigned long long)len, (unsigned long long)len, strerror(errno));
            evt_free(buf);
            fclose(fp);
            return EVT_ERR_IO;
        }
        len += n;
    }
    evt_free(buf);
    stream_done(src, len);
    src->fp = fp;
    src->file_off = 0;
    return EVT_OK;
}

const char *evt_source_failure(const evt_source *src) { return src->failure[0] ? src->failure : NULL; }

void evt_source_close(evt_source *src)
{
    if (src->fp) fclose(src->fp);
    src->fp = NULL;
    evt_free(src->owned);
    src->owned = NULL;
    src->mem = NULL;
    if (src->is_stream) {
        if (src->fd > 2) close(src->fd);
        evt_free(src->head);
        src->head = NULL;
        src->is_stream = 0;
    }
}
