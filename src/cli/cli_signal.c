/* Signals and temporary outputs (cli_signal.h). The handler does only async-signal-safe work:
 * write() to the stop pipe, unlink/unlinkat/rmdir and, for a directory, getdents64 on Linux
 * (opendir/readdir may allocate). The outputs evtrace writes as directories are flat (CTF:
 * metadata, stream_N, the marker), so one level is enough. */
#define _GNU_SOURCE /* syscall, SYS_getdents64 */
#include "cli_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include "evtrace/source.h"

#define NSIGS 4
static const int k_sigs[NSIGS] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static struct sigaction g_old[NSIGS];
static int g_set[NSIGS];               /* our handler is installed for k_sigs[i] */
static char g_tmp[4096];               /* the temporary output to remove, "" when none */
static volatile sig_atomic_t g_tmp_dir; /* g_tmp is a directory */
static volatile sig_atomic_t g_live;    /* a live capture is armed */
static volatile sig_atomic_t g_stopped; /* the signal that stopped it */
static int g_pipe[2] = {-1, -1};       /* the stop pipe: readable once a signal stopped the capture */

/* Remove a flat directory from a signal handler. */
static void remove_dir_(const char *path)
{
#if defined(__linux__) && defined(SYS_getdents64)
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        static char buf[8192];
        for (int round = 0; round < 1024; round++) {
            long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
            if (n <= 0) break;
            for (long off = 0; off + 19 < n;) {
                unsigned short reclen;
                memcpy(&reclen, buf + off + 16, sizeof reclen); /* d_ino u64, d_off s64, d_reclen u16, d_type u8, d_name */
                const char *name = buf + off + 19;
                if (reclen == 0) break;
                if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))))
                    unlinkat(fd, name, 0);
                off += reclen;
            }
        }
        close(fd);
    }
#endif
    rmdir(path);
}

static void restore_(void)
{
    for (int i = 0; i < NSIGS; i++)
        if (g_set[i]) sigaction(k_sigs[i], &g_old[i], NULL);
    memset(g_set, 0, sizeof g_set);
}

static void on_signal_(int sig)
{
    int e = errno;
    if (g_live && !g_stopped && sig != SIGPIPE) { /* the first stop of a live capture: end the streams */
        g_stopped = sig;
        if (g_pipe[1] >= 0) (void)!write(g_pipe[1], "!", 1);
        errno = e;
        return;
    }
    if (g_tmp[0]) {
        if (g_tmp_dir) remove_dir_(g_tmp);
        else unlink(g_tmp);
    }
    for (int i = 0; i < NSIGS; i++)
        if (g_set[i] && k_sigs[i] == sig) sigaction(sig, &g_old[i], NULL);
    raise(sig); /* the previous disposition, pending until we return: terminate */
}

/* Our handler on every signal the caller has not ignored (idempotent). */
static void install_(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal_; /* no SA_RESTART: a blocking call returns EINTR */
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSIGS; i++) {
        if (g_set[i]) continue;
        /* a signal ignored by the caller (nohup, SIGPIPE ignored) stays ignored */
        if (sigaction(k_sigs[i], NULL, &g_old[i]) != 0 || g_old[i].sa_handler == SIG_IGN) continue;
        g_set[i] = sigaction(k_sigs[i], &sa, NULL) == 0;
    }
}

void cli_tmp_guard_dir(const char *path, int is_dir)
{
    /* never a half-copied name while the handler may run: the first byte goes in last */
    size_t n = strlen(path);
    if (n >= sizeof g_tmp) n = sizeof g_tmp - 1;
    g_tmp[0] = '\0';
    g_tmp_dir = is_dir != 0;
    if (n) {
        memcpy(g_tmp + 1, path + 1, n - 1);
        g_tmp[n] = '\0';
        __atomic_signal_fence(__ATOMIC_SEQ_CST); /* the rest is stored before the handler can see it */
        g_tmp[0] = path[0];
    }
    install_();
}

void cli_tmp_guard(const char *path) { cli_tmp_guard_dir(path, 0); }

void cli_tmp_unguard(void)
{
    g_tmp[0] = '\0';
    if (!g_live) restore_();
}

int cli_live_arm(void)
{
    if (g_pipe[0] < 0) {
        if (pipe(g_pipe) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(g_pipe[i], F_SETFD, FD_CLOEXEC);
            fcntl(g_pipe[i], F_SETFL, O_NONBLOCK);
        }
    }
    g_stopped = 0;
    evt_source_set_stop_fd(g_pipe[0]);
    g_live = 1;
    install_();
    return 0;
}

int cli_live_stopped(void) { return g_stopped; }

void cli_live_disarm(void)
{
    g_live = 0;
    evt_source_set_stop_fd(-1);
    char b[16];
    while (g_pipe[0] >= 0 && read(g_pipe[0], b, sizeof b) > 0) {}
    if (!g_tmp[0]) restore_();
}
