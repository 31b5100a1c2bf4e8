/* Asynchronous output files (src/host/out_async.c, behind evt_out_fopen): every byte reaches its
 * file in order, with more streams open than the pool has chunks, in append mode, from several
 * threads at once; fflush hands the bytes on (A3) and a seek lands in a file that has them all
 * (A2); a write error seen by the writer thread fails the stream's later writes and its fclose
 * with that errno (A4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "evt_test.h"
#include "evtrace/out.h"

static const char *p_(const char *name, unsigned i)
{
    static char buf[16][4096];
    static unsigned k;
    char *p = buf[k++ & 15];
    snprintf(p, 4096, "%s/%s.%u", evt_test_tmpdir(), name, i);
    return p;
}

/* Byte n of stream `seed`'s content: a pattern no two streams or offsets share for long. */
static uint8_t byte_at(unsigned seed, size_t n) { return (uint8_t)((n * 2654435761u >> 7) ^ (n >> 13) ^ seed * 37u); }

typedef struct {
    FILE *f;
    unsigned seed;
    size_t n;     /* bytes written so far */
    uint32_t rnd; /* xorshift state for piece sizes */
    uint8_t *piece; /* PIECE_MAX bytes of scratch */
} wstream;

#define PIECE_MAX (3u << 19)

/* Write the next piece of s (sizes from 1 byte to 1.5 MB, through fwrite and fputc). 1, or 0 when
 * the stream reported an error. */
static int put_piece(wstream *s, size_t max)
{
    s->rnd ^= s->rnd << 13;
    s->rnd ^= s->rnd >> 17;
    s->rnd ^= s->rnd << 5;
    size_t len;
    switch (s->rnd & 3u) {
    case 0: len = 1; break;
    case 1: len = 1 + (s->rnd >> 8) % 300u; break;
    case 2: len = 1 + (s->rnd >> 8) % 70000u; break;
    default: len = 1 + (s->rnd >> 8) % PIECE_MAX; break;
    }
    if (len > max - s->n) len = max - s->n;
    int ok;
    if (len == 1) {
        ok = fputc(byte_at(s->seed, s->n), s->f) == byte_at(s->seed, s->n);
    } else {
        for (size_t i = 0; i < len; i++) s->piece[i] = byte_at(s->seed, s->n + i);
        ok = fwrite(s->piece, 1, len, s->f) == len;
    }
    s->n += len;
    return ok;
}

static void check_file(const char *path, unsigned seed, size_t n)
{
    size_t len = 0;
    uint8_t *got = evt_test_read_file(path, &len);
    assert_non_null(got);
    assert_int_equal(len, n);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (got[i] != byte_at(seed, i)) bad = i;
    free(got);
    if (bad != n) fail_msg("%s: byte %zu differs", path, bad);
}

/* The file holds exactly the n bytes of want. */
static void check_text(const char *path, const char *want, size_t n)
{
    size_t len = 0;
    char *got = (char *)evt_test_read_file(path, &len);
    assert_non_null(got);
    assert_int_equal(len, n);
    assert_memory_equal(got, want, n);
    free(got);
}

