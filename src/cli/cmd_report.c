/* evtrace report: one self-contained HTML page (timeline per context, load and latency charts,
 * stats tables; no network) written under a temporary name and renamed. */
#include <stdio.h>
#include <unistd.h>
#include "cli.h"
#include "cli_progress.h"
#include "host/analysis/report.h"

static int run(const cli_args *a)
{
    if (!a->out) { cli_err("report", "missing -o OUT.html"); return EXIT_USAGE; }
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    evt_stats s;
    if (!evt_stats_init(&s, r->clock_hz)) { cli_err("report", "out of memory"); evt_reader_close(r); return EXIT_INPUT; }
    evt_stats_enable_timeline(&s);
    evt_event ev;
    evt_status st;
    cli_progress prog;
    cli_progress_init(&prog, "report", r, a->quiet);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        evt_stats_add(&s, &ev);
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    if (r->clock_hz) s.clock_hz = r->clock_hz;
    evt_stats_finish(&s);
    code = cli_finish(r, st);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", a->out, (long)getpid());
    FILE *o = fopen(tmp, "w");
    int ok = o && evt_report_write(o, &s, r->desc->name, a->file, r->errors);
    if (o && fclose(o) != 0) ok = 0;
    if (!ok || rename(tmp, a->out) != 0) {
        unlink(tmp);
        cli_err("report", "cannot write %s", a->out);
        code = EXIT_INPUT;
    } else if (!a->quiet) {
        fprintf(stderr, "evtrace report: wrote %s (%llu events, %u contexts)\n", a->out,
                (unsigned long long)s.events, s.nctx);
    }
    if (s.oom) { cli_err("report", "out of memory: results incomplete"); code = EXIT_INPUT; }
    evt_stats_free(&s);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_report = {
    "report", "FILE -o OUT.html", "self-contained HTML report: timeline per context, stats tables and plots",
    "Streams FILE once (stats model of `evtrace stats`) and writes one HTML page with inline CSS,\n"
    "SVG and JS (no network): a timeline of CPU time per context, a load chart, ISR/service/\n"
    "function latency tables with range plots, and the stats JSON (id \"stats\").",
    OPT_OUTPUT | OPT_QUIET, 0, 0, run,
};
