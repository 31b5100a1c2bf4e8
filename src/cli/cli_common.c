/* Opening the input for a subcommand and turning reader results into exit codes. */
#include "cli.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void cli_err(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "evtrace %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

typedef struct diag_ctx {
    const char *path;
    unsigned long shown; /* messages printed; the rest are counted only */
} diag_ctx;

#define MAX_DIAG_SHOWN 200

static void print_diag(void *user, uint64_t offset, const char *msg)
{
    diag_ctx *d = user;
    if (++d->shown > MAX_DIAG_SHOWN) {
        if (d->shown == MAX_DIAG_SHOWN + 1) fprintf(stderr, "evtrace: %s: further errors not shown\n", d->path);
        return;
    }
    fprintf(stderr, "evtrace: %s: offset %llu (0x%llx): %s\n", d->path, (unsigned long long)offset,
            (unsigned long long)offset, msg);
}

static diag_ctx g_diag;

/* Accept one TCP connection on 127.0.0.1:port; returns the connected fd or -1 (message printed). */
static int listen_once(const cli_args *a)
{
    char *end;
    long port = strtol(a->listen, &end, 10);
    if (*end || port <= 0 || port > 65535) { cli_err(a->cmd, "--listen needs a port number, not '%s'", a->listen); return -1; }
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0) { cli_err(a->cmd, "socket: %s", strerror(errno)); return -1; }
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(ls, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(ls, 1) != 0) {
        cli_err(a->cmd, "cannot listen on 127.0.0.1:%ld: %s", port, strerror(errno));
        close(ls);
        return -1;
    }
    if (!a->quiet) fprintf(stderr, "evtrace %s: listening on 127.0.0.1:%ld\n", a->cmd, port);
    int fd = accept(ls, NULL, NULL);
    close(ls);
    if (fd < 0) cli_err(a->cmd, "accept: %s", strerror(errno));
    return fd;
}

/* --follow / --listen / "-": a sequential stream instead of a file. */
static evt_reader *open_stream(const cli_args *a, int *code)
{
    char err[512];
    int fd;
    if (a->listen) fd = listen_once(a);
    else if (strcmp(a->file, "-") == 0) fd = 0;
    else {
        fd = open(a->file, O_RDONLY);
        if (fd < 0) cli_err(a->cmd, "%s: cannot open: %s", a->file, strerror(errno));
    }
    if (fd < 0) { *code = EXIT_INPUT; return NULL; }
    evt_source src;
    /* A regular file is followed as it grows; pipes and sockets end when the writer closes. */
    int follow_file = a->follow && !a->listen && fd != 0;
    if (evt_source_open_stream(&src, fd, a->file, follow_file, a->idle_exit_ms) != EVT_OK) {
        cli_err(a->cmd, "out of memory");
        *code = EXIT_INPUT;
        return NULL;
    }
    evt_reader *r = NULL;
    evt_status st = evt_reader_open_stream(&src, a->format, &a->ropts, print_diag, &g_diag, &r, err, sizeof err);
    if (st != EVT_OK) {
        fprintf(stderr, "evtrace %s: %s\n", a->cmd, err);
        *code = (st == EVT_ERR_USAGE) ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    *code = EXIT_OK_;
    return r;
}

evt_reader *cli_open(const cli_args *a, int *code)
{
    char err[512];
    evt_reader *r = NULL;
    g_diag.path = a->file;
    g_diag.shown = 0;
    if (a->follow || a->listen || strcmp(a->file, "-") == 0) return open_stream(a, code);
    evt_status st = evt_reader_open_file(a->file, a->format, &a->ropts, print_diag, &g_diag, &r, err,
                                         sizeof err);
    if (st != EVT_OK) {
        fprintf(stderr, "evtrace %s: %s\n", a->cmd, err);
        *code = (st == EVT_ERR_USAGE) ? EXIT_USAGE : EXIT_INPUT;
        return NULL;
    }
    *code = EXIT_OK_;
    return r;
}

int cli_finish(evt_reader *r, evt_status last)
{
    int code = EXIT_OK_;
    if (last != EVT_END && last != EVT_OK) {
        fprintf(stderr, "evtrace: %s: %s\n", r->src.path, r->fail_msg);
        code = EXIT_DATA;
    }
    if (r->errors) code = EXIT_DATA;
    return code;
}
