/* evtrace dump: every event, oldest first, as text lines or JSON Lines. */
#include <inttypes.h>
#include <stdio.h>
#include "cli.h"
#include "evtrace/json.h"

static void print_text(const evt_event *ev)
{
    /* real time (s.ns) when the clock is known, then the raw ticks */
    if (ev->flags & EVT_HAS_TNS)
        printf("%6" PRIu64 ".%09" PRIu64 "s ", ev->t_ns / 1000000000u, ev->t_ns % 1000000000u);
    printf("%12" PRIu64 "  ", ev->ts);
    if (ev->ctx_name) printf("%-20.20s ", ev->ctx_name);
    else if (ev->flags & EVT_HAS_CTX) printf("0x%-18" PRIx64 " ", ev->ctx);
    else printf("%-20s ", "-");
    printf("%-28s", ev->name ? ev->name : "?");
    if (ev->kind == EVT_KIND_LOST && (ev->flags & EVT_HAS_COUNT)) printf(" lost=%" PRIu64, ev->count);
    for (uint32_t i = 0; i < ev->nargs; i++) printf(" 0x%" PRIx64, ev->args[i]);
    if ((ev->flags & EVT_HAS_TARGET) && ev->target_name) printf("  [%s]", ev->target_name);
    for (uint32_t i = 0; i < ev->nfields; i++) {
        const evt_field *f = &ev->fields[i];
        if (f->is_str) printf(" %s=%s", f->key, f->str ? f->str : "");
        else if (f->is_signed) printf(" %s=%" PRId64, f->key, (int64_t)f->num);
        else printf(" %s=%" PRIu64, f->key, f->num);
    }
    if (ev->data && ev->data_is_text) printf(" \"%.*s\"", (int)ev->data_len, (const char *)ev->data);
    else if (ev->data) printf(" data[%zu]", ev->data_len);
    putchar('\n');
}

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
            print_text(&ev);
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
