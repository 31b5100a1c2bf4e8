/* Implementation of the shared test helpers. */
#include "evt_test.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

uint8_t *evt_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "test: cannot open %s\n", path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)n + 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "test: cannot read %s\n", path); exit(2); }
    fclose(f);
    p[n] = 0;
    *len = (size_t)n;
    return p;
}

int evt_test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(data, 1, len, f);
    return (fclose(f) == 0 && w == len) ? 0 : -1;
}

const char *evt_test_bin(void)
{
    const char *b = getenv("EVT_BIN");
    return b ? b : EVT_BINARY_DIR "/evtrace";
}

/* Append what fd has to *buf (grown as needed); returns 0 at end of file, 1 if more may come. */
static int drain_(int fd, char **buf, size_t *n, size_t *cap)
{
    if (*cap - *n < 4096) {
        size_t nc = *cap * 2 + 4096;
        char *nb = realloc(*buf, nc);
        if (!nb) { fprintf(stderr, "test: out of memory\n"); exit(2); }
        *buf = nb;
        *cap = nc;
    }
    ssize_t r = read(fd, *buf + *n, *cap - *n - 1);
    if (r < 0 && errno == EINTR) return 1;
    if (r <= 0) return 0;
    *n += (size_t)r;
    return 1;
}

int evt_test_runv(const char *const argv[], char **out, size_t *outlen, char **err)
{
    int po[2], pe[2];
    if (pipe(po) != 0) return -1;
    if (pipe(pe) != 0) { close(po[0]); close(po[1]); return -1; }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    extern char **environ;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    char *bo = NULL, *be = NULL;
    size_t no = 0, co = 0, ne = 0, ce = 0;
    int open_o = 1, open_e = 1;
    while (rc == 0 && (open_o || open_e)) {
        struct pollfd pf[2] = {{open_o ? po[0] : -1, POLLIN, 0}, {open_e ? pe[0] : -1, POLLIN, 0}};
        if (poll(pf, 2, -1) < 0 && errno != EINTR) break;
        if (open_o && pf[0].revents) open_o = drain_(po[0], &bo, &no, &co);
        if (open_e && pf[1].revents) open_e = drain_(pe[0], &be, &ne, &ce);
    }
    close(po[0]);
    close(pe[0]);
    int st = 0;
    if (rc == 0) while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (!bo) bo = calloc(1, 1); else bo[no] = 0;
    if (!be) be = calloc(1, 1); else be[ne] = 0;
    if (out) *out = bo; else free(bo);
    if (outlen) *outlen = no;
    if (err) *err = be; else free(be);
    if (rc != 0) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int evt_test_run(const char *cmdline, char **out, size_t *outlen)
{
    char copy[8192];
    const char *argv[64];
    int argc = 0;
    if (snprintf(copy, sizeof copy, "%s", cmdline) >= (int)sizeof copy) return -1;
    for (char *w = strtok(copy, " \t\n"); w && argc < 63; w = strtok(NULL, " \t\n")) argv[argc++] = w;
    argv[argc] = NULL;
    if (argc == 0) return -1;
    return evt_test_runv(argv, out, outlen, NULL);
}

/* Remove path and, for a directory, everything under it (not following links); depth bounds the
 * recursion (test directories are a few levels deep). Errors are ignored: what cannot be removed
 * stays. */
static void remove_tree(const char *path, int depth)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode) && depth > 0) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            char sub[4096];
            while ((e = readdir(d)) != NULL) {
                if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
                if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub) remove_tree(sub, depth - 1);
            }
            closedir(d);
        }
        (void)rmdir(path);
        return;
    }
    (void)unlink(path);
}

static char g_tmpdir[512];
static pid_t g_tmpdir_owner;

/* At exit of the process that made it, the temporary directory goes, unless EVT_TEST_KEEP_TMP is
 * set (to look at what a test wrote, or for a script that reads a test's files after it exits).
 * A forked child that calls exit() leaves it to its parent. */
static void tmpdir_cleanup(void)
{
    const char *keep = getenv("EVT_TEST_KEEP_TMP");
    if (getpid() != g_tmpdir_owner || (keep && *keep)) return;
    remove_tree(g_tmpdir, 16);
}

const char *evt_test_tmpdir(void)
{
    if (!g_tmpdir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(g_tmpdir, sizeof g_tmpdir, "%s/evtrace-test-XXXXXX", t ? t : "/tmp");
        if (!mkdtemp(g_tmpdir)) { perror("mkdtemp"); exit(2); }
        g_tmpdir_owner = getpid();
        atexit(tmpdir_cleanup);
    }
    return g_tmpdir;
}

char *evt_test_tmp_path(const char *name)
{
    static char buf[4][4096];
    static unsigned k;
    char *p = buf[k++ & 3u];
    snprintf(p, sizeof buf[0], "%s/%s", evt_test_tmpdir(), name);
    return p;
}

int evt_test_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

const char *evt_test_find_name(const char *dir, const char *part)
{
    static char name[256];
    DIR *d = opendir(dir);
    if (!d) { fprintf(stderr, "test: cannot list %s\n", dir); exit(2); }
    const char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, part)) {
            snprintf(name, sizeof name, "%s", e->d_name);
            found = name;
        }
    closedir(d);
    return found;
}

uint64_t evt_test_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

uint64_t evt_test_rand_mag(uint64_t *state)
{
    uint64_t v = evt_test_rand(state);
    return v >> (evt_test_rand(state) % 64);
}
