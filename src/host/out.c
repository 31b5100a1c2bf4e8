/* The output seam (evtrace/out.h): fopen for writing, "-" for standard output, and the write-fault
 * counter that tests arm. When armed, streams are wrapped with fopencookie (glibc) so each flush
 * of the stdio buffer is one counted write; elsewhere fault injection is not available. Unarmed,
 * a file is written by out_async.c's writer thread (glibc; plain fopen elsewhere). */
#if defined(__linux__)
#define _GNU_SOURCE /* fopencookie */
#endif
#include "evtrace/out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "evtrace/alloc.h"
#include "out_async.h"

#define FAULT_BUF 512 /* stdio buffer of a shimmed stream: small, so writes are many */

static struct {
    unsigned long countdown; /* writes left before the fault; 0: not armed */
    evt_out_fault how;
    int failing;             /* the fault happened: every later write fails */
    unsigned long writes;    /* writes seen while armed */
} g_out;

void evt_out_fail_after(unsigned long nth, evt_out_fault how)
{
    g_out.countdown = how == EVT_OUT_FAULT_NONE ? 0 : nth;
    g_out.how = nth ? how : EVT_OUT_FAULT_NONE;
    g_out.failing = 0;
    g_out.writes = 0;
}

unsigned long evt_out_writes(void) { return g_out.writes; }
int evt_out_armed_(void) { return g_out.how != EVT_OUT_FAULT_NONE; }

size_t evt_out_write_allowed_(size_t n, int *fail)
{
    *fail = 0;
    if (!evt_out_armed_()) return n;
    g_out.writes++;
    if (g_out.failing) { *fail = 1; return 0; }
    if (--g_out.countdown > 0) return n;
    g_out.failing = 1;
    if (g_out.how == EVT_OUT_FAULT_SHORT && n > 1) return n / 2; /* reported as written; next write fails */
    *fail = 1;
    return 0;
}

#if defined(__GLIBC__)
/* A shimmed stream: its descriptor and its stdio buffer (glibc ignores the size of a buffer it
 * allocates itself; it does not touch a user buffer after the close callback). */
typedef struct shim {
    int fd;
    char buf[FAULT_BUF];
} shim;

static ssize_t shim_write_(void *cookie, const char *buf, size_t n)
{
    shim *s = cookie;
    int fail;
    size_t ok = evt_out_write_allowed_(n, &fail);
    if (fail) { errno = ENOSPC; return -1; }
    int e;
    size_t done = evt_out_write_full_(s->fd, buf, ok, &e);
    if (e) { errno = e; return done ? (ssize_t)done : -1; }
    if (ok < n) errno = ENOSPC; /* a short write is a full disk, too, seen one write later */
    return (ssize_t)done;
}

static int shim_close_(void *cookie)
{
    shim *s = cookie;
    int rc = close(s->fd);
    evt_free(s);
    return rc;
}

/* The counting shim over fd (owned by the stream from here on). */
static FILE *shimmed_(int fd, const char *mode)
{
    shim *s = evt_malloc(sizeof *s);
    if (!s) { close(fd); errno = ENOMEM; return NULL; }
    s->fd = fd;
    cookie_io_functions_t io = {NULL, shim_write_, NULL, shim_close_};
    FILE *f = fopencookie(s, mode[0] == 'a' ? "a" : "w", io);
    if (!f) { close(fd); evt_free(s); return NULL; }
    setvbuf(f, s->buf, _IOFBF, sizeof s->buf);
    return f;
}
#endif

FILE *evt_out_fopen(const char *path, const char *mode)
{
    int to_stdout = strcmp(path, "-") == 0;
#if defined(__GLIBC__)
    if (evt_out_armed_()) {
        int fd = to_stdout ? dup(STDOUT_FILENO)
                           : open(path, O_WRONLY | O_CREAT | (mode[0] == 'a' ? O_APPEND : O_TRUNC), 0666);
        return fd < 0 ? NULL : shimmed_(fd, mode);
    }
#endif
    if (!to_stdout) return evt_out_async_fopen_(path, mode);
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, mode);
    if (!f) close(fd);
    return f;
}

#define MAX_TREE_DEPTH 64 /* deeper trees are not removed (evtrace writes depth 1) */

static int remove_at_(int dirfd, const char *name, int depth)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) return unlinkat(dirfd, name, 0);
    if (depth >= MAX_TREE_DEPTH) { errno = ELOOP; return -1; }
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    if (fd < 0) return -1;
    DIR *d = fdopendir(fd);
    if (!d) { close(fd); return -1; }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (remove_at_(fd, e->d_name, depth + 1) != 0) rc = -1;
    }
    closedir(d);
    if (rc == 0) rc = unlinkat(dirfd, name, AT_REMOVEDIR);
    return rc;
}

int evt_out_remove_tree(const char *path) { return remove_at_(AT_FDCWD, path, 0); }
