/* evtrace convert: stream every event into an exporter; the output is written under a temporary
 * name and renamed at the end, so an interrupted conversion never leaves a half file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_progress.h"
#include "evtrace/exporter.h"

static void remove_tree(const char *path, int is_dir)
{
    if (!is_dir) { unlink(path); return; }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", path);
    if (system(cmd) != 0) fprintf(stderr, "evtrace convert: could not remove %s\n", path);
}

static int run(const cli_args *a)
{
    if (!a->out) { cli_err("convert", "missing -o OUT"); return EXIT_USAGE; }
    const evt_exporter_desc *x = a->to ? evt_exporter_find(a->to) : evt_exporter_for_path(a->out);
    if (!x) {
        if (a->to) cli_err("convert", "unknown output kind '%s'", a->to);
        else cli_err("convert", "cannot tell the output kind from '%s': give --to KIND", a->out);
        fprintf(stderr, "kinds:");
        for (size_t i = 0; i < evt_exporter_count(); i++) fprintf(stderr, " %s", evt_exporter_at(i)->name);
        fputc('\n', stderr);
        return EXIT_USAGE;
    }
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", a->out, (long)getpid());
    char err[512] = "";
    void *xs = NULL;
    if (x->begin(tmp, r, &xs, err, sizeof err) != EVT_OK) {
        cli_err("convert", "%s: %s", a->out, err[0] ? err : "cannot write");
        remove_tree(tmp, x->is_dir);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    evt_event ev;
    evt_status st;
    evt_status wst = EVT_OK;
    cli_progress prog; /* progress line on a terminal (cli_progress.h) */
    cli_progress_init(&prog, "convert", r, a->quiet);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if ((wst = x->event(xs, &ev)) != EVT_OK) break;
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    if (wst != EVT_OK) {
        x->abort(xs);
        remove_tree(tmp, x->is_dir);
        cli_err("convert", "%s: write failed: %s", a->out, evt_status_message(wst));
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    if (x->end(xs, r, err, sizeof err) != EVT_OK) {
        remove_tree(tmp, x->is_dir);
        cli_err("convert", "%s: %s", a->out, err[0] ? err : "write failed");
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    if (x->is_dir) remove_tree(a->out, 1);
    if (rename(tmp, a->out) != 0) {
        cli_err("convert", "cannot rename %s to %s", tmp, a->out);
        remove_tree(tmp, x->is_dir);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    code = cli_finish(r, st);
    if (!a->quiet)
        fprintf(stderr, "evtrace convert: wrote %s (%s, %llu events)\n", a->out, x->name,
                (unsigned long long)r->events);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_convert = {
    "convert", "FILE -o OUT [--to KIND]", "convert to a viewer format (chrome JSON, ...)",
    "Streams every event of FILE into OUT. The kind comes from --to or from OUT's extension\n"
    "(.json: Chrome trace-event JSON, which ui.perfetto.dev and chrome://tracing open).",
    OPT_OUTPUT | OPT_TO | OPT_QUIET, 0, 0, run,
};
