/* A FreeRTOS application's side of the integration, built in a parent project that links
 * evtrace_freertos from add_subdirectory(evtrace) (tests/install/consumer_subdir): starts a snapshot
 * recording (docs/freertos.md step 3), records CONSUMER_EVENTS application events, stops, and
 * writes the buffer to the file named on the command line. No FreeRTOS kernel is needed for this.
 * Usage: consumer_freertos OUT.trx */
#include <stdint.h>
#include <stdio.h>

#include "evtrace/freertos.h"

#include "consumer_script.h"

static uint8_t trace_buf[16u * 1024u];

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.trx\n", argv[0]);
        return 2;
    }
    if (evt_freertos_start_snapshot(trace_buf, sizeof trace_buf, 8) != 0) {
        fprintf(stderr, "consumer_freertos: evt_freertos_start_snapshot failed\n");
        return 1;
    }
    for (uint32_t i = 0; i < CONSUMER_EVENTS; i++)
        evt_freertos_user(i, i, i * i, CONSUMER_MAGIC, 0);
    if (evt_freertos_start_snapshot(trace_buf, sizeof trace_buf, 8) != -1) { /* one recording at a time */
        fprintf(stderr, "consumer_freertos: a second start while recording did not fail\n");
        return 1;
    }
    evt_freertos_stop();

    FILE *f = fopen(argv[1], "wb");
    if (!f || fwrite(trace_buf, 1, sizeof trace_buf, f) != sizeof trace_buf || fclose(f) != 0) {
        fprintf(stderr, "consumer_freertos: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("consumer_freertos: wrote %u user events to %s\n", CONSUMER_EVENTS, argv[1]);
    return 0;
}
