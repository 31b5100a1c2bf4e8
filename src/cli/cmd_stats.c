/* evtrace stats: per-context CPU time and load, ISR time, service/function/ISR latency, lost data
 * and the RTOS analyses (load windows, response times, priority inversions, object history,
 * flows, stack usage) of any trace, in one streaming pass over the one timeline (model:
 * src/host/analyses/stats.h and analyses.h; JSON keys: docs/exports.md, docs/analyses.md). */
#include <stdio.h>
#include "cli.h"
#include "cli_progress.h"
#include "evtrace/json.h"
#include "host/analyses/analyses.h"
#include "host/analyses/stats.h"

static int run(const cli_args *a)
{
    evt_an_config cfg = {0, 0, EVT_AN_PRIO_AUTO};
    char msg[200];
    if (a->window && !evt_an_parse_window(a->window, &cfg.window, &cfg.window_is_ns, msg, sizeof msg)) {
        cli_err("stats", "--window: %s", msg);
        return EXIT_USAGE;
    }
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) {
        if (a->json) cli_open_failure_json(a, 1);
        return code;
    }
    evt_reader_set_text_safe(r, !a->json); /* text lines: no raw control byte from the trace */
    evt_stats s;
    if (!evt_stats_init(&s, r->clock_hz) || !evt_stats_enable_analyses(&s, &cfg)) {
        cli_err("stats", "out of memory");
        evt_stats_free(&s);
        evt_reader_close(r);
        return EXIT_INPUT;
    }
    s.reader = r;
    evt_event ev;
    evt_status st;
    cli_progress prog;
    cli_progress_init(&prog, "stats", r, 0);
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (s.events == 0 && r->clock_hz) s.clock_hz = r->clock_hz; /* the time unit, fixed from the first event */
        evt_stats_add(&s, &ev);
        cli_progress_tick(&prog, &ev);
    }
    cli_progress_done(&prog);
    s.clock_source = evt_clock_source_name(s.clock_hz ? evt_reader_clock_source(r) : EVT_CLOCK_UNKNOWN);
    evt_stats_finish(&s);
    code = cli_finish(r, st);
    const char *an_err = evt_an_error(s.an);
    if (an_err) {
        cli_err("stats", "--window %s: %s", a->window, an_err);
        code = EXIT_USAGE;
    } else if (a->json) {
        evt_json j;
        evt_json_init(&j, stdout, 0);
        evt_stats_json(&s, &j, r->desc->name, a->file, r->errors);
        putchar('\n');
    } else {
        evt_stats_text(&s, stdout, r->desc->name, cli_safe(a->file), r->errors);
    }
    if (s.oom) { cli_err("stats", "out of memory: results incomplete"); code = EXIT_INPUT; }
    evt_stats_free(&s);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_stats = {
    "stats", "[--json] [--window DUR] FILE", "CPU time and load, latencies, lost data, RTOS analyses",
    "Streams FILE once through the one timeline and prints: per-context CPU time and load %\n"
    "(running time less the ISRs that interrupted it), ISR count and time, latency per service,\n"
    "function and ISR (count, min, p50, p90, p99, max, sum), lost data, and the analyses: CPU\n"
    "load per window (--window DUR), response times per task and ISR with the worst instances,\n"
    "priority inversions, queue/semaphore/flag history, message flows and stack usage. Times are\n"
    "in ns when the clock frequency is known, else in ticks. --json: one object, keys in\n"
    "docs/exports.md (the analyses under \"analyses\": docs/analyses.md).",
    OPT_JSON | OPT_WINDOW, 0, 0, run,
};
