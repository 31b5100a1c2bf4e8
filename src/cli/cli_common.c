/* Opening the input for a subcommand and turning reader results into exit codes. */
#include "cli.h"

#include <stdarg.h>
#include <string.h>

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

evt_reader *cli_open(const cli_args *a, int *code)
{
    char err[512];
    evt_reader *r = NULL;
    g_diag.path = a->file;
    g_diag.shown = 0;
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
