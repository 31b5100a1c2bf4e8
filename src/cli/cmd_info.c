/* evtrace info: what the file is (format, layout, counts, objects), as text or one JSON object. */
#include <stdio.h>
#include "cli.h"
#include "host/kernels/kernel_profile.h"
#include "evtrace/json.h"

static int run(const cli_args *a)
{
    int code;
    evt_reader *r = cli_open(a, &code);
    if (!r) {
        if (a->json) cli_open_failure_json(a, 0); /* the keys are a contract: also when nothing was read */
        return code;
    }
    evt_reader_set_text_safe(r, !a->json); /* text lines: no raw control byte from the trace */
    evt_event ev;
    evt_status st;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
    }
    int failed = (st != EVT_END);
    /* a stream's size is known once it is read: the bytes taken from it (0 was "unknown") */
    uint64_t size = r->src.is_stream ? r->src.pos : r->src.size;
    if (a->json) {
        evt_json j;
        evt_json_init(&j, stdout, 1);
        evt_json_obj_begin(&j);
        evt_json_kstr(&j, "format", r->desc->name);
        evt_json_kstr(&j, "file", a->file);
        evt_json_ku64(&j, "size", size);
        evt_json_ku64(&j, "events", r->events);
        evt_json_ku64(&j, "lost", r->lost);
        if (r->names_lost) evt_json_ku64(&j, "names_lost", r->names_lost); /* registry full */
        evt_json_ku64(&j, "errors", r->errors + (uint64_t)failed);
        evt_json_key(&j, "fatal");
        if (failed) evt_json_str(&j, r->fail_msg); else evt_json_null(&j);
        evt_json_key(&j, "clock_hz");
        if (r->clock_hz) evt_json_u64(&j, r->clock_hz); else evt_json_null(&j);
        evt_json_kstr(&j, "clock_source", evt_clock_source_name(evt_reader_clock_source(r)));
        evt_json_kstr(&j, "time_unit", r->clock_hz ? "ns" : "ticks");
        evt_json_kstr(&j, "container", evt_dump_kind_name(r->src.dump)); /* binary, ihex, srec */
        /* what kinds of fact the trace holds, and the kernel profile it is decoded with */
        evt_json_key(&j, "capabilities");
        evt_reader_caps_json(r, &j);
        evt_json_kstr(&j, "kernel", evt_reader_profile(r)->name);
        evt_json_kstr(&j, "priority_order", evt_reader_higher_prio_wins(r) ? "higher_wins" : "lower_wins");
        if (r->src.dump != EVT_DUMP_BINARY) evt_json_ku64(&j, "image_address", r->src.image_addr);
        if (r->src.file_off || r->src.skipped) evt_json_ku64(&j, "file_offset", r->src.file_off + r->src.skipped);
        if (r->desc->info) r->desc->info(r->state, &j);
        evt_json_obj_end(&j);
        fputc('\n', stdout);
    } else {
        printf("file:     %s (%llu bytes%s)\n", cli_safe(a->file), (unsigned long long)size,
               r->src.is_stream ? ", read from a stream" : "");
        if (r->src.dump != EVT_DUMP_BINARY)
            printf("dump:     %s, trace at target address 0x%llx (offsets below are from there)\n",
                   evt_dump_kind_name(r->src.dump), (unsigned long long)r->src.image_addr);
        else if (r->src.file_off)
            printf("dump:     binary, trace at file offset %llu (offsets below are from there)\n",
                   (unsigned long long)r->src.file_off);
        else if (r->src.skipped)
            printf("dump:     binary, trace at byte %llu of the stream (offsets below are from there)\n",
                   (unsigned long long)r->src.skipped);
        printf("format:   %s (%s)\n", r->desc->name, r->desc->description);
        printf("events:   %llu\n", (unsigned long long)r->events);
        printf("lost:     %llu\n", (unsigned long long)r->lost);
        if (r->names_lost)
            printf("names:    %llu registrations lost (registry full): those objects have no name\n",
                   (unsigned long long)r->names_lost);
        printf("errors:   %llu\n", (unsigned long long)(r->errors + (uint64_t)failed));
        if (r->clock_hz)
            printf("clock:    %llu Hz (%s)\n", (unsigned long long)r->clock_hz,
                   evt_reader_clock_source(r) == EVT_CLOCK_USER ? "--clock-hz" : "from the trace");
        else printf("clock:    ticks, unknown rate (give it with --clock-hz HZ)\n");
        char caps[160];
        evt_reader_caps_text(r, caps, sizeof caps);
        printf("capabilities: %s\n", caps);
        printf("kernel:   %s (%s priority number wins)\n", evt_reader_profile(r)->name,
               evt_reader_higher_prio_wins(r) ? "higher" : "lower");
        if (r->desc->info_text) r->desc->info_text(r->state, stdout);
    }
    code = cli_finish(r, st);
    evt_reader_close(r);
    return code;
}

const cli_command cli_cmd_info = {
    "info", "[--json] FILE", "what the file is: format, byte order, layout, counts, objects",
    "Reads the whole trace and prints its format, layout, event/lost/error counts and the\n"
    "format's own facts (registry objects, configuration). --json prints one JSON object\n"
    "with at least: format, events, lost, errors.",
    OPT_JSON, 0, 0, run,
};
