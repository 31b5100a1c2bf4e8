/* File and memory byte sources: readers read at offsets, so a file is never loaded whole. */
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
#define FOLLOW_POLL_MS 50

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    nanosleep(&ts, NULL);
}

/* One read from the stream: returns > 0 bytes, or 0 at its end. A followed file waits for more
 * (up to idle_ms without data, if set); pipes and sockets end when the writer closes. */
static size_t stream_read(evt_source *src, uint8_t *dst, size_t n)
{
    uint64_t idle_since = now_ms();
    for (;;) {
        ssize_t r = read(src->fd, dst, n);
        if (r > 0) { src->pos += (uint64_t)r; return (size_t)r; }
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && errno == EAGAIN) { struct pollfd p = {src->fd, POLLIN, 0}; poll(&p, 1, FOLLOW_POLL_MS); continue; }
        if (r < 0 || !src->follow) return 0;
        if (src->idle_ms && now_ms() - idle_since >= src->idle_ms) return 0;
        sleep_ms(FOLLOW_POLL_MS);
    }
}

evt_status evt_source_open_stream(evt_source *src, int fd, const char *name, int follow, unsigned idle_ms)
{
    memset(src, 0, sizeof *src);
    src->path = name;
    src->is_stream = 1;
    src->fd = fd;
    src->follow = follow;
    src->idle_ms = idle_ms;
    src->head = evt_malloc(STREAM_HEAD);
    if (!src->head) return EVT_ERR_NOMEM;
    /* The head: what arrives before the stream pauses for a moment (or 4096 bytes). */
    size_t got = stream_read(src, src->head, STREAM_HEAD);
    while (got && got < STREAM_HEAD) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0) break;
        ssize_t r = read(fd, src->head + got, STREAM_HEAD - got);
        if (r <= 0) break;
        got += (size_t)r;
        src->pos += (uint64_t)r;
    }
    src->head_len = got;
    return EVT_OK;
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
        if (off != src->pos || n == 0) return 0;
        return stream_read(src, dst, n);
    }
    if (off >= src->size) return 0;
    if (n > src->size - off) n = (size_t)(src->size - off);
    if (src->mem) {
        memcpy(dst, src->mem + off, n);
        return n;
    }
    if (!src->fp || fseeko(src->fp, (off_t)off, SEEK_SET) != 0) return 0;
    return fread(dst, 1, n, src->fp);
}

void evt_source_close(evt_source *src)
{
    if (src->fp) fclose(src->fp);
    src->fp = NULL;
    if (src->is_stream) {
        if (src->fd > 2) close(src->fd);
        evt_free(src->head);
        src->head = NULL;
        src->is_stream = 0;
    }
}
