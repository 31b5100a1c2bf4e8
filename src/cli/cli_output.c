/* Safe outputs for -o (cli_output.h): temporary name, replace policy, atomic rename, marker,
 * early write-back of a growing file (Linux). */
#if defined(__linux__)
#define _GNU_SOURCE /* sync_file_range */
#endif
#include "cli_output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "evtrace/out.h"

#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
#define CLI_WB 1
#include <pthread.h>
#include <signal.h>
#include <time.h>
#else
#define CLI_WB 0
#endif

static void guard_tmp_(const cli_output *o, int on)
{
    if (o->to_stdout) return;
    if (on) cli_tmp_guard_dir(o->tmp, o->is_dir);
    else cli_tmp_unguard();
}

/* What sits at path now. */
typedef enum { AT_NOTHING, AT_FILE, AT_MARKED_DIR, AT_DIR, AT_LINK, AT_SPECIAL, AT_UNKNOWN } out_kind;

static out_kind kind_at_(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? AT_NOTHING : AT_UNKNOWN;
    if (S_ISREG(st.st_mode)) return AT_FILE;
    if (S_ISLNK(st.st_mode)) return AT_LINK;
    if (!S_ISDIR(st.st_mode)) return AT_SPECIAL;
    char m[4200];
    if (snprintf(m, sizeof m, "%s/%s", path, CLI_OUTPUT_MARKER) >= (int)sizeof m) return AT_DIR;
    return (lstat(m, &st) == 0 && S_ISREG(st.st_mode)) ? AT_MARKED_DIR : AT_DIR;
}

/* May OUT be replaced? 0, or EXIT_USAGE with the reason printed. */
static int check_replace_(const cli_output *o, out_kind k)
{
    switch (k) {
    case AT_NOTHING:
    case AT_FILE:
    case AT_MARKED_DIR: return 0;
    case AT_DIR:
        if (o->force) return 0;
        cli_err(o->cmd, "%s: is a directory evtrace did not write (no %s in it): not replacing it (--force to replace it)",
                o->path, CLI_OUTPUT_MARKER);
        return EXIT_USAGE;
    case AT_LINK:
        if (o->force) return 0;
        cli_err(o->cmd, "%s: is a symbolic link: not replacing it (--force replaces the link itself)", o->path);
        return EXIT_USAGE;
    case AT_SPECIAL:
        cli_err(o->cmd, "%s: is a device, FIFO or socket: not writing there (use -o - for standard output)", o->path);
        return EXIT_USAGE;
    default:
        cli_err(o->cmd, "%s: cannot check the existing output: %s", o->path, strerror(errno));
        return EXIT_INPUT;
    }
}

/* Reserve a fresh temporary name beside OUT: path + ".tmp-PID-N", created exclusively. When OUT's
 * own name is so long that the suffix would pass NAME_MAX (a legal OUT of 250 bytes), the name is
 * cut to make room: still beside OUT, still unique (O_EXCL). */
