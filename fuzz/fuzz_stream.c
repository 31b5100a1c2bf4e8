/* libFuzzer target of the stream source behind `-`, `--listen` and `--follow` (source.c's
 * sequential path: head kept for the probes, then reads in order) with the readers on top.
 * Input: byte 0 picks the format (0 = auto-detection, fuzz_common.h), bytes 1..4 are four chunk
 * sizes (low 7 bits + 1, times 64 when the top bit is set) used in turn, the rest is the stream. A
 * writer thread feeds the rest through a pipe in those chunks and closes it; the reader pulls
 * every event from the read end. For RKH, the stream format, the events must equal those of the
 * same bytes read from memory: chunk boundaries never change what is decoded. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include "fuzz_common.h"

typedef struct feed {
    int fd;
    const uint8_t *p;
    size_t n;
    size_t chunk[4];
} feed;

static void *writer(void *arg)
{
    feed *f = arg;
    size_t off = 0;
    for (unsigned i = 0; off < f->n; i++) {
        size_t want = f->chunk[i % 4];
        if (want > f->n - off) want = f->n - off;
        ssize_t w = write(f->fd, f->p + off, want);
        if (w <= 0) break; /* the reader is gone (EPIPE): stop */
        off += (size_t)w;
        sched_yield(); /* let the reader see a partial stream */
    }
    close(f->fd);
    return NULL;
}

/* FNV-1a over what identifies an event (names by content, not by pointer). */
typedef struct digest { uint64_t h, n; evt_status last; } digest;

static void mix_(digest *d, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) d->h = (d->h ^ b[i]) * 1099511628211ull;
}

static void add_event_(digest *d, const evt_event *ev)
{
    mix_(d, &ev->id, sizeof ev->id);
    mix_(d, &ev->kind, sizeof ev->kind);
    mix_(d, &ev->ts, sizeof ev->ts);
    mix_(d, &ev->offset, sizeof ev->offset);
    mix_(d, &ev->ctx, sizeof ev->ctx);
    mix_(d, &ev->nargs, sizeof ev->nargs);
    mix_(d, ev->args, sizeof ev->args[0] * (ev->nargs < EVT_MAX_ARGS ? ev->nargs : EVT_MAX_ARGS));
    if (ev->name) mix_(d, ev->name, strlen(ev->name));
    d->n++;
}

static void read_all_(evt_reader *r, digest *d)
{
    evt_event ev;
    d->h = 14695981039346656037ull;
    d->n = 0;
    while (d->n < FUZZ_MAX_EVENTS && (d->last = evt_reader_next(r, &ev)) == EVT_OK) add_event_(d, &ev);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    signal(SIGPIPE, SIG_IGN); /* a reader that stops early must not kill the writer */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5) return 0;
    int fds[2];
    if (pipe(fds) != 0) return 0;
    feed f = {fds[1], data + 5, size - 5, {0, 0, 0, 0}};
    for (int i = 0; i < 4; i++) f.chunk[i] = ((size_t)(data[1 + i] & 0x7f) + 1) * ((data[1 + i] & 0x80) ? 64 : 1);
    pthread_t th;
    if (pthread_create(&th, NULL, writer, &f) != 0) { close(fds[0]); close(fds[1]); return 0; }

    evt_source src;
    evt_reader *r = NULL;
    char err[256] = "";
    if (evt_source_open_stream(&src, fds[0], "<fuzz-pipe>", 0, 0) != EVT_OK) {
        close(fds[0]);
    } else if (evt_reader_open_stream(&src, fuzz_pick_format(data[0]), NULL, NULL, NULL, &r, err, sizeof err) ==
               EVT_OK) {
        digest ds;
        read_all_(r, &ds);
        const int is_rkh = strcmp(r->desc->name, "rkh") == 0;
        evt_reader_close(r); /* closes the read end */
        evt_reader *m = NULL;
        if (is_rkh && ds.n < FUZZ_MAX_EVENTS &&
            evt_reader_open_mem(f.p, f.n, "rkh", NULL, NULL, NULL, &m, err, sizeof err) == EVT_OK) {
            digest dm;
            read_all_(m, &dm);
            evt_reader_close(m);
            if (dm.n != ds.n || dm.h != ds.h || dm.last != ds.last) abort(); /* chunking changed the decode */
        }
    } else if (!err[0]) {
        abort(); /* a failed open says why */
    }
    pthread_join(th, NULL);
    return 0;
}
