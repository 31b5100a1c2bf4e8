/* evtrace convert: stream every event into an exporter. The output goes through cli_output.h:
 * written under a temporary name beside OUT and renamed into place only when complete (never a
 * half file under OUT), an existing OUT replaced only when evtrace may (--force otherwise),
 * "-" for standard output where the kind streams. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "convert_clickhouse.h"
#include "evtrace/exporter.h"

/* Output kinds by OUT's extension (case does not matter; a directory's trailing / is ignored). */
static const struct { const char *ext, *kind; } k_ext[] = {
    {".json", "chrome"}, {".pftrace", "perfetto"}, {".perfetto-trace", "perfetto"}, {".sqlite", "sqlite"},
    {".sqlite3", "sqlite"}, {".db", "sqlite"}, {".ctf", "ctf"}, {".html", "html"}, {".htm", "html"},
};

/* The kind OUT's name says, or NULL. */
static const char *kind_of_name_(const char *out)
{
    if (strncmp(out, "http://", 7) == 0 || strncmp(out, "https://", 8) == 0) return "clickhouse";
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/') n--;
    for (size_t i = 0; i < sizeof k_ext / sizeof k_ext[0]; i++) {
        size_t el = strlen(k_ext[i].ext);
        if (n > el && strncasecmp(out + n - el, k_ext[i].ext, el) == 0) return k_ext[i].kind;
    }
    return NULL;
}

/* The output kind: --to, else OUT's extension; "html" is the report (evtrace report). A --to
 * that disagrees with the extension is done as asked, with a warning. NULL: error printed. */
static const evt_exporter_desc *kind_of_(const cli_args *a, int *html)
{
    const char *named = kind_of_name_(a->out);
    const char *kind = a->to ? a->to : named;
    *html = kind && (strcmp(kind, "html") == 0 || strcmp(kind, "report") == 0);
    const evt_exporter_desc *x = *html ? NULL : kind ? evt_exporter_find(kind) : evt_exporter_for_path(a->out);
    /* the warning only for a kind that exists: an unknown --to is an error, not "writing it as asked" */
    if ((*html || x) && a->to && named && strcmp(a->to, named) != 0 && !(*html && strcmp(named, "html") == 0) &&
        strcmp(a->out, "-") != 0)
        cli_err("convert", "warning: %s: the name says %s but --to says %s: writing %s as asked", a->out, named, a->to,
                a->to);
    if (*html || x) return x;
    if (a->to) cli_err("convert", "unknown output kind '%s'", a->to);
    else cli_err("convert", "cannot tell the output kind from '%s': give --to KIND", a->out);
    fprintf(stderr, "kinds:");
    for (size_t i = 0; i < evt_exporter_count(); i++) fprintf(stderr, " %s", evt_exporter_at(i)->name);
    fprintf(stderr, " html (the report)\n");
    return NULL;
}

/* Every event of r into x at path; returns 0 or EXIT_INPUT (message printed, exporter freed). */
static int export_(const cli_args *a, const evt_exporter_desc *x, evt_reader *r, const char *path, evt_status *last)
{
    char err[512] = "";
    void *xs = NULL;
    evt_status bst = x->begin(path, r, &xs, err, sizeof err);
    if (bst != EVT_OK) {
        cli_err("convert", "%s: %s", a->out, err[0] ? err : evt_status_message(bst));
        return EXIT_INPUT;
    }
    evt_event ev;
    evt_status st, wst = EVT_OK;
    int werr = 0; /* errno of a failed write (ENOSPC, EIO, ...), when the exporter left one */
    cli_progress prog; /* progress line on a terminal (cli_progress.h) */
    cli_progress_init(&prog, "convert", r, a->quiet);
    int *errp = &errno; /* this thread's errno: its address looked up once, not per event */
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        *errp = 0;
        if ((wst = x->event(xs, &ev)) != EVT_OK) { werr = *errp; break; }
        if (prog.on) cli_progress_tick(&prog, &ev); /* off (-q, not a terminal): no call per event */
    }
    cli_progress_done(&prog);
    *last = st;
    if (wst != EVT_OK) {
        x->abort(xs);
        cli_err("convert", "%s: write failed: %s", a->out,
                wst == EVT_ERR_IO && werr ? strerror(werr) : evt_status_message(wst));
        return EXIT_INPUT;
    }
    if (st == EVT_ERR_NOMEM) { /* the reader ran out of memory: the output would be incomplete */
        x->abort(xs);
        cli_err("convert", "%s: out of memory while reading (nothing written)", r->src.path);
        return EXIT_INPUT;
    }
    errno = 0;
    if (x->end(xs, r, err, sizeof err) != EVT_OK) {
        werr = errno;
        cli_err("convert", "%s: %s%s%s", a->out, err[0] ? err : "write failed", werr ? ": " : "",
                werr ? strerror(werr) : "");
        return EXIT_INPUT;
    }
    return 0;
}

