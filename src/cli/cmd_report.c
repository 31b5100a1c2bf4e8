/* evtrace report: one self-contained interactive HTML page (swimlanes from the one timeline,
 * event list, details, CPU load, analyses; no network). Output through cli_output.h (temporary
 * name, rename, -o -). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "evtrace/out.h"
#include "host/report/report.h"

/* Write the page to path; returns 1 on success. */
static int write_page_(const char *path, evt_report *rep, evt_reader *r)
{
    FILE *o = evt_out_fopen(path, "w");
    if (!o) return 0;
    int ok = evt_report_write(rep, o, r->errors);
    if (fclose(o) != 0) ok = 0;
    return ok;
}

static int run_(const cli_args *a)
{
    if (!a->out) { cli_err("report", "missing -o OUT.html"); return EXIT_USAGE; }
    evt_an_config cfg = {0, 0, EVT_AN_PRIO_AUTO};
    char msg[200];
    if (a->window && !evt_an_parse_window(a->window, &cfg.window, &cfg.window_is_ns, msg, sizeof msg)) {
        cli_err("report", "--window: %s", msg);
        return EXIT_USAGE;
    }
    cli_output out;
    int code = cli_output_not_inputs("report", a);
    if (code) return code;
    code = cli_output_begin(&out, "report", a->out, 0, 1, a->force);
    if (code) return code;
    evt_reader *r = cli_open(a, &code);
    if (!r) { cli_output_abort(&out); return code; }
    evt_report_info info;
    memset(&info, 0, sizeof info);
    info.format = r->desc->name;
    info.file = a->file;
    info.clock_hz = r->clock_hz;
    info.clock_source = evt_clock_source_name(r->clock_hz ? evt_reader_clock_source(r) : EVT_CLOCK_UNKNOWN);
    info.an = &cfg;
    info.reader = r;
    evt_report *rep = evt_report_new(&info);
    if (!rep) {
        cli_err("report", "out of memory");
        cli_output_abort(&out);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    evt_event ev;
    evt_status st;
    int oom = 0;
    cli_progress prog;
    cli_progress_init(&prog, "report", r, a->quiet);
    uint64_t n = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (n++ == 0 && r->clock_hz) /* the time unit, fixed at the first event */
            evt_report_set_clock(rep, r->clock_hz, evt_clock_source_name(evt_reader_clock_source(r)));
        if (!evt_report_add(rep, &ev)) { oom = 1; break; }
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    code = cli_finish(r, st);
    if (oom || st == EVT_ERR_NOMEM) {
        cli_err("report", "out of memory: no report written");
        cli_output_abort(&out);
        code = EXIT_INPUT;
    } else if ((errno = 0, !write_page_(cli_output_path(&out), rep, r))) {
        int e = errno;
        cli_err("report", "cannot write %s%s%s", a->out, e ? ": " : "", e ? strerror(e) : "");
        cli_output_abort(&out);
        code = EXIT_INPUT;
    } else if (evt_report_analyses_error(rep)) {
        cli_err("report", "--window %s: %s", a->window, evt_report_analyses_error(rep));
        cli_output_abort(&out);
        code = EXIT_USAGE;
    } else {
        int c2 = cli_output_commit(&out);
        if (c2) code = c2;
        else if (cli_live_stopped()) /* Ctrl-C ended a live input: always said */
            cli_eprintf("evtrace report: stopped by %s: kept %llu events in %s\n", cli_signal_name(cli_live_stopped()),
                        (unsigned long long)evt_report_events(rep), out.to_stdout ? "standard output" : a->out);
        else if (!a->quiet)
            cli_eprintf("evtrace report: wrote %s (%llu events, %u contexts)\n",
                    out.to_stdout ? "standard output" : a->out, (unsigned long long)evt_report_events(rep),
                    evt_report_contexts(rep));
    }
    evt_report_free(rep);
    evt_reader_close(r);
    return code;
}

/* A live input (stdin, a FIFO, or --listen/--serial through convert -o x.html): the first Ctrl-C
 * ends the input and the page is written with what arrived (cli_signal.h). */
static int run(const cli_args *a)
{
    int live = cli_is_live(a) && cli_live_arm() == 0;
    int code = run_(a);
    if (live) cli_live_disarm();
    return code;
}

const cli_command cli_cmd_report = {
    "report", "FILE -o OUT.html [--window DUR] [--force]", "self-contained interactive HTML report: timeline, events, load, analyses",
    "Streams FILE once through the timeline and writes one HTML page (no network, opens from disk):\n"
    "per-context swimlanes with running/ready/blocked states, ISR lanes, service and function\n"
    "slices, object counters, flows and lost ranges; zoom and pan (wheel, drag, W/S/A/D); a time\n"
    "ruler in real units (ticks when the clock is unknown); details of what you click; an event\n"
    "list filtered by context, kind, name and the visible range; CPU load over time; the analyses\n"
    "of `evtrace stats` (load per --window DUR, response times, priority inversions, queues and\n"
    "semaphores, flows, stack usage) as tables and plots; the contexts table. The event list holds\n"
    "the first 500000 events; everything else counts in full.\n"
    "OUT is written under a temporary name and renamed when complete; -o - writes to standard output.",
    OPT_OUTPUT | OPT_QUIET | OPT_WINDOW, 0, 0, run,
};
