/* evtrace report: one self-contained HTML page (timeline per context, load and latency charts,
 * stats tables; no network). Output through cli_output.h (temporary name, rename, -o -). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "evtrace/out.h"
#include "host/analysis/report.h"

/* Write the page to path; returns 1 on success. */
static int write_page_(const char *path, evt_stats *s, evt_reader *r, const char *file)
{
    FILE *o = evt_out_fopen(path, "w");
    if (!o) return 0;
    int ok = evt_report_write(o, s, r->desc->name, file, r->errors);
    if (fclose(o) != 0) ok = 0;
    return ok;
}

static int run(const cli_args *a)
{
    if (!a->out) { cli_err("report", "missing -o OUT.html"); return EXIT_USAGE; }
    cli_output out;
    int code = cli_output_begin(&out, "report", a->out, 0, 1, a->force);
    if (code) return code;
    evt_reader *r = cli_open(a, &code);
    if (!r) { cli_output_abort(&out); return code; }
    evt_stats s;
    if (!evt_stats_init(&s, r->clock_hz)) {
        cli_err("report", "out of memory");
        cli_output_abort(&out);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    evt_stats_enable_timeline(&s);
    evt_event ev;
    evt_status st;
    cli_progress prog;
    cli_progress_init(&prog, "report", r, a->quiet);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (s.events == 0 && r->clock_hz) s.clock_hz = r->clock_hz; /* the time unit, fixed from the first event */
        evt_stats_add(&s, &ev);
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    s.clock_source = evt_clock_source_name(s.clock_hz ? evt_reader_clock_source(r) : EVT_CLOCK_UNKNOWN);
    evt_stats_finish(&s);
    code = cli_finish(r, st);
    if (s.oom || st == EVT_ERR_NOMEM) {
        cli_err("report", "out of memory: no report written");
        cli_output_abort(&out);
        code = EXIT_INPUT;
    } else if ((errno = 0, !write_page_(cli_output_path(&out), &s, r, a->file))) {
        int e = errno;
        cli_err("report", "cannot write %s%s%s", a->out, e ? ": " : "", e ? strerror(e) : "");
        cli_output_abort(&out);
        code = EXIT_INPUT;
    } else {
        int c2 = cli_output_commit(&out);
        if (c2) code = c2;
        else if (!a->quiet)
            fprintf(stderr, "evtrace report: wrote %s (%llu events, %u contexts)\n",
                    out.to_stdout ? "standard output" : a->out, (unsigned long long)s.events, s.nctx);
    }
    evt_stats_free(&s);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_report = {
    "report", "FILE -o OUT.html [--force]", "self-contained HTML report: timeline per context, stats tables and plots",
    "Streams FILE once (stats model of `evtrace stats`) and writes one HTML page with inline CSS,\n"
    "SVG and JS (no network): a timeline of CPU time per context, a load chart, ISR/service/\n"
    "function latency tables with range plots, and the stats JSON (id \"stats\").\n"
    "OUT is written under a temporary name and renamed when complete; -o - writes to standard output.",
    OPT_OUTPUT | OPT_QUIET, 0, 0, run,
};
