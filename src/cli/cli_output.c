/* Safe outputs for -o (cli_output.h): temporary name, replace policy, atomic rename, marker. */
#include "cli_output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "evtrace/out.h"

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

/* Reserve a fresh temporary name beside OUT: path + ".tmp-PID-N", created exclusively. */
static int reserve_tmp_(cli_output *o)
{
    size_t n = strlen(o->path);
    while (n > 1 && o->path[n - 1] == '/') n--; /* "dir/" names dir */
    for (unsigned i = 0; i < 100; i++) {
        if (snprintf(o->tmp, sizeof o->tmp, "%.*s.tmp-%ld-%u", (int)n, o->path, (long)getpid(), i) >= (int)sizeof o->tmp) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int rc;
        if (o->is_dir) rc = mkdir(o->tmp, 0777);
        else {
            int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
            rc = fd < 0 ? -1 : close(fd);
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

int cli_output_begin(cli_output *o, const char *cmd, const char *path, int is_dir, int can_stdout, int force)
{
    memset(o, 0, sizeof *o);
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
    int code = check_replace_(o, kind_at_(path));
    if (code) return code;
    if (reserve_tmp_(o) != 0) {
        cli_err(cmd, "%s: cannot create a temporary output beside it: %s", path, strerror(errno));
        return EXIT_INPUT;
    }
    return 0;
}

const char *cli_output_path(const cli_output *o) { return o->tmp; }

void cli_output_abort(cli_output *o)
{
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

/* fsync a finished file (so a crash after the rename cannot leave an empty OUT). */
static int sync_file_(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0) return 0;
    int ok = fsync(fd) == 0 || errno == EINVAL; /* EINVAL: a file system without fsync */
    close(fd);
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
    if (o->is_dir ? !mark_(o) : !sync_file_(o->tmp)) return fail_(o, "cannot finish the output");
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