/* Seven streams (the pool has four chunks) written piece by piece in turn, 3 MB each. */
static void many_streams_keep_order(void **st)
{
    (void)st;
    enum { NS = 7 };
    const size_t total = 3u << 20;
    wstream s[NS];
    for (unsigned i = 0; i < NS; i++) {
        s[i] = (wstream){evt_out_fopen(p_("many", i), "w"), i + 1, 0, 0x9e3779b9u * (i + 1), malloc(PIECE_MAX)};
        assert_non_null(s[i].f);
        assert_non_null(s[i].piece);
    }
    for (int more = 1; more;) {
        more = 0;
        for (unsigned i = 0; i < NS; i++)
            if (s[i].n < total) {
                assert_true(put_piece(&s[i], total));
                more = 1;
            }
    }
    for (unsigned i = 0; i < NS; i++) {
        assert_false(ferror(s[i].f));
        assert_int_equal(fclose(s[i].f), 0);
        free(s[i].piece);
        check_file(p_("many", i), i + 1, total);
    }
    /* small fprintf pieces gather in the stdio buffer */
    FILE *f = evt_out_fopen(p_("text", 0), "w");
    assert_non_null(f);
    for (int i = 0; i < 100000; i++) fprintf(f, "%d\n", i);
    assert_int_equal(fclose(f), 0);
    size_t len = 0;
    char *txt = (char *)evt_test_read_file(p_("text", 0), &len);
    assert_non_null(txt);
    size_t at = 0;
    for (int i = 0; i < 100000; i++) {
        char want[16];
        int k = snprintf(want, sizeof want, "%d\n", i);
        assert_true(at + (size_t)k <= len);
        assert_memory_equal(txt + at, want, (size_t)k);
        at += (size_t)k;
    }
    assert_int_equal(at, len);
    free(txt);
}

/* fflush hands the bytes on: another reader of the file sees them soon, with the stream open. */
static void fflush_hands_bytes_on(void **st)
{
    (void)st;
    const char *path = p_("flushed", 0);
    FILE *f = evt_out_fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite("0123456789", 1, 10, f), 10);
    assert_int_equal(fflush(f), 0);
    size_t len = 0;
    for (int i = 0; i < 1000 && len < 10; i++) { /* the writer thread writes them: up to 10 s */
        struct stat sb;
        len = stat(path, &sb) == 0 ? (size_t)sb.st_size : 0;
        if (len < 10) nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    assert_int_equal(len, 10);
    /* a seek then finds every byte in the file: a patch lands on them, the end stays */
    assert_int_equal(fseek(f, 2, SEEK_SET), 0);
    assert_int_equal(ftell(f), 2);
    assert_int_equal(fwrite("ab", 1, 2, f), 2);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    assert_int_equal(ftell(f), 10);
    assert_int_equal(fclose(f), 0);
    check_text(path, "01ab456789", 10);
}

/* A fork child (no writer thread there) writes synchronously: a new stream and an inherited one
 * close without waiting for the parent's queue, and the parent's bytes are written once. */
