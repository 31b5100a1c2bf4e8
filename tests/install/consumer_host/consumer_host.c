/* Out-of-tree program built against the installed host library (tests/install): opens the trace
 * consumer_recorder wrote (format auto-detected), and checks that it holds exactly the user events
 * of consumer_script.h, in order, with their info fields. Exit 0 if so, 1 otherwise.
 * Usage: consumer_host FILE */
#include <stdio.h>
#include <string.h>

#include <evtrace/reader.h>

#include "consumer_script.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    char err[256] = "";
    evt_reader *r = NULL;
    if (evt_reader_open_file(argv[1], NULL, NULL, NULL, NULL, &r, err, sizeof err) != EVT_OK) {
        fprintf(stderr, "consumer_host: %s\n", err);
        return 1;
    }
    evt_event ev;
    evt_status st;
    unsigned users = 0, total = 0, bad = 0;
    while ((st = evt_reader_next(r, &ev)) == EVT_OK) {
        total++;
        if (ev.kind != EVT_KIND_USER) continue;
        uint32_t i = users++;
        if (ev.id != CONSUMER_EVENT_ID0 + i || ev.nargs < 3 || ev.args[0] != i ||
            ev.args[1] != (uint64_t)i * i || ev.args[2] != CONSUMER_MAGIC) {
            fprintf(stderr, "consumer_host: user event %u: id %u args %llu %llu %llu, expected id %u\n",
                    i, (unsigned)ev.id, (unsigned long long)ev.args[0],
                    (unsigned long long)ev.args[1], (unsigned long long)ev.args[2],
                    CONSUMER_EVENT_ID0 + i);
            bad++;
        }
    }
    const char *fmt = r->desc->name;
    if (st != EVT_END) {
        fprintf(stderr, "consumer_host: %s\n", r->fail_msg);
        bad++;
    }
    if (strcmp(fmt, "threadx") != 0) {
        fprintf(stderr, "consumer_host: format %s, expected threadx\n", fmt);
        bad++;
    }
    if (users != CONSUMER_EVENTS || r->errors != 0) {
        fprintf(stderr, "consumer_host: %u user events and %llu errors, expected %u and 0\n", users,
                (unsigned long long)r->errors, CONSUMER_EVENTS);
        bad++;
    }
    evt_reader_close(r);
    printf("consumer_host: %s: %s, %u events, %u user events as recorded\n", argv[1], fmt, total, users);
    return bad ? 1 : 0;
}