static int run(const cli_args *a)
{
    if (!a->out) { cli_err("convert", "missing -o OUT"); return EXIT_USAGE; }
    int html = 0;
    const evt_exporter_desc *x = kind_of_(a, &html);
    if (html) return cli_cmd_report.run(a); /* -o x.html: the HTML report */
    if (!x) return EXIT_USAGE;
    if (strcmp(x->name, "clickhouse") == 0) return cli_convert_clickhouse(a); /* a server, FILE... */
    if (a->nextra || a->ntrace_id || a->nlabel) {
        cli_err("convert", "several FILEs, --trace-id and --label go with --to clickhouse only");
        return EXIT_USAGE;
    }
    cli_output out;
    int code = cli_output_not_inputs("convert", a);
    if (code) return code;
    code = cli_output_begin(&out, "convert", a->out, x->is_dir, x->streams, a->force);
    if (code) return code;
    int live = cli_is_live(a) && cli_live_arm() == 0; /* Ctrl-C ends the stream, not the capture */
    evt_reader *r = cli_open(a, &code);
    if (!r) {
        cli_output_abort(&out);
        if (live) cli_live_disarm();
        return code;
    }
    evt_status last = EVT_END;
    code = export_(a, x, r, cli_output_path(&out), &last);
    if (code == 0) code = cli_output_commit(&out);
    else cli_output_abort(&out);
    int stopped = live ? cli_live_stopped() : 0;
    if (live) cli_live_disarm();
    if (code == 0) {
        code = cli_finish(r, last);
        const char *where = out.to_stdout ? "standard output" : a->out;
        if (stopped) /* always said, even with -q: the user ended the capture and must see what it kept */
            cli_eprintf("evtrace convert: stopped by %s: kept %llu events in %s (%s)\n", cli_signal_name(stopped),
                    (unsigned long long)r->events, cli_safe(where), x->name);
        else if (!a->quiet)
            cli_eprintf("evtrace convert: wrote %s (%s, %llu events)\n", cli_safe(where), x->name,
                    (unsigned long long)r->events);
    }
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_convert = {
    "convert", "FILE -o OUT [--to KIND] [--force]  |  FILE... --to clickhouse -o URL",
    "convert to a viewer format (chrome JSON, ...) or load into ClickHouse",
    "Streams every event of FILE into OUT. The kind comes from --to or from OUT's extension:\n"
    ".json chrome (trace-event JSON: ui.perfetto.dev, chrome://tracing), .pftrace or\n"
    ".perfetto-trace perfetto, .sqlite/.db sqlite, .ctf ctf (a directory), .html the report\n"
    "(as `evtrace report`), http(s):// clickhouse; a --to that disagrees with it is warned about.\n"
    "OUT is written under a temporary name beside it and renamed when complete. An existing OUT\n"
    "is replaced only if it is a regular file or a directory evtrace wrote (it holds a\n"
    ".evtrace-output marker); --force replaces other directories and symbolic links too.\n"
    "-o - writes to standard output (chrome, perfetto; not ctf, a directory, nor sqlite).\n"
    "--follow, --listen, --serial decode a live stream as it arrives; OUT is complete when the\n"
    "stream ends (the writer closes, or --idle-exit passes), or at Ctrl-C (SIGINT, SIGTERM,\n"
    "SIGHUP): OUT keeps what arrived and the count is printed; a second signal abandons OUT.\n"
    "--to clickhouse -o http[s]://HOST:PORT/?database=DB loads each FILE as one trace into a\n"
    "ClickHouse server (tables from `evtrace clickhouse-schema`), every row with its --trace-id\n"
    "and the --label KEY=VALUE pairs; credentials from $CLICKHOUSE_USER/$CLICKHOUSE_PASSWORD or\n"
    "--user/--password-file; https verifies the server (--ca-file, --insecure); see docs/clickhouse.md.",
    OPT_OUTPUT | OPT_TO | OPT_QUIET | OPT_FOLLOW | OPT_CH_LOAD | OPT_TIMEOUT, 0, 63, run,
};
