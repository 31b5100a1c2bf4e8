/* evtrace stats: per-context CPU time and load, ISR time, service/function/ISR latency and lost
 * data of any trace, in one streaming pass (model: src/host/analysis/stats.h; JSON keys:
 * docs/exports.md). */
#include <stdio.h>
#include "cli.h"
#include "cli_progress.h"
#include "evtrace/json.h"
#include "host/analysis/stats.h"

static int run(const cli_args *a)
{
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    evt_stats s;
    if (!evt_stats_init(&s, r->clock_hz)) {
        cli_err("stats", "out of memory");
        evt_reader_close(r);
        return EXIT_INPUT;
    }
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
    if (a->json) {
        evt_json j;
        evt_json_init(&j, stdout, 0);
        evt_stats_json(&s, &j, r->desc->name, a->file, r->errors);
        putchar('\n');
    } else {
        evt_stats_text(&s, stdout, r->desc->name, a->file, r->errors);
    }
    if (s.oom) { cli_err("stats", "out of memory: results incomplete"); code = EXIT_INPUT; }
    evt_stats_free(&s);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_stats = {
    "stats", "[--json] FILE", "per-context CPU time, ISR/service/function latency, lost data",
    "Streams FILE once and prints: per-context CPU time and load % (time between events is\n"
    "charged to the running context, ISR time to the ISR), ISR count and time, latency per\n"
    "service, function and ISR (count, min, p50, p90, p99, max, sum) and lost data. Times are in\n"
    "ns when the clock frequency is known, else in ticks. --json: one object, keys in\n"
    "docs/exports.md.",
    OPT_JSON, 0, 0, run,
};
