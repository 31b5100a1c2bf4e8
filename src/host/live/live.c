/* The live session: the tee thread (source -> trace file, every byte), the builder thread (a
 * window of the file -> a report page) and their shared state; the HTTP side is live_http.c. */
#define _GNU_SOURCE /* open_memstream is POSIX 2008; pthread */
#include "host/live/live.h"
#include "host/live/live_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "evtrace/reader.h"
#include "host/report/report.h"

#define TEE_CHUNK (64u << 10)
#define RKH_FLAG 0x7Eu

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- tee: the source into the file ------------------------------------------------------------- */

static void *tee_main(void *arg)
{
    evt_live *l = arg;
    evt_source src;
    char err[300] = "";
    evt_status st = l->open_fn(l->open_user, &src, err, sizeof err);
    pthread_mutex_lock(&l->mu);
    if (st == EVT_OK) {
        l->src = src;
        l->src_open = 1;
    } else {
        snprintf(l->end_reason, sizeof l->end_reason, "%s", err[0] ? err : "cannot open the input");
        l->ended = 1;
        l->tee_done = 1;
        pthread_cond_broadcast(&l->cv);
    }
    int stop = l->stopping;
    pthread_mutex_unlock(&l->mu);
    if (st != EVT_OK) return NULL;
    if (stop) {
        pthread_mutex_lock(&l->mu);
        l->tee_done = 1;
        pthread_cond_broadcast(&l->cv);
        pthread_mutex_unlock(&l->mu);
        return NULL;
    }
    uint8_t *buf = evt_malloc(TEE_CHUNK);
    uint64_t pos = 0;
    const char *why = "the source ended";
    for (;;) {
        size_t n = buf ? evt_source_read_at(&l->src, pos, buf, TEE_CHUNK) : 0;
        if (!buf) why = "out of memory";
        pthread_mutex_lock(&l->mu);
        if (l->stopping || n == 0) {
            if (n == 0 && !l->stopping) {
                const char *f = evt_source_failure(&l->src);
                snprintf(l->end_reason, sizeof l->end_reason, "%s", f ? f : l->src.idle_expired ? "idle limit reached" : why);
                l->ended = 1;
                pthread_cond_broadcast(&l->cv);
            }
            pthread_mutex_unlock(&l->mu);
            break;
        }
        /* Written and flushed under the lock: what `bytes` says is in the file, and a stop
         * never cuts a chunk in two. */
        if (fwrite(buf, 1, n, l->fp) != n || fflush(l->fp) != 0) {
            snprintf(l->write_error, sizeof l->write_error, "%s", strerror(errno));
            l->ended = 1;
            snprintf(l->end_reason, sizeof l->end_reason, "cannot write the trace file: %s", strerror(errno));
            pthread_cond_broadcast(&l->cv);
            pthread_mutex_unlock(&l->mu);
            break;
        }
        pos += n;
        l->bytes = pos;
        pthread_cond_broadcast(&l->cv);
        pthread_mutex_unlock(&l->mu);
    }
    evt_free(buf);
    pthread_mutex_lock(&l->mu);
    l->tee_done = 1;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

/* ---- builder: a window of the file -> a page --------------------------------------------------- */

/* Read [off, off + n) of the file being written (a separate descriptor: no shared position). */
static int read_file(int fd, uint64_t off, uint8_t *dst, size_t n)
{
    while (n) {
        ssize_t r = pread(fd, dst, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        dst += r;
        off += (uint64_t)r;
        n -= (size_t)r;
    }
    return 1;
}

/* The window: the head and the newest bytes (all of it when it fits). For a flag-framed stream
 * (RKH) the newest part starts after a flag and ends with one, so no record is cut. Returns the
 * bytes in *win (malloc'd) or 0. */
static size_t window_(evt_live *l, int fd, uint64_t L, int framed, uint8_t **win)
{
    uint64_t W = l->view_bytes, H = EVT_LIVE_HEAD_BYTES < L ? EVT_LIVE_HEAD_BYTES : L;
    size_t n = (size_t)(L <= W ? L : W);
    uint8_t *b = evt_malloc(n ? n : 1);
    if (!b) return 0;
    if (L <= W) {
        if (!read_file(fd, 0, b, n)) { evt_free(b); return 0; }
    } else {
        if (!read_file(fd, 0, b, (size_t)H) || !read_file(fd, L - (W - H), b + H, (size_t)(W - H))) {
            evt_free(b);
            return 0;
        }
        if (framed) { /* drop the partial record after the head */
            size_t k = (size_t)H;
            while (k < n && b[k] != RKH_FLAG) k++;
            if (k < n) {
                memmove(b + H, b + k, n - k);
                n -= k - (size_t)H;
            }
        }
    }
    if (framed) /* end at the last flag: the newest record may still be arriving */
        while (n > 0 && b[n - 1] != RKH_FLAG) n--;
    *win = b;
    return n;
}

/* Build one page from the file's first L bytes. Returns 1 when a new page was published. */
static int build_(evt_live *l, int fd, uint64_t L)
{
    uint8_t *win = NULL;
    size_t n = window_(l, fd, L, l->framed, &win);
    if (!win) return 0;
    evt_source src;
    evt_source_from_mem(&src, win, n);
    src.path = l->title; /* what the reader's messages call it */
    evt_reader *r = NULL;
    char err[256];
    int ok = 0;
    if (evt_reader_open_stream(&src, l->format, l->ropts, NULL, NULL, &r, err, sizeof err) != EVT_OK) {
        evt_free(win);
        if (L >= EVT_LIVE_HEAD_BYTES * 4) { /* enough bytes that no format's probe is waiting for more */
            pthread_mutex_lock(&l->mu);
            snprintf(l->undecodable, sizeof l->undecodable, "%s", err);
            pthread_mutex_unlock(&l->mu);
        }
        return 0;
    }
    if (l->clock_hz) evt_reader_set_clock_hz(r, l->clock_hz);
    if (l->kernel) evt_reader_set_kernel(r, l->kernel - 1); /* as the other commands (cli_common.c) */
    if (l->prio_order) evt_reader_set_prio_order(r, l->prio_order);
    l->framed = strcmp(r->desc->name, "rkh") == 0;
    evt_report_info info;
    memset(&info, 0, sizeof info);
    info.format = r->desc->name;
    info.file = l->title;
    info.clock_hz = r->clock_hz;
    evt_report *rep = evt_report_new(&info);
    char *html = NULL;
    size_t hlen = 0;
    uint64_t events = 0;
    if (rep) {
        evt_event ev;
        while (evt_reader_next(r, &ev) == EVT_OK) {
            if (events++ == 0 && r->clock_hz)
                evt_report_set_clock(rep, r->clock_hz, evt_clock_source_name(evt_reader_clock_source(r)));
            if (!evt_report_add(rep, &ev)) break;
        }
        FILE *m = open_memstream(&html, &hlen);
        if (m) {
            ok = evt_report_write(rep, m, r->errors);
            if (fclose(m) != 0) ok = 0;
        }
        evt_report_free(rep);
    }
    evt_reader_close(r);
    evt_free(win);
    if (!ok || !html) { free(html); return 0; }
    size_t plen = 0;
    pthread_mutex_lock(&l->mu);
    uint64_t gen = l->gen + 1;
    pthread_mutex_unlock(&l->mu);
    char *page = evt_live_page(html, hlen, gen, &plen);
    free(html);
    if (!page) return 0;
    pthread_mutex_lock(&l->mu);
    evt_free(l->page);
    l->page = page;
    l->page_len = plen;
    l->gen = gen;
    l->undecodable[0] = '\0';
    l->view_events = events;
    l->view_bytes_used = n;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    return 1;
}

static void *builder_main(void *arg)
{
    evt_live *l = arg;
    int fd = open(l->part, O_RDONLY | O_CLOEXEC);
    uint64_t built = 0;
    pthread_mutex_lock(&l->mu);
    while (!l->stopping) {
        uint64_t L = l->bytes;
        if (L != built) {
            pthread_mutex_unlock(&l->mu);
            uint64_t t0 = now_ms();
            if (fd >= 0 && build_(l, fd, L)) built = L;
            else if (fd >= 0 && L >= EVT_LIVE_HEAD_BYTES * 4) built = L; /* undecodable: wait for more */
            /* The next page no sooner than refresh_ms after this one started, and at least twice
             * the build time (a slow build never takes all the CPU). */
            uint64_t el = now_ms() - t0, wait = l->refresh_ms > 2 * el ? l->refresh_ms - el : el;
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_sec += (time_t)(wait / 1000u);
            ts.tv_nsec += (long)(wait % 1000u) * 1000000L;
            if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
            pthread_mutex_lock(&l->mu);
            while (!l->stopping && pthread_cond_timedwait(&l->cv, &l->mu, &ts) == 0) {
            }
            continue;
        }
        pthread_cond_wait(&l->cv, &l->mu);
    }
    pthread_mutex_unlock(&l->mu);
    if (fd >= 0) close(fd);
    return NULL;
}

/* ---- the session ------------------------------------------------------------------------------ */

evt_live *evt_live_start(const evt_live_opts *o, evt_live_open_fn open_fn, void *user, char *err, size_t errlen)
{
    evt_live *l = evt_calloc(1, sizeof *l);
    if (!l) { snprintf(err, errlen, "out of memory"); return NULL; }
    l->open_fn = open_fn;
    l->open_user = user;
    l->view_bytes = o->view_bytes ? o->view_bytes : EVT_LIVE_VIEW_DEFAULT;
    if (l->view_bytes < 2 * EVT_LIVE_HEAD_BYTES) l->view_bytes = 2 * EVT_LIVE_HEAD_BYTES;
    l->refresh_ms = o->refresh_ms ? o->refresh_ms : EVT_LIVE_REFRESH_DEFAULT;
    l->format = o->format;
    l->ropts = o->ropts;
    l->clock_hz = o->clock_hz;
    l->kernel = o->kernel;
    l->prio_order = o->prio_order;
    snprintf(l->title, sizeof l->title, "%s", o->title ? o->title : "live");
    snprintf(l->out, sizeof l->out, "%s", o->out);
    snprintf(l->part, sizeof l->part, "%s.part", o->out);
    pthread_mutex_init(&l->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&l->cv, &ca);
    pthread_condattr_destroy(&ca);
    l->fp = fopen(l->part, "wb");
    if (!l->fp) {
        snprintf(err, errlen, "cannot create %s: %s", l->part, strerror(errno));
        goto fail;
    }
    if (!evt_live_http_start(l, o->bind ? o->bind : "127.0.0.1", o->port, err, errlen)) goto fail;
    if (pthread_create(&l->tee, NULL, tee_main, l) != 0) {
        snprintf(err, errlen, "cannot start a thread");
        goto fail;
    }
    l->tee_started = 1;
    if (pthread_create(&l->builder, NULL, builder_main, l) != 0) {
        snprintf(err, errlen, "cannot start a thread");
        goto fail;
    }
    l->builder_started = 1;
    return l;
fail:;
    char e2[64];
    l->aborted = 1; /* no output: the .part file is removed */
    evt_live_finish(l, e2, sizeof e2);
    return NULL;
}

const char *evt_live_url(const evt_live *l) { return l->url; }

void evt_live_get_stats(evt_live *l, evt_live_stats *out)
{
    pthread_mutex_lock(&l->mu);
    out->bytes = l->bytes;
    out->pages = l->gen;
    out->view_events = l->view_events;
    out->view_bytes = l->view_bytes_used;
    out->ended = l->ended;
    out->opened = l->src_open;
    snprintf(out->end_reason, sizeof out->end_reason, "%s", l->end_reason);
    snprintf(out->undecodable, sizeof out->undecodable, "%s", l->undecodable);
    pthread_mutex_unlock(&l->mu);
}

void evt_live_abandon(evt_live *l)
{
    pthread_mutex_lock(&l->mu);
    l->aborted = 1;
    pthread_mutex_unlock(&l->mu);
}

int evt_live_finish(evt_live *l, char *err, size_t errlen)
{
    int ok = 1;
    err[0] = '\0';
    pthread_mutex_lock(&l->mu);
    l->stopping = 1;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    /* The tee may be waiting for the source: a socket is shut down (a GDB poller then detaches
     * from the target); other sources are left to the process's end. Everything the tee wrote is
     * in the file: it writes under the lock and checks `stopping` first. */
    pthread_mutex_lock(&l->mu);
    if (l->src_open && l->src.is_stream && !l->tee_done) shutdown(l->src.fd, SHUT_RDWR);
    pthread_mutex_unlock(&l->mu);
    if (l->builder_started) pthread_join(l->builder, NULL);
    evt_live_http_stop(l);
    pthread_mutex_lock(&l->mu);
    if (l->fp) {
        if (fflush(l->fp) != 0 || fsync(fileno(l->fp)) != 0) ok = 0;
        if (fclose(l->fp) != 0) ok = 0;
        l->fp = NULL;
        if (!ok) snprintf(err, errlen, "cannot complete %s: %s", l->part, strerror(errno));
        else if (l->write_error[0]) { ok = 0; snprintf(err, errlen, "writing %s: %s", l->part, l->write_error); }
        if (l->aborted) unlink(l->part);
        else if (ok && rename(l->part, l->out) != 0) {
            ok = 0;
            snprintf(err, errlen, "cannot rename %s to %s: %s", l->part, l->out, strerror(errno));
        }
    } else {
        ok = 0;
    }
    /* Give the tee a moment to notice (a shut-down socket wakes it at once). */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    while (l->tee_started && !l->tee_done && pthread_cond_timedwait(&l->cv, &l->mu, &ts) == 0) {
    }
    int tee_running = l->tee_started && !l->tee_done;
    pthread_mutex_unlock(&l->mu);
    if (tee_running) {
        /* Still blocked in the source (a tty, a pipe): it exits when it wakes; the session's
         * memory stays with it (the process ends next). */
        pthread_detach(l->tee);
        return ok;
    }
    if (l->tee_started) pthread_join(l->tee, NULL);
    if (l->src_open) evt_source_close(&l->src);
    evt_free(l->page);
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->cv);
    evt_free(l);
    return ok;
}