static int reserve_tmp_(cli_output *o)
{
    size_t n = strlen(o->path);
    while (n > 1 && o->path[n - 1] == '/') n--; /* "dir/" names dir */
    size_t dir = n; /* bytes of the directory part, up to and with the last '/' */
    while (dir > 0 && o->path[dir - 1] != '/') dir--;
    for (unsigned i = 0; i < 100; i++) {
        char suffix[48];
        int sl = snprintf(suffix, sizeof suffix, ".tmp-%ld-%u", (long)getpid(), i);
        size_t keep = n;
        if (n - dir + (size_t)sl > NAME_MAX) keep = dir + (NAME_MAX - (size_t)sl);
        if (snprintf(o->tmp, sizeof o->tmp, "%.*s%s", (int)keep, o->path, suffix) >= (int)sizeof o->tmp) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int rc;
        if (o->is_dir) rc = mkdir(o->tmp, 0777);
        else {
            o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
            rc = o->fd < 0 ? -1 : 0; /* held open: the write-back thread and commit's fsync use it */
        }
        if (rc == 0) {
            o->reserved = 1;
            guard_tmp_(o, 1);
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    return -1;
}

/* ---- early write-back ----------------------------------------------------------------------
 * Without it, the whole output is dirty in the page cache when the writer finishes, and commit
 * waits for all of it (ext4 even starts it in the writer's close(), when its fopen "w" truncated
 * the empty file cli_output_begin created). The helper thread polls the file's size and starts
 * the write-back (SYNC_FILE_RANGE_WRITE: no wait, no durability promise) of each new whole
 * WB_GRAIN-aligned range, so the disk works while the writer still produces and commit's fsync,
 * which keeps the guarantee, finds little left. The writer is never slowed or blocked by it. A
 * range written back and then rewritten (a header patched at the end) is dirty again and
 * written again by that fsync. The kernel's dirty limits still bound the memory. */
#define WB_GRAIN (1u << 20) /* bytes; ranges start and end on this */
#define WB_PERIOD_NS 10000000L /* poll period */

#if CLI_WB
struct cli_wb {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;  /* stop was set */
    int fd;
    int stop;           /* under mu: commit/abort wants the thread to end */
    int err;            /* under mu: errno of a failed write-back (the output is not sound) */
    unsigned long long started; /* under mu: bytes [0, started) handed to write-back */
};

/* One poll: start the write-back of the whole grains written since *done. 0, or an errno. */
static int wb_step_(int fd, unsigned long long *done)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return errno;
    unsigned long long end = (unsigned long long)st.st_size & ~(unsigned long long)(WB_GRAIN - 1);
    if (end < *done) *done = end; /* the file was truncated and is written again */
    if (end == *done) return 0;
    if (sync_file_range(fd, (off_t)*done, (off_t)(end - *done), SYNC_FILE_RANGE_WRITE) != 0) return errno;
    *done = end;
    return 0;
}

static void *wb_main_(void *arg)
{
    struct cli_wb *w = arg;
    unsigned long long done = 0;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += WB_PERIOD_NS;
        if (t.tv_nsec >= 1000000000L) { t.tv_sec++; t.tv_nsec -= 1000000000L; }
        while (!w->stop && pthread_cond_timedwait(&w->cv, &w->mu, &t) == 0) {}
        if (w->stop) break;
        pthread_mutex_unlock(&w->mu);
        int e = wb_step_(w->fd, &done);
        pthread_mutex_lock(&w->mu);
        w->started = done;
        if (e == EINVAL || e == ESPIPE || e == ENOSYS || e == EOPNOTSUPP) break; /* not supported here: fsync does it all */
        if (e) { w->err = e; break; } /* EIO, ENOSPC, ...: commit fails with it */
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Start the thread for o->fd; without it (no memory, no thread) the output is written as before. */
static void wb_start_(cli_output *o)
{
    struct cli_wb *w = calloc(1, sizeof *w);
    if (!w) return;
    w->fd = o->fd;
    pthread_condattr_t ca;
    int ok = pthread_condattr_init(&ca) == 0;
    if (ok) {
        ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&w->cv, &ca) == 0;
        pthread_condattr_destroy(&ca);
    }
    if (!ok) { free(w); return; }
    if (pthread_mutex_init(&w->mu, NULL) != 0) { pthread_cond_destroy(&w->cv); free(w); return; }
    /* every signal stays with the main thread (cli_signal.c's handlers, the live capture's stop) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&w->th, NULL, wb_main_, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        free(w);
        return;
    }
    o->wb = w;
}

/* Stop and join the thread; returns the errno of a failed write-back, or 0. */
static int wb_stop_(cli_output *o)
{
    struct cli_wb *w = o->wb;
    if (!w) return 0;
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    int e = w->err;
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
    o->wb = NULL;
    return e;
}

unsigned long long cli_output_written_back(cli_output *o)
{
    struct cli_wb *w = o->wb;
    if (!w) return 0;
    pthread_mutex_lock(&w->mu);
    unsigned long long n = w->started;
    pthread_mutex_unlock(&w->mu);
    return n;
}
#else
static void wb_start_(cli_output *o) { (void)o; }
static int wb_stop_(cli_output *o) { (void)o; return 0; }
unsigned long long cli_output_written_back(cli_output *o) { (void)o; return 0; }
#endif

/* Stop the write-back and close the held file (abort and commit). Returns wb_stop_'s errno. */
static int release_fd_(cli_output *o)
{
    int e = wb_stop_(o);
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    return e;
}

int cli_output_begin(cli_output *o, const char *cmd, const char *path, int is_dir, int can_stdout, int force)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->cmd = cmd;
    o->path = path;
    o->is_dir = is_dir;
    o->force = force;
    if (strcmp(path, "-") == 0) {
        if (!can_stdout) {
            cli_err(cmd, "-o -: this output %s, not a stream: give a path", is_dir ? "is a directory" : "needs a seekable file");
            return EXIT_USAGE;
        }
        o->to_stdout = 1;
        snprintf(o->tmp, sizeof o->tmp, "-");
        return 0;
    }
    if (!*path) { cli_err(cmd, "-o: empty path"); return EXIT_USAGE; }
    if (!is_dir && path[strlen(path) - 1] == '/') { /* a file output named as a directory: said now, not after the work */
        cli_err(cmd, "-o %s: this output is a file: give a file name, not a directory", path);
        return EXIT_USAGE;
    }
    int code = check_replace_(o, kind_at_(path));
    if (code) return code;
    if (reserve_tmp_(o) != 0) {
        cli_err(cmd, "%s: cannot create a temporary output beside it: %s", path, strerror(errno));
        return EXIT_INPUT;
    }
    if (o->fd >= 0) wb_start_(o);
    return 0;
}

/* 1 when the directory out (a real directory, not a link to one) holds the file input, at any
 * depth: replacing out (--force) would remove it. */
static int dir_holds_(const char *out, const char *input)
{
    char o[PATH_MAX], i[PATH_MAX];
    if (!realpath(out, o) || !realpath(input, i)) return 0;
    size_t n = strlen(o);
    if (n == 1) return 1; /* "/" holds everything */
    return strncmp(i, o, n) == 0 && i[n] == '/';
}

int cli_output_not_input(const char *cmd, const char *out, const char *input)
{
    struct stat so, si;
    if (!out || !input || strcmp(out, "-") == 0 || strcmp(input, "-") == 0) return 0;
    if (lstat(out, &so) != 0 || stat(input, &si) != 0) return 0;
    if (S_ISDIR(so.st_mode) && dir_holds_(out, input)) {
        cli_err(cmd, "%s: is a directory holding the input %s: not replacing it (give another -o)", out, input);
        return EXIT_USAGE;
    }
    if (so.st_dev != si.st_dev || so.st_ino != si.st_ino) return 0;
    cli_err(cmd, "%s: is the input %s itself: not replacing it (give another -o)", out, input);
    return EXIT_USAGE;
}

int cli_output_not_inputs(const char *cmd, const cli_args *a)
{
    int code = cli_output_not_input(cmd, a->out, a->file);
    if (!code) code = cli_output_not_input(cmd, a->out, a->elf);
    for (unsigned i = 0; !code && i < a->ropts.n; i++) code = cli_output_not_input(cmd, a->out, a->ropts.val[i]);
    return code;
}

const char *cli_output_path(const cli_output *o) { return o->tmp; }

void cli_output_abort(cli_output *o)
{
    release_fd_(o); /* a write-back error does not matter: the output goes */
    if (o->to_stdout || !o->reserved) return;
    if (evt_out_remove_tree(o->tmp) != 0 && errno != ENOENT)
        cli_err(o->cmd, "cannot remove the temporary output %s: %s", o->tmp, strerror(errno));
    guard_tmp_(o, 0); /* after the removal: a signal before it still removes the temporary */
    o->reserved = 0;
}

/* Write the marker into the finished temporary directory (through the output seam). */
static int mark_(cli_output *o)
{
    char m[4200];
    snprintf(m, sizeof m, "%s/%s", o->tmp, CLI_OUTPUT_MARKER);
    FILE *f = evt_out_fopen(m, "w");
    if (!f) return 0;
    fputs("This directory was written by evtrace; evtrace may replace it.\n", f);
    int ok = !ferror(f);
    if (fclose(f) != 0) ok = 0;
    return ok;
}

/* fsync a finished file (so a crash after the rename cannot leave an empty OUT): through the
 * descriptor held since its creation when path still names that file (it then also reports a
 * write-back error seen since), else through a new one. Stops the write-back thread first; its
 * error fails the output. 1, or 0 with errno set. */
static int sync_file_(cli_output *o)
{
    int fd = o->fd;
    o->fd = -1;
    int e = wb_stop_(o);
    struct stat held, now;
    if (fd >= 0 && (fstat(fd, &held) != 0 || lstat(o->tmp, &now) != 0 || held.st_dev != now.st_dev ||
                    held.st_ino != now.st_ino)) {
        close(fd); /* the writer replaced the file: sync the one at the name */
        fd = -1;
    }
    if (fd < 0) fd = open(o->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return 0;
    int ok = fsync(fd) == 0 || errno == EINVAL; /* EINVAL: a file system without fsync */
    if (!ok) e = errno;
    close(fd);
    if (e) { errno = e; return 0; }
    return ok;
}

static int fail_(cli_output *o, const char *what)
{
    cli_err(o->cmd, "%s: %s: %s", o->path, what, strerror(errno ? errno : EIO)); /* stdio may leave errno 0 */
    cli_output_abort(o);
    return EXIT_INPUT;
}

int cli_output_commit(cli_output *o)
{
    if (o->to_stdout) {
        if (fflush(stdout) != 0) { cli_err(o->cmd, "standard output: %s", strerror(errno)); return EXIT_INPUT; }
        return 0;
    }
    errno = 0;
    if (o->is_dir ? !mark_(o) : !sync_file_(o)) return fail_(o, "cannot finish the output");
    out_kind k = kind_at_(o->path); /* again: it may have changed while we wrote */
    int code = check_replace_(o, k);
    if (code) { cli_output_abort(o); return code; }
    if (k == AT_DIR || k == AT_MARKED_DIR || (o->is_dir && (k == AT_FILE || k == AT_LINK))) {
        /* rename() cannot put a directory over a file, nor anything over a non-empty directory:
         * move the old output aside, rename the new one in (or back out), then delete the old. */
        char aside[4200];
        snprintf(aside, sizeof aside, "%s.old", o->tmp);
        if (rename(o->path, aside) != 0) return fail_(o, "cannot move the old output aside");
        if (rename(o->tmp, o->path) != 0) {
            int e = errno;
            if (rename(aside, o->path) != 0) cli_err(o->cmd, "the old output is now at %s", aside);
            errno = e;
            return fail_(o, "cannot rename the output into place");
        }
        o->reserved = 0;
        guard_tmp_(o, 0);
        if (evt_out_remove_tree(aside) != 0)
            cli_err(o->cmd, "cannot remove the old output (now %s): %s", aside, strerror(errno));
        return 0;
    }
    if (rename(o->tmp, o->path) != 0) return fail_(o, "cannot rename the output into place");
    o->reserved = 0;
    guard_tmp_(o, 0);
    return 0;
}
