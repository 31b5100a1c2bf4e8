/* evtrace dump: every event, oldest first, as text lines or JSON Lines. */
#include <stdio.h>
#include "cli.h"
#include "dump_text.h"
#include "evtrace/json.h"

static int run(const cli_args *a)
{
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    evt_reader_set_text_safe(r, !a->json); /* text lines: no raw control byte from the trace */
    evt_json j;
    evt_json_init(&j, stdout, 0);
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        if (a->json) {
            evt_json_init(&j, stdout, 0);
            evt_json_event(&j, &ev);
            putchar('\n');
        } else {
            cli_dump_text(stdout, &ev);
        }
        if (a->follow) fflush(stdout);
    }
    code = cli_finish(r, st);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_dump = {
    "dump", "[--json] FILE", "every event, oldest first",
    "Prints every event oldest first. --json prints JSON Lines, one object per event with the\n"
    "keys fmt, id, name, kind, ts, ctx, args (and ctx_name, prio, cpu, seq, count, offset,\n"
    "fields, data where present; t_ns when the clock is known). Lost data appears as an event of\n"
    "kind \"lost\". Text lines start with the time in seconds when the clock is known (the trace's\n"
    "rate, or --clock-hz HZ), then the raw ticks.\n"
    "--follow decodes a stream as it arrives (a growing file, a pipe, - for stdin, a TCP\n"
    "connection with --listen [HOST:]PORT, a serial line with --serial DEV --baud N) and flushes\n"
    "each line. FILE may also be an Intel HEX or S-record memory dump (--base-address, --offset).",
    OPT_JSON | OPT_FOLLOW, 0, 0, run,
};