static void fork_child_writes_synchronously(void **st)
{
    (void)st;
    char pa[4096], pb[4096];
    snprintf(pa, sizeof pa, "%s", p_("forkparent", 0));
    snprintf(pb, sizeof pb, "%s", p_("forkchild", 0));
    wstream a = {evt_out_fopen(pa, "wb"), 21, 0, 4242u, malloc(PIECE_MAX)};
    assert_non_null(a.f);
    assert_non_null(a.piece);
    const size_t total = 6u << 20;
    while (a.n < total / 2) assert_true(put_piece(&a, total / 2));
    assert_int_equal(fflush(a.f), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *b = evt_out_fopen(pb, "wb");
        int ok = b && fwrite("child\n", 1, 6, b) == 6 && fclose(b) == 0;
        ok &= fclose(a.f) == 0; /* its stdio buffer is empty: nothing of the parent's is written */
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    for (int i = 0; i < 1000; i++) { /* up to 10 s: a child that hangs fails the test */
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        status = -1;
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    if (status == -1) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("the fork child hung");
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    while (a.n < total) assert_true(put_piece(&a, total));
    assert_int_equal(fclose(a.f), 0);
    free(a.piece);
    check_file(pa, 21, total);
    check_text(pb, "child\n", 6);
}

/* "ab" appends to what is there; "wb" truncates it. */
static void append_and_truncate(void **st)
{
    (void)st;
    const char *path = p_("append", 0);
    for (int round = 0; round < 3; round++) {
        FILE *f = evt_out_fopen(path, round == 0 ? "wb" : "ab");
        assert_non_null(f);
        char line[32];
        int k = snprintf(line, sizeof line, "round %d\n", round);
        assert_int_equal(fwrite(line, 1, (size_t)k, f), (size_t)k);
        assert_int_equal(fclose(f), 0);
    }
    check_text(path, "round 0\nround 1\nround 2\n", 24);
    FILE *f = evt_out_fopen(path, "wb");
    assert_non_null(f);
    assert_true(fputs("new\n", f) >= 0);
    assert_int_equal(fclose(f), 0);
    check_text(path, "new\n", 4);
}

/* The file may not grow past 1 MB (RLIMIT_FSIZE): the writer thread's write fails with EFBIG;
 * later writes of the stream fail and fclose reports EFBIG. Only the first 1 MB is in the file. */
static void write_error_reaches_fclose(void **st)
{
    (void)st;
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < (1u << 20)) skip(); /* cannot happen in CI */
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {1u << 20, old.rlim_max};
    FILE *f = evt_out_fopen(p_("big", 0), "w");
    assert_non_null(f);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    wstream s = {f, 9, 0, 12345u, malloc(PIECE_MAX)};
    assert_non_null(s.piece);
    const size_t total = 8u << 20;
    int failed_early = 0;
    while (s.n < total)
        if (!put_piece(&s, total)) { failed_early = 1; break; }
    errno = 0;
    int rc = fclose(f);
    int e = errno;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    free(s.piece);
    assert_int_equal(rc, EOF);
    assert_int_equal(e, EFBIG);
    assert_true(failed_early || s.n == total);
    size_t len = 0;
    uint8_t *got = evt_test_read_file(p_("big", 0), &len);
    assert_non_null(got);
    assert_true(len <= (1u << 20));
    for (size_t i = 0; i < len; i++)
        if (got[i] != byte_at(9, i)) fail_msg("byte %zu differs", i);
    free(got);
}

/* Four threads, each writing two streams of its own at once. */
typedef struct {
    unsigned id;
} thr_arg;

static void *thread_writes(void *arg)
{
    unsigned id = ((thr_arg *)arg)->id;
    const size_t total = 2u << 20;
    wstream s[2];
    for (unsigned j = 0; j < 2; j++) {
        char path[4096]; /* not p_: its buffers are the main thread's */
        snprintf(path, sizeof path, "%s/thr.%u", evt_test_tmpdir(), id * 2 + j);
        s[j] = (wstream){evt_out_fopen(path, "wb"), 100 + id * 2 + j, 0, 777u * (id * 2 + j + 1),
                         malloc(PIECE_MAX)};
        if (!s[j].f || !s[j].piece) return (void *)1;
    }
    int ok = 1;
    while (ok && (s[0].n < total || s[1].n < total))
        for (unsigned j = 0; j < 2; j++)
            if (s[j].n < total) ok &= put_piece(&s[j], total);
    for (unsigned j = 0; j < 2; j++)
        if (fclose(s[j].f) != 0) ok = 0;
    free(s[0].piece);
    free(s[1].piece);
    return ok ? NULL : (void *)1;
}

static void threads_write_their_own_streams(void **st)
{
    (void)st;
    enum { NT = 4 };
    pthread_t th[NT];
    thr_arg a[NT];
    for (unsigned i = 0; i < NT; i++) {
        a[i].id = i;
        assert_int_equal(pthread_create(&th[i], NULL, thread_writes, &a[i]), 0);
    }
    for (unsigned i = 0; i < NT; i++) {
        void *r;
        assert_int_equal(pthread_join(th[i], &r), 0);
        assert_null(r);
    }
    for (unsigned i = 0; i < NT * 2; i++) check_file(p_("thr", i), 100 + i, 2u << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_streams_keep_order),
        cmocka_unit_test(fflush_hands_bytes_on),
        cmocka_unit_test(append_and_truncate),
        cmocka_unit_test(fork_child_writes_synchronously),
        cmocka_unit_test(write_error_reaches_fclose),
        cmocka_unit_test(threads_write_their_own_streams),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    evt_out_remove_tree(evt_test_tmpdir());
    return rc;
}
