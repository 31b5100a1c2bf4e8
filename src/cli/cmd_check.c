/* evtrace check: read everything, report every corruption or gap with its offset; exit 1 if any. */
#include <stdio.h>
#include "cli.h"

static int run(const cli_args *a)
{
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) return code;
    evt_reader_set_text_safe(r, 1);
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
    }
    code = cli_finish(r, st);
    unsigned long long errs = (unsigned long long)r->errors + (st != EVT_END);
    if (code == 0)
        printf("%s: OK: %s, %llu events, %llu lost\n", cli_safe(a->file), r->desc->name,
               (unsigned long long)r->events, (unsigned long long)r->lost);
    else
        printf("%s: %llu error%s (%s, %llu events decoded, %llu lost)\n", cli_safe(a->file), errs, errs == 1 ? "" : "s",
               r->desc->name, (unsigned long long)r->events, (unsigned long long)r->lost);
    if (r->names_lost) /* not corruption: the trace is whole, some names are missing */
        printf("%s: note: %llu registrations lost (registry full): those objects have no name\n",
               cli_safe(a->file), (unsigned long long)r->names_lost);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_check = {
    "check", "FILE", "validate; report every corruption/gap; exit 1 if any",
    "Decodes the whole trace and reports every problem found (corruption, gaps, truncation)\n"
    "with its byte offset on stderr. Exit 0 when the trace is clean, 1 when it has errors.",
    0, 0, 0, run,
};
